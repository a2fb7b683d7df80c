#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Jobs and clones: numjobs=8 forks 8 processes with distinct random streams,
thread=1 runs clones as threads, randrepeat gives the same offsets every run,
randseed=N changes them, randrepeat=0 differs run to run, stonewall and
new_group make groups (and stonewall waits).

With numjobs, fio's clones all append to the one write_iolog file, while
iobench writes FILE.CLONE per clone; the tests read either. With default
file names (JOBNAME.CLONE.0) each clone's lines carry its own file name.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
NBLK = 16


def clone_streams(t, what, *args):
    """Run a randread job with default names; {file: [block, ...]}."""
    d = t.mkdir('streams')
    for n in os.listdir(d):
        os.unlink(os.path.join(d, n))
    log = t.path('streams.iolog')
    for p in ibtest.iolog_paths(log):
        os.unlink(p)
    r = t.run('--name=s', '--size=64k', '--bs=4k', '--rw=randread',
              '--ioengine=psync', '--directory=' + d, '--write_iolog=' + log,
              *args)
    if not t.ok(r, what):
        return r, None
    il = ibtest.parse_iologs(log)
    if not t.check(il is not None, '%s: iolog written' % what):
        return r, None
    t.eq(il.version, ibtest.IOLOG_VERSION, '%s: iolog version' % what)
    t.eq(il.bad, [], '%s: iolog lines that do not parse' % what)
    streams = {}
    for f, ddir, off, length in il.data():
        streams.setdefault(os.path.basename(f), []).append(off // 4096)
    return r, streams


def test_numjobs(t):
    what = 'numjobs=8'
    r, streams = clone_streams(t, what, '--numjobs=8')
    if streams is None:
        return
    jobs = ibtest.parse_report(r.out)
    t.eq(len(jobs), 8, '%s: job blocks' % what, r)
    pids = [j.pid for j in jobs]
    t.eq(len(set(pids)), 8, '%s: distinct pids' % what, pids)
    t.check(r.pid not in pids, '%s: jobs run in child processes' % what,
            (r.pid, pids))
    t.eq([j.issued for j in jobs], [(NBLK, 0, 0, 0)] * 8,
         '%s: issued per clone' % what)
    names = ['s.%d.0' % i for i in range(8)]
    t.eq(sorted(streams), names, '%s: one file per clone' % what)
    for n in names:
        t.eq(sorted(streams.get(n, [])), list(range(NBLK)),
             '%s: %s covers every block once' % (what, n))
    seqs = {tuple(s) for s in streams.values()}
    t.eq(len(seqs), 8, '%s: distinct offset streams' % what)


def test_thread(t):
    what = 'numjobs=4 thread=1'
    r, streams = clone_streams(t, what, '--numjobs=4', '--thread')
    if streams is None:
        return
    jobs = ibtest.parse_report(r.out)
    t.eq([j.issued for j in jobs], [(NBLK, 0, 0, 0)] * 4,
         '%s: issued per clone' % what)
    t.eq(sorted(streams), ['s.%d.0' % i for i in range(4)],
         '%s: one file per clone' % what)
    t.eq(len({tuple(s) for s in streams.values()}), 4,
         '%s: distinct offset streams' % what)
    # the same streams as processes: the stream depends on the job, not
    # on how it runs
    _, procs = clone_streams(t, 'numjobs=4 processes', '--numjobs=4')
    t.eq(procs, streams, '%s: same offsets as numjobs=4 processes' % what)


def test_repeat(t):
    runs = {}
    for what, args in (('default a', ()), ('default b', ()),
                       ('randrepeat=1', ('--randrepeat=1',)),
                       ('randseed=1234 a', ('--randseed=1234',)),
                       ('randseed=1234 b', ('--randseed=1234',)),
                       ('randseed=99', ('--randseed=99',)),
                       ('randrepeat=0 a', ('--randrepeat=0',)),
                       ('randrepeat=0 b', ('--randrepeat=0',))):
        _, streams = clone_streams(t, what, '--numjobs=2', *args)
        runs[what] = streams
        if streams is not None:
            for n, s in streams.items():
                t.eq(sorted(s), list(range(NBLK)),
                     '%s: %s covers every block once' % (what, n))
    if any(v is None for v in runs.values()):
        return
    t.eq(runs['default a'], runs['default b'],
         'randrepeat (default): two runs, identical offsets')
    t.eq(runs['default a'], runs['randrepeat=1'],
         'randrepeat=1 is the default')
    t.eq(runs['randseed=1234 a'], runs['randseed=1234 b'],
         'randseed=1234: two runs, identical offsets')
    t.check(runs['randseed=1234 a'] != runs['default a'],
            'randseed=1234 differs from the default seed')
    t.check(runs['randseed=1234 a'] != runs['randseed=99'],
            'randseed=1234 differs from randseed=99')
    t.check(runs['randrepeat=0 a'] != runs['randrepeat=0 b'],
            'randrepeat=0: two runs differ')


def test_shared_file(t):
    """Clones sharing one explicit file: each has its own random map and
    covers the whole file once."""
    f = t.shm_file('shared', 64 * KiB)
    log = t.path('shared.iolog')
    what = 'numjobs=3 on one file'
    r = t.run('--name=sh', '--filename=' + f, '--size=64k', '--bs=4k',
              '--rw=randread', '--numjobs=3', '--write_iolog=' + log)
    if not t.ok(r, what):
        return
    t.eq([j.issued for j in ibtest.parse_report(r.out)],
         [(NBLK, 0, 0, 0)] * 3, '%s: issued per clone' % what)
    paths = ibtest.iolog_paths(log)
    if len(paths) == 3:             # one log per clone: each a permutation
        for p in paths:
            t.eq(sorted(ibtest.parse_iolog(p).offsets()),
                 [i * 4096 for i in range(NBLK)],
                 '%s: %s covers the file once' % (what, os.path.basename(p)))
    il = ibtest.parse_iologs(log)
    if t.check(il is not None, '%s: iolog written' % what):
        counts = {}
        for o in il.offsets():
            counts[o] = counts.get(o, 0) + 1
        t.eq(sorted(set(counts.values())), [3],
             '%s: every block read by each of 3 clones' % what)
        t.eq(len(counts), NBLK, '%s: blocks touched' % what)


def test_groups(t):
    a = t.shm_file('ga', 64 * KiB)
    r = t.run('--size=64k', '--bs=4k', '--rw=read', '--ioengine=psync',
              '--filename=' + a, '--name=a', '--name=b', '--name=c',
              '--stonewall', '--name=d', '--name=e', '--new_group')
    if t.ok(r, 'groups'):
        jobs = ibtest.parse_report(r.out)
        t.eq([(j.name, j.groupid) for j in jobs],
             [('a', 0), ('b', 0), ('c', 1), ('d', 1), ('e', 2)],
             'groups: (job, groupid)')
        for g in range(3):
            t.check('Run status group %d (all jobs):' % g in r.out,
                    'groups: "Run status group %d" line' % g, r)

    # stonewall waits: c zero-fills 4m, d (stonewall) writes random data
    # over it afterwards, so no zero block may be left
    f = t.shm_file('sw', 4096 * KiB)
    r = t.run('--filename=' + f, '--bs=4k', '--ioengine=psync', '--rw=write',
              '--name=c', '--size=4m', '--zero_buffers',
              '--name=d', '--stonewall', '--size=4m')
    if t.ok(r, 'stonewall order'):
        data = ibtest.file_bytes(f)
        zero = bytes(4096)
        zeros = [i // 4096 for i in range(0, len(data), 4096)
                 if data[i:i + 4096] == zero]
        t.eq(zeros, [], 'stonewall: blocks left zero by the first job')


def main():
    t = ibtest.Test()
    test_numjobs(t)
    test_thread(t)
    test_repeat(t)
    test_shared_file(t)
    test_groups(t)
    t.finish()


if __name__ == '__main__':
    main()
