#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""--readonly: any job that would write is refused before anything is opened
for writing (non-zero exit, the target's content and mtime unchanged, a
missing target not created); read-only jobs run normally; a read job that
would have to lay out (extend) a short file is refused too. Without
--readonly, a writing job on a read-only device (losetup -r) or on a file
on a read-only mount is refused before anything runs, the reads beside it
not started, where it used to start and fail at its first write.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MTIME = 1000000000          # 2001-09-09, a value no run would write


def snapshot(path):
    st = os.stat(path)
    return (ibtest.file_bytes(path), st.st_size, st.st_mtime_ns)


def fresh(t, name, size):
    p = t.shm_file(name, data=ibtest.pattern(size, seed=11))
    os.utime(p, (MTIME, MTIME))
    return p


def refused(t, what, r):
    t.fails(r, what)
    t.check('readonly' in r.err or 'read-only' in r.err,
            '%s: stderr says why (readonly)' % what, r)


def test_writers(t, where, target, snap):
    """Every writing mode refused; snap() (the target's state) unchanged."""
    first = snap()
    for rw in ('write', 'randwrite', 'rw', 'readwrite', 'randrw'):
        for engine in ('psync', 'io_uring', 'libaio'):
            what = '%s --readonly rw=%s %s' % (where, rw, engine)
            r = t.run('--readonly', '--name=ro', '--filename=' + target,
                      '--size=64k', '--bs=4k', '--rw=' + rw, '--direct=1',
                      '--ioengine=' + engine)
            refused(t, what, r)
            t.check(snap() == first, '%s: target unchanged' % what)


def main():
    t = ibtest.Test()
    f = fresh(t, 'ro', 256 * KiB)
    first = snapshot(f)
    test_writers(t, 'shm', f, lambda: snapshot(f))

    # a writer next to a reader: the whole run is refused
    what = '--readonly reader + writer jobs'
    r = t.run('--readonly', '--filename=' + f, '--size=64k', '--bs=4k',
              '--name=rd', '--rw=read', '--name=wr', '--rw=write')
    refused(t, what, r)
    t.eq(ibtest.parse_report(r.out), [], '%s: no job ran' % what)
    t.check(snapshot(f) == first, '%s: target unchanged' % what)

    # readonly given in other forms, after the job
    for form in (['-readonly'], ['--readonly=1']):
        what = '%s after --name' % form[0]
        r = t.run('--name=ro', '--filename=' + f, '--size=64k', '--rw=write',
                  *form)
        refused(t, what, r)
        t.check(snapshot(f) == first, '%s: target unchanged' % what)

    # a missing target is not created
    missing = t.path('missing')
    what = '--readonly write to a missing file'
    r = t.run('--readonly', '--name=ro', '--filename=' + missing,
              '--size=64k', '--rw=write')
    refused(t, what, r)
    t.check(not os.path.exists(missing), '%s: not created' % what)

    # readers run
    for rw, engine in (('read', 'psync'), ('randread', 'io_uring'),
                       ('randread', 'libaio')):
        what = '--readonly rw=%s %s' % (rw, engine)
        r = t.run('--readonly', '--name=ro', '--filename=' + f, '--size=64k',
                  '--bs=4k', '--rw=' + rw, '--direct=1', '--iodepth=4',
                  '--ioengine=' + engine)
        if t.ok(r, what):
            jobs = ibtest.parse_report(r.out)
            t.eq([j.issued for j in jobs], [(16, 0, 0, 0)],
                 '%s: issued rwts' % what)
        t.check(snapshot(f)[:2] == first[:2], '%s: content unchanged' % what)

    # a read job that would have to extend the file
    short = fresh(t, 'short', 64 * KiB)
    sfirst = snapshot(short)
    what = '--readonly read 256k of a 64k file'
    r = t.run('--readonly', '--name=ro', '--filename=' + short,
              '--size=256k', '--rw=read')
    t.fails(r, what)
    t.check(snapshot(short) == sfirst, '%s: file unchanged' % what)

    # a loop device
    dev = t.loop_device(256 * KiB)
    if dev is None:
        t.skip('loop devices unavailable: readonly on a block device')
    else:
        backing = t.loop_backing[dev]
        with open(dev, 'r+b') as d:
            d.write(ibtest.pattern(256 * KiB, seed=13))
            os.fsync(d.fileno())
        devfirst = ibtest.file_bytes(dev)
        test_writers(t, 'loop', dev, lambda: ibtest.file_bytes(dev))
        t.check(ibtest.file_bytes(backing) == devfirst,
                'loop: backing file unchanged')
        what = 'loop --readonly read, no size (whole device)'
        r = t.run('--readonly', '--name=ro', '--filename=' + dev,
                  '--bs=64k', '--rw=read', '--direct=1')
        if t.ok(r, what):
            t.eq([j.issued for j in ibtest.parse_report(r.out)],
                 [(4, 0, 0, 0)], '%s: issued rwts' % what)
    read_only_targets(t, f)
    t.finish()


def read_only_targets(t, reader):
    """The target itself cannot be written: refused up front, one line."""
    dev = t.loop_device(256 * KiB, read_only=True)
    if dev is None:
        t.skip('loop devices unavailable: a read-only device')
    else:
        what = 'write job on a read-only loop device'
        r = t.run('--name=rd', '--filename=' + reader, '--size=64k',
                  '--rw=read', '--name=wr', '--filename=' + dev,
                  '--size=64k', '--rw=write')
        t.eq((r.rc, r.out, r.err), (1, '', "iobench: job 'wr': %s is a "
             "read-only device; a job that writes cannot run on it\n" % dev),
             '%s: refused, nothing run' % what)
        r = t.run('--name=rd', '--filename=' + dev, '--size=64k', '--rw=read')
        if t.ok(r, 'read job on a read-only loop device'):
            t.eq([j.issued for j in ibtest.parse_report(r.out)],
                 [(16, 0, 0, 0)], 'read-only device: reads run')
    mnt = t.small_tmpfs('romnt', '1m')
    if mnt is None:
        return
    kept = os.path.join(mnt, 'data')
    with open(kept, 'wb') as fh:
        fh.write(ibtest.pattern(256 * KiB, seed=17))
    p = subprocess.run(['mount', '-o', 'remount,ro', mnt], capture_output=True,
                       text=True)
    if p.returncode != 0:
        t.skip('remount ro: %s' % p.stderr.strip())
        return
    before = snapshot(kept)
    for target in (kept, os.path.join(mnt, 'new')):
        what = 'write job on %s (read-only mount)' % os.path.basename(target)
        r = t.run('--name=wr', '--filename=' + target, '--size=64k',
                  '--rw=randwrite')
        t.eq((r.rc, r.out, r.err), (1, '', "iobench: job 'wr': %s is on a "
             "read-only file system; a job that writes cannot run on it\n"
             % target), '%s: refused, nothing run' % what)
    t.eq(snapshot(kept), before, 'read-only mount: the file unchanged')
    r = t.run('--name=rd', '--filename=' + kept, '--size=64k', '--rw=read',
              '--direct=0')
    if t.ok(r, 'read job on the read-only mount'):
        t.eq([j.issued for j in ibtest.parse_report(r.out)],
             [(16, 0, 0, 0)], 'read-only mount: reads run')


if __name__ == '__main__':
    main()
