#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reliability under attack (issue 30): the ways an adversarial probe of
44dc0b2 destroyed data, each now refused with the protected target's bytes
unchanged (SHA-256 of its backing file before and after):
  race      a symlink swapped between a blank and a formatted loop device
            against repeated write runs: 0 writes reach the formatted one
  stacked   a loop device on top of a loop device (losetup -o 1M), with a
            mounted ext4 on one of them: refused through the stack, and
            allow_data_loss=1 never overrides the mount
The loop devices sit on tmpfs files (ibtest.loop_device)."""
import atexit
import hashlib
import os
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()
mounts = []


def cleanup():
    for mnt in reversed(mounts):
        subprocess.run(['umount', mnt], capture_output=True)


atexit.register(cleanup)


def sh(*argv):
    p = subprocess.run(list(argv), capture_output=True, text=True)
    t.check(p.returncode == 0, ' '.join(argv), p.stdout + p.stderr)
    return p.stdout.strip() if p.returncode == 0 else None


def digest(path):
    os.sync()
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(4 * MiB), b''):
            h.update(chunk)
    return h.hexdigest()


def ext4(dev):
    return sh('mkfs.ext4', '-q', '-F', '-E',
              'lazy_itable_init=0,lazy_journal_init=0', dev) is not None


def mount(dev, name):
    mnt = t.mkdir(name)
    if sh('mount', dev, mnt) is None:
        return None
    mounts.append(mnt)
    os.sync()
    return mnt


def write_job(path, *extra, offset='8m'):
    return t.run('--name=x', '--rw=write', '--bs=4k', '--size=1m',
                 '--offset=%s' % offset, '--filename=%s' % path,
                 '--output-format=terse', *extra)


def test_symlink_race():
    """Finding 1: the link flips between a blank device and one carrying
    ext4 every few milliseconds while write runs start; each run writes
    the blank one, or is refused (by the check, or by the job finding a
    device other than the one checked); the ext4 device is never written."""
    blank = t.loop_device(64 * MiB, name='blank.img')
    fmt = t.loop_device(64 * MiB, name='fmt.img')
    if not blank or not fmt or not ext4(fmt):
        return
    before = digest(t.loop_backing[fmt])
    link = t.path('race')
    os.symlink(blank, link)
    stop = threading.Event()

    def flip():
        i = 0
        while not stop.is_set():
            tmp = link + '.n'
            os.symlink(fmt if i % 2 == 0 else blank, tmp)
            os.rename(tmp, link)
            i += 1
            time.sleep(0.003)

    th = threading.Thread(target=flip)
    th.start()
    outcomes = {'ran': 0, 'refused': 0}
    try:
        for _ in range(40):
            r = write_job(link, '--numjobs=2')
            if r.rc == 0:
                outcomes['ran'] += 1
                continue
            outcomes['refused'] += 1
            t.eq(r.rc, 1, 'race: a refused run exits 1', r)
            t.check(('refusing to write' in r.err or 'carries' in r.err),
                    'race: a failed run says why it refused', r)
    finally:
        stop.set()
        th.join()
    t.eq(digest(t.loop_backing[fmt]), before,
         'race: the ext4 device is byte-identical after 40 runs (%d ran, '
         '%d refused)' % (outcomes['ran'], outcomes['refused']))
    t.eq(outcomes['ran'] + outcomes['refused'], 40, 'race: 40 runs ended')


def losetup_on(dev, offset):
    out = sh('losetup', '--find', '--show', '-o', str(offset), dev)
    if out:
        t.loops.append(out)
    return out


def test_stacked_upper_mounted():
    """Finding 2: the lower device of a stack whose upper loop device holds
    a mounted ext4 (loop devices are not in holders/)."""
    lower = t.loop_device(64 * MiB, name='lower.img')
    if not lower:
        return
    upper = losetup_on(lower, MiB)
    if not upper or not ext4(upper) or not mount(upper, 'upper'):
        return
    before = digest(t.loop_backing[lower])
    for extra in ((), ('--allow_data_loss=1',)):
        r = write_job(lower, *extra)
        t.eq(r.rc, 1, 'stacked, upper mounted %s: exit 1' % (extra,), r)
        t.check(r.err.count('\n') == 1 and
                ("has %s stacked on it, mounted on" % os.path.basename(upper))
                in r.err and '--allow_mounted_write=1' in r.err,
                'stacked, upper mounted %s: one line naming the upper device '
                'and its mount' % (extra,), r)
        t.eq(digest(t.loop_backing[lower]), before,
             'stacked, upper mounted %s: lower device unchanged' % (extra,))
    sh('umount', mounts.pop())
    before = digest(t.loop_backing[lower])  # umount writes the superblock
    r = write_job(lower)
    t.eq(r.rc, 1, 'stacked, upper unmounted: still held by the loop device', r)
    t.check('held by %s (a loop device backed by it)' %
            os.path.basename(upper) in r.err, 'stacked: held by names it', r)
    t.eq(digest(t.loop_backing[lower]), before,
         'stacked, upper unmounted: lower device unchanged')


def test_stacked_lower_mounted():
    """The other way: a loop device whose backing device holds a mounted
    ext4 writes into that filesystem."""
    lower = t.loop_device(64 * MiB, name='lower2.img')
    if not lower or not ext4(lower) or not mount(lower, 'lower'):
        return
    upper = losetup_on(lower, MiB)
    if not upper:
        return
    before = digest(t.loop_backing[lower])
    for extra in ((), ('--allow_data_loss=1',)):
        r = write_job(upper, *extra, offset='4m')
        t.eq(r.rc, 1, 'stacked, lower mounted %s: exit 1' % (extra,), r)
        t.check(r.err.count('\n') == 1 and
                ('writes through to %s, which is mounted on' % lower) in r.err,
                'stacked, lower mounted %s: one line naming the lower device'
                % (extra,), r)
    sh('umount', mounts.pop())
    os.sync()
    before = digest(t.loop_backing[lower])
    r = write_job(upper, offset='4m')
    t.eq(r.rc, 1, 'stacked, lower unmounted: refused (its ext4)', r)
    t.check(('writes through to %s, which is carrying a filesystem signature'
             ' (ext4)' % lower) in r.err, 'stacked: the lower signature', r)
    t.eq(digest(t.loop_backing[lower]), before,
         'stacked, lower unmounted: lower device unchanged')


def main():
    if not ibtest.loop_available():
        t.skip('no loop devices (needs root and /dev/loop-control)')
        t.finish()
    test_symlink_race()
    test_stacked_upper_mounted()
    test_stacked_lower_mounted()
    cleanup()
    t.finish()


if __name__ == '__main__':
    main()
