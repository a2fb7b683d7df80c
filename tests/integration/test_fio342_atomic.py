#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""atomic (RWF_ATOMIC), uncached (RWF_DONTCACHE) and filetype against fio
3.42's runs (tests/data/fio342/atomic.txt): on xfs over a loop device with
4 KiB sectors the same writes as fio, with the flags in each pwritev2 call;
where the kernel refuses them (fio: the first write fails), one line before
anything is written, the target untouched."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342', 'atomic.txt')
t = ibtest.Test()


def facts():
    """{key: [int, ...]} of the recorded fio 3.42 runs."""
    with open(DATA) as f:
        return {w[0]: [int(x) for x in w[1:]] for w in
                (line.split() for line in f.read().splitlines()
                 if line and not line.startswith('#'))}


def xfs_dir():
    """xfs on a loop device of 4 KiB sectors, mounted; None (a skip)."""
    if not shutil.which('mkfs.xfs'):
        t.skip('mkfs.xfs not installed')
        return None
    dev = t.loop_device(300 * MiB, name='xfs.img', sector_size=4096)
    if not dev:
        t.skip('no loop devices')
        return None
    p = subprocess.run(['mkfs.xfs', '-q', '-f', dev], capture_output=True,
                       text=True)
    if not t.check(p.returncode == 0, 'mkfs.xfs', p.stderr):
        return None
    mnt = t.mkdir('xfs')
    p = subprocess.run(['mount', dev, mnt], capture_output=True, text=True)
    if not t.check(p.returncode == 0, 'mount xfs', p.stderr):
        return None
    t.mounts.append(mnt)
    return mnt


def rwf_flags(log):
    """The set of flags of the pwritev2 calls in an strace log."""
    with open(log) as f:
        return sorted({int(m.group(1), 0) for m in re.finditer(
            r'pwritev2\(.*, \d+, (0x[0-9a-f]+|\d+)[^)]*\) = ', f.read())})


def job(path, *opts, strace=None):
    """A 1 MiB atomic write job on path: (run, [bytes, ios] or None)."""
    args = ('--name=a', '--filename=' + path, '--size=1m', '--rw=write',
            '--direct=1', '--output-format=json') + opts
    if strace:
        r = t.run('-f', '-o', strace, '-e', 'trace=pwritev2', *t.argv(*args),
                  prog=shutil.which('strace'), timeout=t.scaled(60))
    else:
        r = t.run(*args)
    try:
        w = json.loads(r.out)['jobs'][0]['write']
        return r, [w['io_bytes'], w['total_ios']]
    except (ValueError, KeyError, IndexError):
        return r, None


def atomic_writes(mnt, want):
    """The jobs fio 3.42 runs: the same bytes and I/Os, RWF_ATOMIC set."""
    log = t.path('a.strace') if shutil.which('strace') else None
    r, got = job(os.path.join(mnt, 'p.dat'), '--ioengine=pvsync2',
                 '--bs=4k', '--atomic=1', strace=log)
    t.eq((r.rc, got), (0, want['ok_pvsync2_4k']), 'pvsync2 bs=4k', r.err)
    if log:
        t.eq(rwf_flags(log), want['pvsync2_rwf'], 'pvsync2: RWF_ATOMIC')
    for key, opts in (
            ('ok_io_uring_64k', ['--ioengine=io_uring', '--bs=64k']),
            ('ok_libaio_1m', ['--ioengine=libaio', '--bs=1m']),
            ('ok_bssplit_blockalign_8k',
             ['--ioengine=pvsync2', '--rw=randwrite',
              '--bssplit=4k/50:8k/50', '--blockalign=8k'])):
        r, got = job(os.path.join(mnt, key + '.dat'), *opts, '--atomic=1')
        if 'unknown engine' in r.err or 'not built' in r.err:
            t.skip(key + ': ' + r.err.strip())
            continue
        if key.startswith('ok_bssplit'):   # the sizes drawn differ from fio's
            got = got and got[:1]
            want[key] = want[key][:1]
        t.eq((r.rc, got), (0, want[key]), key, r.err)


def refused(mnt, dev):
    """Where fio's first write fails: one line, exit 1, file untouched."""
    target = os.path.join(mnt, 'keep.dat')
    with open(target, 'wb') as f:
        f.write(b'\x5a' * (4 * MiB))
    cases = [
        (['--ioengine=pvsync2', '--direct=0'], target,
         "job 'a': atomic: writes with RWF_ATOMIC need direct=1 (the kernel "
         "refuses buffered ones)"),
        (['--ioengine=pvsync2', '--bs=2m', '--size=4m'], target,
         "job 'a': atomic: %s takes writes of one power of two from 4096 to "
         "1048576 bytes; the job writes 2097152 bytes" % target),
        (['--ioengine=pvsync2', '--bs=8k', '--offset=4k'], target,
         "job 'a': atomic: the job's offset 4096 in %s is not a multiple of "
         "its write size 8192" % target),
        (['--ioengine=pvsync2', '--rw=randwrite', '--bssplit=4k/50:8k/50'],
         target, "job 'a': atomic: random writes of up to 8192 bytes at "
         "offsets aligned to 4096 (blockalign=8192 would do)"),
        (['--ioengine=pvsync2', '--bsrange=4k-8k'], target,
         "job 'a': atomic: bsrange=4096-8192 writes sizes that vary; %s "
         "takes one power of two from 4096 to 1048576 bytes (bs= or "
         "bssplit=)" % target),
        (['--ioengine=io_uring', '--fixedbufs=1'], target,
         "atomic: the kernel refuses RWF_ATOMIC writes from registered "
         "buffers (fixedbufs=1)"),
        (['--ioengine=psync'], target,
         "atomic: only valid with ioengine=io_uring, pvsync2 or libaio"),
    ]
    if dev:
        cases.append((['--ioengine=pvsync2'], dev,
                      "job 'a': atomic: %s does not support atomic writes "
                      "(statx reports no torn-write limits)" % dev))
    for opts, path, line in cases:
        r, _ = job(path, '--atomic=1', *opts)
        t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s\n' % line),
             'refused: %s' % ' '.join(opts))
    t.eq(ibtest.file_bytes(target), b'\x5a' * (4 * MiB),
         'refused: the file untouched')
    r, got = job(target, '--atomic=1', '--rw=read', '--ioengine=psync')
    t.eq((r.rc, r.err), (1, 'iobench: atomic: only valid with '
                            'ioengine=io_uring, pvsync2 or libaio\n'),
         'psync: refused even for reads, as fio')


def uncached(mnt, want):
    """uncached=1: RWF_DONTCACHE on xfs, all bytes; on tmpfs refused
    before any write (fio: error 95 at the first one)."""
    if not shutil.which('strace'):
        t.skip('no strace')
        return
    for where, path in (('xfs', os.path.join(mnt, 'u.dat')),
                        ('tmpfs', t.shm_file('u.dat', data=b'\x5a' * 65536))):
        log = t.path('u%s.strace' % where)
        r, got = job(path, '--size=64k', '--bs=4k', '--direct=0',
                     '--ioengine=pvsync2', '--uncached=1', strace=log)
        if where == 'xfs':
            t.eq((r.rc, got, rwf_flags(log)),
                 (0, want['uncached_xfs'], want['uncached_rwf']),
                 'uncached on xfs: bytes and flags as fio 3.42\'s', r.err)
            continue
        t.eq((r.rc, r.out, r.err, rwf_flags(log)),
             (1, '', "iobench: job 'a': uncached: %s does not support "
              "uncached buffered I/O (RWF_DONTCACHE: Linux 6.14 on ext4, "
              "xfs, btrfs; not tmpfs)\n" % path, []),
             'uncached on tmpfs: one line, no write')
        t.eq(ibtest.file_bytes(path), b'\x5a' * 65536,
             'uncached on tmpfs: the file untouched')


def filetype(dev, want):
    """filetype=file|block asserted on the target: the job runs where it
    holds, one line where not (fio: ENOTTY for block, a stat saved for
    file); char refused by name."""
    f = t.shm_file('ft.dat', data=b'\x5a' * MiB)
    for ft, path, line in (
            ('file', f, None), ('block', dev, None),
            ('block', f, "job 'a': filetype=block: %s is not a block "
             "device" % f),
            ('file', dev,
             "job 'a': filetype=file: %s is a block device" % dev),
            ('char', f, "filetype=char: character devices are not supported "
             "by iobench (file or block)")):
        if not path:
            continue
        r, _ = job(path, '--rw=read', '--filetype=' + ft)
        if line:
            t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s\n' % line),
                 'filetype=%s on %s: refused' % (ft, path))
            continue
        rd = json.loads(r.out)['jobs'][0]['read']['io_bytes'] \
            if r.rc == 0 else None
        t.eq((r.rc, rd), (0, want['filetype_file_read'][0]),
             'filetype=%s on %s: read' % (ft, path), r.err)
    t.eq(ibtest.file_bytes(f), b'\x5a' * MiB, 'filetype: the file untouched')


def main():
    want = facts()
    mnt = xfs_dir()
    if mnt:
        atomic_writes(mnt, want)
        dev = t.loop_device(4 * MiB, name='plain.img', sector_size=4096)
        refused(mnt, dev)
        uncached(mnt, want)
        filetype(dev, want)
    t.finish()


if __name__ == '__main__':
    main()
