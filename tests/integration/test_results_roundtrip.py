#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Results read back: iobench's json+ of a real run on /dev/shm, and real
fio 3.33 json+ and json runs, each read into the results document by the
reader (tests/tools/reprint.c: reprint FORMAT FILE) and printed again as
json+ give the same document, number for number: integers equal, every
percentile recomputed from the rebuilt bins equal to the file's, floats
equal to their last printed digit (values derived from a percentage within
its rounding). Usage: test_results_roundtrip.py IOBENCH REPRINT GOLDEN_DIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

SKIP = {'timestamp', 'timestamp_ms', 'time', 'eta', 'elapsed', 'fio version',
        'iobench version'}
# printed from counts the file only holds as percentages (or CPU %)
FIO_AGG = [False]     # the file is fio's: bw_agg is fio's own formula
PERCENT_OBJS = {'iodepth_level', 'iodepth_submit', 'iodepth_complete',
                'latency_ns', 'latency_us', 'latency_ms'}


def diff(a, b, path, errs, loose=False):
    """a: the reprint, b: the file read."""
    if isinstance(b, dict):
        if not isinstance(a, dict):
            errs.append('%s: not an object' % path)
            return
        keys = [k for k in a if k != 'iobench version']
        if keys != [k for k in b if k != 'iobench version']:
            errs.append('%s: keys %s != %s' % (path, keys[:8], list(b)[:8]))
        for k in b:
            if k in a and k not in SKIP:
                diff(a[k], b[k], path + '/' + k, errs, loose or k in PERCENT_OBJS)
    elif isinstance(b, list):
        if len(a) != len(b):
            errs.append('%s: %d entries != %d' % (path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, '%s[%d]' % (path, i), errs, loose)
    elif isinstance(b, float) or loose or path.endswith(('usr_cpu', 'sys_cpu')):
        tol = 0.011 if loose else 2e-6 * max(1.0, abs(b))
        if path.endswith('/bw_agg') and FIO_AGG[0]:
            # fio rounds its group bandwidth its own way (json_compare.py's 1e-4)
            tol = 1e-4 * abs(b)
        if not isinstance(a, (int, float)) or abs(a - b) > tol:
            errs.append('%s: %r != %r' % (path, a, b))
    elif a != b or type(a) is not type(b):
        errs.append('%s: %r != %r' % (path, a, b))


def roundtrip(t, reprint, path, what, fmt='json+'):
    with open(path) as f:
        orig = json.load(f)
    FIO_AGG[0] = 'iobench version' not in orig
    p = subprocess.run([reprint, fmt, path], capture_output=True, text=True)
    if not t.check(p.returncode == 0, '%s: reprint exit 0' % what, p.stderr):
        return None
    again = json.loads(p.stdout)
    errs = []
    diff(again, orig, '', errs)
    t.check(not errs, '%s: the same numbers printed again' % what,
            '\n'.join(errs[:20]))
    return orig


def pct_count(doc):
    n = 0
    for job in doc['jobs']:
        for d in ('read', 'write', 'trim'):
            for k in ('slat_ns', 'clat_ns', 'lat_ns'):
                n += len(job[d][k].get('percentile', {}))
    return n


def ours(t, reprint):
    target = t.shm_file('rt-target', size=1 << 20)
    js = t.path('ours.json')
    r = t.run('--name=a', '--filename=' + target, '--size=1m', '--bs=4k',
              '--rw=randrw', '--ioengine=io_uring', '--iodepth=4',
              '--lat_percentiles=1', '--slat_percentiles=1',
              '--name=b', '--filename=' + target, '--size=1m', '--bs=8k',
              '--rw=write', '--fsync=4', '--description=two words',
              '--output-format=json+', '--output=' + js)
    if not t.ok(r, 'iobench json+ run'):
        return
    doc = roundtrip(t, reprint, js, 'iobench json+')
    if doc:
        t.eq(len(doc['jobs']), 2, 'iobench json+: 2 jobs')
        t.eq(doc['jobs'][0]['read']['total_ios'] + doc['jobs'][0]['write']['total_ios'],
             256, 'iobench json+: 1m/4k I/Os')
        t.check(pct_count(doc) > 40, 'iobench json+: percentiles checked')
    # unified_rw_reporting: the sections come back as they were written
    for mode, keys in (('mixed', ['mixed']),
                       ('both', ['read', 'write', 'trim', 'sync', 'mixed'])):
        r = t.run('--name=u', '--filename=' + target, '--size=1m', '--bs=4k',
                  '--rw=randrw', '--unified_rw_reporting=' + mode,
                  '--output-format=json+', '--output=' + js)
        if not t.ok(r, 'iobench json+ unified=' + mode):
            continue
        doc = roundtrip(t, reprint, js, 'iobench json+ unified=' + mode)
        if doc:
            j = doc['jobs'][0]
            t.eq([k for k in j if k in ('read', 'write', 'trim', 'sync', 'mixed')],
                 keys, 'unified=%s: sections read back' % mode)
            t.eq(j['mixed']['total_ios'], 256, 'unified=%s: mixed I/Os' % mode)
    # plain JSON (no bins): the percentiles come back all the same
    r = t.run('--name=p', '--filename=' + target, '--size=1m', '--bs=4k',
              '--rw=read', '--output-format=json', '--output=' + js)
    if t.ok(r, 'iobench json run'):
        doc = roundtrip(t, reprint, js, 'iobench json', 'json')
        if doc:
            t.check(pct_count(doc) >= 17, 'iobench json: percentiles checked')


def paced(t, reprint):
    # a rate: colat_ns and "late" (with its lateness histogram) come back
    js = t.path('paced.json')
    for fmt in ('json+', 'json'):
        r = t.run('--name=r', '--ioengine=null', '--size=1m', '--bs=4k',
                  '--rw=randread', '--rate_iops=20000',
                  '--output-format=' + fmt, '--output=' + js)
        if not t.ok(r, 'iobench %s run with a rate' % fmt):
            continue
        doc = roundtrip(t, reprint, js, 'iobench %s with a rate' % fmt, fmt)
        if doc:
            late = doc['jobs'][0]['read']['late']
            t.eq(late['started'], 256, '%s with a rate: late started' % fmt)
            t.check(len(late['percentile']) >= 17,
                    '%s with a rate: late percentiles checked' % fmt)


def fio(t, reprint):
    if not shutil.which('fio'):
        t.skip('fio not installed')
        return
    target = t.shm_file('fio-target', size=4 << 20)
    for fmt in ('json+', 'json'):
        out = t.path('fio.' + fmt)
        r = t.fio('--name=f', '--filename=' + target, '--size=4m', '--bs=4k',
                  '--rw=randrw', '--ioengine=libaio', '--iodepth=8',
                  '--numjobs=2', '--group_reporting', '--lat_percentiles=1',
                  '--output-format=' + fmt, '--output=' + out)
        if not t.ok(r, 'fio --output-format=' + fmt):
            continue
        doc = roundtrip(t, reprint, out, 'fio ' + fmt, fmt)
        if doc:
            t.eq(doc['fio version'], 'fio-3.33', 'fio %s: from fio 3.33' % fmt)
            t.check(pct_count(doc) > 20, 'fio %s: percentiles checked' % fmt)


def golden(t, reprint, gdir):
    """fio 3.33's goldens, and fio 3.42's in v342/"""
    for sub in ('', 'v342'):
        for name in sorted(os.listdir(os.path.join(gdir, sub))):
            if name.endswith('.json'):
                roundtrip(t, reprint, os.path.join(gdir, sub, name),
                          'golden ' + os.path.join(sub, name))


def main():
    t = ibtest.Test(sys.argv[:2])
    reprint, gdir = os.path.abspath(sys.argv[2]), sys.argv[3]
    golden(t, reprint, gdir)
    ours(t, reprint)
    paced(t, reprint)
    fio(t, reprint)
    t.finish()


if __name__ == '__main__':
    main()
