#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Options fio 3.34-3.42 added, against what fio 3.42 does (its logs and
JSON recorded from real runs into tests/data/fio342: fio 3.42 is not
installed in CI): log_window_value (log_max_value's new name, with
'both'), end_syncfs, thinkcycles."""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342')
t = ibtest.Test()
# thinkcycles: fio's field is an unsigned int
BAD_THINKCYCLES = [
    ('4294967296', 'iobench: thinkcycles: 4294967296 is out of range '
     '(0..4294967295)\n'),
    ('abc', "iobench: thinkcycles: invalid number 'abc'\n"),
]


def log_rows(path):
    """The rows of a fio log as lists of ints ('#' lines left out)."""
    with open(path) as f:
        return [[int(x) for x in line.split(', ')]
                for line in f.read().splitlines() if not line.startswith('#')]


def log_window_value():
    """log_window_value=both: 'time, mean, max, ddir, bs, prio' per
    window, as fio 3.42's; avg/max/0/1 one value; a wrong value refused."""
    fio = log_rows(os.path.join(DATA, 'log_window_both_clat.log'))
    target = t.shm_file('lw.dat', size=1024 * 1024)
    prefix = t.path('lw')
    r = t.run('--name=a', '--filename=' + target, '--size=1m',
              '--rw=randread', '--ioengine=psync', '--runtime=1',
              '--time_based', '--write_lat_log=' + prefix,
              '--log_avg_msec=200', '--log_window_value=both',
              '--output=/dev/null')
    if not t.ok(r, 'log_window_value=both'):
        return
    rows = log_rows(prefix + '_clat.1.log')
    t.eq(sorted({len(x) for x in rows}), sorted({len(x) for x in fio}),
         'both: the columns of fio 3.42\'s lines')
    t.eq(sorted({tuple(x[3:]) for x in rows}), sorted({tuple(x[3:]) for x in fio}),
         'both: ddir, bs, prio as fio 3.42\'s')
    t.check(rows and all(0 < x[1] <= x[2] for x in rows),
            'both: each window\'s mean at most its maximum', rows)
    t.check(len(rows) >= 4 and all(b[0] - a[0] >= 200 for a, b in
                                   zip(rows[:4], rows[1:4])),
            'both: one line per 200 ms window', rows)
    for v in ('avg', 'max', 'both', '0', '1'):
        r = t.run('--parse-only', '--name=a', '--filename=x',
                  '--log_window_value=' + v)
        t.eq((r.rc, r.err), (0, ''), '--parse-only log_window_value=' + v)
    r = t.run('--parse-only', '--name=a', '--filename=x', '--log_max_value=1')
    t.eq((r.rc, r.err), (0, ''), 'log_max_value=1: the old name')
    r = t.run('--parse-only', '--name=a', '--filename=x',
              '--log_window_value=mean')
    t.eq((r.rc, r.err), (1, "iobench: log_window_value: invalid value 'mean' "
         '(valid: avg, max, both)\n'), 'a wrong value: one line')


def facts(name):
    """A recorded fio 3.42 run: {'key': int} from 'key value' lines."""
    with open(os.path.join(DATA, name)) as f:
        return {k: int(v) for k, v in (line.split() for line in
                                       f.read().splitlines()
                                       if not line.startswith('#'))}


def end_syncfs():
    """end_syncfs=1: one syncfs(2) at the end, no fsync, nothing in the
    sync statistics, as fio 3.42 (its counts in end_syncfs.txt)."""
    want = facts('end_syncfs.txt')
    strace = shutil.which('strace')
    if not strace:
        t.skip('no strace')
        return
    target = t.path('es.dat')
    summary = t.path('es.strace')
    r = t.run('-f', '-c', '-o', summary, '-e',
              'trace=syncfs,fsync,fdatasync',
              *t.argv('--name=a', '--filename=' + target, '--size=1m',
                      '--rw=write', '--end_syncfs=1', '--output-format=json'),
              prog=strace, timeout=t.scaled(60))
    if not t.ok(r, 'end_syncfs=1'):
        return
    calls = {'syncfs': 0, 'fsync': 0, 'fdatasync': 0}
    with open(summary) as f:
        for line in f:
            p = line.split()
            if p and p[-1] in calls:
                calls[p[-1]] = int(p[3])  # % time, seconds, usecs/call, calls
    t.eq(calls, {k: want[k] for k in calls}, 'end_syncfs: the calls')
    j = json.loads(r.out)['jobs'][0]
    t.eq((j['sync']['total_ios'], j['sync']['lat_ns']['N'],
          j['write']['io_bytes']),
         (want['sync.total_ios'], want['sync.lat_ns.N'],
          want['write.io_bytes']), 'end_syncfs: sync statistics and bytes')
    r = t.run('--parse-only', '--name=a', '--filename=x', '--end_syncfs=maybe')
    t.eq((r.rc, r.out, r.err), (1, '', "iobench: end_syncfs: invalid boolean "
         "'maybe' (use 1/0, true/false, yes/no, on/off)\n"),
         'end_syncfs=maybe: one line')


def thinkcycles():
    """thinkcycles=N: N turns of the CPU's spin-wait hint after each I/O
    (about 130 ns each here, as in fio 3.42's run), not cut short by the
    runtime: fio's facts in thinkcycles.txt (one I/O in a 200 ms job whose
    spin outlasts it; a 16 KiB job moves its 4 I/Os)."""
    want = facts('thinkcycles.txt')
    # fio's run: 200 ms; here 10 ms, so that no CPU spins 10M turns in
    # less (a pause of ~10 cycles: 30 ms at least; ~1.3 s here): one I/O in
    # a shorter runtime is what fio's one I/O in 200 ms implies
    r = t.run('--name=tc', '--ioengine=null', '--size=1g', '--bs=4k',
              '--rw=read', '--time_based', '--runtime=10ms',
              '--thinkcycles=10000000', '--output-format=json')
    if t.ok(r, 'thinkcycles, time_based'):
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['read']['total_ios'], j['read']['io_bytes']),
             (want['time.read.total_ios'], want['time.read.io_bytes']),
             'thinkcycles: one I/O, then a spin past the runtime, as fio')
        t.check(j['job_runtime'] >= 10, 'thinkcycles: the spin is not cut '
                'at the runtime', j['job_runtime'])
    r = t.run('--name=tc', '--ioengine=null', '--size=16k', '--bs=4k',
              '--rw=write', '--thinkcycles=1000000', '--output-format=json')
    if t.ok(r, 'thinkcycles, size'):
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['write']['total_ios'], j['write']['io_bytes']),
             (want['size.write.total_ios'], want['size.write.io_bytes']),
             'thinkcycles: the size job\'s I/Os and bytes, as fio')
    for v in ('0', '1000', '4294967295'):
        r = t.run('--parse-only', '--name=a', '--filename=x',
                  '--thinkcycles=' + v)
        t.eq((r.rc, r.err), (0, ''), '--parse-only thinkcycles=' + v)
    for v, err in BAD_THINKCYCLES:
        r = t.run('--parse-only', '--name=a', '--filename=x',
                  '--thinkcycles=' + v)
        t.eq((r.rc, r.out, r.err), (1, '', err), 'thinkcycles=%s: one line' % v)


def main():
    log_window_value()
    end_syncfs()
    thinkcycles()
    t.finish()


if __name__ == '__main__':
    main()
