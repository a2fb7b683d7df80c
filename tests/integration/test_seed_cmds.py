#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The project brief's seed command lines, scaled down (sizes of 1 MiB, a
1-second runtime) and pointed at /dev/shm files and loop devices instead of
real disks. Each must run and report exact counts:

  iobench --rw=randrw --rwmixread=75 --bs=4k --iodepth=64 --numjobs=8
          --filename=/dev/nvme1n1
  iobench --randrepeat=1 --ioengine=libaio --direct=1 --gtod_reduce=1
          --name=TGS --filename=TGS --bs=4k --iodepth=64 --size=4G
          --readwrite=randrw --rwmixread=75 --numjobs=8
  iobench --filename=/dev/sdb --direct=1 --rw=read --bs=64k
          --ioengine=io_uring --iodepth=64 --runtime=120 --numjobs=4
          --time_based --group_reporting --eta-newline=1 --readonly
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
NBLK = MiB // 4096


def per_clone(t, what, r, nclones, nios):
    """nclones job blocks, each with reads + writes == nios, no errors."""
    jobs = ibtest.parse_report(r.out)
    if not t.eq(len(jobs), nclones, '%s: job blocks' % what, r):
        return jobs
    for i, j in enumerate(jobs):
        t.eq(j.err, 0, '%s: clone %d err=' % (what, i))
        if t.check(j.issued is not None, '%s: clone %d issued line' % (what, i)):
            t.eq(j.issued[0] + j.issued[1], nios,
                 '%s: clone %d reads + writes' % (what, i))
            t.eq(j.issued[2:], (0, 0), '%s: clone %d trim, sync' % (what, i))
    t.eq(len({j.pid for j in jobs}), nclones, '%s: distinct pids' % what)
    return jobs


def seed1(t, where, target, extra):
    what = 'seed 1 (%s)' % where
    r = t.run('--rw=randrw', '--rwmixread=75', '--bs=4k', '--iodepth=64',
              '--numjobs=8', '--filename=' + target, *extra)
    if not t.ok(r, what):
        return
    per_clone(t, what, r, 8, NBLK)
    # iobench's defaults: O_DIRECT through io_uring at the depth asked for
    t.eq(r.err, '', '%s: no warning' % what, r)
    t.check('ioengine=io_uring, iodepth=64' in r.out.splitlines()[0],
            '%s: header shows io_uring at depth 64' % what, r)
    # fio's defaults (psync) are asked for, and warned about
    r = t.run('--rw=randrw', '--rwmixread=75', '--bs=4k', '--iodepth=64',
              '--numjobs=8', '--filename=' + target, '--defaults=fio', *extra)
    if not t.ok(r, what + ' --defaults=fio'):
        return
    per_clone(t, what + ' --defaults=fio', r, 8, NBLK)
    t.check('warning [sync-depth]: ioengine=psync is synchronous: '
            'iodepth=64 is effectively 1' in r.out, '%s: --defaults=fio: psync '
            'at iodepth=64: the sync-depth check says the depth is '
            'effectively 1' % what, r)


def seed2(t, where, target, cwd=None):
    what = 'seed 2 (%s)' % where
    args = ['--randrepeat=1', '--ioengine=libaio', '--direct=1',
            '--gtod_reduce=1', '--name=TGS', '--filename=' + target,
            '--bs=4k', '--iodepth=64', '--size=1m', '--readwrite=randrw',
            '--rwmixread=75', '--numjobs=8']
    r = t.run(*args, cwd=cwd)
    if not t.ok(r, what):
        return
    jobs = per_clone(t, what, r, 8, NBLK)
    t.check(all(j.name == 'TGS' for j in jobs), '%s: job names' % what)
    t.check('depth' not in r.err, '%s: no depth warning for libaio' % what, r)
    r2 = t.run(*args, cwd=cwd)
    if t.ok(r2, what + ' again'):
        t.eq([j.issued for j in ibtest.parse_report(r2.out)],
             [j.issued for j in jobs],
             '%s: randrepeat=1, the same split again' % what)


def seed3(t, where, target, extra, nblk64):
    what = 'seed 3 (%s)' % where
    r = t.run('--filename=' + target, '--direct=1', '--rw=read', '--bs=64k',
              '--ioengine=io_uring', '--iodepth=64', '--runtime=1',
              '--numjobs=4', '--time_based', '--group_reporting',
              '--eta-newline=1', '--readonly', *extra, timeout=60)
    if not t.ok(r, what):
        return
    jobs = ibtest.parse_report(r.out)
    if not t.eq(len(jobs), 1, '%s: one group_reporting block' % what, r):
        return
    j = jobs[0]
    t.eq(j.jobs, 4, '%s: jobs=' % what)
    t.eq(j.err, 0, '%s: err=' % what)
    if t.check(j.issued is not None, '%s: issued line' % what, r):
        t.eq(j.issued[1:], (0, 0, 0), '%s: only reads' % what)
        t.check(j.issued[0] > 4 * nblk64,
                '%s: time_based wraps past one pass per clone' % what,
                j.issued)
    rd = j.dirs.get('read')
    if t.check(rd is not None, '%s: read: line' % what, r):
        t.check(rd['runtime_ms'] >= 1000,
                '%s: ran the whole runtime=1 (got %dmsec)'
                % (what, rd['runtime_ms']))


def main():
    t = ibtest.Test()
    shm = t.shm_file('seed1', MiB)
    seed1(t, 'shm file', shm, ['--size=1m'])
    d = t.mkdir('tgs')
    seed2(t, 'relative file TGS', 'TGS', cwd=d)
    t.eq(ibtest.size_of(os.path.join(d, 'TGS')), MiB,
         'seed 2: TGS laid out to size=1m')
    shm3 = t.shm_file('seed3', MiB, data=ibtest.pattern(MiB))
    seed3(t, 'shm file', shm3, ['--size=1m'], MiB // 65536)
    t.check(ibtest.file_bytes(shm3) == ibtest.pattern(MiB),
            'seed 3: --readonly left the file unchanged')

    dev = t.loop_device(MiB)
    if dev is None:
        t.skip('loop devices unavailable: seed commands on a block device')
    else:
        seed1(t, 'loop, whole device', dev, [])
        seed2(t, 'loop', dev)
        before = ibtest.file_bytes(dev)
        seed3(t, 'loop, whole device', dev, [], MiB // 65536)
        t.check(ibtest.file_bytes(dev) == before,
                'seed 3 (loop): --readonly left the device unchanged')
    t.finish()


if __name__ == '__main__':
    main()
