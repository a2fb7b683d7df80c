#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench suite, the SNIA PTS suites with tiny sizes on loop devices with
4 KiB sectors (and zram when the kernel has it): pts-iops's whole matrix
for one round (one JSON entry per test, the 512-byte tests left out and
said so, the purge); the rounds stop at the first steady window (the
tracking test paced: steady at round 5, the window rounds 1-5, the HTML
report's convergence chart and rounds); --rounds caps them; the printed
file through fio 3.33 and iobench gives the suite's I/Os per test; a
regular file is not purged and the report says so.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = 1 << 20
TINY = ['--capacity=4m', '--io-size=256k', '--runtime=0', '--no-calibrate',
        '--output-format=json']


def ios_of(doc):
    return {j['jobname']: j['read']['total_ios'] + j['write']['total_ios']
            for j in doc.get('jobs', [])}


def run_doc(t, what, *args):
    r = t.run('suite', *args)
    if not t.ok(r, what):
        return {}
    try:
        return json.loads(r.out)
    except ValueError as e:
        t.check(False, '%s: JSON' % what, e)
        return {}


def test_iops_matrix(t, dev):
    doc = run_doc(t, 'pts-iops, one round', 'pts-iops', dev, *TINY, '--rounds=1',
                  '--numjobs=1', '--iodepth=4')
    s = doc.get('iobench suite', {})
    names = ['rnd%s-r%dw%d' % (bs, m, 100 - m) for m in (100, 95, 65, 50, 35, 5, 0)
             for bs in ('1024k', '128k', '64k', '32k', '16k', '8k', '4k')]
    t.eq(list(ios_of(doc)), names, 'pts-iops: one entry per test, PTS order, no 512')
    t.eq(ios_of(doc).get('rnd4k-r65w35'), 64, 'pts-iops: 256k of 4k I/Os')
    t.eq(ios_of(doc).get('rnd64k-r0w100'), 4, 'pts-iops: 256k of 64k I/Os')
    t.check('7 tests of blocks below 4096 bytes left out' in s.get('note', ''),
            'pts-iops: the 512-byte tests left out, said so', s.get('note'))
    t.check(s.get('purge', '').startswith('BLKDISCARD of 4194304 bytes') or
            s.get('purge', '').startswith('BLKSECDISCARD of 4194304'),
            'pts-iops: the 4 MiB region purged', s.get('purge'))
    t.check('twice: 8388608 bytes' in s.get('preconditioning', ''),
            'pts-iops: preconditioned twice over', s.get('preconditioning'))
    t.eq(len(s.get('rounds', [])), 1, 'pts-iops --rounds=1: one round')
    t.eq(s.get('steady state', {}).get('reached'), 0, 'one round: not steady')
    t.eq(len(s.get('summary', [])), 49, 'pts-iops: 49 summary rows')


def test_steady(t, dev):
    html = t.path('pts.html')
    # 64 I/Os a job at 100 a second: the pacing catches up with a late
    # start, so each round's IOPS stay near 4 x 100 on a loaded machine
    doc = run_doc(t, 'pts-iops, tracking test paced', 'pts-iops', dev, *TINY,
                  '--only=rnd4k-r0w100,rnd64k-r0w100',
                  '--set=rnd4k-r0w100:rate_iops=100', '--report=' + html)
    s = doc.get('iobench suite', {})
    ss = s.get('steady state', {})
    t.eq((len(s.get('rounds', [])), ss.get('reached'), ss.get('window_first_round')),
         (5, 1, 1), 'paced: steady at round 5, the window rounds 1-5', s)
    t.check(ss.get('range_pct', 99) <= 20 and ss.get('rise_pct', 99) <= 10,
            'paced: within the limits', ss)
    vals = [x['value'] for x in s.get('rounds', [])]
    t.check(vals and abs(ss.get('average', 0) - sum(vals) / len(vals)) < 1e-3,
            'the window average is the rounds\' average', s)
    try:
        with open(html) as f:
            page = f.read()
    except OSError as e:
        t.check(False, 'pts --report written', e)
        return
    t.check(page.find('Summary: one line per test') < page.find('steady state reached at round 5')
            < page.find('data-name="measurement window"'),
            'HTML: summary, steady state, the window on the chart', page[:400])
    t.check('<script' not in page, 'HTML: no script')


def test_rounds_and_parity(t, dev):
    doc = run_doc(t, 'pts-throughput --rounds=2', 'pts-throughput', dev, *TINY,
                  '--io-size=2m', '--rounds=2')
    s = doc.get('iobench suite', {})
    t.eq(len(s.get('rounds', [])), 2, 'pts-throughput --rounds=2: two rounds')
    want = {'seq1024k-r100w0': 2, 'seq128k-r100w0': 16, 'seq1024k-r0w100': 2,
            'seq128k-r0w100': 16}
    t.eq(ios_of(doc), want, 'pts-throughput: I/Os per test')
    r = t.run('suite', 'pts-throughput', dev, *TINY, '--io-size=2m', '--print-jobs')
    jobs = t.path('tp.fio')
    with open(jobs, 'w') as f:
        f.write(r.out)
    pre = dict(want, precondition=64)
    r = t.run(jobs, '--output-format=json', '--no-calibrate')
    if t.ok(r, 'iobench on the printed file'):
        t.eq(ios_of(json.loads(r.out)), pre, 'iobench, printed file: I/Os')
    r = t.fio(jobs, '--output-format=json')
    if r is None:
        t.skip('no fio')
    elif t.ok(r, 'fio on the printed file'):
        t.eq(ios_of(json.loads(r.out)), pre, 'fio, printed file: I/Os')


def zram_dev(t):
    ctl = '/sys/class/zram-control/hot_add'
    if not os.path.exists(ctl):
        subprocess.run(['modprobe', 'zram'], capture_output=True)
    if not os.path.exists(ctl):
        return None
    try:
        t.zram, dev = ibtest.zram_add(8 * MiB)
    except (OSError, ValueError):
        return None
    return dev


def zram_free(t):
    n = getattr(t, 'zram', None)
    if n is None:
        return
    ibtest.zram_remove(n)


def test_latency(t, dev, where):
    doc = run_doc(t, 'pts-latency on %s' % where, 'pts-latency', dev, *TINY,
                  '--rounds=3')
    s = doc.get('iobench suite', {})
    t.eq(len(s.get('rounds', [])), 3, 'pts-latency --rounds=3 on %s: three rounds' % where)
    t.eq(list(ios_of(doc)), ['rnd8k-r100w0', 'rnd4k-r100w0', 'rnd8k-r65w35',
                             'rnd4k-r65w35', 'rnd8k-r0w100', 'rnd4k-r0w100'],
         'pts-latency on %s: its tests' % where)
    t.check(all(x['value'] > 0 for x in s.get('rounds', [])),
            'pts-latency: a mean latency each round', s.get('rounds'))


def test_file(t):
    f = t.shm_file('pts.img', 4 * MiB)
    doc = run_doc(t, 'pts-throughput on a file', 'pts-throughput', f, *TINY,
                  '--rounds=1', '--direct=0')
    t.eq(doc.get('iobench suite', {}).get('purge'),
         'not purged: %s is not a block device' % f, 'a file: not purged, said so')


def main():
    t = ibtest.Test()
    if not ibtest.loop_available():
        t.skip('no loop devices')
        t.finish()
    dev = t.loop_device(8 * MiB, sector_size=4096)
    if dev:
        test_iops_matrix(t, dev)
        test_steady(t, dev)
        test_rounds_and_parity(t, dev)
        z = zram_dev(t)
        try:
            if z:
                test_latency(t, z, 'zram')
            else:
                t.skip('no zram')
                test_latency(t, dev, 'loop')
        finally:
            zram_free(t)
        test_file(t)
    t.finish()


if __name__ == '__main__':
    main()
