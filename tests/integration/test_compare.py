#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench compare on real runs (tmpfs): the same job run alternately three
times a side is within noise everywhere and passes a gate; the same job
slowed (its report made 4 times slower; iodepth 16 -> 1 and 50 IOPS on a
loop device) is flagged slower with the right sign and fails
the gate (exit 2), and faster the other way round; fio 3.33's json and json+ of a job compare
cleanly with iobench's JSON of the same job; jobs on one side only are
reported (exit 1 when nothing is in common, the gate fails on a job missing
on the new side); the table's numbers are the files'; --repeat=N writes
every run and they compare; bad arguments exit 1;
--plot draws valid SVG / HTML. Usage: test_compare.py IOBENCH
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

METRICS = ['iops', 'bw', 'mean', 'p50', 'p90', 'p99', 'p99.9']
GATE = 'p99>+10%,iops<-5%'
# one run a side: the test works on the per-interval samples, ten a second
FINE = ('--bwavgtime=100', '--iopsavgtime=100')
SVG = '{http://www.w3.org/2000/svg}'


def parse(text):
    """{(job, dir): {metric: (base, new, change, noise, verdict)}},
    [(job, dir, side)] of the rows on one side, the summary line, notes."""
    rows, only, notes, cur, summary = {}, [], [], None, None
    for line in text.splitlines():
        m = re.match(r"job '(.*)' (read|write|trim)(: only in (base|new)|"
                     r" \(runs: (\d+) base, (\d+) new\))", line)
        if m:
            if m.group(4):
                only.append((m.group(1), m.group(2), m.group(4)))
                cur = None
            else:
                cur = rows.setdefault((m.group(1), m.group(2)), {})
            continue
        if line.startswith('  note:'):
            notes.append(line)
        if line.startswith('summary:'):
            summary = line
        f = line.split()
        if cur is not None and len(f) >= 8 and f[0] in METRICS:
            cur[f[0]] = (f[1], f[3], f[5], f[6], ' '.join(f[7:]))
    return rows, only, summary, notes


def job(t, name, out, extra=(), rw='randread', bs='4k', secs=2, fmt='json'):
    f = t.shm_file('data', 16 << 20) if not os.path.exists(t.path('data')) \
        else t.path('data')
    r = t.run('--name=' + name, '--filename=' + f, '--size=16m', '--rw=' + rw,
              '--bs=' + bs, '--runtime=%d' % secs, '--time_based',
              '--ioengine=psync', *extra, '--output-format=' + fmt,
              '--output=' + t.path(out))
    t.ok(r, 'run %s' % out)
    return t.path(out)


def iops_of(path, ddir):
    with open(path) as f:
        return json.load(f)['jobs'][0][ddir]['iops']


def same_job(t):
    """Three runs of one job against the same three results, copied under
    other names and given in another order: no change, within noise
    everywhere, the gate passes. (Two sets of real runs of the same job
    are not within noise on a machine whose load changes between them:
    that is a fact about the machine, not about compare.) Then three
    other real runs (b), whose medians and one-run change compare prints
    as the files have them."""
    a, b, same = [], [], []
    for i in range(3):
        a.append(job(t, 'j', 'a%d.json' % i))
        b.append(job(t, 'j', 'b%d.json' % i))
    for i in (2, 0, 1):
        with open(a[i]) as src, open(t.path('same%d.json' % i), 'w') as dst:
            dst.write(src.read())
        same.append(t.path('same%d.json' % i))
    r = t.run('compare', '--fail-if', GATE, '--base', *a, '--new', *same)
    t.eq(r.rc, 0, 'same results, 3 runs a side: gate passes', r)
    rows, only, summary, notes = parse(r.out)
    t.eq(list(rows), [('j', 'read')], 'one row: j read')
    t.eq(list(rows[('j', 'read')]), METRICS, 'every metric')
    t.eq({m: (v[2], v[4]) for m, v in rows[('j', 'read')].items()},
         {m: ('+0.0%', 'within noise') for m in METRICS},
         'same results: no change, within noise everywhere', r)
    t.eq(summary, 'summary: 1 compared, 0 faster, 0 slower, 7 within noise',
         'summary line')
    t.check('(runs: 3 base, 3 new)' in r.out, 'runs counted')
    t.eq(r.out.splitlines()[-1], 'gate: passed', 'gate: passed')
    t.eq([(only, notes)], [([], [])], 'nothing on one side only, no note')
    t.eq([len(x) for x in r.out.splitlines() if len(x) > 80 and
          not x.startswith(('base:', 'new:'))], [], '80 columns (but file names)')
    r = t.run('compare', '--base', *a, '--new', *b)
    t.check(r.rc == 0, 'real runs, 3 a side, no gate: exit 0', r)
    rows = parse(r.out)[0]
    # the medians printed are the files' (3 significant digits)
    med_a = sorted(iops_of(p, 'read') for p in a)[1]
    med_b = sorted(iops_of(p, 'read') for p in b)[1]
    got = rows[('j', 'read')]['iops']
    t.check(abs(num(got[0]) - med_a) <= 0.006 * med_a, 'base median %s ~ %g' % (got[0], med_a))
    t.check(abs(num(got[1]) - med_b) <= 0.006 * med_b, 'new median %s ~ %g' % (got[1], med_b))
    # one run a side: the change is the files' to 0.1%
    r = t.run('compare', a[0], b[0])
    t.eq(r.rc, 0, 'one run a side: exit 0 (no gate)', r)
    rows = parse(r.out)[0]
    want = (iops_of(b[0], 'read') / iops_of(a[0], 'read') - 1) * 100
    got = float(rows[('j', 'read')]['iops'][2].rstrip('%'))
    t.check(abs(got - want) <= 0.051, 'iops change %.2f%% = the files\' %.2f%%' % (got, want))
    t.check(rows[('j', 'read')]['iops'][3].startswith('+-'), 'a noise band from the samples')
    return a[0]


def num(s):
    mult = {'k': 1e3, 'M': 1e6, 'G': 1e9}
    return float(s[:-1]) * mult[s[-1]] if s[-1] in mult else float(s)


LAT_KEYS = ('slat_ns', 'clat_ns', 'lat_ns')
RATE_KEYS = ('iops', 'bw', 'bw_bytes', 'io_bytes', 'io_kbytes', 'total_ios',
             'bw_min', 'bw_max', 'bw_mean', 'bw_dev', 'iops_min', 'iops_max',
             'iops_mean', 'iops_stddev')


def _same_type(old, new):
    return int(round(new)) if isinstance(old, int) else new


def slowed_copy(src, dst, k):
    """dst: the report src with its jobs' writes k times slower (rates and
    their samples / k, latencies, percentiles and bins x k), the exact
    slowdown compare must see, whatever the machine did during the run."""
    with open(src) as f:
        doc = json.load(f)
    for job in doc['jobs']:
        d = job['write']
        for key in RATE_KEYS:
            if isinstance(d.get(key), (int, float)):
                d[key] = _same_type(d[key], d[key] / k)
        for key in LAT_KEYS:
            lat = d.get(key)
            if not isinstance(lat, dict):
                continue
            for f in ('min', 'max', 'mean', 'stddev'):
                if isinstance(lat.get(f), (int, float)):
                    lat[f] = _same_type(lat[f], lat[f] * k)
            for p, v in (lat.get('percentile') or {}).items():
                lat['percentile'][p] = _same_type(v, v * k)
            if isinstance(lat.get('bins'), dict):
                lat['bins'] = {str(int(kk) * k): v for kk, v in lat['bins'].items()}
    with open(dst, 'w') as f:
        json.dump(doc, f)
    return dst


def slowed(t):
    """One real run and its copy made 4 times slower (slowed_copy): a
    slowdown of refill_buffers' size, stated by the files themselves (two
    real runs differ by what the machine's load did between them)."""
    fast = job(t, 'w', 'fast.json', FINE, rw='randwrite', bs='64k')
    slow = slowed_copy(fast, t.path('slow.json'), 4)
    r = t.run('compare', '--fail-if', GATE, fast, slow)
    t.eq(r.rc, 2, 'slowed: the gate fails (exit 2)', r)
    rows = parse(r.out)[0][('w', 'write')]
    for m in ('iops', 'bw'):
        t.eq(rows[m][2:], ('-75.0%', rows[m][3], 'slower'),
             'slowed: %s 4 times lower, slower' % m, r)
    t.eq((rows['mean'][2], rows['mean'][4]), ('+300.0%', 'slower'),
         'slowed: mean latency 4 times, slower', r)
    t.check(re.search(r"^gate: job 'w' write: iops -\d+\.\d% < -5% \(slower\)$",
                      r.out, re.M) is not None, 'gate line for iops', r)
    t.check(r.out.rstrip().endswith('gate: FAILED (%d)' % len(
        re.findall('^gate: job', r.out, re.M))), 'gate: FAILED (n)')
    r = t.run('compare', '--fail-if', 'iops<-5%', slow, fast)
    t.eq(r.rc, 0, 'sped up: the gate passes', r)
    rows = parse(r.out)[0][('w', 'write')]
    t.eq((rows['iops'][4], rows['iops'][2][0]), ('faster', '+'), 'sped up: iops faster, +')
    return fast, slow


def smaller_iodepth(t):
    """iodepth 16 -> 1 on a loop device (direct I/O, io_uring), the depth-1
    side also held to 50 IOPS (rate_iops): slower, and the note names the
    options that differ. (Depth 1 alone is not slower on a loaded machine
    whose loop device is CPU-bound: 977 against 864 IOPS seen; no machine
    that runs this test does under 50 at depth 16.)"""
    dev = t.loop_device(64 << 20)
    if dev is None:
        t.skip('no loop device: the iodepth case is not run')
        return
    out = {}
    for depth, extra in ((16, ()), (1, ('--rate_iops=50',))):
        out[depth] = t.path('qd%d.json' % depth)
        r = t.run('--name=q', '--filename=' + dev, '--rw=randread', '--bs=4k',
                  '--direct=1', '--ioengine=io_uring', '--iodepth=%d' % depth,
                  '--runtime=2', '--time_based', '--eta=never', *FINE, *extra,
                  '--output-format=json', '--output=' + out[depth])
        t.ok(r, 'iodepth=%d on %s' % (depth, dev))
    t.check(iops_of(out[1], 'read') <= 50 * 1.01 + 1,
            'rate_iops=50 holds depth 1 to 50 IOPS')
    r = t.run('compare', '--fail-if', GATE, out[16], out[1])
    t.eq(r.rc, 2, 'smaller iodepth: the gate fails', r)
    rows, only, summary, notes = parse(r.out)
    t.eq(notes, ['  note: the jobs differ: iodepth 16 vs 1, rate_iops (unset) vs 50'],
         'the note names iodepth and rate_iops', r)
    q = rows[('q', 'read')]
    t.eq((q['iops'][4], q['iops'][2][0]), ('slower', '-'), 'smaller iodepth: iops slower, -', r)
    t.release()


def check_svg(t, path, nbars):
    root = ET.parse(path).getroot()
    t.eq(root.tag, SVG + 'svg', '%s: an svg document' % path)
    series = [g for g in root.iter(SVG + 'g') if g.get('class') == 'series']
    t.eq([g.get('data-name') for g in series], ['base', 'new'], 'bars: base and new')
    t.eq([len([r for r in g if r.get('class') == 'bar']) for g in series],
         [nbars, nbars], 'one bar per row and side')
    axes = [g.get('class') for g in root.iter(SVG + 'g') if
            (g.get('class') or '').startswith('axis')]
    t.eq(sorted(axes), ['axis x', 'axis y'], 'two axes')


def plots(t, fast, slow):
    svg, page = t.path('cmp.svg'), t.path('cmp.html')
    r = t.run('compare', '--plot=' + svg, fast, slow)
    t.ok(r, 'compare --plot=svg')
    check_svg(t, svg, 1)
    r = t.run('compare', '--plot=' + page, fast, slow)
    t.ok(r, 'compare --plot=html')
    with open(page, encoding='utf-8') as f:
        text = f.read()
    t.eq(text.count('<svg'), 4, 'page: iops, bw, p99 bars and one CDF')
    t.check('<td>slower</td>' in text, 'page: the verdicts in the table')
    t.eq(re.findall(r'<script|<link|<img|url\(', text), [], 'page: self-contained')


def with_fio(t):
    """fio 3.33's json and json+ against iobench's JSON of the same job."""
    mine = job(t, 'f', 'mine.json', fmt='json+')
    f = t.path('data')
    for fmt in ('json', 'json+'):
        out = t.path('fio_%s.json' % fmt)
        r = t.fio('--name=f', '--filename=' + f, '--size=16m', '--rw=randread',
                  '--bs=4k', '--runtime=2', '--time_based', '--ioengine=psync',
                  '--output-format=' + fmt, '--output=' + out)
        if r is None:
            t.skip('no fio: fio versus iobench not compared')
            return
        t.ok(r, 'fio --output-format=%s' % fmt)
        r = t.run('compare', out, mine)
        t.eq(r.rc, 0, 'fio %s versus iobench: exit 0' % fmt, r)
        rows, only, summary, notes = parse(r.out)
        t.eq((list(rows), only, notes), ([('f', 'read')], [], []),
             'fio %s versus iobench: one row, same job options' % fmt, r)
        t.eq(list(rows[('f', 'read')]), METRICS, 'fio %s: every metric' % fmt)
        want = (iops_of(mine, 'read') / iops_of(out, 'read') - 1) * 100
        got = float(rows[('f', 'read')]['iops'][2].rstrip('%'))
        # shown to 0.1%, or to 1% from 1000% up (compare_text.c)
        tol = 0.051 if abs(want) < 999.95 else 0.51
        t.check(abs(got - want) <= tol, 'fio %s: iops change %.2f%% = %.2f%%' % (fmt, got, want))


def mismatched(t, a):
    other = job(t, 'other', 'other.json', secs=1)
    r = t.run('compare', a, other)
    t.eq(r.rc, 1, 'different jobs: exit 1', r)
    t.check('ran different jobs' in r.err, 'different jobs: said on stderr', r)
    rows, only, summary, _ = parse(r.out)
    t.eq((rows, only), ({}, [('j', 'read', 'base'), ('other', 'read', 'new')]),
         'different jobs: both listed, none compared', r)
    t.check(summary.endswith('; 2 on one side only (different jobs)'), 'summary says so')
    # two jobs against one of them: compared, the other reported
    two = t.path('two.json')
    f = t.path('data')
    r = t.run('--name=j', '--filename=' + f, '--size=16m', '--rw=randread',
              '--runtime=1', '--time_based', '--ioengine=psync',
              '--name=k', '--filename=' + f, '--size=16m', '--rw=randread',
              '--runtime=1', '--time_based', '--ioengine=psync',
              '--output-format=json', '--output=' + two)
    t.ok(r, 'two jobs')
    r = t.run('compare', two, a)
    t.eq(r.rc, 0, 'a job missing on the new side, no gate: exit 0', r)
    rows, only, _, _ = parse(r.out)
    t.eq((list(rows), only), ([('j', 'read')], [('k', 'read', 'base')]),
         'j compared, k reported', r)
    r = t.run('compare', '--fail-if', 'iops<-99%', two, a)
    t.eq(r.rc, 2, 'the gate fails on a job it did not see', r)
    t.check("gate: job 'k' read: missing on the new side" in r.out, 'gate names k')


def used_options(t):
    """The options compared are those the jobs ran with: a default engine and
    O_DIRECT mode against the same ones given is no difference (it was
    "direct 1 vs (unset), ioengine io_uring vs (unset)"); another engine is."""
    f = t.shm_file('data', 16 << 20) if not os.path.exists(t.path('data')) \
        else t.path('data')
    base = ['--name=u', '--filename=' + f, '--size=16m', '--rw=randread',
            '--bs=4k', '--runtime=1', '--time_based', '--output-format=json']
    a = t.path('used_a.json')
    r = t.run(*base, '--output=' + a)
    if not t.ok(r, 'defaults run'):
        return
    with open(a) as fh:
        eff = json.load(fh)['jobs'][0]['effective options']
    b = t.path('used_b.json')
    r = t.run(*base, '--ioengine=' + eff['ioengine'],
              '--direct=%d' % eff['direct'], '--output=' + b)
    t.ok(r, 'the same engine and mode given')
    r = t.run('compare', a, b)
    t.ok(r, 'compare defaults with the same given')
    t.check('the jobs differ' not in r.out,
            'the engine and mode used are the same: no difference noted', r)
    other = 'psync' if eff['ioengine'] != 'psync' else 'sync'
    c = t.path('used_c.json')
    r = t.run(*base, '--ioengine=' + other, '--output=' + c)
    t.ok(r, 'another engine given')
    r = t.run('compare', a, c)
    t.check('note: the jobs differ: ioengine %s vs %s' % (eff['ioengine'], other)
            in r.out, 'another engine: the difference noted', r)


def repeat(t):
    """--repeat=N writes every run: FILE.1.json ... FILE.N.json."""
    out = job(t, 'j', 'rep.json', ('--repeat=3', '--eta=never'), secs=1)
    runs = [t.path('rep.%d.json' % k) for k in (1, 2, 3)]
    t.eq([os.path.exists(p) for p in runs + [out]], [True, True, True, False],
         '--repeat=3: rep.1.json .. rep.3.json, no rep.json')
    for p in runs:
        with open(p) as f:
            t.eq([j['jobname'] for j in json.load(f)['jobs']], ['j'], p + ': the job')
    r = t.run('compare', '--base', runs[0], '--new', *runs[1:])
    t.ok(r, 'compare the repeats')
    t.check('(runs: 1 base, 2 new)' in r.out, 'one run against two', r)
    r = t.run('--name=j', '--size=1m', '--repeat=0')
    t.eq((r.rc, r.err), (1, "iobench: --repeat: invalid value '0' (1..1000)\n"),
         '--repeat=0 refused')


def bad_args(t, a):
    for args, msg in ((['compare', a], 'compare: needs two files'),
                      (['compare', '--fail-if', 'p95>1%', a, a], 'unknown metric'),
                      (['compare', '--base', a], 'needs files on both sides'),
                      (['compare', '--alpha=2', a, a], '--alpha: invalid value'),
                      (['compare', a, t.path('nope.json')], 'nope.json'),
                      (['compare', '--bogus', a, a], "unknown option '--bogus'")):
        r = t.run(*args)
        t.eq(r.rc, 1, ' '.join(args[:2]) + ': exit 1', r)
        t.check(msg in r.err, 'says %r' % msg, r)
        t.eq(r.err.count('\n'), 1, ' '.join(args[:2]) + ': one line', r)
    # the human report saved instead of the JSON one: named as such
    text = job(t, 'j', 'text.txt', secs=1, fmt='normal')
    r = t.run('compare', text, a)
    t.eq((r.rc, r.out, r.err), (1, '', 'iobench: compare: %s: not a JSON report '
         '(a text report? save one with --output-format=json or '
         '--json-output=FILE)\n' % text), 'compare a text report')
    r = t.run('compare', '--help')
    t.ok(r, 'compare --help')
    t.check(r.out.startswith('usage: iobench compare'), 'usage printed')


def main():
    t = ibtest.Test()
    a = same_job(t)
    fast, slow = slowed(t)
    smaller_iodepth(t)
    plots(t, fast, slow)
    with_fio(t)
    mismatched(t, a)
    used_options(t)
    repeat(t)
    bad_args(t, a)
    t.finish()


if __name__ == '__main__':
    main()
