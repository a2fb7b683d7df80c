#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fsync=N, fdatasync=N, sync_file_range=FLAGS:N and end_fsync: the 4th issued rwts field counts the
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
import re
import shutil
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


SFR_RE = re.compile(r'sync_file_range\(\d+(?:<[^>]*>)?, (\d+), (\d+), ([A-Z_|]+)\) = 0')
SYNC_CALL_RE = re.compile(r'(fsync|fdatasync)\(\d+<[^>]*/([^/>]+)>\) = 0')


def traced(t, prog, args, calls, pattern):
    """(Result, [pattern's groups per call]) of the system calls `calls`
    of iobench (prog None) or fio with args, under strace -y (each fd
    with its path), or (Result, None) without a log."""
    log = t.path('sync.strace')
    if os.path.exists(log):
        os.unlink(log)
    argv = t.argv(*args) if prog is None else [prog] + list(args)
    r = t.run('-f', '-qq', '-y', '-e', 'trace=' + calls, '-o', log, *argv,
              prog=shutil.which('strace'), timeout=t.scaled(120))
    try:
        with open(log) as f:
            return r, [m.groups() for m in pattern.finditer(f.read())]
    except OSError:
        return r, None


def sfr_calls(t, prog, args):
    """(Result, [(offset, nbytes, flags)] of the sync_file_range calls)."""
    r, calls = traced(t, prog, args, 'sync_file_range', SFR_RE)
    return r, calls and [(int(o), int(n), f) for o, n, f in calls]


def test_sync_file_range(t, target):
    """sync_file_range=FLAGS:N: one sync_file_range(2) every N writes of the
    range written since the last one, with the flags asked for (strace
    sees the calls), counted as syncs; fio 3.33 makes the same calls."""
    if not shutil.which('strace'):
        t.skip('strace is not installed: sync_file_range calls')
        return
    flags = 'SYNC_FILE_RANGE_WAIT_BEFORE|SYNC_FILE_RANGE_WRITE'
    cases = [
        (['--rw=write', '--sync_file_range=wait_before,write:3'],
         [(i * 12288, 12288, flags) for i in range(5)], 5),
        (['--rw=write', '--bs=16k', '--sync_file_range=wait_after'],
         [(i * 16384, 16384, 'SYNC_FILE_RANGE_WAIT_AFTER') for i in range(3)],
         3),
    ]
    for extra, want, syncs in cases:
        args = ['--name=s', '--filename=' + target, '--size=64k', '--bs=4k',
                '--ioengine=psync', '--direct=0'] + extra
        what = ' '.join(extra)
        r, calls = sfr_calls(t, None, args)
        if not t.ok(r, what) or not t.check(calls is not None,
                                            what + ': strace log'):
            continue
        t.eq(calls, want, what + ': sync_file_range calls')
        jobs = ibtest.parse_report(r.out)
        t.eq([j.issued[3] for j in jobs], [syncs], what + ': syncs issued')
        fio = shutil.which('fio')
        if fio:
            rf, fcalls = sfr_calls(t, fio, args)
            if t.ok(rf, what + ' (fio 3.33)'):
                t.eq(fcalls, want, what + ': fio 3.33\'s calls')
    # randwrite: each call spans the lowest to the highest byte written
    # since the last one, as fio's
    args = ['--name=s', '--filename=' + target, '--size=64k', '--bs=4k',
            '--ioengine=psync', '--direct=0', '--rw=randwrite',
            '--sync_file_range=write:4', '--write_iolog=' + t.path('sfr.log')]
    r, calls = sfr_calls(t, None, args)
    if t.ok(r, 'randwrite sync_file_range=write:4') and calls is not None:
        ios = [io for io in ibtest.parse_iolog(t.path('sfr.log')).ios
               if io[1] == 'write']
        want = []
        for k in range(0, 12, 4):
            offs = [io[2] for io in ios[k:k + 4]]
            want.append((min(offs), max(offs) + 4096 - min(offs),
                         'SYNC_FILE_RANGE_WRITE'))
        t.eq(calls, want, 'randwrite sync_file_range=write:4: ranges')


def test_verify_syncs(t, target):
    """fsync=N with verify: no sync after a pass's last write, whether
    the verify phase or backlog reads follow it, and the count goes on over
    loops (16 writes and fsync=3, twice: 10 syncs), as fio 3.33."""
    for extra, want in ((['--fsync=1'], (16, 16, 0, 15)),
                        (['--fsync=3', '--loops=2'], (32, 32, 0, 10)),
                        (['--fsync=1', '--verify_backlog=4'], (16, 16, 0, 15)),
                        (['--fsync=2', '--verify_backlog=16'], (16, 16, 0, 7))):
        for prog, run in (('iobench', t.run), ('fio', t.fio)):
            r = run('--name=v', '--filename=' + target, '--size=64k',
                    '--bs=4k', '--rw=write', '--verify=crc32c',
                    '--verify_state_save=0', '--ioengine=psync', *extra)
            what = '%s verify %s' % (prog, ' '.join(extra))
            if r is None or not t.ok(r, what):
                continue
            t.eq([j.issued for j in ibtest.parse_report(r.out)], [want],
                 what + ': issued rwts')


def sync_calls(t, prog, args):
    """(Result, [(call, file name)]) of the fsync and fdatasync calls."""
    return traced(t, prog, args, 'fsync,fdatasync', SYNC_CALL_RE)


def test_sync_files(t):
    """fsync=N over several files syncs each file written since its last
    sync: file_service_type=sequential over 2 files of 8 writes, fsync=2,
    is 4 syncs of the first and 3 of the second (none after the last
    write), fio 3.33's calls; counted as 7 syncs. fio syncs the one file its
    next I/O goes to; iobench no file that was not written (the JSON's sync
    latencies are real flushes)."""
    if not shutil.which('strace'):
        t.skip('strace is not installed: sync calls per file')
        return
    d = t.path('multi')
    os.makedirs(d, exist_ok=True)
    args = ['--name=m', '--directory=' + d, '--filename_format=f.$filenum',
            '--nrfiles=2', '--file_service_type=sequential', '--size=64k',
            '--bs=4k', '--rw=write', '--fsync=2', '--ioengine=psync',
            '--direct=0']
    want = [('fsync', 'f.0')] * 4 + [('fsync', 'f.1')] * 3
    r, calls = sync_calls(t, None, args)
    if t.ok(r, 'two files, fsync=2') and \
            t.check(calls is not None, 'two files: strace log'):
        t.eq(calls, want, 'two files, fsync=2: fsync calls')
        t.eq([j.issued for j in ibtest.parse_report(r.out)],
             [(0, 16, 0, 7)], 'two files, fsync=2: issued rwts')
    fio = shutil.which('fio')
    if fio:
        for name in os.listdir(d):
            os.unlink(os.path.join(d, name))
        rf, fcalls = sync_calls(t, fio, args)
        if t.ok(rf, 'two files, fsync=2 (fio 3.33)'):
            t.eq(fcalls, want, 'two files, fsync=2: fio 3.33\'s calls')


def sync_lines(path):
    """write_iolog's sync and datasync lines: (action, offset, length)."""
    return [io[1:] for io in ibtest.parse_iolog(path).ios
            if io[1] in ('sync', 'datasync')]


def test_sync_iolog(t, target):
    """write_iolog's line of an fdatasync=N sync is `datasync`, of an
    fsync=N sync `sync`, each at the offset of the file's last write, and
    end_fsync's last sync is logged too: fio 3.33's lines."""
    cases = [
        (['--rw=write', '--fdatasync=4'],
         [('datasync', 12288 + k * 16384, 0) for k in range(3)]),
        (['--rw=write', '--fsync=4', '--end_fsync=1'],
         [('sync', 12288 + k * 16384, 0) for k in range(4)]),
    ]
    for extra, want in cases:
        what = 'write_iolog ' + ' '.join(extra)
        for prog, run in (('iobench', t.run), ('fio', t.fio)):
            log = t.path('%s.iolog' % prog)
            if os.path.exists(log):
                os.unlink(log)
            r = run('--name=l', '--filename=' + target, '--size=64k',
                    '--bs=4k', '--ioengine=psync', '--write_iolog=' + log,
                    *extra)
            if r is None or not t.ok(r, '%s (%s)' % (what, prog)):
                continue
            t.eq(sync_lines(log), want, '%s: %s\'s sync lines' % (what, prog))
    # randwrite: at the last write's offset, whatever it is
    log = t.path('rand.iolog')
    r = t.run('--name=l', '--filename=' + target, '--size=64k', '--bs=4k',
              '--rw=randwrite', '--fdatasync=5', '--write_iolog=' + log)
    if t.ok(r, 'randwrite fdatasync=5 write_iolog'):
        ios = ibtest.parse_iolog(log).ios
        want = [('datasync', ios[i - 1][2], 0) for i, io in enumerate(ios)
                if io[1] == 'datasync']
        t.eq(len(want), 3, 'randwrite fdatasync=5: datasync lines')
        t.eq(sync_lines(log), want,
             'randwrite fdatasync=5: each at the last write\'s offset')


def main():
    t = ibtest.Test()
    shm = t.shm_file('sync', 64 * 1024)
    test_sync_file_range(t, shm)
    test_verify_syncs(t, shm)
    test_sync_files(t)
    test_sync_iolog(t, shm)
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
