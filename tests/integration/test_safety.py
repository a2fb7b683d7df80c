#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Data safety on real block devices: loop devices over /dev/shm files, real
ext4/xfs images, real mounts and swap. Every refusal leaves the device's
bytes unchanged and creates nothing; every override works; a blank device
needs no flag; --readonly never opens anything for writing (strace).

This kernel may lack partitions and device-mapper: those relations are
covered by tests/unit/test_safety.c on a fake sysfs tree."""
import atexit
import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()
mounts = []
swaps = []
bg = []


def cleanup():
    for p in bg:
        if p.poll() is None:
            p.kill()
            p.wait()
    for dev in swaps:
        subprocess.run(['swapoff', dev], capture_output=True)
    for mnt in reversed(mounts):
        subprocess.run(['umount', mnt], capture_output=True)


atexit.register(cleanup)


def sh(*argv):
    p = subprocess.run(list(argv), capture_output=True, text=True)
    t.check(p.returncode == 0, ' '.join(argv), p.stdout + p.stderr)
    return p.returncode == 0


def digest(dev):
    """SHA-256 of the loop device's backing file (direct I/O loop: no cache)."""
    os.sync()
    h = hashlib.sha256()
    with open(t.loop_backing[dev], 'rb') as f:
        for chunk in iter(lambda: f.read(4 * MiB), b''):
            h.update(chunk)
    return h.hexdigest()


def mount(dev, name):
    mnt = t.mkdir(name)
    if not sh('mount', dev, mnt):
        return None
    mounts.append(mnt)
    os.sync()
    return mnt


def umount(mnt):
    t.eq(ibtest.umount_everywhere(mnt), None, 'umount ' + mnt)
    mounts.remove(mnt)


def ext4(dev):
    # no lazy init: a mounted idle ext4 must not write by itself
    return sh('mkfs.ext4', '-q', '-F', '-E',
              'lazy_itable_init=0,lazy_journal_init=0', dev)


def write_job(dev, *extra, name='x', offset='8m'):
    return t.run('--name=%s' % name, '--rw=write', '--bs=4k', '--size=1m',
                 '--offset=%s' % offset, '--filename=%s' % dev, '--output-format=terse',
                 *extra)


def want_msg(dev, reason, flag, name='x'):
    return ("iobench: job '%s': %s %s; refusing to write. Use --%s=1 to "
            "override.\n" % (name, dev, reason, flag))


def refused(what, r, dev, reason, flag, before, created=(), shown=None):
    """One exact line on stderr, exit 1, the device unchanged, nothing made.
    before=None: the device is not ours to checksum (active swap, which the
    kernel writes); the caller checks the opens instead."""
    t.eq(r.rc, 1, '%s: exit status' % what, r)
    t.eq(r.err, want_msg(shown or dev, reason, flag),
         '%s: the one stderr line' % what)
    if before is not None:
        t.eq(digest(dev), before, '%s: device content unchanged' % what)
    for p in created:
        t.eq(os.path.exists(p), False, '%s: %s not created' % (what, p))


def test_blank():
    dev = t.loop_device(64 * MiB)
    r = t.run('--rw=randrw', '--bs=4k', '--iodepth=64', '--numjobs=8',
              '--filename=%s' % dev, '--size=4m')
    t.ok(r, 'blank device: runs as typed, no flag')
    jobs = ibtest.parse_report(r.out)
    t.eq(len(jobs), 8, 'blank device: 8 job reports')
    t.eq(sum(ibtest.issued_total(jobs)[:2]), 8 * 1024,
         'blank device: every 4k block of 8 x 4 MiB issued')
    t.check('refusing' not in r.err, 'blank device: nothing refused', r)


def test_ext4():
    dev = t.loop_device(64 * MiB)
    if not ext4(dev):
        return
    before = digest(dev)
    newfile = t.path('other-job-file')
    # the first job's file would be laid out: the refusal comes first
    r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=1m',
              '--filename=%s' % dev, '--name=y', '--filename=%s' % newfile,
              '--output-format=terse')
    refused('ext4 unmounted', r, dev, 'carries a filesystem signature (ext4)',
            'allow_data_loss', before, [newfile])
    r = write_job(dev, '--allow_mounted_write=1')
    refused('ext4 unmounted, wrong flag', r, dev,
            'carries a filesystem signature (ext4)', 'allow_data_loss', before)
    r = t.run('--name=x', '--rw=read', '--bs=4k', '--size=1m',
              '--filename=%s' % dev, '--output-format=terse')
    t.ok(r, 'ext4 unmounted: reading needs no flag')

    mnt = mount(dev, 'ext4mnt')
    if not mnt:
        return
    before = digest(dev)
    r = write_job(dev)
    refused('ext4 mounted', r, dev, 'is mounted on %s (ext4)' % mnt,
            'allow_mounted_write', before)
    r = write_job(dev, '--allow_data_loss=1')
    refused('ext4 mounted, wrong flag', r, dev, 'is mounted on %s (ext4)' % mnt,
            'allow_mounted_write', before)
    # matched by device number: a symlink with another name is the same disk
    link = t.path('disk-by-another-name')
    os.symlink(dev, link)
    r = write_job(link)
    refused('ext4 mounted, via a symlink', r, dev,
            'is mounted on %s (ext4)' % mnt, 'allow_mounted_write', before,
            shown=link)
    r = t.run('--name=x', '--rw=randread', '--bs=4k', '--size=1m',
              '--filename=%s' % dev, '--output-format=terse')
    t.ok(r, 'ext4 mounted: reading needs no flag')
    r = write_job(dev, '--allow_mounted_write=1')
    t.ok(r, 'ext4 mounted: allow_mounted_write=1 overrides (as in fio)')
    t.check(digest(dev) != before, 'ext4 mounted, allowed: the device was written')
    umount(mnt)

    before = digest(dev)
    r = write_job(dev, '--allow_data_loss=1', offset='16m')
    t.ok(r, 'ext4 unmounted: allow_data_loss=1 overrides')
    t.check(digest(dev) != before, 'ext4 unmounted, allowed: the device was written')


def test_xfs():
    if not shutil.which('mkfs.xfs'):
        t.skip('mkfs.xfs not installed')
        return
    dev = t.loop_device(320 * MiB)     # xfs' minimum is 300 MiB (sparse here)
    if not sh('mkfs.xfs', '-q', '-f', dev):
        return
    before = digest(dev)
    refused('xfs unmounted', write_job(dev), dev,
            'carries a filesystem signature (xfs)', 'allow_data_loss', before)
    mnt = mount(dev, 'xfsmnt')
    if not mnt:
        return
    before = digest(dev)
    refused('xfs mounted', write_job(dev, '--numjobs=4'), dev,
            'is mounted on %s (xfs)' % mnt, 'allow_mounted_write', before)
    umount(mnt)


def test_swap():
    dev = t.loop_device(16 * MiB)
    os.chmod(dev, 0o600)
    if not sh('mkswap', dev):
        return
    before = digest(dev)
    refused('swap signature', write_job(dev), dev,
            'carries a signature (swap)', 'allow_data_loss', before)
    p = subprocess.run(['swapon', dev], capture_output=True, text=True)
    if p.returncode != 0:
        t.skip('swapon on a loop device: %s' % p.stderr.strip())
        return
    swaps.append(dev)
    refused('active swap', write_job(dev), dev, 'is active swap (%s)' % dev,
            'allow_data_loss', None)
    refused('active swap, wrong flag', write_job(dev, '--allow_mounted_write=1'),
            dev, 'is active swap (%s)' % dev, 'allow_data_loss', None)
    if shutil.which('strace'):
        trace = t.path('strace-swap.log')
        r = t.run('-f', '-qq', '-e', 'trace=open,openat,openat2,creat', '-o',
                  trace, *t.argv('--name=x', '--rw=write', '--bs=4k',
                                 '--size=1m', '--filename=%s' % dev),
                  prog=shutil.which('strace'), env=strace_env(),
                  timeout=t.scaled(120))
        t.eq(r.rc, 1, 'active swap under strace: refused', r)
        t.eq(writes_flags(opens_of(trace, dev)), [],
             'active swap: never opened for writing')
    sh('swapoff', dev)
    swaps.remove(dev)


def mbr(size_sectors):
    """A DOS partition table with one Linux partition (written by hand: no
    fdisk needed, and the kernel need not understand it)."""
    b = bytearray(512)
    b[440:444] = b'\x12\x34\x56\x78'
    b[446:462] = struct.pack('<B3sB3sII', 0, b'\0\0\0', 0x83, b'\0\0\0',
                             2048, size_sectors - 2048)
    b[510:512] = b'\x55\xaa'
    return bytes(b)


def test_partition_table():
    dev = t.loop_device(16 * MiB)
    with open(dev, 'r+b') as f:
        f.write(mbr(16 * MiB // 512))
    before = digest(dev)
    refused('partition table', write_job(dev), dev,
            'carries a partition table (dos)', 'allow_data_loss', before)
    t.ok(write_job(dev, '--allow_data_loss=1'),
         'partition table: allow_data_loss=1 overrides')


def test_other_namespace():
    """Mounted where /proc/self/mountinfo cannot see it: the kernel's
    exclusive claim (O_EXCL open -> EBUSY) still refuses."""
    if not shutil.which('unshare'):
        t.skip('unshare not installed')
        return
    dev = t.loop_device(64 * MiB)
    if not ext4(dev):
        return
    mnt = t.mkdir('nsmnt')
    p = subprocess.Popen(['unshare', '-m', '--propagation', 'private', 'sh',
                          '-c', 'mount %s %s && echo up && exec sleep 60' % (dev, mnt)],
                         stdout=subprocess.PIPE, text=True)
    bg.append(p)
    up = p.stdout.readline().strip()
    if up != 'up':
        t.skip('mount in a new mount namespace failed')
        return
    os.sync()
    before = digest(dev)
    r = write_job(dev)
    refused('mounted in another namespace', r, dev,
            'is in use by the kernel (exclusively claimed: mounted in another '
            'mount namespace, or held by a driver)', 'allow_data_loss', before)
    p.kill()
    p.wait()


def test_log_onto_device():
    """write_iolog naming a block device: refused, even for a reader."""
    dev = t.loop_device(16 * MiB)
    before = digest(dev)
    data = t.shm_file('log-target', 1 * MiB)
    for extra in ([], ['--numjobs=1']):
        r = t.run('--name=x', '--rw=read', '--size=1m', '--filename=%s' % data,
                  '--write_iolog=%s' % dev, '--output-format=terse', *extra)
        t.eq(r.rc, 1, 'write_iolog onto a device: exit status', r)
        t.eq(r.err, "iobench: job 'x': write_iolog: %s is a block device; "
             "refusing to write a report or log onto it\n" % dev,
             'write_iolog onto a device: the one stderr line')
    t.eq(digest(dev), before, 'write_iolog onto a device: device unchanged')
    for opt in ('--output', '--json-output'):
        r = t.run('--name=x', '--rw=read', '--size=1m', '--filename=%s' % data,
                  '%s=%s' % (opt, dev))
        t.eq(r.rc, 1, '%s onto a device: exit status' % opt, r)
        t.eq(r.err, "iobench: %s: %s is a block device; refusing to write a "
             "report or log onto it\n" % (opt, dev),
             '%s onto a device: the one stderr line' % opt)
        t.eq(r.out, '', '%s onto a device: nothing on stdout' % opt)
    t.eq(digest(dev), before, 'reports onto a device: device unchanged')


_OPEN_RE = re.compile(r'open(?:at)?\((?:AT_FDCWD, )?"([^"]+)", ([A-Z_|]+)')


def opens_of(trace, target):
    """Flags of every open/openat of target in an strace -f log."""
    flags = []
    with open(trace) as f:
        for line in f:
            m = _OPEN_RE.search(line)
            if m and os.path.realpath(m.group(1)) == os.path.realpath(target):
                flags.append(m.group(2))
    return flags


def writes_flags(flags):
    return [f for f in flags if re.search(r'O_RDWR|O_WRONLY|O_CREAT|O_TRUNC', f)]


def strace_env():
    """LeakSanitizer cannot run under ptrace: off for traced runs."""
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':detect_leaks=0'
    return env


def test_readonly_strace():
    if not shutil.which('strace'):
        t.skip('strace not installed')
        return
    dev = t.loop_device(16 * MiB)
    before = digest(dev)
    reg = t.shm_file('ro-file', 2 * MiB)
    for target, extra in ((dev, ['--ioengine=io_uring', '--direct=1']),
                          (dev, ['--ioengine=libaio', '--direct=1']),
                          (reg, ['--ioengine=psync'])):
        trace = t.path('strace.log')
        r = t.run('-f', '-qq', '-e', 'trace=open,openat,openat2,creat,truncate',
                  '-o', trace, *t.argv('--readonly', '--name=ro',
                                       '--rw=randread', '--bs=4k', '--size=1m',
                                       '--iodepth=4', '--filename=%s' % target,
                                       '--output-format=terse', *extra),
                  prog=shutil.which('strace'), env=strace_env(),
                  timeout=t.scaled(120))
        t.ok(r, 'readonly %s %s: runs' % (target, extra[0]))
        flags = opens_of(trace, target)
        t.check(len(flags) >= 1, 'readonly %s: the target was opened' % target,
                flags)
        t.eq(writes_flags(flags), [], 'readonly %s %s: never opened for writing'
             % (target, extra[0]))
    # a writing job under --readonly: refused before anything is opened
    trace = t.path('strace-w.log')
    newfile = t.path('ro-new')
    r = t.run('-f', '-qq', '-e', 'trace=open,openat,openat2,creat', '-o',
              trace, *t.argv('--readonly', '--name=w', '--rw=randwrite',
                             '--size=1m', '--filename=%s' % dev, '--name=n',
                             '--rw=read', '--size=1m',
                             '--filename=%s' % newfile),
              prog=shutil.which('strace'), env=strace_env(),
              timeout=t.scaled(120))
    t.eq(r.rc, 1, 'readonly + writing job: exit status', r)
    t.check('--readonly' in r.err and r.err.count('\n') == 1,
            'readonly + writing job: one line naming --readonly', r)
    t.eq(writes_flags(opens_of(trace, dev)), [],
         'readonly + writing job: device never opened for writing')
    t.eq(opens_of(trace, dev), [], 'readonly + writing job: device not opened')
    t.eq(os.path.exists(newfile), False, 'readonly: nothing created')
    t.eq(digest(dev), before, 'readonly: device unchanged')


def main():
    if not ibtest.loop_available():
        t.skip('no loop devices (needs root and /dev/loop-control)')
        t.finish()
    for name in ('mkfs.ext4', 'mkswap', 'mount'):
        if not shutil.which(name):
            t.skip('%s not installed' % name)
            t.finish()
    test_blank()
    test_ext4()
    test_xfs()
    test_swap()
    test_partition_table()
    test_other_namespace()
    test_log_onto_device()
    test_readonly_strace()
    cleanup()
    t.finish()


if __name__ == '__main__':
    main()
