#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Regular files are never refused, and never lose data the user did not ask
iobench to write over: layout extends, never truncates; a write job touches
only its region [offset, offset+size); a read job changes nothing."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()


def job(path, *extra):
    return t.run('--name=f', '--bs=4k', '--filename=%s' % path,
                 '--output-format=terse', *extra)


def check_file(path, want, what):
    got = ibtest.file_bytes(path)
    t.eq(len(got), len(want), '%s: size' % what)
    t.check(got == want, '%s: bytes unchanged' % what)


def test_write_inside_bigger_file():
    data = ibtest.pattern(8 * MiB)
    p = t.shm_file('big', data=data)
    r = job(p, '--rw=write', '--size=1m', '--offset=3m')
    t.ok(r, 'write 1 MiB at 3 MiB into an 8 MiB file')
    got = ibtest.file_bytes(p)
    t.eq(len(got), 8 * MiB, 'write inside: file not truncated')
    t.check(got[:3 * MiB] == data[:3 * MiB], 'write inside: bytes before kept')
    t.check(got[4 * MiB:] == data[4 * MiB:], 'write inside: bytes after kept')
    t.check(got[3 * MiB:4 * MiB] != data[3 * MiB:4 * MiB],
            'write inside: the region itself was written')


def test_read_extends_only():
    data = ibtest.pattern(1 * MiB, seed=2)
    p = t.shm_file('short', data=data)
    r = job(p, '--rw=randread', '--size=3m')
    t.ok(r, 'read 3 MiB of a 1 MiB file (layout extends it)')
    got = ibtest.file_bytes(p)
    t.eq(len(got), 3 * MiB, 'read extend: file extended to the region')
    t.check(got[:MiB] == data, 'read extend: existing 1 MiB kept')


def test_read_changes_nothing():
    data = ibtest.pattern(4 * MiB, seed=3)
    p = t.shm_file('ro', data=data)
    for rw in ('read', 'randread'):
        t.ok(job(p, '--rw=%s' % rw, '--size=2m'), '%s of a bigger file' % rw)
        check_file(p, data, '%s of a bigger file' % rw)


def test_write_smaller_size_keeps_tail():
    data = ibtest.pattern(4 * MiB, seed=4)
    p = t.shm_file('tail', data=data)
    t.ok(job(p, '--rw=randwrite', '--size=1m', '--ioengine=io_uring',
             '--iodepth=8', '--direct=1'), 'randwrite 1 MiB of a 4 MiB file')
    got = ibtest.file_bytes(p)
    t.eq(len(got), 4 * MiB, 'randwrite smaller size: not truncated')
    t.check(got[MiB:] == data[MiB:], 'randwrite smaller size: tail kept')


def test_formatted_image_file_is_a_file():
    """A regular file carrying a signature is a file, not a device."""
    img = t.shm_file('image', 4 * MiB)
    with open(img, 'r+b') as f:
        f.seek(4096 - 10)
        f.write(b'SWAPSPACE2')
    t.ok(job(img, '--rw=write', '--size=1m', '--offset=1m'),
         'a regular file with a swap signature is written without a flag')


test_write_inside_bigger_file()
test_read_extends_only()
test_read_changes_nothing()
test_write_smaller_size_keeps_tail()
test_formatted_image_file_is_a_file()
t.finish()
