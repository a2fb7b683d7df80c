#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Bad input, table-driven: every malformed option, value, job file and
impossible combination gives exactly one line on stderr ("iobench: ...")
naming the option or the file, a non-zero exit status, and leaves every
target as it was: nothing created, nothing extended, not one byte changed."""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()

EX = 'ex.dat'           # an existing 1 MiB file with a pattern
NEW = 'new.dat'         # must never appear
DIR = 'adir'

# (what, argv, text the one stderr line must contain). Paths are relative to
# the test directory (the cwd of every run).
CASES = [
    # malformed values
    ('bs with a bad suffix', ['--bs=4q'], 'bs'),
    ('bs 0', ['--bs=0'], 'bs'),
    ('negative bs', ['--bs=-4k'], 'bs'),
    ('size beyond 64 bits', ['--size=99999999999999999999999'], 'size'),
    ('size percentage above 100', ['--size=200%'], 'size'),
    ('unknown rw', ['--rw=sideways'], 'rw'),
    ('runtime not a time', ['--runtime=abc'], 'runtime'),
    ('negative startdelay', ['--startdelay=-1'], 'startdelay'),
    ('negative io_size', ['--io_size=-1'], 'io_size'),
    ('rwmixread above 100', ['--rwmixread=150'], 'rwmixread'),
    ('boolean not a boolean', ['--thread=maybe'], 'thread'),
    ('bsrange upside down', ['--bsrange=8k-4k'], 'bsrange'),
    ('percentile above 100', ['--percentile_list=101'], 'percentile_list'),
    ('iodepth 0', ['--iodepth=0'], 'iodepth'),
    ('iodepth too large', ['--iodepth=70000'], 'iodepth'),
    ('bs above 2g', ['--bs=3g', '--size=6g', '--ioengine=null'], 'bs'),
    ('bsrange above 2g', ['--bsrange=4k-5g', '--size=6g', '--ioengine=null'],
     'bs'),
    ('fixedbufs deeper than io_uring registers',
     ['--ioengine=io_uring', '--fixedbufs=1', '--iodepth=20000'], 'fixedbufs'),
    ('numjobs 0', ['--numjobs=0'], 'numjobs'),
    ('nrfiles 0', ['--nrfiles=0'], 'nrfiles'),
    ('loops 0', ['--loops=0'], 'loops'),
    ('option without its value', ['--bs'], 'bs'),
    ('empty filename', ['--filename=', '--size=1m'], 'filename'),
    # unknown things
    ('unknown option', ['--nosuchopt=1'], 'nosuchopt'),
    ('fio option iobench lacks', ['--write_barrier=1'], 'write_barrier'),
    # names in fio's code that neither fio 3.33 nor 3.42 takes as options
    ('fio internal name', ['--ddir_seq_nr=4'], "unknown option 'ddir_seq_nr'"),
    ('option fio removed', ['--fadvise_stream=1'],
     "unknown option 'fadvise_stream'"),
    ('unknown engine', ['--ioengine=nope'], 'nope'),
    ('unknown output format', ['--output-format=xml'], 'xml'),
    # impossible combinations
    ('bs larger than size', ['--bs=2m', '--size=1m'], 'size'),
    ('offset past the end', ['--offset=2m', '--rw=read'], 'offset'),
    ('rwmixread + rwmixwrite != 100', ['--rwmixread=70', '--rwmixwrite=70'],
     'rwmix'),
    ('misaligned O_DIRECT bs', ['--direct=1', '--bs=1000'], 'bs'),
    ('misaligned O_DIRECT offset', ['--direct=1', '--offset=100'], 'offset'),
    ('engine option on another engine', ['--ioengine=psync', '--fixedbufs=1'],
     'fixedbufs'),
    ('hipri on null', ['--ioengine=null', '--hipri=1'], 'hipri'),
    ('readonly with a writer', ['--readonly', '--rw=write'], '--readonly'),
    ('readonly with a randrw', ['--readonly', '--rw=randrw'], '--readonly'),
    ('sync_file_range with an unknown flag', ['--sync_file_range=flush:2'],
     'sync_file_range'),
    ('sync_file_range with a bad count', ['--sync_file_range=write:0'],
     'sync_file_range'),
    ('sync_file_range with fsync',
     ['--rw=write', '--sync_file_range=write:4', '--fsync=2'],
     'sync_file_range'),
    ('opendir with nrfiles', ['--opendir=' + DIR, '--nrfiles=2'], 'nrfiles'),
    ('io_submit_mode=offload', ['--io_submit_mode=offload'],
     'io_submit_mode=offload'),
    # zonemode=strided (fio's checks, and what iobench's zones do not take)
    ('zonesize without zonemode', ['--zonesize=64k'], 'zonesize'),
    ('zoneskip without zones', ['--zoneskip=64k'], 'zoneskip'),
    ('zonemode=strided without zonesize', ['--zonemode=strided'], 'zonesize'),
    ('zonemode=zbd', ['--zonemode=zbd', '--rw=write'], 'zonemode=zbd'),
    ('random blocks larger than a zone',
     ['--zonemode=strided', '--zonesize=16k', '--rw=randwrite', '--bs=64k'],
     'zonerange'),
    ('zones over two files',
     ['--zonemode=strided', '--zonesize=16k', '--rw=write', '--nrfiles=2'],
     'zonemode=strided'),
    ('zones with holes',
     ['--zonemode=strided', '--zonesize=16k', '--rw=write:4k'],
     'zonemode=strided'),
]

# the same, with a target other than EX
TARGET_CASES = [
    ('a directory as filename (read)', ['--filename=' + DIR, '--rw=read'], DIR),
    ('a directory as filename (write)',
     ['--filename=' + DIR, '--rw=write', '--size=1m'], DIR),
    ('a missing file with no size (read)', ['--filename=' + NEW, '--rw=read'],
     NEW),
    ('a missing file with no size (write)',
     ['--filename=' + NEW, '--rw=write'], NEW),
    # (missing directories on a filename's path are created, as fio does)
    ('a file under a regular file',
     ['--filename=%s/sub/f' % EX, '--rw=write', '--size=1m'], EX + '/sub/f'),
    ('directory= that does not exist',
     ['--directory=nodir', '--rw=write', '--size=1m'], 'nodir'),
    ('opendir with writes', ['--opendir=' + DIR, '--rw=write', '--size=1m'],
     'allow_data_loss=1'),
    ('dedupe working set over opendir',
     ['--opendir=' + DIR, '--rw=read', '--dedupe_percentage=50',
      '--dedupe_mode=working_set', '--size=1m'], 'dedupe_mode=working_set'),
    ('--output into a missing directory', ['--output=nodir/out', '--rw=read'],
     'nodir/out'),
    # a bad job anywhere refuses the whole run before any layout
    ('a good writer, then a bad job',
     ['--rw=write', '--size=1m', '--filename=' + NEW, '--name=bad',
      '--filename=' + EX, '--bs=2m', '--size=1m'], 'size'),
]

# job files: (what, file name, text, what the line must name)
JOBFILES = [
    ('bad value in a job file', 'a.fio', '[j]\nfilename=ex.dat\nbs=4q\n',
     'a.fio:3'),
    ('unterminated section', 'b.fio', '[j\nfilename=ex.dat\n', 'b.fio:1'),
    ('option before any section', 'c.fio', 'filename=ex.dat\n[j]\n', 'c.fio:1'),
    ('unknown option in a job file', 'e.fio', '[j]\nfilename=ex.dat\nnosuch=1\n',
     'nosuch'),
    ('empty job file', 'g.fio', '', 'job'),
    ('only [global]', 'h.fio', '[global]\nbs=4k\n', 'job'),
    ('missing include', 'i.fio', '[j]\nfilename=ex.dat\ninclude nothere.fio\n',
     'nothere.fio'),
    ('key without a name', 'l.fio', '[j]\nfilename=ex.dat\n=5\n', 'l.fio:3'),
    ('empty section name', 'p.fio', '[]\nfilename=ex.dat\n', 'p.fio:1'),
    ('NUL byte', 'n.fio', '[j]\x00\nfilename=ex.dat\n', 'n.fio:1'),
    ('directory target in a job file', 'f.fio',
     '[global]\nrw=write\n[j]\nfilename=adir\nsize=1m\n', 'adir'),
    ('a writer, then an impossible job', 'w.fio',
     '[w]\nfilename=new.dat\nrw=write\nsize=1m\n[x]\nfilename=ex.dat\nbs=2m\n'
     'size=1m\n', 'size'),
]


def snapshot():
    """Every entry under the test directory: name -> (size, sha256)."""
    snap = {}
    for root, dirs, files in os.walk(t.dir):
        for n in dirs + files:
            p = os.path.join(root, n)
            rel = os.path.relpath(p, t.dir)
            if os.path.isdir(p):
                snap[rel] = 'dir'
            else:
                with open(p, 'rb') as f:
                    snap[rel] = (os.path.getsize(p),
                                 hashlib.sha256(f.read()).hexdigest())
    return snap


def expect_refusal(what, argv, names):
    before = snapshot()
    r = t.run(*argv)
    t.eq(r.rc, 1, '%s: exit status' % what, r)
    lines = r.err.splitlines()
    t.check(len(lines) == 1 and lines[0].startswith('iobench: ') and
            names in lines[0],
            '%s: one stderr line naming %r' % (what, names), r)
    # refused before the header: a script reading stdout sees nothing
    t.eq(r.out, '', '%s: nothing on stdout' % what)
    after = snapshot()
    t.eq(sorted(set(after) - set(before)), [], '%s: nothing created' % what)
    changed = [k for k in before if after.get(k) != before[k]]
    t.eq(changed, [], '%s: nothing changed' % what)


def main():
    t.shm_file(EX, data=ibtest.pattern(MiB))
    t.mkdir(DIR)
    for what, args, names in CASES:
        expect_refusal(what, ['--name=j', '--filename=' + EX] + args, names)
    for what, args, names in TARGET_CASES:
        expect_refusal(what, ['--name=j'] + args, names)
    for what, name, text, names in JOBFILES:
        with open(t.path(name), 'w') as f:
            f.write(text)
        expect_refusal(what, [name], names)
    expect_refusal('a job file that does not exist', ['missing.fio'],
                   'missing.fio')
    expect_refusal('a directory as the job file', [DIR], DIR)
    with open(t.path('ok.fio'), 'w') as f:
        f.write('[j]\nfilename=ex.dat\nrw=read\n')
    expect_refusal('--section that matches nothing',
                   ['--section=nope', 'ok.fio'], 'nope')
    t.finish()


if __name__ == '__main__':
    main()
