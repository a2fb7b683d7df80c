#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Real I/O faults and resource limits.

ENOSPC: a sparse file on a 1 MiB tmpfs mount; writes past the first MiB
fail. EIO: a loop device whose backing file sits on a full 1 MiB tmpfs
(buffered writes fail at fsync with EIO; direct writes fail with ENOSPC on
current kernels, EIO on older ones). Each error names the errno, the file,
the offset (for data I/O) and the direction, in the report, the JSON and
one stderr line; continue_on_error decides which errors the job survives
and total_err/first_error count them. Resource limits: huge iodepth,
numjobs, bs give a clear error or work; RLIMIT_MEMLOCK too low for
io_uring fixedbufs is explained."""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()
mounts = []


def cleanup():
    for m in reversed(mounts):
        subprocess.run(['umount', m], capture_output=True)


atexit.register(cleanup)


def small_tmpfs(name):
    mnt = t.mkdir(name)
    p = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt],
                       capture_output=True, text=True)
    if p.returncode != 0:
        t.skip('mount -t tmpfs: %s' % p.stderr.strip())
        return None
    mounts.append(mnt)
    return mnt


def sparse(path, size):
    with open(path, 'wb') as f:
        f.truncate(size)
    return path


def jdoc(r, what):
    try:
        return json.loads(r.out)['jobs'][0]
    except (ValueError, KeyError, IndexError) as e:
        t.check(False, '%s: valid JSON (%s)' % (what, e), r)
        return None


_ERR_RE = re.compile(r'^(\S.*?): \(groupid=\d+, jobs=\d+\): err=\s*(-?\d+)',
                     re.M)


def report_errs(out):
    """err= of every job block (the error text may hold ':')."""
    return [int(m.group(2)) for m in _ERR_RE.finditer(out)]


def failed_line(r):
    return [ln for ln in r.err.splitlines() if ' failed: ' in ln]


def test_enospc(mnt):
    f = sparse(os.path.join(mnt, 'full.dat'), 4 * MiB)
    for eng, extra in (('psync', ()), ('io_uring', ('--iodepth=8',)),
                       ('libaio', ('--iodepth=8', '--direct=1'))):
        what = 'ENOSPC %s' % eng
        os.truncate(f, 0)
        os.truncate(f, 4 * MiB)
        r = t.run('--name=e', '--filename=%s' % f, '--rw=write', '--bs=64k',
                  '--size=4m', '--ioengine=%s' % eng, *extra)
        t.eq(r.rc, 1, '%s: exit status' % what, r)
        t.eq(report_errs(r.out), [28], '%s: report err=28' % what, r)
        m = re.search(r'err=28 \(write offset=(\d+), buflen=65536, file=%s: '
                      r'No space left on device\)' % re.escape(f), r.out)
        t.check(m is not None, '%s: err= names direction, offset, file, errno'
                % what, r)
        if m:
            t.check(int(m.group(1)) >= MiB and int(m.group(1)) % 65536 == 0,
                    '%s: the failing offset is past the first MiB' % what, m.group(1))
        lines = failed_line(r)
        t.eq(len(lines), 1, '%s: one stderr line names the failure' % what, r)
        t.check(lines and 'write offset=' in lines[0] and f in lines[0] and
                'No space left on device' in lines[0],
                '%s: the stderr line has direction, offset, file, errno' % what, r)
    os.unlink(f)


def test_coe(mnt):
    """continue_on_error on a real ENOSPC: 16 x 64 KiB fit, 48 do not."""
    f = sparse(os.path.join(mnt, 'coe.dat'), 4 * MiB)
    for coe in ('none', 'read', 'write', 'io', 'verify', 'all'):
        what = 'continue_on_error=%s' % coe
        os.truncate(f, 0)
        os.truncate(f, 4 * MiB)
        r = t.run('--name=c', '--filename=%s' % f, '--rw=write', '--bs=64k',
                  '--size=4m', '--continue_on_error=%s' % coe,
                  '--output-format=json')
        j = jdoc(r, what)
        if not j:
            continue
        survives = coe in ('write', 'io', 'all')
        t.eq(r.rc, 0 if survives else 1, '%s: exit status' % what, r)
        t.eq(j['error'], 0 if survives else 28, '%s: JSON error' % what)
        if survives:
            t.eq(j['write']['total_ios'], 16, '%s: the 16 writes that fit' % what)
            t.eq(j.get('total_err'), 48, '%s: JSON total_err' % what)
            t.eq(j.get('first_error'), 28, '%s: JSON first_error' % what)
    # the normal report's errors line, and terse's total_err;first_error
    os.truncate(f, 0)
    os.truncate(f, 4 * MiB)
    r = t.run('--name=c', '--filename=%s' % f, '--rw=write', '--bs=64k',
              '--size=4m', '--continue_on_error=all')
    t.check('     errors    : total=48, first_error=28/<No space left on device>\n'
            in r.out, 'continue_on_error: normal report errors line', r)
    os.truncate(f, 0)
    os.truncate(f, 4 * MiB)
    r = t.run('--name=c', '--filename=%s' % f, '--rw=write', '--bs=64k',
              '--size=4m', '--continue_on_error=all', '--output-format=terse')
    t.check(r.out.rstrip('\n').endswith(';48;28'),
            'continue_on_error: terse ends with total_err;first_error', r)


def loop_on(mnt):
    """A loop device over a 64 MiB sparse file on the 1 MiB tmpfs."""
    back = sparse(os.path.join(mnt, 'back.img'), 64 * MiB)
    p = subprocess.run(['losetup', '--direct-io=off', '--find', '--show', back],
                       capture_output=True, text=True)
    if p.returncode != 0:
        t.check(False, 'losetup', p.stderr)
        return None
    dev = p.stdout.strip()
    t.loops.append(dev)
    return dev


def test_eio(mnt):
    dev = loop_on(mnt)
    if not dev:
        return
    r = t.run('--name=b', '--filename=%s' % dev, '--rw=write', '--bs=64k',
              '--size=4m', '--offset=8m', '--direct=0', '--fsync=4')
    t.eq(r.rc, 1, 'EIO fsync: exit status', r)
    t.check('err= 5 (sync file=%s: Input/output error)' % dev in r.out,
            'EIO fsync: err= 5 names the direction (sync), file, errno', r)
    lines = failed_line(r)
    t.check(len(lines) == 1 and 'Input/output error' in lines[0] and
            dev in lines[0], 'EIO fsync: one stderr line', r)
    r = t.run('--name=b', '--filename=%s' % dev, '--rw=write', '--bs=64k',
              '--size=4m', '--offset=16m', '--direct=0', '--end_fsync=1',
              '--output-format=json')
    j = jdoc(r, 'EIO end_fsync')
    t.eq(r.rc, 1, 'EIO end_fsync: exit status', r)
    if j:
        t.eq(j['error'], 5, 'EIO end_fsync: JSON error')
    r = t.run('--name=b', '--filename=%s' % dev, '--rw=write', '--bs=64k',
              '--size=4m', '--offset=24m', '--direct=1', '--ioengine=io_uring',
              '--iodepth=4')
    t.eq(r.rc, 1, 'direct write to a loop on a full fs: exit status', r)
    m = re.search(r'err=\s*(\d+) \(write offset=(\d+), buflen=65536, file=%s: '
                  % re.escape(dev), r.out)
    t.check(m is not None and m.group(1) in ('5', '28'),
            'direct write to a loop on a full fs: EIO/ENOSPC with offset', r)


def test_memlock():
    if not shutil.which('prlimit') or not shutil.which('setpriv'):
        t.skip('prlimit/setpriv not installed')
        return
    f = t.shm_file('ml.dat', 16 * MiB)
    # root's CAP_IPC_LOCK would exempt it from RLIMIT_MEMLOCK: drop it
    r = t.run('--memlock=65536', 'setpriv', '--bounding-set=-ipc_lock',
              '--inh-caps=-ipc_lock', t.bin, '--name=m', '--filename=%s' % f,
              '--size=16m', '--rw=read', '--bs=1m', '--ioengine=io_uring',
              '--fixedbufs', '--iodepth=16', prog=shutil.which('prlimit'))
    t.eq(r.rc, 1, 'fixedbufs under a low RLIMIT_MEMLOCK: exit status', r)
    t.check('cannot register 16 buffers of 1048576 bytes (fixedbufs): '
            'RLIMIT_MEMLOCK too low? (ulimit -l)' in r.err,
            'fixedbufs under a low RLIMIT_MEMLOCK: explained', r)
    r = t.run('--memlock=65536', t.bin, '--name=m', '--filename=%s' % f,
              '--size=16m', '--rw=read', '--bs=1m', '--ioengine=io_uring',
              '--iodepth=16', '--output-format=terse',
              prog=shutil.which('prlimit'))
    t.ok(r, 'no fixedbufs: the same limit does not matter')


def test_limits():
    f = t.shm_file('lim.dat', 8 * MiB)
    base = ('--name=l', '--filename=%s' % f, '--rw=randread',
            '--output-format=terse')
    # (args, expect exit 0? (None: either works, or fails with the clear
    # line), text the one error line must contain)
    cases = [
        # io_setup(65536) needs all of the default system-wide fs.aio-max-nr:
        # it works on a quiet machine, and must say why when others hold some
        (('--iodepth=65536', '--ioengine=libaio', '--size=8m'), None,
         'fs.aio-max-nr'),
        (('--iodepth=4096', '--ioengine=io_uring', '--bs=64k'), True, None),
        # deeper than an SQ ring may be (32768): a larger CQ ring
        (('--iodepth=65536', '--ioengine=io_uring'), True, None),
        (('--iodepth=65537',), False, 'iodepth'),
        (('--numjobs=4097',), False, 'numjobs'),
        (('--numjobs=256', '--size=256k'), True, None),
        (('--bs=16m', '--size=16m', '--ioengine=null'), True, None),
        (('--bs=16m', '--size=4m'), False, 'block size'),
        (('--bs=1g', '--size=2g', '--ioengine=null', '--iodepth=64'), False,
         'no memory'),
    ]
    # under ASan a failed huge allocation must return NULL, as in libc
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + \
        ':allocator_may_return_null=1'
    for args, good, text in cases:
        what = 'limit %s' % ' '.join(args)
        r = t.run(*(base + args), timeout=300, env=env)
        if good or (good is None and r.rc == 0):
            t.ok(r, what)
            continue
        t.eq(r.rc, 1, '%s: exit status' % what, r)
        t.eq(ibtest.size_of(f), 8 * MiB, '%s: the target was not changed' % what)
        lines = r.err.strip().splitlines()
        t.check(len(lines) == 1 and text in lines[0] and
                lines[0].startswith('iobench: '),
                '%s: one clear line naming %s' % (what, text), r)


def main():
    if os.geteuid() != 0:
        t.skip('needs root (tmpfs mounts, loop devices)')
        t.finish()
    mnt = small_tmpfs('small')
    if mnt:
        test_enospc(mnt)
        test_coe(mnt)
    mnt2 = small_tmpfs('small2')
    if mnt2 and ibtest.loop_available():
        test_eio(mnt2)
    test_memlock()
    test_limits()
    t.cleanup()
    cleanup()
    t.finish()


if __name__ == '__main__':
    main()
