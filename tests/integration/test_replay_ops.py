#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Trace replay beyond reads and writes; argv[2] is tests/tools/trace_dump.

Trims and syncs: a v3 iolog with writes, trims, a sync and a datasync is
replayed onto a loop device over a /dev/shm file (discard punches holes in
it): the trimmed blocks read back zero while the rest keeps its data, the
replay's own write_iolog lists every action of the trace in its order
(a sync/datasync with the offset its line has, as fio logs its syncs with
the offset of the write before), and the JSON counts each
direction (2 reads, 2 writes, 2 trims, 2 syncs: iobench counts a datasync
as a sync, as for fdatasync=). psync and libaio (the loop drains before a
sync). replay_skip=trim,sync leaves them out and the blocks keep their
data. fio 3.33 on the same iolog: the same reads, writes and sync
latencies (N = 2), but it does not issue the trims (it prints "bad ddir:
2" once per trim and counts 0), a gap iobench does not copy.

Refusals: trims write. A trace with a read and a trim under --readonly,
a trim beyond the device, verify= with trims (not supported, as for
rw=trim), and a trim onto a device with an ext4 signature, then mounted:
one exact line each, exit 1, the device's bytes unchanged;
--readonly with replay_skip=trim replays the read.

A block trace with a discard (blkdiscard) and a flush (dd conv=fsync),
captured as in test_replay (blktrace, else tracefs), replayed onto a
second loop device: the replay's iolog holds the capture's trims and syncs
in order, and the discarded range reads back zero.

Round trip: iobench's own iolog of a rw=trimwrite job with fsync=3 and
end_fsync (trims, writes, syncs) replayed onto a fresh file: the replay's
iolog lists the same actions in the same order; the same for fio 3.33's
iolog of a write job with fsync=3 and end_fsync (16 writes, 6 syncs).

numjobs with several traces (read_iolog=A:B): as fio 3.33 does, clone i
replays trace i mod 2, so numjobs=1 replays A alone; per-job read/write
counts exact and equal to fio's side by side (fio's JSON lists clone 0,
then clones N-1 .. 1: seen with 2 and 3 traces over numjobs 2..5), and each
clone's write_iolog (FILE.N) holds its own trace.

loops=3 replays the trace three times (12 I/Os of a 4-I/O trace, the log
three copies of it in order; loops=2 from gzip on stdin: two); fio 3.33 replays it once whatever loops= says
(no reset logic for a trace, axboe/fio#749: checked side by side), which
iobench deliberately does not copy. time_based: a trace of a read at 0
and a write at 100 ms repeated for runtime=1s: each pass starts where the
last one's last I/O was due, so 1 s holds at most 11 passes (the reads
count them) and, on a machine as loaded as this one (stalls of up to 0.9 s
were seen), at least 2; the job ends at the runtime, not at the trace end.
"""
import gzip
import hashlib
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402
from blkcapture import Mounts, capture_blktrace, capture_tracefs  # noqa: E402

KiB, MiB = 1024, ibtest.MiB
t = ibtest.Test()
TOOL = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None


def jobs(out):
    try:
        return json.loads(out)['jobs']
    except (ValueError, KeyError):
        return []


def counts(j):
    """(reads, writes, trims, sync latencies) of one JSON job."""
    return (j['read']['total_ios'], j['write']['total_ios'],
            j['trim']['total_ios'], j['sync']['lat_ns']['N'])


def actions(log):
    """(action, offset, length) of every non-file line of an iolog."""
    out = []
    with open(log) as f:
        for line in f.read().splitlines()[1:]:
            p = line.split()
            if p[-1] in ('add', 'open', 'close'):
                continue
            act, off, ln = p[-3:]
            out.append((act, int(off), int(ln)))
    return out


def v3(path, target, lines):
    text = ['fio version 3 iolog', '0 %s add' % target,
            '0 %s open' % target]
    text += ['%d %s %s' % (10 * (i + 1), target, x) for i, x in
             enumerate(lines)]
    text.append('%d %s close' % (10 * (len(lines) + 1), target))
    with open(path, 'w') as f:
        f.write('\n'.join(text) + '\n')
    return path


def fill(dev, size):
    with open(dev, 'r+b') as f:
        f.write(b'\xa5' * size)
        os.fsync(f.fileno())


def region(dev, off, ln):
    with open(dev, 'rb') as f:
        f.seek(off)
        return f.read(ln)


# -- trims and syncs --------------------------------------------------------
OPS = ['write 0 65536', 'trim 4096 8192', 'sync 0 0', 'write 131072 4096',
       'datasync 0 0', 'trim 262144 65536', 'read 0 4096', 'read 4096 4096']
WANT = [(x.split()[0], int(x.split()[1]), int(x.split()[2])) for x in OPS]


def trims_syncs():
    dev = t.loop_device(4 * MiB, name='ops.img')
    if not dev:
        t.skip('no loop devices')
        return
    log = v3(t.path('ops.log'), dev, OPS)
    for eng in ('psync', 'libaio'):
        fill(dev, 1 * MiB)
        out = t.path('ops-%s.out.log' % eng)
        r = t.run('--name=o', '--read_iolog=' + log, '--write_iolog=' + out,
                  '--ioengine=' + eng, '--iodepth=4', '--output-format=json')
        if not t.ok(r, '%s: replay with trims and syncs' % eng):
            continue
        t.eq(actions(out), WANT, '%s: the replay logs every action in order'
             % eng)
        t.eq([counts(j) for j in jobs(r.out)], [(2, 2, 2, 2)],
             '%s: reads, writes, trims, syncs' % eng)
        t.eq(region(dev, 4096, 8192), bytes(8192),
             '%s: the first trim reads back zero' % eng)
        t.eq(region(dev, 262144, 65536), bytes(65536),
             '%s: the second trim reads back zero' % eng)
        t.check(region(dev, 12288, 4096) != bytes(4096),
                '%s: the write next to the trim keeps its data' % eng)
        t.eq(region(dev, 327680, 4096), b'\xa5' * 4096,
             '%s: past the trims: the old data' % eng)
    fill(dev, 1 * MiB)
    out = t.path('skip.out.log')
    r = t.run('--name=s', '--read_iolog=' + log, '--write_iolog=' + out,
              '--replay_skip=trim,sync', '--output-format=json')
    t.ok(r, 'replay_skip=trim,sync')
    t.eq(actions(out), [w for w in WANT if w[0] in ('read', 'write')],
         'replay_skip=trim,sync: reads and writes only')
    t.eq([counts(j) for j in jobs(r.out)], [(2, 2, 0, 0)],
         'replay_skip=trim,sync: counts')
    t.eq(region(dev, 262144, 65536), b'\xa5' * 65536,
         'replay_skip=trim: the blocks keep their data')
    with_fio(dev, log)


def with_fio(dev, log):
    r = t.fio('--name=f', '--read_iolog=' + log, '--ioengine=psync',
              '--output-format=json')
    if r is None:
        t.skip('fio not installed')
        return
    t.ok(r, 'fio 3.33 replays the same iolog')
    t.eq([counts(j) for j in jobs(r.out)], [(2, 2, 0, 2)],
         'fio 3.33: same reads, writes and syncs; no trims')
    t.eq(r.err.count('bad ddir: 2'), 2, 'fio 3.33: "bad ddir" per trim', r)


def round_trip():
    src = t.shm_file('rt.dat', size=256 * KiB)
    log = t.path('rt.log')
    r = t.run('--name=w', '--filename=' + src, '--size=64k', '--bs=4k',
              '--rw=trimwrite', '--fsync=3', '--end_fsync=1',
              '--write_iolog=' + log, '--output-format=terse')
    t.ok(r, 'iobench writes an iolog with trims and syncs')
    acts = actions(log)
    t.eq(sorted(set(a for a, _, _ in acts)), ['sync', 'trim', 'write'],
         'the iolog holds trims, writes and syncs')
    out = t.path('rt.out.log')
    r = t.run('--name=r', '--read_iolog=' + log, '--write_iolog=' + out,
              '--replay_redirect=' + t.path('rt-fresh.dat'),
              '--replay_no_stall=1', '--output-format=terse')
    t.ok(r, 'replay of the trimwrite iolog')
    t.eq(actions(out), acts, 'round trip: trims, writes, syncs in order')
    # sync_file_range= lines: replayed as datasyncs, in their places
    slog = t.path('sfr.log')
    r = t.run('--name=w', '--filename=' + t.shm_file('sfr.dat', size=MiB),
              '--size=64k', '--bs=4k', '--rw=write',
              '--sync_file_range=write:3', '--write_iolog=' + slog,
              '--output=/dev/null')
    t.ok(r, 'iobench writes an iolog with sync_file_range lines')
    sacts = actions(slog)
    t.eq([a for a, _, _ in sacts],
         (['write'] * 3 + ['sync_file_range']) * 5 + ['write'],
         'sync_file_range=write:3: a line after every 3 writes')
    out = t.path('sfr.out.log')
    r = t.run('--name=r', '--read_iolog=' + slog, '--write_iolog=' + out,
              '--replay_redirect=' + t.path('sfr-fresh.dat'),
              '--replay_no_stall=1', '--output-format=json')
    if t.ok(r, 'replay of the sync_file_range iolog'):
        t.eq([a for a, _, _ in actions(out)],
             [a if a == 'write' else 'datasync' for a, _, _ in sacts],
             'sync_file_range lines replayed as datasyncs')
        t.eq([counts(j) for j in jobs(r.out)], [(0, 16, 0, 5)],
             'sync_file_range replay: writes, syncs')
    flog = t.path('fio-sync.log')
    r = t.fio('--name=f', '--filename=' + t.shm_file('fs.dat', size=MiB),
              '--size=64k', '--bs=4k', '--rw=write', '--fsync=3',
              '--end_fsync=1', '--write_iolog=' + flog, '--output=/dev/null')
    if r is None:
        t.skip('fio not installed')
        return
    t.ok(r, 'fio writes an iolog with syncs')
    facts = actions(flog)
    t.eq(sorted(set(a for a, _, _ in facts)), ['sync', 'write'],
         'fio\'s iolog: writes and syncs')
    out = t.path('fio-sync.out.log')
    r = t.run('--name=r', '--read_iolog=' + flog, '--write_iolog=' + out,
              '--replay_redirect=' + t.path('fs-fresh.dat'),
              '--replay_no_stall=1', '--output-format=terse')
    t.ok(r, 'replay of fio\'s iolog with syncs')
    t.eq(actions(out), facts, 'fio round trip: writes and syncs in order')


# -- refusals: trims write ---------------------------------------------------
def digest(dev):
    os.sync()
    with open(t.loop_backing[dev], 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def refused(log, dev, extra, line, what):
    before = digest(dev)
    r = t.run('--name=b', '--read_iolog=' + log, '--replay_redirect=' + dev,
              '--output-format=terse', *extra)
    t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s\n' % line),
         '%s: one exact line, exit 1' % what)
    t.eq(digest(dev), before, '%s: device unchanged' % what)


def trim_refusals():
    dev = t.loop_device(4 * MiB, name='ref.img')
    if not dev:
        t.skip('no loop devices')
        return
    fill(dev, 4 * MiB)
    tr = t.shm_file('tr.log', data=b'fio version 2 iolog\n/x add\n'
                    b'/x read 0 4096\n/x trim 4096 4096\n')
    tb = t.shm_file('tb.log', data=b'fio version 2 iolog\n/x add\n'
                    b'/x read 0 4096\n/x trim 4190208 8192\n')
    refused(tr, dev, ['--readonly'], '%s: line 4: a trim, refused by '
            '--readonly (replay_skip=trim leaves trims out)' % tr,
            '--readonly with a trim')
    refused(tb, dev, [], '%s: line 4: trim at offset 4190208 length 8192 '
            'ends beyond %s (4194304 bytes)' % (tb, dev), 'a trim beyond')
    refused(tr, dev, ['--verify=crc32c'], 'verify with rw=read: trim '
            'verification is not supported by iobench', 'verify= with trims')
    before = digest(dev)
    r = t.run('--name=b', '--read_iolog=' + tr, '--replay_redirect=' + dev,
              '--readonly', '--replay_skip=trim', '--output-format=terse')
    t.ok(r, '--readonly with replay_skip=trim: the read replays')
    t.eq(digest(dev), before, 'replay_skip=trim: device unchanged')
    # no lazy init (as test_safety): a mounted idle ext4 must not write by
    # itself, or the mounted device's digest below changes under the test
    if subprocess.run(['mkfs.ext4', '-q', '-F', '-E',
                       'lazy_itable_init=0,lazy_journal_init=0', dev],
                      capture_output=True).returncode != 0:
        t.skip('no ext4 image')
        return
    refused(tr, dev, [], "job 'b': %s carries a filesystem signature (ext4); "
            'refusing to write. Use --allow_data_loss=1 to override.' % dev,
            'a trim onto ext4')
    mnt = t.mkdir('mnt')
    if subprocess.run(['mount', dev, mnt], capture_output=True).returncode:
        t.skip('cannot mount the ext4 image')
        return
    t.mounts.append(mnt)
    refused(tr, dev, [], "job 'b': %s is mounted on %s (ext4); refusing to "
            'write. Use --allow_mounted_write=1 to override.' % (dev, mnt),
            'a trim onto a mounted device')


# -- a block trace with a discard and a flush ------------------------------
DISCARD_OFF, DISCARD_LEN = 1 * MiB, 64 * KiB


def discard_workload(dev):
    for argv in (['dd', 'if=/dev/zero', 'of=' + dev, 'bs=4096', 'count=4',
                  'seek=16', 'oflag=direct', 'conv=fsync,notrunc'],
                 ['blkdiscard', '-f', '-o', str(DISCARD_OFF), '-l',
                  str(DISCARD_LEN), dev]):
        subprocess.run(argv, capture_output=True, check=True)
    return True


def trace_ops(spec):
    """(op, offset, length) of every record trace_dump reads."""
    p = subprocess.run([TOOL, spec], capture_output=True, text=True)
    t.check(p.returncode == 0, 'trace_dump %s' % spec, p.stderr)
    return [(f[2], int(f[3]), int(f[4])) for f in
            (line.split() for line in p.stdout.splitlines())]


def blktrace_ops():
    if not TOOL:
        t.skip('no trace_dump tool given')
        return
    a = t.loop_device(4 * MiB, name='dA.img')
    b = t.loop_device(4 * MiB, name='dB.img')
    if not a or not b:
        t.skip('no loop devices')
        return
    out_dir = t.mkdir('cap')
    mounts = Mounts()
    try:
        ok, why = capture_blktrace(a, out_dir, mounts, discard_workload)
        if not ok:
            ok, why2 = capture_tracefs(a, out_dir, mounts, discard_workload)
            why = '%s; %s' % (why, why2)
    finally:
        mounts.undo()
    if not ok:
        t.skip('no tracefs capture: %s' % why)
        return
    base = os.path.join(out_dir, os.path.basename(a))
    recs = trace_ops(base)
    t.check(('trim', DISCARD_OFF, DISCARD_LEN) in recs and
            any(op == 'sync' for op, _, _ in recs),
            'the capture holds the discard and a flush', recs)
    fill(b, 2 * MiB)
    out = t.path('blk.out.log')
    r = t.run('--name=b', '--read_iolog=' + base, '--replay_redirect=' + b,
              '--write_iolog=' + out, '--replay_no_stall=1',
              '--output-format=json')
    if not t.ok(r, 'blktrace replay with a discard and a flush'):
        return
    t.eq(actions(out), recs, 'blktrace: every record replayed, in order')
    t.eq(region(b, DISCARD_OFF, DISCARD_LEN), bytes(DISCARD_LEN),
         'blktrace: the discarded range reads back zero')


# -- numjobs with several traces -------------------------------------------
def per_clone():
    fa, fb = t.shm_file('pa.dat', size=MiB), t.shm_file('pb.dat', size=MiB)
    la = v3(t.path('A.log'), fa, ['write 0 4096', 'read 4096 4096',
                                  'write 8192 4096'])
    lb = v3(t.path('B.log'), fb, ['read 0 4096'])
    want = {1: [(1, 2)], 2: [(1, 2), (1, 0)], 3: [(1, 2), (1, 0), (1, 2)]}
    for n in (1, 2, 3):
        out = t.path('nj%d.log' % n)
        r = t.run('--name=n', '--read_iolog=%s:%s' % (la, lb),
                  '--numjobs=%d' % n, '--write_iolog=' + out,
                  '--output-format=json')
        t.ok(r, 'numjobs=%d over two traces' % n)
        got = [counts(j)[:2] for j in jobs(r.out)]
        t.eq(got, want[n], 'numjobs=%d: clone i replays trace i mod 2' % n)
        if n == 2:
            t.eq(actions(out + '.0'), actions(la), 'clone 0 logs trace A')
            t.eq(actions(out + '.1'), actions(lb), 'clone 1 logs trace B')
        f = t.fio('--name=n', '--read_iolog=%s:%s' % (la, lb),
                  '--numjobs=%d' % n, '--output-format=json')
        if f is None:
            continue
        # fio's JSON lists clone 0 first, then the others last to first
        fj = [counts(j)[:2] for j in jobs(f.out)]
        t.eq(fj[:1] + fj[1:][::-1], got,
             'numjobs=%d: the same per-clone counts as fio 3.33' % n)


# -- loops and time_based ---------------------------------------------------
def repeats():
    f = t.shm_file('lp.dat', size=MiB)
    ops = ['write 0 4096', 'read 4096 4096', 'write 8192 4096',
           'read 0 4096']
    log = v3(t.path('lp.log'), f, ops)
    out = t.path('lp.out.log')
    r = t.run('--name=l', '--read_iolog=' + log, '--loops=3',
              '--write_iolog=' + out, '--output-format=json')
    t.ok(r, 'loops=3 replay')
    t.eq([counts(j)[:2] for j in jobs(r.out)], [(6, 6)], 'loops=3: 3 passes')
    t.eq(actions(out), actions(log) * 3, 'loops=3: the trace 3 times, in order')
    with open(log, 'rb') as fh:
        z = gzip.compress(fh.read())
    out2 = t.path('lp-stdin.out.log')
    p = subprocess.run(t.argv('--name=s', '--read_iolog=-', '--loops=2',
                              '--write_iolog=' + out2, '--output-format=terse'),
                       input=z, capture_output=True, timeout=t.scaled(120))
    t.eq(p.returncode, 0, 'loops=2 from stdin (gzip): exit status', p.stderr)
    t.eq(actions(out2), actions(log) * 2, 'stdin: the trace twice, in order')
    fr = t.fio('--name=l', '--read_iolog=' + log, '--loops=3',
               '--output-format=json')
    if fr is None:
        t.skip('fio not installed')
    else:
        t.eq([counts(j)[:2] for j in jobs(fr.out)], [(2, 2)],
             'fio 3.33: loops=3 replays once (axboe/fio#749)')
    tb = t.path('tb.log')
    with open(tb, 'w') as fh:
        fh.write('fio version 3 iolog\n0 %s add\n0 %s open\n0 %s read 0 4096\n'
                 '100000 %s write 4096 4096\n100000 %s close\n' % ((f,) * 5))
    r = t.run('--name=tb', '--read_iolog=' + tb, '--time_based',
              '--runtime=1', '--output-format=json')
    t.ok(r, 'time_based replay')
    js = jobs(r.out)
    if not t.eq(len(js), 1, 'time_based: one job', r):
        return
    reads, writes = counts(js[0])[:2]
    t.check(2 <= reads <= 11, 'time_based: 2..11 passes in 1 s', reads)
    t.check(writes in (reads - 1, reads), 'time_based: whole passes, but '
            'for the last one cut by the runtime', (reads, writes))
    t.check(950 <= js[0]['job_runtime'] <= 1500,
            'time_based: ends at the runtime (ms)', js[0]['job_runtime'])


def main():
    trims_syncs()
    round_trip()
    trim_refusals()
    blktrace_ops()
    per_clone()
    repeats()
    t.finish()


if __name__ == '__main__':
    main()
