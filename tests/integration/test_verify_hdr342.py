#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio 3.42's verify header (include/iobench/verify.h, doc/verify.md).

1. iobench verify_only-reads files fio 3.42 wrote (tests/data/fio342/verify,
   recorded from real runs: fio 3.42 is not run here) under either
   --fio-version: every block read, no error; a flipped payload byte and a
   flipped header byte are caught at their interval.
2. iobench's own file under --fio-version=3.42 (the default) has fio 3.42's
   headers for the same job, byte for byte but for what differs by nature
   (rand_seed, the clock, the padding fio leaves to the payload, the header
   crc over them); under 3.33 the 3.33 layout.
3. A 3.42 run reading a header that is no sound header of either version
   says so as fio 3.42 does.
"""
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342', 'verify')
SIZE = 65536
# (file, bs, verify, verify_interval)
FILES = [('fio342-crc32c-4k-vi0.bin', 4096, 'crc32c', 0),
         ('fio342-md5-16k-vi0.bin', 16384, 'md5', 0),
         ('fio342-crc32c-16k-vi4k.bin', 16384, 'crc32c', 4096)]


def job(path, bs, verify, vi, *more):
    a = ['--name=w', '--filename=' + path, '--size=%d' % SIZE,
         '--bs=%d' % bs, '--rw=write', '--verify=' + verify,
         '--ioengine=psync']
    if vi:
        a.append('--verify_interval=%d' % vi)
    return a + list(more)


def reads_fio(t):
    for name, bs, verify, vi in FILES:
        path = t.path(name)
        shutil.copy(os.path.join(DATA, name), path)
        for ver in ('3.42', '3.33'):
            r, j = t.run_json(job(path, bs, verify, vi, '--verify_only=1',
                                  '--fio-version=' + ver))
            t.ok(r, 'verify_only %s under %s' % (name, ver))
            if j:
                jj = j
                t.eq(jj['error'], 0, '%s %s: error' % (name, ver))
                t.eq(jj['read']['io_bytes'], SIZE, '%s %s: bytes' % (name, ver))
                t.eq(jj['read']['total_ios'], SIZE // bs,
                     '%s %s: ios' % (name, ver))
                t.eq(jj['write']['io_bytes'], 0, '%s: nothing written' % name)
        t.check(open(path, 'rb').read() == open(os.path.join(DATA, name),
                                                'rb').read(),
                '%s untouched by verify_only' % name)


def flipped(t):
    name, bs, verify, vi = FILES[2]
    src = open(os.path.join(DATA, name), 'rb').read()
    for at, want in ((8192 + 100, 'crc32c: verify failed at file'),
                     (4096 + 17, 'verify: bad header offset')):
        path = t.path('bad_%d.bin' % at)
        b = bytearray(src)
        b[at] ^= 0xff
        open(path, 'wb').write(b)
        r = t.run(*job(path, bs, verify, vi, '--verify_only=1'))
        t.eq(r.rc, 1, 'flipped byte %d: exit' % at)
        t.check(want in r.err, 'flipped byte %d caught' % at, r.err)
        iv = at - at % vi
        t.check('offset %d, length %d (requested block: offset=%d,'
                ' length=%d)' % (iv, vi, at - at % bs, bs) in r.err,
                'flipped byte %d: its interval' % at, r.err)


def masked(h):
    """A 3.42 header without rand_seed, time, padding, crc."""
    return h[0:8] + h[16:24] + h[32:42]


def writes_342(t):
    name, bs, verify, vi = FILES[2]
    fio = open(os.path.join(DATA, name), 'rb').read()
    path = t.path('ib342.bin')
    t.ok(t.run(*job(path, bs, verify, vi, '--do_verify=1')), 'iobench 3.42')
    ours = open(path, 'rb').read()
    t.eq(len(ours), SIZE, 'iobench file size')
    for o in range(0, SIZE, vi):
        t.eq(masked(ours[o:o + 48]).hex(), masked(fio[o:o + 48]).hex(),
             'header at %d as fio 3.42' % o)
    t.eq(ours[42:44], b'\0\0', 'iobench pads with zeros')
    path = t.path('ib333.bin')
    t.ok(t.run(*job(path, bs, verify, vi, '--fio-version=3.33')),
         'iobench 3.33')
    ours = open(path, 'rb').read()
    for o in range(0, SIZE, vi):
        t.eq(struct.unpack_from('<HHIQQ', ours, o)[0:3],
             (0xacca, 5, vi), '3.33 header at %d' % o)
        t.eq(struct.unpack_from('<Q', ours, o + 16)[0], o, '3.33 offset')
        t.eq(struct.unpack_from('<H', ours, o + 34)[0], o // bs,
             '3.33 numberio at %d' % o)


def neither(t):
    """A 3.33 header with a bad crc: a 3.42 run names the version."""
    path = t.path('ib333.bin')
    b = bytearray(open(path, 'rb').read())
    b[4096 + 24] ^= 1           # time_sec: only the crc sees it
    open(path, 'wb').write(b)
    name, bs, verify, vi = FILES[2]
    r = t.run(*job(path, bs, verify, vi, '--verify_only=1'))
    t.eq(r.rc, 1, 'torn 3.33 header under 3.42: exit')
    t.check('verify: unsupported header version 5, wanted 81. Are you trying'
            ' to verify across versions of fio? at file %s offset 4096,'
            ' length 4096' % path in r.err, 'fio 3.42 message', r.err)
    r = t.run(*job(path, bs, verify, vi, '--verify_only=1',
                   '--fio-version=3.33'))
    t.eq(r.rc, 1, 'torn 3.33 header under 3.33: exit')
    t.check('verify: bad header crc' in r.err, 'fio 3.33 message', r.err)


def main():
    t = ibtest.Test()
    reads_fio(t)
    flipped(t)
    writes_342(t)
    neither(t)
    t.finish()


main()
