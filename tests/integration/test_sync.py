#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fsync=N, fdatasync=N and end_fsync: the 4th issued rwts field counts the
syncs issued as fio does for a synchronous engine (one after every N writes,
none after the job's last write; end_fsync's final sync is not counted), and
on a loop device every sync, end_fsync included, is a real flush request
(/sys/block/loopN/stat). Asynchronous engines issue the same syncs.
sync=1 (O_SYNC) and sync=dsync (O_DSYNC) issue no sync of their own, but
make every buffered write a flush request (as fio's do).

Two deliberate differences from fio 3.33, whose counts are quirks: fio files
fdatasync under short= (short=3,0,0,0 for the job below) where iobench counts
it as a sync, and fio's io_uring/libaio count syncs per queued write (16 and
4 for fsync=3) where iobench issues the same 5 as psync.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

# (options, issued syncs, flush requests) for 16 writes of 4k
CASES = [
    (['--fsync=3'], 5, 5),
    (['--fsync=4'], 3, 3),
    (['--fsync=1'], 15, 15),
    (['--fsync=16'], 0, 0),
    (['--fsync=4', '--end_fsync=1'], 3, 4),
    (['--end_fsync=1'], 0, 1),
    (['--fdatasync=4'], 3, 3),
    (['--fdatasync=2', '--end_fsync=1'], 7, 8),
    (['--fsync=5', '--rw=randwrite'], 3, 3),
    (['--sync=1', '--direct=0'], 0, 16),
    (['--sync=dsync', '--direct=0'], 0, 16),
    (['--sync=none', '--direct=0'], 0, 0),
    ([], 0, 0),
]
ASYNC = [
    (['--fsync=3', '--ioengine=io_uring', '--iodepth=8'], 5, 5),
    (['--fsync=3', '--ioengine=libaio', '--iodepth=8'], 5, 5),
    (['--fsync=4', '--end_fsync=1', '--ioengine=io_uring', '--iodepth=4'],
     3, 4),
]


def run_sync(t, where, target, opts, want_sync, want_flush=None):
    what = '%s %s' % (where, ' '.join(opts) or 'no sync options')
    before = ibtest.flushes(target) if want_flush is not None else 0
    r = t.run('--name=s', '--filename=' + target, '--size=64k', '--bs=4k',
              '--rw=write', '--direct=1', '--ioengine=psync', *opts)
    if not t.ok(r, what):
        return
    jobs = ibtest.parse_report(r.out)
    if not t.eq(len(jobs), 1, '%s: job blocks' % what, r):
        return
    t.eq(jobs[0].issued, (0, 16, 0, want_sync), '%s: issued rwts' % what)
    t.eq(jobs[0].short, (0, 0, 0, 0), '%s: short' % what)
    if want_flush is not None:
        t.eq(ibtest.flushes(target) - before, want_flush,
             '%s: flush requests on the device' % what)


def main():
    t = ibtest.Test()
    shm = t.shm_file('sync', 64 * 1024)
    for opts, syncs, _ in CASES + ASYNC:
        run_sync(t, 'shm', shm, opts, syncs)
    # reads are never synced
    r = t.run('--name=r', '--filename=' + shm, '--size=64k', '--bs=4k',
              '--rw=read', '--fsync=2', '--end_fsync=1')
    if t.ok(r, 'read job with fsync=2'):
        jobs = ibtest.parse_report(r.out)
        t.eq([j.issued for j in jobs], [(16, 0, 0, 0)],
             'read job with fsync=2: issued rwts')

    dev = t.loop_device(1024 * 1024)
    if dev is None:
        t.skip('loop devices unavailable: flush counts')
    else:
        for opts, syncs, flushes in CASES + ASYNC:
            run_sync(t, 'loop', dev, opts, syncs, flushes)
    t.finish()


if __name__ == '__main__':
    main()
