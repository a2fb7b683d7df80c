#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Statistics while a run goes on (doc/live-statistics.md).

--status-interval: every report of the run so far is a whole document in
each selected format (each JSON document parses alone), the counts never go
down, and the last document is the final report (exact counts: null engine,
size-based, so the totals are known); fio's fio_jsonplus_clat2csv reads each
json+ report. SIGUSR1 prints one more.

--interval-json: the NDJSON stream. For every job, its lines from its last
"restart" sum to its final report's totals exactly (ios, bytes, latency
samples), its bins merged give the final report's percentiles, the lines'
times are on the interval grid; a group_reporting group's lines are the sums
of its jobs' lines of the same interval. Across engines (null, psync,
io_uring and libaio when they work here) and modes: size-based and
time_based with ramp_time, rate limits, two groups with stonewall.

Bad input: --interval-json=- when stdout carries the report, --interval
below its minimum."""
import csv
import json
import re
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DIRS = ('read', 'write', 'trim')
NULL_RATE = ('--ioengine=null', '--bs=4k', '--rate_iops=2000')


def docs(text):
    """Every JSON document in text, in order (whitespace between them)."""
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        obj, i = dec.raw_decode(text, i)
        out.append(obj)


def ios_of(doc):
    return [tuple(j[d]['total_ios'] for d in DIRS) for j in doc['jobs']]


def test_status_json(t):
    """2048 reads at 2000 IOPS (about a second), a report every 250 ms."""
    r = t.run('--name=a', *NULL_RATE, '--size=8m', '--status-interval=250ms',
              '--output-format=json')
    if not t.ok(r, 'status-interval json'):
        return
    try:
        ds = docs(r.out)
    except ValueError as e:
        t.check(False, 'status-interval json: every document parses (%s)' % e, r)
        return
    t.check(len(ds) >= 2, 'status-interval json: reports while it ran (%d)' % len(ds), r)
    seen = [ios_of(d)[0][0] for d in ds]
    t.eq(seen, sorted(seen), 'status-interval json: read counts never go down')
    t.eq(ds[-1]['jobs'][0]['read']['total_ios'], 2048, 'last document: the final count')
    t.eq(ds[-1]['jobs'][0]['read']['io_bytes'], 8 << 20, 'last document: the final bytes')
    t.check(all(d.keys() == ds[-1].keys() or 'fio version' in d for d in ds),
            'status-interval json: each document is a whole report')
    t.check(all(d['jobs'][0]['read']['total_ios'] < 2048 for d in ds[:-1][:1]),
            'status-interval json: the first report is of the run so far')


def test_status_normal(t):
    r = t.run('--name=a', *NULL_RATE, '--size=8m', '--status-interval=250ms')
    if not t.ok(r, 'status-interval normal'):
        return
    blocks = r.out.split('Run status group 0 (all jobs):')
    t.check(len(blocks) >= 3, 'status-interval normal: reports while it ran (%d)'
            % (len(blocks) - 1), r)
    t.eq(r.out.count('a: (g=0): rw=read'), 1, 'status-interval normal: one header')
    t.check('io=8192KiB' in blocks[-1], 'status-interval normal: the last is the final', r)


def test_status_terse(t):
    r = t.run('--name=a', *NULL_RATE, '--size=8m', '--status-interval=250ms',
              '--output-format=terse')
    if not t.ok(r, 'status-interval terse'):
        return
    lines = r.out.strip().split('\n')
    t.check(len(lines) >= 2, 'status-interval terse: one line per report (%d)' % len(lines), r)
    t.eq(lines[-1].split(';')[5], '8192', 'status-interval terse: the last is the final (KiB)')


def test_clat2csv(t):
    """fio's fio_jsonplus_clat2csv reads each json+ status report: its
    read clat column counts the document's clat samples."""
    tool = shutil.which('fio_jsonplus_clat2csv')
    if not tool:
        t.skip('fio_jsonplus_clat2csv is not installed')
        return
    r = t.run('--name=a', *NULL_RATE, '--size=4m', '--status-interval=250ms',
              '--output-format=json+')
    if not t.ok(r, 'status-interval json+'):
        return
    for i, d in enumerate(docs(r.out)):
        src, dst = t.path('doc%d.json' % i), t.path('doc%d.csv' % i)
        with open(src, 'w') as f:
            json.dump(d, f)
        p = subprocess.run([tool, src, dst], capture_output=True, text=True, timeout=60)
        out = t.path('doc%d_job0.csv' % i)
        if not t.check(p.returncode == 0 and os.path.exists(out),
                       'clat2csv reads report %d' % i, p.stderr):
            continue
        with open(out) as f:
            rows = list(csv.reader(f, skipinitialspace=True))
        col = rows[0].index('read_clat_ns_count')
        got = sum(int(x[col]) for x in rows[1:] if len(x) > col and x[col])
        t.eq(got, d['jobs'][0]['read']['clat_ns']['N'], 'clat2csv report %d: clat samples' % i)


def test_status_whole(t):
    """A running job's numbers in a status report are one moment's: the
    null engine unpaced changes them every few hundred ns, and a report
    read while the job wrote them had a clat histogram one I/O ahead of
    its count (seen in CI). Each job (processes and threads) answers the
    report with its own copy: in every document, clat samples == the
    histogram's sum == total_ios, io_bytes == total_ios * 4096. A paced job
    asleep between I/Os past the report's wait is read in place: whole
    too."""
    runs = (('status copies', ()), ('status copies (threads)', ('--thread',)),
            # asleep between I/Os up to 250 ms: answers, or is read in place
            ('status copies (4 IOPS)', ('--rate_iops=4',)))
    for what, mode in runs:
        r = t.run('--name=a', '--ioengine=null', '--bs=4k', '--size=1g', '--numjobs=2',
                  '--time_based', '--runtime=1', '--status-interval=100ms',
                  '--output-format=json+', *mode)
        if not t.ok(r, what):
            continue
        ds = docs(r.out)
        rows = [(j['read']['total_ios'], j['read']['io_bytes'], j['read']['clat_ns']['N'],
                 sum(j['read']['clat_ns'].get('bins', {}).values()))
                for d in ds[:-1] for j in d['jobs']]
        t.check(any(x[0] for x in rows), '%s: reports while it ran (%d)' % (what, len(rows)), r)
        torn = [x for x in rows if not x[0] == x[2] == x[3] or x[1] != 4096 * x[0]]
        t.eq(torn, [], '%s: every running job whole (ios, bytes, clat N, bins)' % what)


def test_line_inline(t):
    """The status line's rates for a job whose I/Os complete inside the
    submitting call (the null engine at iodepth 1): its live counters are
    published as it runs (the build before published them only after a
    reap, which such a job never makes: the line had no rates)."""
    r = t.run('--name=a', '--ioengine=null', '--bs=4k', '--size=1g', '--time_based',
              '--runtime=3', '--eta=always', '--eta-newline=1', '--output-format=terse')
    if not t.ok(r, 'status line, inline completions'):
        return
    lines = [x for x in (r.err + r.out).replace('\r', '\n').split('\n') if x.startswith('Jobs: 1 ')]
    t.check(any('[r=' in x and ' IOPS]' in x for x in lines),
            'status line, inline completions: read rates while it ran', lines)


def test_line_progress(t):
    """A job sized by its file (no size=): the status line's progress
    comes from the bytes the job will do (the build before showed 100.0%
    and eta 00m:00s from the start). Paced to 4 s, lines every second."""
    f = t.shm_file('progress', size=64 * ibtest.MiB)
    r = t.run('--name=p', '--filename=' + f, '--rw=read', '--bs=4k',
              '--ioengine=psync', '--direct=0', '--rate=16m', '--eta=always',
              '--eta-newline=1', '--output-format=terse')
    if not t.ok(r, 'status line, file-sized job'):
        return
    pcts = [float(m) for m in re.findall(r'\]\[([0-9.]+)%\]',
                                         (r.err + r.out).replace('\r', '\n'))]
    t.check(any(0 < p < 100 for p in pcts),
            'status line, file-sized job: a progress between 0 and 100%', pcts)


def test_usr1(t):
    """SIGUSR1 while a 3 s job runs: one report of the run so far more."""
    stream = t.path('usr1.ndjson')
    argv = t.argv('--name=a', *NULL_RATE, '--size=1g', '--time_based', '--runtime=3',
                  '--output-format=json', '--interval=250ms', '--interval-json=' + stream)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=t.dir)
    deadline = time.time() + t.scaled(20)
    while time.time() < deadline and p.poll() is None:
        if os.path.exists(stream) and os.path.getsize(stream):
            break   # the runner is in its wait loop: a line was written
        time.sleep(0.05)
    late = True
    if p.poll() is None:
        p.send_signal(signal.SIGUSR1)
        with open(stream) as f:     # a starved test: the run may be over
            late = '"final":true' in f.read()
    out, err = p.communicate(timeout=t.scaled(60))
    t.eq(p.returncode, 0, 'SIGUSR1: the run goes on and ends well', err)
    ds = docs(out)
    if late and len(ds) == 1:
        t.skip('SIGUSR1: the run had ended when the signal was sent')
        return
    t.eq(len(ds), 2, 'SIGUSR1: one report of the run so far, then the final')
    if len(ds) == 2:
        t.check(ds[0]['jobs'][0]['read']['total_ios'] <= ds[1]['jobs'][0]['read']['total_ios'],
                'SIGUSR1: its count is at most the final one')


def lines_of(t, path, what):
    try:
        with open(path) as f:
            return [json.loads(x) for x in f if x.strip()]
    except (OSError, ValueError) as e:
        t.check(False, '%s: every stream line parses (%s)' % (what, e))
        return []


def fio_pct(bins, pcts):
    """fio's percentiles of a histogram given as {value: count}."""
    items = sorted((int(k), v) for k, v in bins.items())
    n = sum(v for _, v in items)
    out, run, j = [], 0, 0
    for val, c in items:
        run += c
        while j < len(pcts) and run >= pcts[j] / 100.0 * n:
            out.append(val)
            j += 1
    return out


def since_restart(ls):
    last = max([i for i, x in enumerate(ls) if x['restart']] or [0])
    return ls[last:]


def check_job(t, what, final_job, ls, ival_ms):
    ls = since_restart(ls)
    t.check(ls and ls[-1]['final'], '%s: the last line is final' % what)
    t.check(all(x['time_ms'] % ival_ms == 0 for x in ls[:-1]),
            '%s: lines on the %d ms grid' % (what, ival_ms))
    times = [x['time_ms'] for x in ls]
    t.eq(times, sorted(set(times)), '%s: one line per interval, in order' % what)
    for d in DIRS:
        fin = final_job[d]
        if not fin['total_ios'] and not any(d in x for x in ls):
            continue
        got = [x[d] for x in ls if d in x]
        t.eq((sum(g['ios'] for g in got), sum(g['bytes'] for g in got)),
             (fin['total_ios'], fin['io_bytes']), '%s %s: sums = totals' % (what, d))
        lat = [g['lat_ns'] for g in got if 'lat_ns' in g]
        if not lat:
            continue
        fl = fin[lat[0]['kind'] + '_ns']    # clat_ns, or lat_ns (lat_percentiles)
        t.eq(sum(x['n'] for x in lat), fl['N'], '%s %s: samples' % (what, d))
        merged = {}
        for x in lat:
            for k, v in x['bins'].items():
                merged[k] = merged.get(k, 0) + v
        keys = list(fl.get('percentile', {}).keys())
        want = [fl['percentile'][k] for k in keys]
        t.eq(fio_pct(merged, [float(k) for k in keys]), want,
             '%s %s: merged percentiles = final' % (what, d))
        t.eq(min(x['min'] for x in lat if x['n']), fl['min'],
             '%s %s: smallest interval min = final min' % (what, d))
        t.eq(max(x['max'] for x in lat if x['n']), fl['max'],
             '%s %s: largest interval max = final max' % (what, d))


def check_groups(t, what, ls):
    by = {}
    for x in ls:
        by.setdefault((x['time_ms'], x['groupid']), []).append(x)
    for (tm, g), xs in by.items():
        grp = [x for x in xs if x['type'] == 'group']
        if not grp:
            continue
        jobs = [x for x in xs if x['type'] == 'job']
        for d in DIRS:
            if d not in grp[0]:
                continue
            t.eq(grp[0][d]['ios'], sum(j[d]['ios'] for j in jobs if d in j),
                 '%s: group %d at %d ms: %s = its jobs\' sum' % (what, g, tm, d))


def stream_case(t, what, args, ival_ms=250):
    path = t.path('s.ndjson')
    if os.path.exists(path):
        os.unlink(path)
    r = t.run(*args, '--interval=%dms' % ival_ms, '--interval-json=' + path,
              '--output-format=json')
    if not t.ok(r, what):
        return
    final = json.loads(r.out)
    ls = lines_of(t, path, what)
    grouped = '--group_reporting' in args
    for i, j in enumerate(final['jobs']):
        if grouped:     # the report's entry is the group's: its lines
            mine = [x for x in ls if x['type'] == 'group' and x['groupid'] == j['groupid']]
        else:
            mine = [x for x in ls if x['type'] == 'job' and x['job'] == i + 1]
        check_job(t, '%s %s %d' % (what, 'group' if grouped else 'job', i + 1), j,
                  mine, ival_ms)
    check_groups(t, what, ls)
    return ls


def test_streams(t):
    f = t.shm_file('f', size=8 << 20)
    stream_case(t, 'null randrw rated, 2 jobs grouped',
                ('--name=a', *NULL_RATE, '--rw=randrw', '--size=4m', '--numjobs=2',
                 '--group_reporting', '--percentile_list=50:90:99:99.9'))
    stream_case(t, 'null time_based ramp',
                ('--name=a', '--ioengine=null', '--bs=4k', '--rate_iops=3000',
                 '--size=1g', '--time_based', '--runtime=1', '--ramp_time=500ms'))
    stream_case(t, 'psync two groups stonewall',
                ('--filename=' + f, '--ioengine=psync', '--bs=4k', '--size=2m',
                 '--rate_iops=4000', '--name=w', '--rw=write',
                 '--name=r', '--rw=randread', '--stonewall'))
    for eng in ('io_uring', 'libaio'):
        probe = t.run('--name=p', '--filename=' + f, '--ioengine=' + eng,
                      '--size=64k', '--output-format=json')
        if probe.rc != 0:
            t.skip('%s: not usable here' % eng)
            continue
        stream_case(t, eng + ' iodepth 4 rated',
                    ('--name=a', '--filename=' + f, '--ioengine=' + eng, '--iodepth=4',
                     '--bs=4k', '--rw=randread', '--size=4m', '--rate_iops=5000',
                     '--lat_percentiles=1'))


def test_rate_exact(t):
    """A null job at 2000 IOPS, size-based 1 s: each full interval of
    250 ms holds about 500 I/Os, and every line's numbers add up."""
    ls = stream_case(t, 'null rated intervals',
                     ('--name=a', *NULL_RATE, '--size=4m'))
    if not ls:
        return
    for x in ls:
        t.eq(x['read']['bytes'], 4096 * x['read']['ios'], 'line at %d ms: bytes = 4k x ios'
             % x['time_ms'])


def test_plot(t):
    """iobench plot draws a stream: IOPS and p99 per interval, a line per job."""
    path = t.path('p.ndjson')
    r = t.run('--ioengine=null', '--bs=4k', '--size=2m', '--rate_iops=2000',
              '--interval=250ms', '--interval-json=' + path, '--output-format=json',
              '--name=a', '--name=b', '--rw=write')
    if not t.ok(r, 'plot: the run'):
        return
    svg, html = t.path('p.svg'), t.path('p.html')
    r = t.run('plot', '-o', svg, path)
    if t.ok(r, 'plot -o p.svg STREAM'):
        with open(svg) as f:
            s = f.read()
        t.check('IOPS per interval' in s and '>a.1<' in s and '>b.2<' in s,
                'plot: the IOPS chart, a line per job', s[:400])
    r = t.run('plot', '-o', html, path)
    if t.ok(r, 'plot -o p.html STREAM'):
        with open(html) as f:
            s = f.read()
        t.check('IOPS per interval' in s and 'p99 latency per interval' in s,
                'plot: IOPS and p99 charts in the page')


def test_bad_input(t):
    r = t.run('--name=a', '--ioengine=null', '--size=1m', '--interval-json=-')
    t.fails(r, '--interval-json=- with the report on stdout')
    t.check('--interval-json' in r.err and 'stdout' in r.err,
            '--interval-json=-: names the option and the conflict', r)
    r = t.run('--name=a', '--ioengine=null', '--size=1m', '--interval=10ms',
              '--interval-json=x')
    t.fails(r, '--interval=10ms')
    t.check('--interval' in r.err and 'minimum' in r.err, '--interval: names the minimum', r)
    t.check(not os.path.exists(t.path('x')), '--interval=10ms: no stream file written')
    r = t.run('--name=a', '--ioengine=null', '--size=1m', '--status-interval=0')
    t.fails(r, '--status-interval=0')


def test_stream_stdout(t):
    out = t.path('rep.json')
    r = t.run('--name=a', *NULL_RATE, '--size=2m', '--interval=250ms',
              '--interval-json=-', '--output-format=json', '--output=' + out)
    if not t.ok(r, '--interval-json=- with --output'):
        return
    ls = [json.loads(x) for x in r.out.split('\n') if x.strip()]
    t.eq(sum(x['read']['ios'] for x in ls), 512, '--interval-json=-: the lines on stdout')


def main():
    t = ibtest.Test()
    test_status_json(t)
    test_status_normal(t)
    test_status_terse(t)
    test_clat2csv(t)
    test_status_whole(t)
    test_line_inline(t)
    test_line_progress(t)
    test_usr1(t)
    test_streams(t)
    test_rate_exact(t)
    test_stream_stdout(t)
    test_plot(t)
    test_bad_input(t)
    t.finish()


if __name__ == '__main__':
    main()
