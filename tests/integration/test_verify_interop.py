#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Verify blocks against fio 3.33 (tests/tools/verify_check, argv[2]).

1. fio 3.33 writes 1 MiB (bs=4k, --do_verify=0) with each verify type, a
   verify_pattern and a verify_interval; iobench's check passes every block.
   One flipped payload byte: exactly that block is reported, field checksum
   (pattern for the pattern types; meta has no payload check, so there a
   header byte (a time byte: fio checks the offset before the header crc):
   header crc; for sha512, whose fio 3.33 area only holds the
   payload's last 88 bytes, a byte among those). A block copied over another (a misdirected
   write): exactly that block, field offset, with both offsets.
2. The other way: fio 3.33 reads back and verifies files iobench filled,
   for every type but sha256 and sha512, whose fio 3.33 areas are not
   SHA digests (include/iobench/verify.h): iobench writes the real digests,
   checked here with hashlib.
3. The message for a bad block is fio's (without fio's io_u flags): a
   flipped payload byte, a misdirected block, a bad magic, a bad pattern.
4. Every checksum over an odd-sized random file against an independent
   computation: hashlib for the digests, a bitwise CRC from each CRC's
   parameters and a plain XXH32 for crc7..xxhash.
"""
import hashlib
import os
import random
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

BS = 4096
SIZE = 1 << 20
NBLK = SIZE // BS

# (fio options, verify_check options, field a flipped payload byte gives)
CSUMS = ['md5', 'crc64', 'crc32', 'crc32c', 'crc32c-intel', 'crc16', 'crc7',
         'sha1', 'sha256', 'sha512', 'sha3-224', 'sha3-256', 'sha3-384',
         'sha3-512', 'xxhash']
PAT = '0xab%o"xy"-3'
CASES = [([v], ['--verify=' + v], 'checksum') for v in CSUMS] + [
    (['meta'], ['--verify=meta'], None),
    (['crc32c', '--verify_pattern=0xdeadbeef'],
     ['--verify=crc32c', '--pattern=0xdeadbeef'], 'pattern'),
    (['sha256', '--verify_pattern=0xdeadbeef'],
     ['--verify=sha256', '--pattern=0xdeadbeef'], 'pattern'),
    (['crc32c', '--verify_interval=1024'],
     ['--verify=crc32c', '--interval=1024'], 'checksum'),
    (['pattern', '--verify_pattern=' + PAT],
     ['--verify=pattern', '--pattern=' + PAT], 'pattern'),
    ([None, '--verify_pattern=' + PAT], ['--pattern=' + PAT], 'pattern'),
]


def fio_write(t, path, opts):
    verify = ['--verify=' + opts[0]] if opts[0] else []
    return t.fio('--name=w', '--rw=write', '--do_verify=0', '--bs=4k',
                 '--size=1m', '--filename=' + path, *(verify + opts[1:]))


def check(t, tool, path, copts):
    return t.run('check', '--bs=%d' % BS, *copts, path, prog=tool)


def bad_lines(r):
    return [ln for ln in r.out.splitlines() if ln.startswith('bad block')]


def copy_block(path, src, dst):
    with open(path, 'r+b') as f:
        f.seek(src * BS)
        data = f.read(BS)
        f.seek(dst * BS)
        f.write(data)


def one_case(t, tool, n, fopts, copts, field):
    what = 'fio verify=%s %s' % (fopts[0], ' '.join(fopts[1:]))
    path = t.path('fio%d.dat' % n)
    if not t.ok(fio_write(t, path, fopts), what + ': fio wrote'):
        return
    r = check(t, tool, path, copts)
    t.eq((r.rc, r.out), (0, 'blocks %d bad 0\n' % NBLK), what + ': all good')
    good = t.path('good.dat')
    shutil.copyfile(path, good)
    # a payload byte of block 37 (a header byte for meta: no payload check;
    # for sha512 one in the last 88 bytes, all that fio 3.33's area covers)
    pos = 26 if field is None else 4090 if fopts[0] == 'sha512' else 3000
    ibtest.flip(path, 37 * BS + pos)
    r = check(t, tool, path, copts)
    off = 37 * BS
    want = 'bad block %d interval %d offset %d: %s' % (
        off, 2 if '--interval=1024' in copts else 0,
        off + (2048 if '--interval=1024' in copts else 0),
        field or 'header crc')
    lines = bad_lines(r)
    t.eq((r.rc, len(lines)), (1, 1), what + ': one bad block', r)
    t.check(lines and lines[0].startswith(want), what + ': ' + want, r.out)
    # block 10's content at block 20: misdirected
    shutil.copyfile(good, path)
    copy_block(path, 10, 20)
    r = check(t, tool, path, copts)
    lines = bad_lines(r)
    t.eq((r.rc, len(lines)), (1, 1), what + ': one misdirected block', r)
    if fopts[0] == 'pattern':
        # no header: only the %o bytes tell the offsets apart
        want = 'bad block %d interval 0 offset %d: pattern byte 2 ' \
            'expected 0x40 received 0xa0' % (20 * BS, 20 * BS)
    else:
        want = 'bad block %d interval 0 offset %d: offset expected 0x%x ' \
            'received 0x%x' % (20 * BS, 20 * BS, 20 * BS, 10 * BS)
    t.eq(lines[:1], [want], what + ': misdirected block reported')


def fio_says(t, path, fopts):
    """fio 3.33's verify message for path: its stderr with "fio: " as
    "iobench: " and without the io_u flags iobench does not have."""
    verify = ['--verify=' + fopts[0]] if fopts[0] else []
    r = t.fio('--name=r', '--rw=read', '--bs=4k', '--size=1m',
              '--filename=' + path, *(verify + fopts[1:]))
    text = re.sub(r', flags=\d+\)', ')', r.err)
    return r, re.sub(r'^fio: ', 'iobench: ', text, flags=re.M)


# (fio options, verify_check options, corruption) side by side with fio
WORDS = [
    (['crc32c'], ['--verify=crc32c'], lambda p: ibtest.flip(p, 37 * BS + 3000)),
    (['md5'], ['--verify=md5'], lambda p: ibtest.flip(p, 5 * BS + 100)),
    (['sha256'], ['--verify=sha256'], lambda p: ibtest.flip(p, 9 * BS + 200)),
    (['crc32c', '--verify_interval=512'], ['--verify=crc32c', '--interval=512'],
     lambda p: ibtest.flip(p, 3 * BS + 1600)),
    (['crc32c'], ['--verify=crc32c'], lambda p: copy_block(p, 10, 20)),
    (['xxhash'], ['--verify=xxhash'], lambda p: ibtest.flip(p, 6 * BS + 1)),
    ([None, '--verify_pattern=0xdeadbeef'], ['--pattern=0xdeadbeef'],
     lambda p: ibtest.flip(p, 2 * BS + 3000)),
]


def fio_words(t, tool):
    """iobench's message for the first bad block is fio's."""
    for n, (fopts, copts, corrupt) in enumerate(WORDS):
        path = t.path('words%d.dat' % n)
        what = 'fio\'s words, case %d (%s)' % (n, ' '.join(copts))
        if not t.ok(fio_write(t, path, fopts), what + ': fio wrote'):
            continue
        corrupt(path)
        r = check(t, tool, path, copts + ['--describe'])
        ours = r.out.split('blocks ')[0]
        fr, theirs = fio_says(t, path, fopts)
        # (fio 3.33 exits 0 after a verify_interval failure)
        t.check(r.rc == 1 and ours and ours in theirs,
                what, 'iobench:\n%s\nfio:\n%s' % (ours, theirs))


def fio_reads_ours(t, tool):
    """fio 3.33 verifies what iobench wrote."""
    for v in CSUMS + ['meta']:
        if v in ('sha256', 'sha512'):
            continue
        path = t.path('ib_%s.dat' % v)
        r = t.run('fill', '--verify=' + v, '--bs=%d' % BS, path, SIZE,
                  prog=tool)
        t.ok(r, 'fill verify=' + v)
        r = t.fio('--name=r', '--rw=read', '--verify=' + v, '--bs=4k',
                  '--size=1m', '--filename=' + path)
        t.ok(r, 'fio verifies iobench verify=' + v)
    path = t.path('ib_pattern.dat')
    t.ok(t.run('fill', '--verify=pattern', '--pattern=' + PAT, '--bs=%d' % BS,
               path, SIZE, prog=tool), 'fill verify=pattern')
    t.ok(t.fio('--name=r', '--rw=read', '--verify=pattern', '--bs=4k',
               '--verify_pattern=' + PAT, '--size=1m', '--filename=' + path),
         'fio verifies iobench verify=pattern')


def real_digests(t, tool):
    """iobench's sha256/sha512 areas are the real digests, zero-padded."""
    for v, alen in (('sha256', 64), ('sha512', 128)):
        path = t.path('ib_%s.dat' % v)
        t.ok(t.run('fill', '--verify=' + v, '--bs=%d' % BS, path, 8 * BS,
                   prog=tool), 'fill ' + v)
        with open(path, 'rb') as f:
            blk = f.read(BS)
        d = hashlib.new(v, blk[40 + alen:]).digest()
        t.eq(blk[40:40 + alen].hex(), (d + bytes(alen - len(d))).hex(),
             v + ': FIPS digest in the area')


def crc(data, width, poly, init, refl, xorout):
    """Bit at a time from the catalogue parameters."""
    mask = (1 << width) - 1
    if refl:
        rpoly = int(format(poly, '0%db' % width)[::-1], 2)
        c = init
        for b in data:
            c ^= b
            for _ in range(8):
                c = (c >> 1) ^ rpoly if c & 1 else c >> 1
        return c ^ xorout
    c = init
    for b in data:
        for i in range(7, -1, -1):
            top = (c >> (width - 1)) & 1
            c = (c << 1) & mask
            if top ^ ((b >> i) & 1):
                c ^= poly
    return c ^ xorout


def xxh32(data, seed):
    """XXH32 from its specification."""
    p1, p2, p3, p4, p5 = (2654435761, 2246822519, 3266489917, 668265263,
                          374761393)
    m = 0xffffffff

    def rotl(x, r):
        return ((x << r) | (x >> (32 - r))) & m

    def rnd(acc, lane):
        return (rotl((acc + lane * p2) & m, 13) * p1) & m
    n, i = len(data), 0
    if n >= 16:
        v = [(seed + p1 + p2) & m, (seed + p2) & m, seed, (seed - p1) & m]
        while i + 16 <= n:
            for k in range(4):
                v[k] = rnd(v[k], struct.unpack_from('<I', data, i + 4 * k)[0])
            i += 16
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) +
             rotl(v[3], 18)) & m
    else:
        h = (seed + p5) & m
    h = (h + n) & m
    while i + 4 <= n:
        h = (rotl((h + struct.unpack_from('<I', data, i)[0] * p3) & m, 17) *
             p4) & m
        i += 4
    while i < n:
        h = (rotl((h + data[i] * p5) & m, 11) * p1) & m
        i += 1
    h ^= h >> 15
    h = (h * p2) & m
    h ^= h >> 13
    h = (h * p3) & m
    return h ^ (h >> 16)


def independent(t, tool):
    data = random.Random(7).randbytes(20001)
    path = t.path('rand.dat')
    with open(path, 'wb') as f:
        f.write(data)
    m32, m64 = 0xffffffff, (1 << 64) - 1
    want = {
        'crc7': (crc(data, 7, 0x09, 0, False, 0), 1),
        'crc16': (crc(data, 16, 0x8005, 0, True, 0), 2),
        'crc32': (crc(data, 32, 0x04c11db7, 0, False, 0), 4),
        'crc32c': (crc(data, 32, 0x1edc6f41, m32, True, 0), 4),
        'crc64': (crc(data, 64, 0xad93d23594c935a9, 0, True, 0), 8),
        'xxhash': (xxh32(data, 1), 4),
    }
    for name, (v, n) in want.items():
        want[name] = v.to_bytes(n, 'little').hex()
    for name in ('md5', 'sha1', 'sha256', 'sha512', 'sha3-224', 'sha3-256',
                 'sha3-384', 'sha3-512'):
        want[name] = hashlib.new(name.replace('-', '_'), data).hexdigest()
    for name, hexd in want.items():
        r = t.run('digest', name, path, prog=tool)
        t.eq(r.out.strip(), hexd, 'digest %s vs independent' % name)


def main():
    t = ibtest.Test()
    tool = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
    if not tool or not os.access(tool, os.X_OK):
        t.skip('verify_check not given')
        t.finish()
    independent(t, tool)
    real_digests(t, tool)
    if not shutil.which('fio'):
        t.skip('fio not installed')
        t.finish()
    for n, (fopts, copts, field) in enumerate(CASES):
        one_case(t, tool, n, fopts, copts, field)
    fio_reads_ours(t, tool)
    fio_words(t, tool)
    t.finish()


main()
