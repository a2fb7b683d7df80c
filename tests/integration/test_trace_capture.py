#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Real traces read back by the trace reader (tests/tools/trace_dump, argv[2]).

iologs: the v2 iolog iobench writes and the v3 one fio 3.33 writes (also
gzip-compressed through stdin), record for record.

A block trace of a known workload on a loop device: the exact I/Os dd issued
(direction, offset, length, order), a discard (blkdiscard) and a flush
(dd conv=fsync), whatever else ran on the device (records are told apart
by pid).

Capture: Debian's blktrace first (-D DIR -o NAME: per-CPU NAME.blktrace.N).
Where it is refused (kernel lockdown: its debugfs relay files cannot be
opened), the kernel's `blk` tracer through tracefs, which yields the same
binary records: /sys/block/loopN/trace/enable = 1, current_tracer = blk,
options/bin = 1 (records as struct blk_io_trace) and options/context-info
= 0 (else ftrace puts 16 bytes of its own, pid/cpu/time, before each
record). per_cpu/cpuN/trace_pipe then gives each CPU's records; its
trace_pipe_raw would give ring-buffer pages, not blktrace records. Each
CPU's records go to NAME.blktrace.N, as blktrace writes them.

Read back: the per-CPU files (merged by the reader), blkparse -d's single
merged file, the same gzip-compressed, and a copy cut short in its last
record (one diag line naming the file and the record). Exit 77 only where
neither capture works, naming what is missing.
"""
import gzip
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402
from blkcapture import Mounts, capture_blktrace, capture_tracefs  # noqa: E402

BS_W, N_W, SEEK_W = 4096, 8, 16         # 8 writes of 4k at 64k
BS_R, N_R, SKIP_R = 16384, 4, 2         # 4 reads of 16k at 32k
DISCARD_OFF, DISCARD_LEN = 1 << 20, 65536


def sh(*argv, **kw):
    return subprocess.run(list(argv), capture_output=True, text=True, **kw)


def workload(dev):
    """Run the I/Os; returns {pid: what} of the processes that issued them."""
    pids = {}
    for what, argv in [
            ('write', ['dd', 'if=/dev/zero', 'of=' + dev, 'bs=%d' % BS_W,
                       'count=%d' % N_W, 'seek=%d' % SEEK_W, 'oflag=direct',
                       'conv=fsync,notrunc']),
            ('read', ['dd', 'if=' + dev, 'of=/dev/null', 'bs=%d' % BS_R,
                      'count=%d' % N_R, 'skip=%d' % SKIP_R, 'iflag=direct']),
            ('discard', ['blkdiscard', '-f', '-o', str(DISCARD_OFF), '-l',
                         str(DISCARD_LEN), dev])]:
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        err = p.communicate(timeout=60)[1]
        if p.returncode != 0:
            raise RuntimeError('%s: %s' % (' '.join(argv), err.strip()))
        pids[p.pid] = what
    return pids


def expected():
    w = [('write', (SEEK_W + i) * BS_W, BS_W) for i in range(N_W)]
    r = [('read', (SKIP_R + i) * BS_R, BS_R) for i in range(N_R)]
    return {'write': w + [('sync', 0, 0)], 'read': r,
            'discard': [('trim', DISCARD_OFF, DISCARD_LEN)]}


def dump(t, tool, spec):
    p = sh(tool, spec, timeout=60)
    recs = []
    for line in p.stdout.splitlines():
        ts, _name, op, off, ln, pid, devno = line.split()
        recs.append((int(ts), op, int(off), int(ln), int(pid[4:]), devno[4:]))
    return p, recs


def check_records(t, what, recs, pids, dev):
    st = os.stat(dev)
    devno = '%d:%d' % (os.major(st.st_rdev), os.minor(st.st_rdev))
    want = expected()
    for pid, kind in pids.items():
        got = [(op, off, ln) for _, op, off, ln, p, _ in recs if p == pid]
        t.eq(got, want[kind], '%s: the I/Os of dd/blkdiscard (%s)' % (what, kind))
    ours = [r for r in recs if r[4] in pids]
    t.eq(len(ours), N_W + 1 + N_R + 1, '%s: I/O count of the workload' % what)
    t.eq(sorted(set(r[5] for r in ours)), [devno], '%s: device number' % what)
    ts = [r[0] for r in recs]
    t.check(ts == sorted(ts) and ts[:1] == [0],
            '%s: times from 0, in order' % what, ts)
    order = [pids[r[4]] for r in ours]
    t.eq(order, ['write'] * (N_W + 1) + ['read'] * N_R + ['discard'],
         '%s: the workload order' % what)


def record_starts(path):
    """Offsets of the records of a little- or big-endian blktrace file."""
    data = open(path, 'rb').read()
    end = '<' if data[:4] == b'\x07tae' else '>'
    pos, starts = 0, []
    while pos + 48 <= len(data):
        starts.append(pos)
        pos += 48 + struct.unpack_from(end + 'H', data, pos + 46)[0]
    return starts


def check_truncated(t, tool, merged):
    cut = t.path('cut.bin')
    starts = record_starts(merged)
    with open(merged, 'rb') as f:
        data = f.read()
    with open(cut, 'wb') as f:
        f.write(data[:starts[-1] + 38])
    p = sh(tool, cut)
    t.eq(p.returncode, 1, 'cut-short capture: exit status')
    t.eq(p.stderr, 'trace_dump: %s: record %d: truncated (38 of 48 bytes)\n'
         % (cut, len(starts)), 'cut-short capture: the diag line')


def read_back(t, tool, dev, out, pids):
    name = os.path.basename(dev)
    base = os.path.join(out, name)
    p, percpu = dump(t, tool, base)
    t.check(p.returncode == 0, 'trace_dump of the per-CPU files', p.stderr)
    check_records(t, 'per-CPU files', percpu, pids, dev)
    if not shutil.which('blkparse'):
        t.skip('blkparse not installed: no merged file')
        return
    merged = t.path('merged.bin')
    bp = sh('blkparse', '-i', name, '-D', out, '-d', merged, '-O')
    t.check(bp.returncode == 0, 'blkparse -d', bp.stderr)
    p, recs = dump(t, tool, merged)
    t.check(p.returncode == 0, 'trace_dump of blkparse -d', p.stderr)
    check_records(t, 'blkparse -d', recs, pids, dev)
    t.eq(recs, percpu, 'blkparse -d = the reader\'s own per-CPU merge')
    with open(merged, 'rb') as f, gzip.open(merged + '.gz', 'wb') as g:
        g.write(f.read())
    p, zrecs = dump(t, tool, merged + '.gz')
    t.eq(zrecs, recs, 'gzip-compressed blkparse -d file')
    check_truncated(t, tool, merged)


def iolog_records(t, tool, spec, stdin=None):
    p = subprocess.run([tool, spec], input=stdin, capture_output=True,
                       timeout=60)
    t.check(p.returncode == 0, 'trace_dump %s' % spec, p.stderr)
    return [tuple(l.split()[:5]) for l in p.stdout.decode().splitlines()]


def iologs(t, tool):
    """iobench's own v2 write_iolog and fio 3.33's v3 one, read back: the
    exact records (fio's times are its microseconds, as nanoseconds)."""
    data = t.path('io.dat')
    want = [('add', '0', '0'), ('open', '0', '0')] + \
        [('write', str(i * 4096), '4096') for i in range(8)] + \
        [('close', '0', '0')]
    job = ['--name=j', '--filename=' + data, '--size=32k', '--bs=4k',
           '--rw=write']
    r = t.run(*job, '--write_iolog=' + t.path('ib.log'),
              '--write_iolog_version=2')
    t.ok(r, 'iobench write_iolog')
    got = iolog_records(t, tool, t.path('ib.log'))
    t.eq([(op, off, ln) for ts, name, op, off, ln in got], want,
         'iobench v2 iolog read back')
    t.eq(set((ts, name) for ts, name, *_ in got), {('0', data)},
         'v2: no times, one file name')
    r = t.fio(*job, '--write_iolog=' + t.path('fio.log'), '--output=/dev/null')
    if r is None:
        t.skip('fio not installed: no v3 iolog of its own')
        return
    t.ok(r, 'fio write_iolog')
    with open(t.path('fio.log'), 'rb') as f:
        raw = f.read()
    lines = raw.decode().splitlines()
    t.eq(lines[0], 'fio version 3 iolog', 'fio writes version 3')
    got = iolog_records(t, tool, t.path('fio.log'))
    t.eq([(op, off, ln) for ts, name, op, off, ln in got], want,
         'fio v3 iolog read back')
    t.eq([ts for ts, *_ in got], [str(int(l.split()[0]) * 1000)
                                  for l in lines[1:]], 'v3 times in ns')
    t.eq(iolog_records(t, tool, '-', stdin=gzip.compress(raw)), got,
         'the same, gzip-compressed, from stdin')
    with open(t.path('bad.log'), 'wb') as f:
        f.write(raw.replace(b'write 4096', b'write -4096'))
    p = sh(tool, t.path('bad.log'))
    t.eq((p.returncode, p.stderr), (1, "trace_dump: %s: line 5: bad offset "
                                    "'-4096'\n" % t.path('bad.log')),
         'a bad line: one diag line naming file and line')


def main():
    t = ibtest.Test()
    tool = os.path.abspath(sys.argv[2])
    iologs(t, tool)
    dev = t.loop_device(4 << 20)
    if not dev:
        t.skip('no loop devices here (root, /dev/loop-control, losetup)')
        t.finish()
    out = t.mkdir('capture')
    mounts = Mounts()
    try:
        pids, why_blk = capture_blktrace(dev, out, mounts, workload)
        how = 'blktrace'
        if pids is None:
            for f in os.listdir(out):
                os.unlink(os.path.join(out, f))
            pids, why_tr = capture_tracefs(dev, out, mounts, workload)
            how = 'tracefs blk tracer (%s)' % why_blk
    finally:
        mounts.undo()
    if pids is None:
        t.skip('no block trace capture: %s; %s' % (why_blk, why_tr))
        t.finish()
    print('capture: %s' % how)
    read_back(t, tool, dev, out, pids)
    t.finish()


if __name__ == '__main__':
    main()
