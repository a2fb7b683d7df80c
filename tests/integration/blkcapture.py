#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Block trace capture of a workload on a device (test_trace_capture,
test_replay).

capture_blktrace: Debian's blktrace (-D DIR -o NAME: per-CPU
NAME.blktrace.N). capture_tracefs: the kernel's `blk` tracer through
tracefs, which yields the same binary records: /sys/block/NAME/trace/enable
= 1, current_tracer = blk, options/bin = 1 (records as struct
blk_io_trace) and options/context-info = 0 (else ftrace puts 16 bytes of
its own before each record); per_cpu/cpuN/trace_pipe gives each CPU's
records, written to NAME.blktrace.N as blktrace writes them. Both run
workload(dev) while capturing and return (its result, None), or (None,
why not).
"""
import fcntl
import os
import shutil
import signal
import subprocess
import time

TRACEFS = ['/sys/kernel/tracing', '/sys/kernel/debug/tracing']
LOCK = '/dev/shm/iobench-tracefs.lock'


def sh(*argv, **kw):
    return subprocess.run(list(argv), capture_output=True, text=True, **kw)


def mounted(fstype, where):
    with open('/proc/self/mounts') as f:
        return any(l.split()[1] == where and l.split()[2] == fstype
                   for l in f)


class Mounts:
    """debugfs/tracefs mounted here for the capture, unmounted after."""

    def __init__(self):
        self.done = []

    def ensure(self, fstype, where):
        if mounted(fstype, where):
            return True
        if not os.path.isdir(where):
            return False
        if sh('mount', '-t', fstype, 'nodev', where).returncode != 0:
            return False
        self.done.append(where)
        return True

    def undo(self):
        while self.done:
            sh('umount', self.done.pop())


def capture_blktrace(dev, out, mounts, workload):
    """blktrace -D out -o NAME while the workload runs: (pids, why-not)."""
    if not shutil.which('blktrace'):
        return None, 'blktrace not installed'
    if not mounts.ensure('debugfs', '/sys/kernel/debug'):
        return None, 'debugfs cannot be mounted'
    name = os.path.basename(dev)
    p = subprocess.Popen(['blktrace', '-d', dev, '-D', out, '-o', name],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    time.sleep(1.0)
    if p.poll() is not None:
        msg = p.communicate()[0].strip().splitlines()
        return None, 'blktrace refused: %s' % (msg[0] if msg else p.returncode)
    try:
        pids = workload(dev)
    finally:
        p.send_signal(signal.SIGINT)
        p.communicate(timeout=30)
    return pids, None


def tracefs_dir(mounts):
    for d in TRACEFS:
        if os.path.exists(os.path.join(d, 'current_tracer')):
            return d
    if mounts.ensure('tracefs', TRACEFS[0]):
        return TRACEFS[0]
    return None


def wr(path, value):
    with open(path, 'w') as f:
        f.write(value)


def rd(path):
    with open(path) as f:
        return f.read().strip()


def drain(path, dest):
    """What a per-CPU trace_pipe holds now, without waiting for more."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    data = b''
    try:
        while True:
            try:
                b = os.read(fd, 1 << 16)
            except BlockingIOError:
                break
            if not b:
                break
            data += b
    finally:
        os.close(fd)
    with open(dest, 'wb') as f:
        f.write(data)


def capture_tracefs(dev, out, mounts, workload):
    """The kernel's blk tracer: (what workload(dev) returned, why-not).
    One capture at a time on this machine (the tracer is global): a lock
    in /dev/shm."""
    with open(LOCK, 'w') as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        return _capture_tracefs(dev, out, mounts, workload)


def _capture_tracefs(dev, out, mounts, workload):
    tr = tracefs_dir(mounts)
    if not tr:
        return None, 'no tracefs'
    if 'blk' not in rd(os.path.join(tr, 'available_tracers')).split():
        return None, 'the kernel has no blk tracer (CONFIG_BLK_DEV_IO_TRACE)'
    name = os.path.basename(dev)
    enable = '/sys/block/%s/trace/enable' % name
    opts = {o: rd(os.path.join(tr, 'options', o)) for o in ('bin', 'context-info')}
    old = rd(os.path.join(tr, 'current_tracer'))
    was_on = rd(os.path.join(tr, 'tracing_on'))
    try:
        wr(os.path.join(tr, 'tracing_on'), '0')
        wr(os.path.join(tr, 'current_tracer'), 'blk')
        wr(os.path.join(tr, 'options', 'bin'), '1')
        wr(os.path.join(tr, 'options', 'context-info'), '0')
        wr(os.path.join(tr, 'trace'), '')
        wr(enable, '1')
        wr(os.path.join(tr, 'tracing_on'), '1')
        pids = workload(dev)
        wr(os.path.join(tr, 'tracing_on'), '0')
        cpus = sorted(int(c[3:]) for c in os.listdir(os.path.join(tr, 'per_cpu')))
        for c in cpus:
            drain(os.path.join(tr, 'per_cpu', 'cpu%d' % c, 'trace_pipe'),
                  os.path.join(out, '%s.blktrace.%d' % (name, c)))
    except OSError as e:
        return None, 'tracefs: %s' % e
    finally:
        for path, v in [(enable, '0'), (os.path.join(tr, 'current_tracer'), old)] + \
                [(os.path.join(tr, 'options', o), v) for o, v in opts.items()]:
            try:
                wr(path, v)
            except OSError:
                pass
        try:
            wr(os.path.join(tr, 'tracing_on'), was_on)
        except OSError:
            pass
    return pids, None
