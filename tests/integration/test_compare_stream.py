#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench compare on per-interval streams (--interval-json): two runs of
the null engine with rates (a reader at 2000 IOPS, then 1000; a writer at
500 both times; a group_reporting group of two readers at 300 each, 2 s,
intervals of 500 ms), each writing a stream and its JSON report.

Asserted exactly, from the files themselves: each slot's stream sums equal
its report's totals; the table's IOPS of a stream side are its summed I/Os
over its summed spans; the over-time lines (intervals, IOPS median, min,
max, p99 median and worst from each line's bins, the count of the new
side's intervals outside the base's range and their times); the group's
row named as its first job. A report and the stream of the same run have
the same percentiles (the merged bins are the final histogram). The gate
fires on the reader (exit 2), passes a stream against itself. A malformed
line is one stderr line naming the file and line, exit 1, no chart
written. --plot=FILE.html has the over-time table.
Usage: test_compare_stream.py IOBENCH
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

BASE = ('--ioengine=null', '--bs=4k', '--size=1g', '--time_based', '--runtime=2',
        '--interval=500ms')
DIRS = ('read', 'write', 'trim')
UNIT = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9}


def jobs(a_rate):
    return ('--name=a', '--rate_iops=%d' % a_rate,
            '--name=w', '--rw=write', '--rate_iops=500',
            '--name=g', '--new_group', '--numjobs=2', '--group_reporting',
            '--rate_iops=300')


def p99(bins, n):
    """The first bucket whose running total reaches 99% of n (fio's way)."""
    run = 0
    for v in sorted(bins, key=int):
        run += bins[v]
        if run >= 0.99 * n:
            return int(v)
    return None


def slots(path):
    """The stream's slots, as compare reads them: {name: {dir: facts}}."""
    ent, order = {}, []
    for line in open(path):
        o = json.loads(line)
        key = (o['type'], o['groupid'] if o['type'] == 'group' else o['job'])
        if key not in ent:
            ent[key] = {'o': o, 'dirs': {}}
            order.append(key)
        for d in DIRS:
            if d not in o:
                continue
            x = ent[key]['dirs'].setdefault(d, {'ios': 0, 'span': 0.0, 'iv': []})
            x['ios'] += o[d]['ios']
            x['span'] += o['span_ms']
            if o['span_ms'] >= 100:
                lat = o[d]['lat_ns']
                x['iv'].append((o['time_ms'], o[d]['ios'] / (o['span_ms'] / 1000),
                                p99(lat['bins'], lat['n']) if lat['n'] else None))
    groups = {k[1] for k in order if k[0] == 'group'}
    out = {}
    for k in order:
        o = ent[k]['o']
        if k[0] == 'job' and o['groupid'] in groups:
            continue
        if k[0] == 'group':
            first = min(j for j in order if j[0] == 'job'
                        and ent[j]['o']['groupid'] == k[1])
            name = ent[first]['o']['jobname']
        else:
            name = o['jobname']
        out[name] = ent[k]['dirs']
    return out


def fmt_iops(v):
    return '%.0f' % v if v >= 99.5 else '%.3g' % v


def ns(text):
    m = re.match(r'([\d.]+)(ns|us|ms|s)$', text)
    return float(m.group(1)) * UNIT[m.group(2)]


def med(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def blocks(text):
    """{(job, dir): [lines]} of compare's table."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"job '(.*)' (read|write|trim) \(runs", line)
        if m:
            cur = out.setdefault((m.group(1), m.group(2)), [])
        elif not line.strip():
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def field(lines, first):
    for line in lines:
        f = line.split()
        if f and f[0] == first:
            return f
    return None


def check_side(t, f, iv, what):
    """An over-time line: count, iops med/min/max, p99 med/worst."""
    iops = [x[1] for x in iv]
    lat = [x[2] for x in iv if x[2] is not None]
    t.eq(f[1:5], [str(len(iv)), fmt_iops(med(iops)), fmt_iops(min(iops)),
                  fmt_iops(max(iops))], what + ': intervals, iops med/min/max')
    for got, want, name in ((f[5], med(lat), 'median'), (f[6], max(lat), 'worst')):
        # printed to 3 significant digits
        t.check(abs(ns(got) - want) <= 0.005 * want + 1e-9,
                '%s: p99 %s %s is %g ns' % (what, name, got, want))


def check_row(t, lines, b, n, what):
    bi = [x for x in b['iv']]
    ni = [x for x in n['iv']]
    f = field(lines, 'iops')
    t.eq(f[1], fmt_iops(b['ios'] / (b['span'] / 1000)), what + ': base iops, summed')
    t.eq(f[3], fmt_iops(n['ios'] / (n['span'] / 1000)), what + ': new iops, summed')
    check_side(t, field(lines, 'base'), bi, what + ' base')
    check_side(t, field(lines, 'new'), ni, what + ' new')
    lo, hi = min(x[1] for x in bi), max(x[1] for x in bi)
    plo = min(x[2] for x in bi if x[2] is not None)
    phi = max(x[2] for x in bi if x[2] is not None)
    oi = [x[1] < lo or x[1] > hi for x in ni]
    op = [x[2] is not None and (x[2] < plo or x[2] > phi) for x in ni]
    at = ['%gs' % (x[0] / 1000) for x, a, p in zip(ni, oi, op) if a or p][:8]
    want = "new outside base's range: iops %d of %d, p99 %d of %d" % (
        sum(oi), len(ni), sum(op), sum(1 for x in ni if x[2] is not None))
    if at:
        want += '; at ' + ' '.join(at)
    if sum(1 for a, p in zip(oi, op) if a or p) > 8:
        want += ' ...'
    got = [ln.strip() for ln in lines if 'outside' in ln]
    t.eq(got, [want], what + ': intervals outside the base range')


def run(t, tag, a_rate):
    r = t.run(*BASE, *jobs(a_rate), '--interval-json=' + t.path(tag + '.ndjson'),
              '--output-format=json', '--output=' + t.path(tag + '.json'))
    t.ok(r, 'run ' + tag)
    rep = t.load_json(t.path(tag + '.json'))
    s = slots(t.path(tag + '.ndjson'))
    for j in rep.get('jobs', []):
        for d in ('read', 'write'):
            if j[d]['total_ios']:
                t.eq(s[j['jobname']][d]['ios'], j[d]['total_ios'],
                     '%s %s %s: stream sum = report total' % (tag, j['jobname'], d))
    return s


def check_table(t, sb, sn):
    r = t.run('compare', t.path('b.ndjson'), t.path('n.ndjson'), '--fail-if=iops<-5%')
    t.eq(r.rc, 2, 'compare streams: the gate fires (exit 2)', r)
    bl = blocks(r.out)
    t.eq(sorted(bl), [('a', 'read'), ('g', 'read'), ('w', 'write')],
         'compare streams: a row per job and the group (named as its first job)')
    for job, d in sorted(bl):
        check_row(t, bl[(job, d)], sb[job][d], sn[job][d], 'compare %s %s' % (job, d))
    gate = [ln for ln in r.out.splitlines() if ln.startswith('gate:')]
    t.eq([ln.split(':')[1] for ln in gate if 'iops' in ln], [" job 'a' read"],
         'compare streams: the gate fires on the reader only', r)
    t.eq(gate[-1:], ['gate: FAILED (1)'], 'compare streams: gate FAILED', r)


def check_same_run(t):
    r = t.run('compare', t.path('b.json'), t.path('b.ndjson'), '--fail-if=p99>+10%')
    t.eq(r.rc, 0, 'report vs its stream: the gate passes', r)
    bl = blocks(r.out)
    for key, lines in sorted(bl.items()):
        for m in ('p50', 'p90', 'p99', 'p99.9'):
            f = field(lines, m)
            t.eq((f[1], f[5]), (f[3], '+0.0%'),
                 '%s %s: the stream\'s %s is the report\'s' % (key[0], key[1], m))
        t.eq(field(lines, 'base')[1:], ['(a', 'report:', 'no', 'intervals)'],
             '%s: a report has no intervals' % key[0])


def check_errors(t):
    lines = open(t.path('b.ndjson')).read().splitlines(True)
    lines[2] = lines[2][:len(lines[2]) // 2] + '\n'
    bad = t.path('bad.ndjson')
    with open(bad, 'w') as f:
        f.writelines(lines)
    out = t.path('bad.html')
    r = t.run('compare', t.path('b.ndjson'), bad, '--plot=' + out)
    t.eq(r.rc, 1, 'malformed line: exit 1', r)
    err = r.err.strip().splitlines()
    t.eq(len(err), 1, 'malformed line: one stderr line', r)
    t.check(err[:1] and err[0].startswith('iobench: compare: %s:3: ' % bad),
            'malformed line: names the file and line 3', r)
    t.check(not os.path.exists(out), 'malformed line: no chart written')


def main():
    t = ibtest.Test()
    sb = run(t, 'b', 2000)
    sn = run(t, 'n', 1000)
    if t.failed:
        t.finish()
    check_table(t, sb, sn)
    r = t.run('compare', t.path('b.ndjson'), t.path('b.ndjson'), '--fail-if=iops<-5%')
    t.eq(r.rc, 0, 'a stream against itself: the gate passes', r)
    check_same_run(t)
    check_errors(t)
    page = t.path('c.html')
    r = t.run('compare', t.path('b.ndjson'), t.path('n.ndjson'), '--plot=' + page)
    t.ok(r, 'compare --plot=FILE.html')
    html = open(page).read() if os.path.exists(page) else ''
    t.check('Over time: the intervals of the streams' in html, 'the page has the over-time table')
    t.finish()


if __name__ == '__main__':
    main()
