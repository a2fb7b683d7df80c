#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio's percentages in option values, as real job files write them: size,
io_size, offset_increment and bssplit take N%, rwmixread=N% is refused (fio
takes it and does only reads). Each case runs on a 1 MiB tmpfs file; the
figures are fio's (3.33 and 3.42 agree), and the same job runs through the
installed fio when there is one."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB

t = ibtest.Test()


def writes(r):
    """[(write io_bytes, total_ios)] of each job of a JSON run, or None."""
    try:
        return [(j['write']['io_bytes'], j['write']['total_ios'])
                for j in json.loads(r.out)['jobs']]
    except (ValueError, KeyError, TypeError):
        return None


def both(name, args, want):
    """The job through iobench and fio (if installed): want in each."""
    target = ['--filename=' + t.shm_file(name + '.dat', size=MiB)]
    if '--nrfiles=2' in args:
        target = ['--directory=' + t.mkdir(name)]
    argv = ['--name=' + name, '--size=1m', '--bs=4k',
            '--output-format=json'] + target + args
    t.eq(writes(t.run(*argv)), want, 'iobench %s' % ' '.join(args))
    r = t.fio(*argv)
    if r is not None:
        t.eq(writes(r), want, 'fio %s' % ' '.join(args))


def io_size_pct():
    """io_size=N%: N% of each file's region, summed; fio's last write is a
    whole block (33% of 1 MiB is 346030 bytes: 85 writes of 4 KiB)."""
    both('p33', ['--rw=write', '--io_size=33%'], [(85 * 4096, 85)])
    both('p1', ['--rw=randwrite', '--io_size=1%'], [(3 * 4096, 3)])
    both('p25', ['--rw=write', '--io_size=25%', '--loops=2'],
         [(512 * KiB, 128)])
    both('p0', ['--rw=write', '--io_size=0%'], [(MiB, 256)])
    both('pn', ['--rw=write', '--io_size=25%', '--nrfiles=2'],
         [(256 * KiB, 64)])


def size_pct():
    """size=N% of the file, up to its end from the offset and in whole
    blocks (fio's rule): the file is not extended."""
    for name, args, want in (
            ('s75', ['--size=75%', '--offset=50%'], [(512 * KiB, 128)]),
            ('s90', ['--size=90%', '--offset=30%'], [(733184, 179)]),
            ('s33', ['--size=33%', '--io_size=50%'], [(172032, 42)]),
            ('s64', ['--size=33%', '--bs=64k'], [(327680, 5)]),
            ('s100', ['--size=100%', '--offset_increment=20%',
                      '--numjobs=2'], [(MiB, 256), (835584, 204)])):
        both(name, ['--rw=write'] + args, want)
        t.eq(os.path.getsize(t.path(name + '.dat')), MiB,
             '%s: the file not extended' % name)


def offset_increment_pct():
    """offset=10% + clone x offset_increment=25% of the 1 MiB file, the sum
    aligned up to the block: clones start at 104857, 367001, 629145
    rounded up to 4 KiB."""
    target = t.shm_file('inc.dat', size=MiB)
    log = t.path('inc.log')
    argv = ['--name=inc', '--filename=' + target, '--size=100k', '--bs=4k',
            '--rw=write', '--offset=10%', '--offset_increment=25%',
            '--numjobs=3', '--write_iolog=' + log, '--output-format=json']
    t.eq(writes(t.run(*argv)), [(100 * KiB, 25)] * 3, 'offset_increment=25%')
    want = sorted(s + k * 4096 for s in (106496, 368640, 630784)
                  for k in range(25))
    got = ibtest.parse_iologs(log)
    t.eq(sorted(off for _, act, off, _ in got.ios if act == 'write'), want,
         'offset_increment=25%: the clones\' write offsets')
    for p in ibtest.iolog_paths(log):
        os.unlink(p)
    if t.fio(*argv) is not None:
        got = ibtest.parse_iologs(log)
        t.eq(sorted(off for _, act, off, _ in got.ios if act == 'write'),
             want, 'fio: the same write offsets')


def bssplit_pct():
    """bssplit=4k/20%:8k/80% is bssplit=4k/20:8k/80, in fio as here."""
    runs = {}
    for v in ('4k/20:8k/80', '4k/20%:8k/80%'):
        target = t.shm_file('bss.dat', size=MiB)
        runs[v] = writes(t.run('--name=bss', '--filename=' + target,
                               '--size=1m', '--rw=randwrite', '--bssplit=' + v,
                               '--output-format=json'))
    t.check(runs['4k/20:8k/80'] is not None and
            runs['4k/20:8k/80'][0][0] == MiB, 'bssplit: 1 MiB written', runs)
    t.eq(runs['4k/20%:8k/80%'], runs['4k/20:8k/80'],
         'bssplit with %: the same writes')


def refused():
    """One line, exit 1, the target untouched."""
    target = t.shm_file('bad.dat', data=b'\x5a' * (64 * KiB))
    for opt, line in (
            ('--rwmixread=50%', "iobench: rwmixread: '50%' is a number "
             "without '%' (rwmixread=50); fio takes '50%' but does 100% "
             "reads\n"),
            ('--rwmixwrite=30%', "iobench: rwmixwrite: '30%' is a number "
             "without '%' (rwmixwrite=30); fio takes '30%' but does 100% "
             "reads\n"),
            ('--io_size=150%', "iobench: io_size: percentage '150%' is out "
             "of range (0..100%)\n"),
            ('--buffer_compress_percentage=50%', "iobench: "
             "buffer_compress_percentage: '50%' is a number without '%' "
             "(buffer_compress_percentage=50); fio does not read '50%' as 50 "
             "either\n")):
        r = t.run('--name=bad', '--filename=' + target, '--size=64k',
                  '--rw=randrw', opt)
        t.eq((r.rc, r.out, r.err), (1, '', line), opt)
    t.eq(ibtest.file_bytes(target), b'\x5a' * (64 * KiB),
         'refused runs: the target untouched')


def fio_pct_numbers():
    """What the refusals say: fio runs rwmixread=70% as all reads and
    number_ios=50% as every I/O of the job."""
    target = t.shm_file('mix.dat', size=MiB)
    r = t.fio('--name=mix', '--filename=' + target, '--size=1m',
              '--rw=randrw', '--rwmixread=70%', '--output-format=json')
    if r is None:
        return
    j = json.loads(r.out)['jobs'][0]
    t.eq((j['read']['io_bytes'], j['write']['io_bytes']), (MiB, 0),
         'fio rwmixread=70%: only reads')
    r = t.fio('--name=n', '--filename=' + target, '--size=1m', '--rw=read',
              '--number_ios=50%', '--output-format=json')
    t.eq(json.loads(r.out)['jobs'][0]['read']['total_ios'], 256,
         'fio number_ios=50%: all 256 reads')


def main():
    io_size_pct()
    size_pct()
    offset_increment_pct()
    bssplit_pct()
    refused()
    fio_pct_numbers()
    t.finish()


if __name__ == '__main__':
    main()
