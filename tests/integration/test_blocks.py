#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Block sizes, alignment and write data: bsrange (lengths are multiples of
the minimum, the region is covered exactly), blockalign, a misaligned bs or
offset under O_DIRECT rejected up front, zero_buffers, refill_buffers, and
unlink=1.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB


def run_log(t, what, *args):
    log = t.path('blocks.iolog')
    for p in ibtest.iolog_paths(log):
        os.unlink(p)
    r = t.run('--name=b', '--ioengine=psync', '--write_iolog=' + log, *args)
    if not t.ok(r, what):
        return None, None
    jobs = ibtest.parse_report(r.out)
    il = ibtest.parse_iologs(log)
    t.check(il is not None, '%s: iolog written' % what)
    return (jobs[0] if len(jobs) == 1 else None), il


def coverage(ios, unit):
    """How many times each `unit` block of the region was touched."""
    count = {}
    for _, _, off, length in ios:
        for b in range(off // unit, (off + length) // unit):
            count[b] = count.get(b, 0) + 1
    return count


def test_bsrange(t):
    f = t.shm_file('range', MiB)
    for rw in ('write', 'randwrite', 'read', 'randread'):
        what = 'bsrange=4k-16k rw=%s' % rw
        job, il = run_log(t, what, '--filename=' + f, '--size=1m',
                          '--bsrange=4k-16k', '--rw=' + rw, '--direct=1')
        if not il:
            continue
        ios = il.data()
        lengths = sorted({io[3] for io in ios})
        t.check(set(lengths) <= {4096, 8192, 12288, 16384} and lengths,
                '%s: lengths multiples of 4k within 4k-16k' % what, lengths)
        t.check(len(lengths) > 1, '%s: more than one length drawn' % what,
                lengths)
        t.eq([io for io in ios if io[2] % 4096], [],
             '%s: offsets aligned to 4k' % what)
        t.eq(sum(io[3] for io in ios), MiB, '%s: bytes issued' % what)
        cov = coverage(ios, 4096)
        t.eq(sorted(cov), list(range(256)), '%s: every 4k block touched' % what)
        t.eq(sorted(set(cov.values())), [1], '%s: and only once' % what)
        if job:
            n = len(ios)
            want = (n, 0, 0, 0) if 'read' in rw else (0, n, 0, 0)
            t.eq(job.issued, want, '%s: issued rwts = iolog lines' % what)
            t.eq(job.dirs.get('read' if 'read' in rw else 'write', {})
                 .get('io'), '1024KiB', '%s: io= in the report' % what)


def test_blockalign(t):
    f = t.shm_file('align', MiB)
    what = 'bs=4k blockalign=16k randread'
    job, il = run_log(t, what, '--filename=' + f, '--size=1m', '--bs=4k',
                      '--blockalign=16k', '--rw=randread', '--norandommap')
    if job:
        t.eq(job.issued, (256, 0, 0, 0), '%s: issued rwts' % what)
    if il:
        t.eq([io for io in il.data() if io[2] % (16 * KiB)], [],
             '%s: offsets aligned to 16k' % what)
        t.eq(sorted({io[3] for io in il.data()}), [4096], '%s: lengths' % what)
    # as in fio, such a blockalign turns the random map off, with a warning;
    # none for a sequential job or an alignment to the block size
    for rw, ba, warned in (('randread', '16k', True), ('read', '16k', False),
                           ('randread', '4k', False)):
        r = t.run('--name=ba', '--ioengine=psync', '--filename=' + f,
                  '--size=64k', '--bs=4k', '--blockalign=' + ba, '--rw=' + rw)
        what = 'blockalign=%s %s' % (ba, rw)
        if not t.ok(r, what):
            continue
        if warned:
            t.eq(r.err.strip(), "iobench: warning: job 'ba': blockalign= "
                 "other than the smallest block size turns the random map "
                 "off (as in fio)", '%s: warning' % what)
        else:
            t.check('random map' not in r.err, '%s: no warning' % what, r)


def rejected(t, what, target, old, args, name):
    r = t.run('--name=mis', '--filename=' + target, '--direct=1',
              '--rw=write', *args)
    t.fails(r, what)
    t.check(name in r.err, '%s: stderr names %s' % (what, name), r)
    t.eq(ibtest.parse_report(r.out), [], '%s: no job ran' % what)
    t.check(ibtest.file_bytes(target) == old, '%s: target unchanged' % what)


def test_direct_misaligned(t):
    """Misaligned for any device (512-byte logical blocks at least)."""
    old = ibtest.pattern(256 * KiB, seed=21)
    f = t.shm_file('mis', data=old)
    for args, name in ((['--size=128k', '--bs=1000'], 'bs'),
                       (['--size=128k', '--bsrange=1000-8k'], 'bs'),
                       (['--size=128k', '--bs=4k,1000'], 'bs'),
                       (['--size=128k', '--offset=100'], 'offset')):
        rejected(t, 'shm direct=1 %s' % ' '.join(args), f, old, args, name)
    # the same without direct=1 is fine
    what = 'direct=0 bs=1000'
    r = t.run('--name=mis', '--filename=' + f, '--size=100000', '--bs=1000',
              '--rw=read')
    if t.ok(r, what):
        t.eq([j.issued for j in ibtest.parse_report(r.out)], [(100, 0, 0, 0)],
             '%s: issued rwts' % what)

    # a device with 4 KiB logical blocks: 2k is misaligned there
    dev = t.loop_device(MiB, sector_size=4096)
    if dev is None:
        t.skip('loop devices unavailable: 4k-sector alignment')
        return
    with open(dev, 'r+b') as d:
        d.write(ibtest.pattern(MiB, seed=27))
    old = ibtest.file_bytes(dev)
    for args, name in ((['--bs=2k'], 'bs'), (['--offset=2k'], 'offset'),
                       (['--bsrange=2k-8k'], 'bs'),
                       (['--bs=6k'], 'bs')):
        rejected(t, 'loop 4k sectors direct=1 %s' % ' '.join(args), dev, old,
                 args, name)
    what = 'loop 4k sectors direct=1 bs=8k offset=4k'
    r = t.run('--name=ok', '--filename=' + dev, '--direct=1', '--rw=read',
              '--bs=8k', '--offset=4k', '--size=512k')
    if t.ok(r, what):
        t.eq([j.issued for j in ibtest.parse_report(r.out)], [(64, 0, 0, 0)],
             '%s: issued rwts' % what)


def blocks_of(data, bs=4096):
    return [data[i:i + bs] for i in range(0, len(data), bs)]


def test_buffers(t):
    size = 256 * KiB
    f = t.shm_file('zero', data=ibtest.pattern(size, seed=23))
    r = t.run('--name=z', '--filename=' + f, '--size=256k', '--bs=4k',
              '--rw=write', '--zero_buffers', '--direct=1')
    if t.ok(r, 'zero_buffers'):
        t.check(ibtest.file_bytes(f) == bytes(size),
                'zero_buffers: the file is all zeros')

    f = t.shm_file('refill', data=ibtest.pattern(size, seed=25))
    for engine in ('psync', 'io_uring', 'libaio'):
        what = 'refill_buffers %s' % engine
        r = t.run('--name=rf', '--filename=' + f, '--size=256k', '--bs=4k',
                  '--rw=write', '--refill_buffers', '--direct=1',
                  '--iodepth=4', '--ioengine=' + engine)
        if t.ok(r, what):
            blks = blocks_of(ibtest.file_bytes(f))
            t.eq(len(set(blks)), 64, '%s: 64 distinct blocks' % what)
            t.check(bytes(4096) not in blks, '%s: no zero block' % what)


def test_unlink(t):
    f = t.path('gone')
    r = t.run('--name=u', '--filename=' + f, '--size=64k', '--rw=write',
              '--unlink=1')
    if t.ok(r, 'unlink=1'):
        t.check(not os.path.exists(f), 'unlink=1: file removed after the job')
    f2 = t.path('kept')
    r = t.run('--name=u', '--filename=' + f2, '--size=64k', '--rw=write')
    if t.ok(r, 'unlink default'):
        t.eq(ibtest.size_of(f2), 64 * KiB, 'unlink=0 (default): file kept')


def test_misc_options(t):
    """Options that change how, not what: the same exact counts."""
    for opts in (['--lockmem=1m'], ['--create_on_open=1'], ['--overwrite=1'],
                 ['--startdelay=100ms'], ['--scramble_buffers=1'],
                 ['--scramble_buffers=0', '--refill_buffers=0'],
                 ['--buffered=0'], ['--direct=1', '--buffered=0']):
        f = t.path('misc')
        if os.path.exists(f):
            os.unlink(f)
        what = ' '.join(opts)
        r = t.run('--name=m', '--filename=' + f, '--size=64k', '--bs=4k',
                  '--rw=write', *opts)
        if t.ok(r, what):
            t.eq([j.issued for j in ibtest.parse_report(r.out)],
                 [(0, 16, 0, 0)], '%s: issued rwts' % what)
            t.eq(ibtest.size_of(f), 64 * KiB, '%s: file written' % what)


def main():
    t = ibtest.Test()
    test_bsrange(t)
    test_blockalign(t)
    test_direct_misaligned(t)
    test_buffers(t)
    test_unlink(t)
    test_misc_options(t)
    t.finish()


if __name__ == '__main__':
    main()
