#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Block sizes and write data (issue 13, second part): bssplit (shares per
direction, blank shares, exact byte budget), rw=TYPE:N offset modifiers
(holes, backwards reads, random runs: the offsets fio 3.33 issues),
buffer_pattern, buffer_compress_percentage/buffer_compress_chunk (the
random and fixed bytes of every chunk, read back from a tmpfs file and
from a loop device) and dedupe_percentage (the duplicate blocks written).
Side by side with fio 3.33 where it is installed (psync, direct given).
"""
import collections
import json
import os
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB
PSYNC = ['--ioengine=psync', '--direct=0']


def iolog_run(t, name, target, *opts, fio=False):
    """Run one job with write_iolog; the (ddir, offset, len) it issued."""
    log = t.path(name + ('.fio' if fio else '') + '.iolog')
    if os.path.exists(log):
        os.unlink(log)
    args = ['--name=' + name, '--filename=' + target, '--write_iolog=' + log,
            '--output-format=json'] + PSYNC + list(opts)
    r = t.fio(*args) if fio else t.run(*(args + t.fio_like()))
    if r is None:
        return None, None
    if not t.ok(r, '%s%s' % (name, ' (fio)' if fio else '')):
        return None, r
    lg = ibtest.parse_iolog(log)
    return [(io[1], io[2], io[3]) for io in lg.ios
            if io[1] in ('read', 'write')], r


def job_json(r):
    return json.loads(r.out[r.out.index('{'):])['jobs'][0]


def test_seq_modifiers(t):
    f = t.shm_file('mod', size=64 * KiB)
    want = {
        'read:4k': [0, 8, 16, 24, 32, 40, 48, 56] * 2,
        'read:-8k': [0, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8,
                     4, 0],
        'read:-12k': [0, 52, 44, 36, 28, 20, 12, 4, 52, 44, 36, 28, 20, 12,
                      4, 52],
        'write:12k': [0, 16, 32, 48] * 4,
        'read:-3k': list(range(16)),
    }
    for rw, kib in want.items():
        ios, r = iolog_run(t, 'm', f, '--size=64k', '--bs=4k', '--rw=' + rw)
        if ios is None:
            continue
        t.eq([o // KiB for _, o, _ in ios], kib, 'rw=%s offsets (KiB)' % rw)
        fios, _ = iolog_run(t, 'm', f, '--size=64k', '--bs=4k',
                            '--rw=' + rw, fio=True)
        if fios is not None:
            t.eq([o // KiB for _, o, _ in fios], kib,
                 'rw=%s offsets (KiB), fio 3.33' % rw)
    # the region inside a larger file: one pass, ending where the next I/O
    # would start past the region (a target much larger than size=, as a
    # device: not size= bytes of the same offsets again and again)
    big = t.shm_file('modbig', size=MiB)
    once = {'read:4k': [0, 8, 16, 24, 32, 40, 48, 56],
            'write:12k': [0, 16, 32, 48]}
    for rw, kib in once.items():
        for fio in (False, True):
            ios, r = iolog_run(t, 'm', big, '--size=64k', '--bs=4k',
                               '--rw=' + rw, '--loops=2', fio=fio)
            if ios is not None:
                t.eq([o // KiB for _, o, _ in ios], kib * 2,
                     'rw=%s in a 1 MiB file, loops=2: offsets (KiB)%s'
                     % (rw, ', fio 3.33' if fio else ''))
    ios, r = iolog_run(t, 'rr', t.shm_file('rr', size=4 * MiB),
                       '--size=4m', '--bs=4k', '--rw=randread:8')
    if ios:
        starts = sum(1 for a, b in zip(ios, ios[1:]) if b[1] != a[1] + a[2])
        t.eq(len(ios), 1024, 'randread:8: I/Os')
        # 128 runs of 8; a run cut short at the end of the file adds one
        t.check(127 <= starts <= 140, 'randread:8: %d new offsets for 1024 '
                'I/Os (runs of 8)' % starts)
        t.check(max(run_lengths(ios)) == 8, 'randread:8: runs of at most 8')
    f = t.shm_file('ident', size=64 * KiB)
    got = {}
    for fio in (False, True):
        ios, _ = iolog_run(t, 'id', f, '--size=64k', '--bs=4k',
                           '--rw=randread:4', '--rw_sequencer=identical',
                           fio=fio)
        if ios is not None:
            got[fio] = [o for _, o, _ in ios]
    if False in got:
        offs = got[False]
        t.eq(len(offs), 16, 'rw_sequencer=identical: reads')
        t.check(all(offs[i] == offs[i - i % 4] for i in range(16)),
                'rw_sequencer=identical: each offset 4 times: %s' % offs)
        if True in got:
            t.eq(offs, got[True], 'rw_sequencer=identical: the offsets of '
                 'fio 3.33')
    r = t.run('--parse-only', '--name=x', '--size=64k', '--rw=read:4k',
              '--rw_sequencer=identical')
    t.fails(r, 'rw_sequencer=identical with a sequential type')
    t.eq(r.err.strip(), 'iobench: rw_sequencer=identical with rw=read: only '
         'with random types in iobench', 'identical sequential: message', r)
    # offset=N%: aligned up to offset_align, or to the block size
    f = t.shm_file('oalign', size=100 * KiB)
    for oa, want in ((None, 36864), ('0', 36864), ('8k', 40960),
                     ('3k', 33792)):
        for fio in (False, True):
            if fio and oa == '0':
                continue        # fio 3.33 dies of SIGFPE on offset_align=0
            extra = ['--offset_align=' + oa] if oa else []
            ios, _ = iolog_run(t, 'oa', f, '--size=16k', '--offset=33%',
                               '--bs=4k', '--rw=read', *extra, fio=fio)
            if ios:
                t.eq(ios[0][1], want, 'offset=33%% offset_align=%s%s: first '
                     'offset' % (oa, ' (fio 3.33)' if fio else ''))
    r = t.run('--parse-only', '--name=x', '--size=64k', '--rw=randread:-8')
    t.fails(r, 'randread:-8')
    t.eq(r.err.strip(), 'iobench: rw=randread:-8: the modifier of a random '
         'type is a count of I/Os', 'randread:-8 message', r)


def run_lengths(ios):
    runs, n = [], 1
    for a, b in zip(ios, ios[1:]):
        if b[1] == a[1] + a[2]:
            n += 1
        else:
            runs.append(n)
            n = 1
    return runs + [n]


def test_bssplit(t):
    f = t.shm_file('bss', size=16 * MiB)
    ios, r = iolog_run(t, 'b', f, '--size=16m', '--rw=randrw',
                       '--norandommap', '--bssplit=4k/50:1k/:32k/,64k/90:8k/10')
    if not ios:
        return
    rd = collections.Counter(ln for d, _, ln in ios if d == 'read')
    wr = collections.Counter(ln for d, _, ln in ios if d == 'write')
    t.eq(sorted(rd), [1024, 4096, 32768], 'bssplit: read sizes')
    t.eq(sorted(wr), [8192, 65536], 'bssplit: write sizes')
    nr, nw = sum(rd.values()), sum(wr.values())
    t.check(abs(rd[4096] / nr - 0.5) < 0.06 and abs(rd[1024] / nr - 0.25) < 0.05,
            'bssplit: read shares 50/25/25: %s' % dict(rd))
    t.check(abs(wr[8192] / nw - 0.1) < 0.04,
            'bssplit: write shares 90/10: %s' % dict(wr))
    j = job_json(r)
    # without a random map every draw fits: whole I/Os until the size is
    # reached, as fio (the last one crosses it, the one before is below it)
    total = sum(ln for _, _, ln in ios)
    t.check(total >= 16 * MiB and total - ios[-1][2] < 16 * MiB,
            'bssplit: whole I/Os up to the size: %d bytes, the last %d'
            % (total, ios[-1][2]))
    t.eq(j['read']['io_bytes'] + j['write']['io_bytes'], total,
         'bssplit: bytes of the job = iolog')
    t.eq((j['read']['total_ios'], j['write']['total_ios']), (nr, nw),
         'bssplit: I/O counts = iolog')
    t.check(all(o % 1024 == 0 for _, o, _ in ios), 'bssplit: offsets aligned '
            'to the smallest size')
    # sequential, one direction: the exact budget with fio too
    for fio in (False, True):
        ios, r = iolog_run(t, 's', f, '--size=8m', '--rw=write',
                           '--bssplit=4k/25:16k/75', fio=fio)
        if ios is None:
            continue
        c = collections.Counter(ln for _, _, ln in ios)
        who = 'fio 3.33' if fio else 'iobench'
        t.eq(sum(ln for _, _, ln in ios), 8 * MiB, 'bssplit seq: bytes, ' + who)
        t.eq(sorted(c), [4096, 16384], 'bssplit seq: sizes, ' + who)
        t.check(abs(c[4096] / sum(c.values()) - 0.25) < 0.05,
                'bssplit seq: 25%% 4k, %s: %s' % (who, dict(c)))
        t.eq([o for _, o, _ in ios], sorted(o for _, o, _ in ios),
             'bssplit seq: ascending offsets, ' + who)
    dev = t.loop_device(1 * MiB)
    if dev:
        r = t.run('--name=x', '--filename=' + dev, '--size=64k',
                  '--bssplit=4k/50:6000/25:8k/25', '--direct=1')
        t.fails(r, 'bssplit size not aligned for direct I/O')
        t.eq(r.err.strip(), "iobench: job 'x': bssplit size 6000 is not a "
             "multiple of 512, the direct I/O alignment of %s (direct=1)" % dev,
             'bssplit direct alignment: message', r)
        r = t.run('--name=x', '--filename=' + dev, '--size=64k',
                  '--rw=read:1000', '--direct=1')
        t.fails(r, 'rw=read:1000 with direct=1')
    r = t.run('--parse-only', '--name=x', '--size=64k', '--bssplit=4k/101')
    t.fails(r, 'bssplit=4k/101')
    t.eq(r.err.strip(), "iobench: bssplit: bad percentage '101'",
         'bssplit=4k/101 message', r)


def blocks_of(data, bs):
    """data cut in bs-byte blocks (the last one shorter)."""
    return [data[o:o + bs] for o in range(0, len(data), bs)]


def run_read(t, name, f, size, args, fio):
    """Run the job args (fio's or iobench's) on f: f's first size bytes
    after it, or None (failed, or no fio)."""
    r = t.fio(*args) if fio else t.run(*args)
    if r is None or not t.ok(r, name + (' (fio)' if fio else '')):
        return None
    with open(f, 'rb') as fh:
        return fh.read(size)


def write_file(t, name, size, *opts, fio=False, target=None):
    f = target or t.path(name)
    if not target and os.path.exists(f):
        os.unlink(f)
    args = ['--name=' + name, '--filename=' + f, '--size=%d' % size,
            '--rw=write', '--output-format=json'] + list(opts)
    if '--ioengine=libaio' not in opts:
        args += PSYNC
    return run_read(t, name, f, size, args, fio)


def check_compress(t, data, chunk, pct, fixed, who):
    """Every chunk: random bytes, then fixed bytes (the pattern restarting)."""
    bad = 0
    for c in range(0, len(data), chunk):
        n = min(chunk, len(data) - c)
        rnd = n * (100 - pct) // 100
        want = (fixed * (n // len(fixed) + 1))[:n - rnd]
        if data[c + rnd:c + n] != want or data[c:c + rnd].count(0) > rnd // 3:
            bad += 1
    t.eq(bad, 0, '%s: chunks not random-then-fixed' % who)


def test_compress(t):
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        d = write_file(t, 'cz', 1 * MiB, '--bs=4k',
                       '--buffer_compress_percentage=70', fio=fio)
        if d is None:
            continue
        check_compress(t, d, 512, 70, b'\0', 'compress 70 ' + who)
        ratio = len(zlib.compress(d, 6)) / len(d)
        t.check(0.25 < ratio < 0.36, 'compress 70 %s: zlib ratio %.3f' %
                (who, ratio))
        d = write_file(t, 'cp', 1 * MiB, '--bs=4k',
                       '--buffer_compress_percentage=70',
                       '--buffer_compress_chunk=1000',
                       '--buffer_pattern=0xabcd', fio=fio)
        if d is not None:
            for blk in range(0, len(d), 4096):
                check_compress(t, d[blk:blk + 4096], 1000, 70, b'\xab\xcd',
                               'compress 70 chunk 1000 pattern %s @%d' %
                               (who, blk))
                if t.failed:
                    break
    dev = t.loop_device(4 * MiB)
    if dev is None:
        t.skip('no loop devices: compress on a device')
        return
    d = write_file(t, 'cdev', 4 * MiB, '--bs=64k', '--ioengine=libaio',
                   '--direct=1', '--iodepth=4', '--allow_data_loss=1',
                   '--buffer_compress_percentage=40',
                   '--buffer_compress_chunk=0', target=dev)
    if d is not None:
        for blk in range(0, len(d), 65536):
            check_compress(t, d[blk:blk + 65536], 65536, 40, b'\0',
                           'compress 40 chunk 0 loop device @%d' % blk)


def test_pattern(t):
    d = write_file(t, 'pat', 256 * KiB, '--bs=8k',
                   '--buffer_pattern=0xdeadface"ab"-12')
    want = bytes.fromhex('deadface') + b'ab' + (-12 & 0xffffffff).to_bytes(4, 'little')
    if d is not None:
        blocks = blocks_of(d, 8192)
        full = (want * (8192 // len(want) + 1))[:8192]
        t.eq(sum(1 for b in blocks if b != full), 0,
             'buffer_pattern: blocks not the pattern from byte 0')
    fd = write_file(t, 'pat', 256 * KiB, '--bs=8k',
                    '--buffer_pattern=0xdeadface"ab"-12', fio=True)
    if fd is not None and d is not None:
        t.check(fd == d, 'buffer_pattern: the same bytes as fio 3.33')
    r = t.run('--parse-only', '--name=x', '--size=64k',
              "--buffer_pattern='/etc/hostname'")
    t.fails(r, 'buffer_pattern from a file')
    t.eq(r.err.strip(), "iobench: buffer_pattern='file': a pattern read from "
         "a file is not supported by iobench", 'pattern file message', r)


def sectors(data):
    """How many distinct 512-byte sectors data holds."""
    return len(set(blocks_of(data, 512)))


def test_scramble(t):
    """scramble_buffers, on by default as fio's: a sequential write from one
    buffer (psync, QD1) leaves no 512-byte sector twice; off, the 64
    blocks are one block's 8 sectors. zero_buffers turns the default stamp
    off, not a given one. The same counts from fio 3.33."""
    size = 256 * KiB
    cases = [
        ((), size // 512, 'default'),
        (('--scramble_buffers=0',), 8, 'scramble_buffers=0'),
        (('--zero_buffers=1',), 1, 'zero_buffers=1'),
        (('--zero_buffers=1', '--scramble_buffers=1'), size // 512,
         'zero_buffers=1 scramble_buffers=1'),
        (('--scramble_buffers=1', '--verify=crc32c', '--do_verify=0'),
         size // 512, 'verify'),
    ]
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        for opts, want, what in cases:
            d = write_file(t, 'scr', size, '--bs=4k', '--iodepth=1', *opts,
                           fio=fio)
            if d is None:
                continue
            t.eq(sectors(d), want, '%s %s: distinct sectors' % (who, what))
            if what == 'zero_buffers=1':
                t.eq(d.count(0), size, '%s %s: all zeros' % (who, what))
            if what == 'verify' and not fio:
                # verify's blocks, not the stamp: read back and checked
                r = t.run('--name=scr', '--filename=' + t.path('scr'),
                          '--size=%d' % size, '--rw=read', '--bs=4k',
                          '--verify=crc32c', *PSYNC)
                t.ok(r, 'verify reads back what a scrambled job wrote')


def mixed_run(t, name, fill, fio, *opts):
    """A randrw job over a 1 MiB file filled with fill (bytes): the file
    before and after, as 4 KiB blocks."""
    f = t.path(name)
    with open(f, 'wb') as fh:
        fh.write(fill)
    args = ['--name=' + name, '--filename=' + f, '--size=1m', '--bs=4k',
            '--rw=randrw', '--loops=4', '--output-format=json'] + list(opts)
    d = run_read(t, name, f, len(fill), args, fio)
    if d is None:
        return None
    return list(zip(blocks_of(fill, 4096), blocks_of(d, 4096)))


def test_read_buffers_apart(t):
    """The JSON's effective options say when the reads had buffers of their
    own: a job that reads and writes (with registered buffers on io_uring:
    each area's buffers registered), not one that only writes or verifies."""
    f = t.shm_file('rb', size=MiB)
    base = ['--name=rb', '--filename=' + f, '--size=1m', '--bs=4k',
            '--output-format=json']
    cases = [(['--rw=randrw', '--ioengine=io_uring', '--direct=1',
               '--iodepth=16'], 1, 'randrw io_uring'),
             (['--rw=randrw'] + PSYNC, 1, 'randrw psync'),
             (['--rw=randwrite'] + PSYNC, None, 'randwrite'),
             (['--rw=randrw', '--verify=crc32c'] + PSYNC, None,
              'randrw verify')]
    for opts, want, what in cases:
        r = t.run(*(base + opts))
        if not t.ok(r, what):
            continue
        eff = job_json(r).get('effective options', {})
        t.eq(eff.get('read_buffers_apart'), want,
             'read_buffers_apart: %s' % what)
        if 'io_uring' in what:
            t.check('fixedbufs' in eff.get('engine_setup', ''),
                    '%s: registered buffers' % what, eff)


def test_mixed_writes(t):
    """In a job that reads and writes, a write from a buffer a read filled
    carries the data asked for, not what was read: the pattern, zeros, or
    random data on a device of zeros (where the read's zeros would be a
    compressing target's easy case). fio 3.33 keeps the pattern (it turns
    refill_buffers on) but writes the read data otherwise."""
    rnd = os.urandom(MiB)
    pat = bytes.fromhex('deadbeef') * 1024
    engines = (PSYNC, ['--ioengine=io_uring', '--direct=1', '--iodepth=8'])
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        for eng in engines if not fio else engines[:1]:
            e = '%s %s' % (who, eng[0].split('=')[1])
            blocks = mixed_run(t, 'mx', rnd, fio, *eng,
                               '--buffer_pattern=0xdeadbeef')
            if blocks is None:
                continue
            written = sum(1 for a, b in blocks if a != b)
            t.check(written > 16, '%s pattern: blocks written (%d)'
                    % (e, written))
            t.eq(sum(1 for a, b in blocks if a != b and b != pat), 0,
                 '%s pattern: written blocks not the pattern' % e)
            blocks = mixed_run(t, 'mx', rnd, fio, *eng, '--zero_buffers=1')
            if blocks is None:
                continue
            stale = sum(1 for a, b in blocks if a != b and b.count(0) != 4096)
            if fio:
                t.check(stale > 0, '%s zero_buffers: writes carry read data '
                        '(%d blocks)' % (e, stale))
            else:
                t.eq(stale, 0, '%s zero_buffers: written blocks not zeros' % e)
            blocks = mixed_run(t, 'mx', bytes(MiB), fio, *eng)
            if blocks is None:
                continue
            # a written block of random data has ~16 zero bytes of 4096;
            # the read zeros with the stamps, about 4000
            mostly = sum(1 for a, b in blocks if b != a and b.count(0) > 2048)
            if fio:
                t.check(mostly > 0, '%s default data: writes of the zeros '
                        'read (%d blocks)' % (e, mostly))
            else:
                t.eq(mostly, 0, '%s default data: written blocks mostly the '
                     'zeros read' % e)


def dup_share(data, bs):
    blocks = blocks_of(data, bs)
    uniq = len(set(blocks))
    repeats = sum(1 for a, b in zip(blocks, blocks[1:]) if a == b)
    return len(blocks), uniq, repeats


def test_dedupe(t):
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        d = write_file(t, 'dd', 4 * MiB, '--bs=4k', '--dedupe_percentage=40',
                       fio=fio)
        if d is None:
            continue
        n, uniq, rep = dup_share(d, 4096)
        t.eq(n, 1024, 'dedupe %s: blocks' % who)
        # sequential writes: a duplicate repeats the block before it
        t.eq(n - uniq, rep, 'dedupe %s: every duplicate repeats the block '
             'before it' % who)
        t.check(0.34 < (n - uniq) / n < 0.46, 'dedupe %s: 40%% duplicates: '
                '%d of %d' % (who, n - uniq, n))
        uniq_blocks = b''.join(sorted(set(blocks_of(d, 4096))))
        ratio = len(zlib.compress(uniq_blocks, 1)) / len(uniq_blocks)
        t.check(ratio > 0.99, 'dedupe %s: unique blocks not compressible '
                '(%.3f)' % (who, ratio))
    a = write_file(t, 'dm', 1 * MiB, '--bs=4k', '--dedupe_percentage=40')
    b = write_file(t, 'dm', 1 * MiB, '--bs=4k', '--dedupe_percentage=40',
                   '--dedupe_mode=repeat', '--dedupe_global=0')
    t.check(a is not None and a == b, 'dedupe_mode=repeat, dedupe_global=0: '
            'the default, the same bytes')
    d = write_file(t, 'dz', 4 * MiB, '--bs=4k', '--dedupe_percentage=50',
                   '--buffer_compress_percentage=50')
    if d is not None:
        n, uniq, rep = dup_share(d, 4096)
        t.check(0.45 < (n - uniq) / n < 0.55, 'dedupe+compress: 50%% '
                'duplicates: %d of %d' % (n - uniq, n))
        check_compress(t, d, 512, 50, b'\0', 'dedupe+compress chunks')


def loop_remove(t, dev):
    """Detach dev and delete the loop device itself (LOOP_CTL_REMOVE), so
    that limits changed in its sysfs queue do not outlive the test."""
    import fcntl
    subprocess.run(['losetup', '-d', dev], capture_output=True)
    if dev in t.loops:
        t.loops.remove(dev)
    try:
        fd = os.open('/dev/loop-control', os.O_RDWR)
        try:
            fcntl.ioctl(fd, 0x4C81, int(dev[len('/dev/loop'):]))
        finally:
            os.close(fd)
    except OSError:
        pass


def trim_counts(t, r, what):
    if not t.ok(r, what):
        return None
    j = job_json(r)
    return tuple((j[d]['total_ios'], j[d]['io_bytes'])
                 for d in ('read', 'write', 'trim'))


def test_trim_device(t):
    dev = t.loop_device(1 * MiB)
    if dev is None:
        t.skip('no loop devices: trim')
        return
    for eng in ('io_uring', 'libaio', 'psync'):
        r = t.run('--name=fill', '--filename=' + dev, '--rw=write',
                  '--bs=64k', '--buffer_pattern=0x5a', '--allow_data_loss=1',
                  '--ioengine=' + eng, '--output-format=json')
        t.ok(r, 'fill the device with 0x5a (%s)' % eng)
        r = t.run('--name=t', '--filename=' + dev, '--rw=randtrim',
                  '--bs=4k', '--offset=64k', '--size=128k',
                  '--allow_data_loss=1', '--ioengine=' + eng,
                  '--output-format=json')
        c = trim_counts(t, r, 'randtrim ' + eng)
        if c is None:
            continue
        t.eq(c, ((0, 0), (0, 0), (32, 128 * KiB)), 'randtrim %s: rwt counts'
             % eng)
        with open(dev, 'rb') as f:
            d = f.read()
        t.check(d[64 * KiB:192 * KiB] == bytes(128 * KiB),
                'randtrim %s: the trimmed range reads back as zeros' % eng)
        t.check(d[:64 * KiB] == b'\x5a' * (64 * KiB) and
                d[192 * KiB:] == b'\x5a' * (len(d) - 192 * KiB),
                'randtrim %s: the rest is untouched' % eng)
    # the offsets: every block once, in the order fio 3.33 issues them
    for rw in ('trim', 'randtrim', 'trimwrite', 'randtrimwrite'):
        got = {}
        for fio in (False, True):
            ios = trim_iolog(t, dev, rw, fio)
            if ios is not None:
                got[fio] = ios
        ios = got.get(False)
        if ios is None:
            continue
        trims = [o for d, o, _ in ios if d == 'trim']
        t.eq(sorted(trims), [i * 4096 for i in range(16)],
             '%s: each block trimmed once' % rw)
        if 'write' in rw:
            t.eq([(d, o) for d, o, _ in ios],
                 [x for o in trims for x in (('trim', o), ('write', o))],
                 '%s: each trim followed by a write of its range' % rw)
        if True in got:
            t.eq(ios, got[True], '%s: the same I/Os as fio 3.33' % rw)
    trimwrite_limits(t, dev)
    loop_remove(t, dev)


# (rw, option, trims = writes): fio 3.33's counts over size=256k. io_size
# caps a pass's writes, and a new pass starts only while the trims and
# writes so far are below it; number_ios counts trim+write pairs.
TRIMWRITE_LIMITS = [
    ('randtrimwrite', '--io_size=2m', 256),
    ('trimwrite', '--io_size=512k', 64),
    ('trimwrite', '--io_size=300k', 64),
    ('trimwrite', '--io_size=50%', 32),
    ('randtrimwrite', '--number_ios=10', 10),
]


def trimwrite_limits(t, dev):
    for rw, opt, n in TRIMWRITE_LIMITS:
        args = ['--name=t', '--filename=' + dev, '--rw=' + rw, '--bs=4k',
                '--size=256k', opt, '--output-format=json',
                '--ioengine=psync']
        want = ((0, 0), (n, n * 4 * KiB), (n, n * 4 * KiB))
        for fio in (False, True):
            r = t.fio(*args) if fio else t.run('--allow_data_loss=1', *args)
            if r is None:
                continue
            what = '%s %s%s' % (rw, opt, ' (fio 3.33)' if fio else '')
            c = trim_counts(t, r, what)
            if c is not None:
                t.eq(c, want, what + ': rwt counts')


def trim_iolog(t, dev, rw, fio):
    log = t.path('trim.%s.%d.iolog' % (rw, fio))
    args = ['--name=t', '--filename=' + dev, '--rw=' + rw, '--bs=4k',
            '--size=64k', '--write_iolog=' + log, '--output-format=json',
            '--ioengine=psync', '--direct=1']
    r = t.fio(*args) if fio else t.run('--allow_data_loss=1', *args,
                                       *t.fio_like())
    if r is None:
        return None
    c = trim_counts(t, r, rw + (' fio' if fio else ''))
    want = ((0, 0), (16, 64 * KiB) if 'write' in rw else (0, 0),
            (16, 64 * KiB))
    t.eq(c, want, '%s%s: rwt counts' % (rw, ' (fio 3.33)' if fio else ''))
    return [(io[1], io[2], io[3]) for io in ibtest.parse_iolog(log).ios
            if io[1] in ('read', 'write', 'trim')]


def test_trim_file(t):
    f = t.shm_file('trimf', data=b'\x77' * (256 * KiB))
    before = os.stat(f).st_blocks
    r = t.run('--name=t', '--filename=' + f, '--rw=trim', '--bs=16k',
              '--size=128k', '--output-format=json')
    c = trim_counts(t, r, 'trim a tmpfs file')
    if c is None:
        return
    t.eq(c, ((0, 0), (0, 0), (8, 128 * KiB)), 'trim file: rwt counts')
    d = ibtest.file_bytes(f)
    t.eq(len(d), 256 * KiB, 'trim file: size kept')
    t.check(d[:128 * KiB] == bytes(128 * KiB) and
            d[128 * KiB:] == b'\x77' * (128 * KiB),
            'trim file: holes punched in the first 128 KiB only')
    t.eq(before - os.stat(f).st_blocks, 128 * KiB // 512,
         'trim file: 128 KiB of blocks freed')


def test_trim_refused(t):
    dev = t.loop_device(1 * MiB, name='nodiscard.img')
    if dev is None:
        return
    q = '/sys/block/%s/queue/discard_max_bytes' % os.path.basename(dev)
    try:
        with open(q, 'w') as fh:
            fh.write('0')
    except OSError as e:
        t.skip('cannot turn discard off on %s: %s' % (dev, e))
        loop_remove(t, dev)
        return
    r = t.run('--name=t', '--filename=' + dev, '--rw=trim', '--size=64k',
              '--allow_data_loss=1')
    t.fails(r, 'trim on a device without discard')
    t.eq(r.err.strip(), 'iobench: %s does not support discard '
         '(queue/discard_max_bytes is 0): cannot trim' % dev,
         'no discard: message', r)
    loop_remove(t, dev)


def block_census(data, bs=4096):
    """(distinct blocks, contents written more than once, the last first
    position of such a content)."""
    first, count = {}, {}
    for i in range(0, len(data) // bs):
        b = data[i * bs:(i + 1) * bs]
        first.setdefault(b, i)
        count[b] = count.get(b, 0) + 1
    dups = [b for b, n in count.items() if n > 1]
    return len(count), len(dups), max([first[b] for b in dups] or [0])


def test_dedupe_working_set(t):
    """1024 sequential 4k writes, 30% duplicates, a working set of 10% of
    4 MiB: M = 102 blocks. A duplicate repeats one of the first M unique
    writes, so the distinct blocks are the unique writes: Binomial(1024,
    0.7), mean 716.8, sd 14.7, checked within 5 sd (644..790). The ~307
    duplicates draw uniformly among M: at most M contents repeat (about
    97 expected, at least 85 asserted, a 6-sd margin), all of them first
    written among the first 200 blocks (the first M unique writes are done
    by block ~146). repeat mode's duplicates follow the whole file."""
    ws = ['--bs=4k', '--dedupe_percentage=30', '--dedupe_mode=working_set',
          '--dedupe_working_set_percentage=10']
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        d = write_file(t, 'dw', 4 * MiB, *ws, fio=fio)
        if d is None:
            continue
        distinct, dups, last = block_census(d)
        t.check(644 <= distinct <= 790, 'working_set %s: distinct blocks '
                '%d in 644..790' % (who, distinct))
        t.check(85 <= dups <= 102, 'working_set %s: %d contents repeat, '
                'at most M = 102' % (who, dups))
        t.check(last < 200, 'working_set %s: repeated contents first '
                'written by block 200 (%d)' % (who, last))
    d = write_file(t, 'dr', 4 * MiB, '--bs=4k', '--dedupe_percentage=30')
    if d is not None:
        t.check(block_census(d)[2] > 500, 'repeat: duplicates all along')
    for opts, msg in (
            (['--dedupe_working_set_percentage=80'], 'dedupe_percentage=30: '
             'out of reach with dedupe_working_set_percentage=80 (unique '
             'writes), more than 100 together'),
            (['--nrfiles=2'], 'dedupe_mode=working_set: only with one file '
             'per job')):
        r = t.run('--parse-only', '--name=x', '--size=1m', *ws, *opts)
        t.fails(r, 'working_set ' + ' '.join(opts))
        t.eq(r.err.strip(), 'iobench: ' + msg, 'working_set: ' + msg, r)
    r = t.run('--parse-only', '--name=x', *ws)
    t.eq((r.rc, r.err.strip()), (1, 'iobench: dedupe_mode=working_set: the '
         'working set needs size= (an absolute size)'),
         'working_set without size=', r)


def test_dedupe_global(t):
    """Two jobs as in test_dedupe_working_set: with dedupe_global=1 the 102
    entries are 51 first unique writes of each job, so each job's ~307
    duplicates repeat about 51 * (1 - e^-3) = 48.5 of the other's
    contents: the files share about 97 contents (sd ~2.4; 85..102
    asserted, 102 being every entry of the other jobs); with 0 none."""
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        for g in ('1', '0'):
            files = [t.path('dg%s.%d' % (g, i)) for i in range(2)]
            args = ['--output-format=json', *PSYNC, '--rw=write', '--bs=4k',
                    '--size=4m', '--dedupe_percentage=30',
                    '--dedupe_mode=working_set', '--dedupe_global=' + g,
                    '--dedupe_working_set_percentage=10']
            for i, f in enumerate(files):
                if os.path.exists(f):
                    os.unlink(f)
                args += ['--name=dg%d' % i, '--filename=' + f]
            r = t.fio(*args) if fio else t.run(*args)
            if r is None or not t.ok(r, 'dedupe_global=%s %s' % (g, who)):
                continue
            sets = []
            for f in files:
                with open(f, 'rb') as fh:
                    d = fh.read()
                sets.append({d[o:o + 4096]: o // 4096
                             for o in range(len(d) - 4096, -1, -4096)})
            shared = set(sets[0]) & set(sets[1])
            if g == '0':
                t.eq(len(shared), 0, 'dedupe_global=0 %s: nothing shared'
                     % who)
                continue
            t.check(85 <= len(shared) <= 102, 'dedupe_global=1 %s: %d '
                    'contents shared, 85..102' % (who, len(shared)))
            if not fio:
                first = max(min(sets[0][x], sets[1][x]) for x in shared)
                t.check(first < 100, 'dedupe_global=1: shared contents '
                        'are first unique writes (by block %d)' % first)


def main():
    t = ibtest.Test()
    test_seq_modifiers(t)
    test_bssplit(t)
    test_compress(t)
    test_pattern(t)
    test_scramble(t)
    test_mixed_writes(t)
    test_read_buffers_apart(t)
    test_dedupe(t)
    test_dedupe_working_set(t)
    test_dedupe_global(t)
    test_trim_device(t)
    test_trim_file(t)
    test_trim_refused(t)
    t.finish()


if __name__ == '__main__':
    main()
