#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio's steady state (ss=, ss_dur=, ss_ramp=) on a real target, side by
side with fio 3.33 on the same jobs: a rate-limited job settles (attained,
the job ends early, long before runtime=), a Poisson-paced one cannot
(attained 0, the whole runtime), and a bw_slope criterion settles. For
each: the JSON "steadystate" object has fio's fields, its means and
criterion agree with its own data, the normal report has fio's line, and
fio reaches the same verdict with the same fields. Both documents read
back (tests/tools/reprint) give the same object and the same line again.
Usage: test_steadystate.py IOBENCH [REPRINT]
"""
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

SS_KEYS = ['ss', 'duration', 'attained', 'criterion', 'max_deviation',
           'slope', 'data']
DATA_KEYS = ['bw_mean', 'iops_mean', 'iops', 'bw']
LINE = re.compile(r'^  steadystate  : attained=(yes|no), bw=\S+ \(\S+\), '
                  r'iops=\S+, (iops|bw) (mean dev|slope)=(-?[0-9.]+)(%?)$', re.M)

# name, options, attained, runtime (s), ss_ramp + ss_dur (s)
CASES = [
    ('settles', ['--rate_iops=500', '--ss=iops:10%', '--ss_dur=3',
                 '--ss_ramp=1'], True, 20, 4),
    ('unsettled', ['--rate_iops=100', '--rate_process=poisson',
                   '--steadystate=iops:1%', '--steadystate_duration=5'],
     False, 8, 5),
    ('bw_slope', ['--rate=2m', '--ss=bw_slope:1%', '--ss_dur=3'], True, 20, 3),
]


def split(out):
    """The JSON document and the normal report printed after it."""
    i = out.find('{\n')
    doc, end = json.JSONDecoder().raw_decode(out[i:])
    return doc, out[i + end:]


def criterion(ss):
    """The criterion recomputed from the object's own data (fio's math)."""
    mode, lim = ss['ss'].split(':')
    ys = ss['data']['bw' if mode.startswith('bw') else 'iops']
    n = len(ys)
    if mode.endswith('slope'):
        sx, sy = sum(range(n)), sum(ys)
        sxy = sum(i * y for i, y in enumerate(ys))
        sxx = sum(i * i for i in range(n))
        val = (sxy - sx * sy / n) / (sxx - sx * sx / n)
        return 100.0 * val / (sy // n) if lim.endswith('%') else val
    mean = sum(ys) / n
    dev = max(abs(y - mean) for y in ys)
    return 100.0 * dev / mean if lim.endswith('%') else dev


REPRINT = [None]


def read_back(t, who, doc, report):
    """The results reader gives the same object and the same line again."""
    if not REPRINT[0]:
        return
    path = t.path('doc.json')
    with open(path, 'w') as f:
        json.dump(doc, f)
    for fmt in ('json', 'normal'):
        p = subprocess.run([REPRINT[0], fmt, path], capture_output=True, text=True)
        if not t.eq(p.returncode, 0, '%s: read back as %s' % (who, fmt), p.stderr):
            continue
        if fmt == 'json':
            t.eq(json.loads(p.stdout)['jobs'][0].get('steadystate'),
                 doc['jobs'][0]['steadystate'], '%s: read back, the same object' % who)
        else:
            t.eq(LINE.search(p.stdout) and LINE.search(p.stdout).group(0),
                 LINE.search(report) and LINE.search(report).group(0),
                 '%s: read back, the same line' % who)
    os.unlink(path)


def check_doc(t, who, doc, report, attained, dur):
    job = doc['jobs'][0]
    ss = job.get('steadystate')
    if not t.check(ss is not None, '%s: a steadystate object' % who, job.keys()):
        return None
    t.eq(list(ss), SS_KEYS, '%s: steadystate fields' % who)
    t.eq(list(ss['data']), DATA_KEYS, '%s: steadystate data fields' % who)
    t.eq(ss['attained'], int(attained), '%s: attained' % who, ss)
    t.eq(ss['duration'], dur, '%s: duration' % who)
    d = ss['data']
    t.eq(len(d['iops']), dur, '%s: %d IOPS samples' % (who, dur))
    t.eq(len(d['bw']), dur, '%s: %d bw samples' % (who, dur))
    t.eq(d['iops_mean'], sum(d['iops']) // dur, '%s: iops_mean' % who)
    t.eq(d['bw_mean'], sum(d['bw']) // dur, '%s: bw_mean' % who)
    got = float(ss['criterion'].rstrip('%'))
    want = criterion(ss)
    t.check(abs(got - want) <= 1e-5 * max(1.0, abs(want)),
            '%s: criterion %s from its data (%r)' % (who, ss['criterion'], want))
    m = LINE.search(report)
    if t.check(m is not None, '%s: the normal report\'s steadystate line' % who,
               report[-600:]):
        t.eq(m.group(1), 'yes' if attained else 'no', '%s: attained= in the line' % who)
        t.eq(m.group(5) == '%', ss['ss'].endswith('%'), '%s: %% in the line' % who)
    read_back(t, who, doc, report)
    return job


def run_case(t, target, case):
    name, opts, attained, runtime, settle = case
    common = ['--name=' + name, '--filename=' + target, '--size=16m',
              '--bs=4k', '--rw=randread', '--ioengine=psync', '--direct=0',
              '--time_based', '--runtime=%d' % runtime] + opts
    with ThreadPoolExecutor(2) as ex:
        fr = ex.submit(t.fio, *common, '--output-format=json,normal',
                       timeout=runtime + 30)
        ir = ex.submit(t.run, *common, '--output-format=json,normal',
                       timeout=runtime + 30)
        r, f = ir.result(), fr.result()
    dur = int(re.search(r'(?:ss_dur|duration)=(\d+)', ' '.join(opts)).group(1))
    job = None
    if t.ok(r, name + ': iobench'):
        job = check_doc(t, name + ': iobench', *split(r.out), attained, dur)
    if job:
        ms = job['job_runtime']
        if attained:
            # ends at the first full window after ss_ramp, not at runtime=
            t.check(settle * 1000 - 50 <= ms <= t.scaled(settle + 2.5) * 1000,
                    '%s: iobench ended early at %d ms (window full at %d s)' %
                    (name, ms, settle))
            ids = [c['id'] for c in job.get('iobench checks', [])]
            t.check('runtime-off' not in ids,
                    '%s: no runtime-off warning for an early end' % name, ids)
        else:
            t.check(ms >= runtime * 1000 - 50,
                    '%s: iobench ran the whole runtime (%d ms)' % (name, ms))
    if f is None:
        t.skip('fio not installed')
        return
    if t.ok(f, name + ': fio'):
        fj = check_doc(t, name + ': fio 3.33', *split(f.out), attained, dur)
        if fj:
            t.check((fj['job_runtime'] < runtime * 1000 - 1000) == attained,
                    '%s: fio ended early iff attained (%d ms)' % (name, fj['job_runtime']))
            if job:
                t.eq(job['steadystate']['ss'], fj['steadystate']['ss'],
                     '%s: the same ss text as fio' % name)


def refused(t):
    r = t.run('--name=x', '--ioengine=null', '--size=1m', '--ss=iops')
    t.fails(r, 'ss=iops without a threshold')
    t.check('a threshold is needed' in r.err, 'ss=iops: says why', r.err)
    r = t.run('--name=x', '--ioengine=null', '--size=1m', '--ss_dur=2h')
    t.fails(r, 'ss_dur=2h: longer than iobench holds')
    t.check('steadystate_duration' in r.err, 'ss_dur=2h: names the option', r.err)


def main():
    t = ibtest.Test(sys.argv[:2])
    if len(sys.argv) > 2:
        REPRINT[0] = os.path.abspath(sys.argv[2])
    if not shutil.which('fio'):
        t.skip('fio not installed: iobench alone')
    target = t.shm_file('ss-target', size=16 << 20)
    for case in CASES:
        run_case(t, target, case)
    refused(t)
    t.finish()


if __name__ == '__main__':
    main()
