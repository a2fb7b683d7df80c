#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Side by side with fio (skipped when fio is not installed): the same
size-based job run by both must issue the same I/Os. For single-direction
jobs the whole write_iolog sequence (file, direction, offset, length) must be
identical, random ones included (iobench's offset generator is fio's), and so
must the issued rwts line and the sizes of the files left behind; where
iobench's streams knowingly differ, less is compared (see CASES).

Known, deliberate differences are not listed here (fio 3.33's quirks):
bs=4k,16k random writes (fio stops early), fio's duplicated null-engine
iolog lines, fdatasync counted under short=.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

# How much must match, besides the files left behind:
#   exact:  issued rwts per job and the iolog sequence of every file
#   clones: the same, but clone streams compared as a set (fio hands its
#           clones' seeds out in a different order: clone 1 of 3 gets the
#           stream iobench gives clone 2)
#   pass1:  issued rwts, and the first pass of the sequence (fio restarts
#           the same order on every loop; iobench's passes continue the
#           stream, each still covering every block once)
#   bytes:  issued trim/sync, bytes and 4k blocks touched per file (the
#           block-size or seeded streams differ)
#   total:  reads + writes per job (the direction draws differ)
CASES = [
    ('read', ['--rw=read', '--size=64k'], 'exact'),
    ('randread', ['--rw=randread', '--size=256k'], 'exact'),
    ('randwrite', ['--rw=randwrite', '--size=256k'], 'exact'),
    ('randread bs=3k', ['--rw=randread', '--size=64k', '--bs=3k'], 'exact'),
    ('randread size=10000', ['--rw=randread', '--size=10000'], 'exact'),
    ('randread bs=16k offset=64k', ['--rw=randread', '--size=256k',
                                    '--bs=16k', '--offset=64k'], 'exact'),
    ('randread norandommap', ['--rw=randread', '--size=64k',
                              '--norandommap'], 'exact'),
    ('randread blockalign=16k', ['--rw=randread', '--size=256k',
                                 '--blockalign=16k', '--norandommap'], 'exact'),
    # blockalign turns the random map off: whole I/Os up to the size
    ('randwrite bs=8k blockalign=16k', ['--rw=randwrite', '--size=100k',
                                        '--bs=8k', '--blockalign=16k'],
     'exact'),
    # ... and is no part of a sequential job
    ('read bs=64k blockalign=16k loops=3', ['--rw=read', '--size=100k',
                                            '--bs=64k', '--blockalign=16k',
                                            '--loops=3'], 'exact'),
    ('randwrite nrfiles=3', ['--rw=randwrite', '--size=96k', '--nrfiles=3'],
     'exact'),
    # a file found full costs fio a draw: the next file's offsets follow it
    ('randwrite nrfiles=3 sequential', ['--rw=randwrite', '--size=96k',
                                        '--bs=8k', '--nrfiles=3',
                                        '--file_service_type=sequential'],
     'exact'),
    ('write fsync=3', ['--rw=write', '--size=64k', '--fsync=3'], 'exact'),
    ('write bs=4k,16k', ['--rw=write', '--size=256k', '--bs=4k,16k'], 'exact'),
    ('randread bs=4k,16k', ['--rw=randread', '--size=256k', '--bs=4k,16k'],
     'exact'),
    ('randread numjobs=3', ['--rw=randread', '--size=64k', '--numjobs=3'],
     'clones'),
    ('randread loops=3', ['--rw=randread', '--size=64k', '--loops=3'],
     'pass1'),
    ('randread io_size', ['--rw=randread', '--size=64k', '--io_size=160k'],
     'pass1'),
    ('randread randseed=7', ['--rw=randread', '--size=64k', '--randseed=7'],
     'bytes'),
    # block sizes: fio's streams (one per direction) and its walk
    ('randread bsrange', ['--rw=randread', '--size=256k',
                          '--bsrange=4k-16k'], 'exact'),
    ('write bsrange', ['--rw=write', '--size=256k', '--bsrange=4k-16k'],
     'exact'),
    ('read bsrange=4k-10k', ['--rw=read', '--size=256k',
                             '--bsrange=4k-10k'], 'exact'),
    ('randwrite bssplit by share', ['--rw=randwrite', '--size=1m',
                                    '--bssplit=4k/70:64k/20:8k/10'], 'exact'),
    ('randread bssplit norandommap', ['--rw=randread', '--size=1m',
                                      '--bssplit=4k/10:8k/20:16k/30:32k/40',
                                      '--norandommap'], 'exact'),
    ('read bssplit below 100', ['--rw=read', '--size=1m',
                                '--bssplit=4k/50:8k/20'], 'exact'),
    ('randwrite bsrange norandommap', ['--rw=randwrite', '--size=256k',
                                       '--bsrange=4k-64k', '--norandommap'],
     'exact'),
    ('read bsrange randseed=7', ['--rw=read', '--size=256k',
                                 '--bsrange=4k-64k', '--randseed=7'],
     'exact'),
    # a drawn length fits the region, not the size: a whole last I/O
    ('read:8k bsrange over passes', ['--rw=read:8k', '--size=256k',
                                     '--bsrange=512-8k'], 'exact'),
    ('read bsrange bs_unaligned', ['--rw=read', '--size=256k',
                                   '--bsrange=4k-10k', '--bs_unaligned=1'],
     'exact'),
    ('randread offset_increment', ['--rw=randread', '--size=64k',
                                   '--numjobs=2', '--offset_increment=64k',
                                   '--filename=shared'], 'bytes'),
    # a limit on what is issued (io_size, or size= with filesize=): fio
    # issues whole I/Os until it is reached, counted over all passes
    ('write size with filesize', ['--rw=write', '--size=100k',
                                  '--nrfiles=3', '--filesize=512k'], 'exact'),
    ('randwrite size=10000 filesize loops=2',
     ['--rw=randwrite', '--size=10000', '--nrfiles=3', '--filesize=512k',
      '--loops=2'], 'exact'),
    ('randread io_size=10000', ['--rw=randread', '--size=64k',
                                '--io_size=10000'], 'exact'),
    ('randwrite io_size=100000 loops=2',
     ['--rw=randwrite', '--size=256k', '--bs=16k', '--io_size=100000',
      '--loops=2'], 'exact'),
    # a new pass only while a largest block of the limit is left
    ('write io_size=66k', ['--rw=write', '--size=64k', '--io_size=66k'],
     'exact'),
    ('write io_size=130k', ['--rw=write', '--size=64k', '--io_size=130k'],
     'exact'),
    ('randwrite io_size=66k', ['--rw=randwrite', '--size=64k',
                               '--io_size=66k'], 'exact'),
    ('write bs=3k io_size=512k', ['--rw=write', '--size=256k', '--bs=3k',
                                  '--offset=8k', '--io_size=512k'], 'exact'),
    # without a random map every draw fits: a pass ends at its size, with
    # a whole last I/O (100k / 3k: 34 reads)
    ('randread bs=3k norandommap loops=2',
     ['--rw=randread', '--size=100k', '--bs=3k', '--norandommap',
      '--loops=2'], 'exact'),
    ('randrw bs=3k norandommap', ['--rw=randrw', '--size=1000k', '--bs=3k',
                                  '--norandommap'], 'total'),
    # a sequential mix: a position per direction, neither at the end
    ('rw bs=3k loops=3', ['--rw=rw', '--size=100k', '--bs=3k', '--loops=3'],
     'total'),
    ('rw bs=3k rwmixread=0', ['--rw=rw', '--size=1000k', '--bs=3k',
                              '--rwmixread=0'], 'total'),
    ('rw rwmixread=100 nrfiles=3 loops=3',
     ['--rw=rw', '--size=64k', '--rwmixread=100', '--nrfiles=3',
      '--file_service_type=sequential', '--loops=3'], 'total'),
    ('rw nrfiles=3 loops=3', ['--rw=rw', '--size=64k', '--nrfiles=3',
                              '--loops=3'], 'total'),
    ('randread zipf bs=3k loops=2', ['--rw=randread', '--size=100k',
                                     '--bs=3k', '--loops=2',
                                     '--random_distribution=zipf:1.2'],
     'total'),
    # holes (rw=TYPE:N): a pass ends where the next I/O would start past
    # the region (9 reads of 100k), except that a skip past the end of a
    # file the region ends with starts it again, size= then a limit
    ('read:8k size=100k', ['--rw=read:8k', '--size=100k'], 'exact'),
    ('read:8k size=98k offset=8k', ['--rw=read:8k', '--size=98k',
                                    '--offset=8k'], 'exact'),
    ('read:8k nrfiles=2 loops=2', ['--rw=read:8k', '--size=100k',
                                   '--nrfiles=2', '--loops=2'], 'exact'),
    ('write:12k size=64k', ['--rw=write:12k', '--size=64k'], 'exact'),
    ('read:1k bs=64k size=1000k offset=8k',
     ['--rw=read:1k', '--bs=64k', '--size=1000k', '--offset=8k'], 'exact'),
    ('read:8k nrfiles=3 sequential loops=2',
     ['--rw=read:8k', '--size=300k', '--nrfiles=3',
      '--file_service_type=sequential', '--loops=2'], 'exact'),
    # every pass starts at the first file
    ('read nrfiles=3 sequential loops=2',
     ['--rw=read', '--size=96k', '--nrfiles=3',
      '--file_service_type=sequential', '--loops=2'], 'exact'),
    ('read:8k size=102k loops=2', ['--rw=read:8k', '--size=102k',
                                   '--loops=2'], 'exact'),
    # zonemode=strided: zonesize of I/O per zone of zonerange, zoneskip
    # left out, from the region's start again at the file's end
    ('read zones', ['--rw=read', '--size=64k', '--zonemode=strided',
                    '--zonesize=16k', '--zoneskip=16k'], 'exact'),
    ('read zonesize above zonerange',
     ['--rw=read', '--size=64k', '--zonemode=strided', '--zonesize=24k',
      '--zonerange=16k'], 'exact'),
    ('randread zones', ['--rw=randread', '--size=64k', '--zonemode=strided',
                        '--zonesize=16k', '--zoneskip=16k'], 'exact'),
    ('randwrite zones in a larger file',
     ['--rw=randwrite', '--size=64k', '--filesize=256k', '--zonemode=strided',
      '--zonesize=32k', '--zonerange=16k', '--zoneskip=48k'], 'exact'),
    # the file's end ends a pass; io_size starts another
    ('read zones to the end, io_size',
     ['--rw=read', '--bs=16k', '--size=100k', '--zonemode=strided',
      '--zonesize=64k', '--zoneskip=16k', '--io_size=200k'], 'exact'),
    ('randread a zone past the end',
     ['--rw=randread', '--size=128k', '--zonemode=strided', '--zonesize=24k'],
     'exact'),
    ('write zones loops=2',
     ['--rw=write', '--size=64k', '--offset=16k', '--filesize=256k',
      '--zonemode=strided', '--zonesize=16k', '--zonerange=32k',
      '--zoneskip=32k', '--loops=2'], 'exact'),
    ('write zones verify',
     ['--rw=write', '--size=1m', '--zonemode=strided', '--zonesize=32k',
      '--zoneskip=96k', '--verify=crc32c', '--verify_state_save=0'], 'exact'),
    ('rw zones', ['--rw=rw', '--size=64k', '--zonemode=strided',
                  '--zonesize=16k', '--zoneskip=16k'], 'total'),
    # rw=randTYPE:N: every Nth I/O of the job drawn, the first one too; a
    # follower at the file's end is drawn instead, the count goes on
    ('randread:4', ['--rw=randread:4', '--size=64k'], 'exact'),
    ('randread:2 size=100k', ['--rw=randread:2', '--size=100k'], 'exact'),
    ('randwrite:4 bs=8k', ['--rw=randwrite:4', '--bs=8k', '--size=96k'],
     'exact'),
    ('randread:3 identical', ['--rw=randread:3', '--size=64k',
                              '--rw_sequencer=identical'], 'exact'),
    ('randrw', ['--rw=randrw', '--size=256k'], 'total'),
    ('rw rwmixread=75', ['--rw=rw', '--size=256k', '--rwmixread=75'], 'total'),
]
PASS = 16       # blocks in one pass of the 64k 'pass1' cases


def run_in(t, prog, d, label, opts):
    """Run one job in a fresh directory d: (report jobs, iolog, file sizes).
    prog: fio's path, or None for iobench."""
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    log = os.path.join(d, 'iolog')
    # fio's defaults, given: both run buffered psync
    # iobench: the installed fio's random streams (ibtest.fio_like)
    mine = [] if prog else t.fio_like()
    r = t.run('--name=p', '--ioengine=psync', '--direct=0',
              '--write_iolog=' + log, *opts, *mine,
              cwd=d, prog=prog)
    if not t.ok(r, '%s (%s)' % (label, os.path.basename(prog or t.bin))):
        return None
    il = ibtest.parse_iologs(log)
    sizes = sorted((n, os.path.getsize(os.path.join(d, n)))
                   for n in os.listdir(d) if not n.startswith('iolog'))
    return ibtest.parse_report(r.out), il, sizes


def by_file(il, d):
    """{file name relative to d: [(ddir, offset, length), ...]}; a sync
    line's offset is not compared (fio logs the last write's there)."""
    out = {}
    for f, ddir, off, length in il.ios:
        if ddir == 'sync':
            off = 0
        if ddir in ('read', 'write', 'sync'):
            rel = os.path.relpath(os.path.join(d, f), d)
            out.setdefault(rel, []).append((ddir, off, length))
    return out


def first_diff(a, b):
    """Where two {file: [io, ...]} maps first differ, as a short text."""
    if sorted(a) != sorted(b):
        return 'files %s vs %s' % (sorted(a), sorted(b))
    for f in sorted(a):
        x, y = a[f], b[f]
        for i, (p, q) in enumerate(zip(x, y)):
            if p != q:
                return '%s: I/O #%d is %s, fio %s' % (f, i, p, q)
        if len(x) != len(y):
            return '%s: %d I/Os, fio %d' % (f, len(x), len(y))
    return None


def touched(seqs):
    """{file: (bytes, sorted 4k blocks touched)} from by_file()."""
    out = {}
    for f, ios in seqs.items():
        blocks = set()
        for ddir, off, length in ios:
            blocks.update(range(off // 4096, (off + length + 4095) // 4096))
        out[f] = (sum(io[2] for io in ios), sorted(blocks))
    return out


def compare(t, label, how, a, b, da, db):
    (ja, la, sa), (jb, lb, sb) = a, b
    t.eq(sa, sb, '%s: files left behind (name, size)' % label)
    if how == 'total':
        t.eq([sum(j.issued[:2]) for j in ja], [sum(j.issued[:2]) for j in jb],
             '%s: reads + writes per job' % label)
        return
    if how == 'bytes':
        t.eq([j.issued[2:] for j in ja], [j.issued[2:] for j in jb],
             '%s: trim, sync issued' % label)
    elif how == 'clones':
        t.eq(sorted(j.issued for j in ja), sorted(j.issued for j in jb),
             '%s: issued rwts per job' % label)
    else:
        t.eq([j.issued for j in ja], [j.issued for j in jb],
             '%s: issued rwts per job' % label)
    if not t.check(la is not None and lb is not None,
                   '%s: both wrote an iolog' % label):
        return
    fa, fb = by_file(la, da), by_file(lb, db)
    if how == 'bytes':
        t.eq(touched(fa), touched(fb), '%s: bytes, blocks per file' % label)
        return
    if how == 'clones':
        t.eq(sorted(fa.values()), sorted(fb.values()),
             '%s: the set of clone streams' % label)
        return
    if how == 'pass1':
        fa = {f: v[:PASS] for f, v in fa.items()}
        fb = {f: v[:PASS] for f, v in fb.items()}
    diff = first_diff(fa, fb)
    t.check(diff is None, '%s: iolog sequence per file' % label, diff)


def main():
    t = ibtest.Test()
    fio = shutil.which('fio')
    if not fio:
        t.skip('fio is not installed')
        t.finish()
    for label, opts, how in CASES:
        da, db = t.path('ib'), t.path('fio')
        a = run_in(t, None, da, label, opts)
        b = run_in(t, fio, db, label, opts)
        if a is not None and b is not None:
            compare(t, label, how, a, b, da, db)
    t.finish()


if __name__ == '__main__':
    main()
