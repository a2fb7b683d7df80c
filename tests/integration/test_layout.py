#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Files and regions: laying out a short file ("Laying out IO file") without
destroying the data it already holds, nrfiles and default names
(JOBNAME.CLONE.FILE), filename=a:b, directory=, offset=, offset_increment
with numjobs, io_size, size= and offset= as percentages.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB
LAYOUT = 'Laying out IO file'


def run_job(t, what, *args, cwd=None):
    log = t.path('layout.iolog')
    if os.path.exists(log):
        os.unlink(log)
    r = t.run('--write_iolog=' + log, '--ioengine=psync', *args, cwd=cwd)
    if not t.ok(r, what):
        return r, [], None
    jobs = ibtest.parse_report(r.out)
    il = ibtest.parse_iolog(log) if os.path.exists(log) else None
    return r, jobs, il


def blocks(offsets, bs=4096):
    return [o // bs for o in offsets]


def test_layout_preserves(t):
    # read job on a file shorter than size: laid out, old data kept
    old = ibtest.pattern(128 * KiB, seed=3)
    f = t.shm_file('short', data=old)
    what = 'layout read 128k file for size=256k'
    r, jobs, _ = run_job(t, what, '--name=lay', '--filename=' + f,
                         '--size=256k', '--rw=read', '--bs=4k')
    if jobs:
        t.check(LAYOUT in r.out + r.err, '%s: says %r' % (what, LAYOUT), r)
        t.eq(jobs[0].issued, (64, 0, 0, 0), '%s: issued rwts' % what)
        data = ibtest.file_bytes(f)
        t.eq(len(data), 256 * KiB, '%s: file size after' % what)
        t.check(data[:128 * KiB] == old, '%s: first 128k preserved' % what)

    # write job at offset 256k on a 512k file: needs 768k, [0,256k) kept
    old = ibtest.pattern(512 * KiB, seed=5)
    f = t.shm_file('short2', data=old)
    what = 'layout write offset=256k size=512k on a 512k file'
    r, jobs, il = run_job(t, what, '--name=lay2', '--filename=' + f,
                          '--offset=256k', '--size=512k', '--rw=write',
                          '--bs=64k', '--direct=1')
    if jobs:
        t.check(LAYOUT in r.out + r.err, '%s: says %r' % (what, LAYOUT), r)
        t.eq(jobs[0].issued, (0, 8, 0, 0), '%s: issued rwts' % what)
        data = ibtest.file_bytes(f)
        t.eq(len(data), 768 * KiB, '%s: file size after' % what)
        t.check(data[:256 * KiB] == old[:256 * KiB],
                '%s: data before the offset preserved' % what)
    if il:
        t.eq(il.offsets('write'), [256 * KiB + i * 64 * KiB for i in range(8)],
             '%s: write offsets' % what)

    # a file already long enough: no layout, data beyond the region kept
    old = ibtest.pattern(1024 * KiB, seed=7)
    f = t.shm_file('long', data=old)
    what = 'write 256k into a 1m file'
    r, jobs, _ = run_job(t, what, '--name=lay3', '--filename=' + f,
                         '--size=256k', '--rw=write', '--bs=4k', '--direct=1')
    if jobs:
        t.check(LAYOUT not in r.out + r.err, '%s: no layout' % what, r)
        data = ibtest.file_bytes(f)
        t.eq(len(data), 1024 * KiB, '%s: file size after' % what)
        t.check(data[256 * KiB:] == old[256 * KiB:],
                '%s: data after the region preserved' % what)
        t.check(all(data[i:i + 4096] != old[i:i + 4096]
                    for i in range(0, 256 * KiB, 4096)),
                '%s: every block of the region rewritten' % what)


def test_default_names(t):
    d = t.mkdir('names')
    what = 'nrfiles=2 numjobs=2 default names in cwd'
    r, jobs, _ = run_job(t, what, '--name=fn', '--nrfiles=2', '--numjobs=2',
                         '--size=128k', '--rw=write', '--bs=4k', cwd=d)
    if jobs:
        t.eq(sorted(os.listdir(d)), ['fn.0.0', 'fn.0.1', 'fn.1.0', 'fn.1.1'],
             '%s: files' % what)
        for n in os.listdir(d):
            t.eq(ibtest.size_of(os.path.join(d, n)), 64 * KiB,
                 '%s: size of %s' % (what, n))
        t.eq([j.issued for j in jobs], [(0, 32, 0, 0)] * 2,
             '%s: issued rwts per clone' % what)

    d2 = t.mkdir('dir')
    what = 'directory= nrfiles=3'
    r, jobs, il = run_job(t, what, '--name=dn', '--directory=' + d2,
                          '--nrfiles=3', '--size=192k', '--rw=read',
                          '--bs=4k')
    if jobs:
        names = ['dn.0.0', 'dn.0.1', 'dn.0.2']
        t.eq(sorted(os.listdir(d2)), names, '%s: files' % what)
        t.eq(jobs[0].issued, (48, 0, 0, 0), '%s: issued rwts' % what)
        if il:
            paths = [os.path.join(d2, n) for n in names]
            t.eq(sorted(il.files), paths, '%s: iolog files' % what)
            for p in paths:
                t.eq(sorted(blocks(il.offsets(file=p))), list(range(16)),
                     '%s: %s read once, block by block' % (what, p))

    what = 'directory= with filename='
    r, jobs, _ = run_job(t, what, '--name=df', '--directory=' + d2,
                         '--filename=given', '--size=64k', '--rw=write',
                         '--bs=4k')
    if jobs:
        t.eq(ibtest.size_of(os.path.join(d2, 'given')), 64 * KiB,
             '%s: DIR/given written' % what)


def test_colon_files(t):
    a, b = t.path('ca'), t.path('cb')
    what = 'filename=a:b size=128k'
    r, jobs, il = run_job(t, what, '--name=c', '--filename=%s:%s' % (a, b),
                          '--size=128k', '--rw=write', '--bs=4k')
    if jobs:
        t.eq(jobs[0].issued, (0, 32, 0, 0), '%s: issued rwts' % what)
        t.eq([ibtest.size_of(p)
              for p in (a, b)], [64 * KiB] * 2, '%s: file sizes' % what)
    if il:
        t.eq(sorted(il.files), [a, b], '%s: iolog files' % what)
        for p in (a, b):
            t.eq(sorted(blocks(il.offsets(file=p))), list(range(16)),
                 '%s: %s written once per block' % (what, p))


def test_offsets(t):
    f = t.shm_file('off', 1024 * KiB)
    cases = [
        ('offset=64k size=128k', ['--offset=64k', '--size=128k'],
         list(range(16, 48))),
        ('size=25%', ['--size=25%'], list(range(0, 64))),
        ('offset=50% size=25%', ['--offset=50%', '--size=25%'],
         list(range(128, 192))),
        ('io_size=64k size=256k', ['--size=256k', '--io_size=64k'],
         list(range(0, 16))),
        ('io_size=512k size=256k', ['--size=256k', '--io_size=512k'],
         list(range(0, 64)) * 2),
    ]
    for what, args, want in cases:
        r, jobs, il = run_job(t, what, '--name=o', '--filename=' + f,
                              '--rw=read', '--bs=4k', *args)
        if jobs:
            t.eq(jobs[0].issued, (len(want), 0, 0, 0), '%s: issued' % what)
        if il:
            t.eq(blocks(il.offsets('read')), want, '%s: offsets' % what)


def test_offset_increment(t):
    old = ibtest.pattern(256 * KiB, seed=9)
    f = t.shm_file('incr', data=old)
    what = 'offset_increment=64k numjobs=3 size=64k'
    r = t.run('--name=inc', '--filename=' + f, '--size=64k', '--numjobs=3',
              '--offset_increment=64k', '--rw=write', '--bs=4k', '--direct=1')
    if not t.ok(r, what):
        return
    jobs = ibtest.parse_report(r.out)
    t.eq([j.issued for j in jobs], [(0, 16, 0, 0)] * 3,
         '%s: issued per clone' % what)
    data = ibtest.file_bytes(f)
    changed = [i // 4096 for i in range(0, 256 * KiB, 4096)
               if data[i:i + 4096] != old[i:i + 4096]]
    t.eq(changed, list(range(48)), '%s: blocks written' % what)
    t.eq(len(data), 256 * KiB, '%s: file size' % what)


def test_more_regions(t):
    d = t.mkdir('more')
    what = 'nrfiles=2 filesize=64k (no size)'
    r, jobs, _ = run_job(t, what, '--name=fs', '--nrfiles=2',
                         '--filesize=64k', '--rw=read', cwd=d)
    if jobs:
        t.eq(jobs[0].issued, (32, 0, 0, 0), '%s: issued rwts' % what)
        t.eq(sorted((n, ibtest.size_of(os.path.join(d, n)))
                    for n in os.listdir(d)),
             [('fs.0.0', 64 * KiB), ('fs.0.1', 64 * KiB)], '%s: files' % what)

    # a filesize= range: each file's size drawn in it, whole blocks (fio),
    # and each file written once, round robin
    d = t.mkdir('fsrange')
    what = 'nrfiles=4 filesize=64k-256k bs=4k'
    r, jobs, il = run_job(t, what, '--name=fr', '--nrfiles=4',
                          '--filesize=64k-256k', '--rw=write', '--bs=4k', cwd=d)
    if jobs:
        sizes = [ibtest.size_of(os.path.join(d, 'fr.0.%d' % i)) for i in range(4)]
        t.check(all(s % 4096 == 0 and 64 * KiB <= s <= 256 * KiB for s in sizes),
                '%s: sizes whole blocks in the range: %s' % (what, sizes))
        t.eq(jobs[0].issued, (0, sum(sizes) // 4096, 0, 0),
             '%s: each file written once' % what)

    # filesize= is the file's size: the region runs from the offset to its
    # end (fio), in a new file and in an existing larger one (not cut)
    d = t.mkdir('fsoff')
    what = 'write offset=64k filesize=128k'
    r, jobs, il = run_job(t, what, '--name=fo', '--offset=64k',
                          '--filesize=128k', '--rw=write', '--bs=4k', cwd=d)
    if jobs:
        t.eq(jobs[0].issued, (0, 16, 0, 0), '%s: issued rwts' % what)
        t.eq(ibtest.size_of(os.path.join(d, 'fo.0.0')), 128 * KiB,
             '%s: file size' % what)
    if il:
        t.eq(blocks(il.offsets()), list(range(16, 32)), '%s: blocks' % what)
    old = ibtest.pattern(MiB, seed=5)
    f = t.shm_file('fo.big', data=old)
    what = 'write offset=64k filesize=128k on a 1 MiB file'
    r, jobs, _ = run_job(t, what, '--name=fb', '--filename=' + f,
                         '--offset=64k', '--filesize=128k', '--rw=write',
                         '--bs=4k')
    if jobs:
        data = ibtest.file_bytes(f)
        changed = [i // 4096 for i in range(0, MiB, 4096)
                   if data[i:i + 4096] != old[i:i + 4096]]
        t.eq((len(data), changed), (MiB, list(range(16, 32))),
             '%s: size and blocks written' % what)
    d = t.mkdir('fspast')
    r = t.run('--name=fp', '--ioengine=psync', '--offset=128k',
              '--filesize=128k', '--rw=write', '--bs=4k', cwd=d)
    t.fails(r, 'offset=128k filesize=128k')
    t.eq(r.err.strip(), "iobench: job 'fp': offset 131072 leaves less than "
         "bs=4096 of filesize=131072 (fp.0.0)",
         'offset=128k filesize=128k: message', r)
    t.eq(os.listdir(d), [], 'offset=128k filesize=128k: nothing created')

    # files of 32, 64 and 96 KiB, round robin (fio's default): a file done
    # is passed over, every block of each written once (the build before
    # went round them evenly: 16 writes each, the small one twice over,
    # the large one a third short); holes: the files whose region ends
    # inside them are done after one strided pass, the one whose strides
    # go past its end takes the rest of size= (both as fio 3.33 and 3.42)
    abc = [t.path(n) for n in ('rr_a', 'rr_b', 'rr_c')]
    for what, extra, want in (
            ('round robin over files of 32k, 64k, 96k', [], None),
            ('write:4k size=96k over files of 32k, 64k, 96k',
             ['--rw=write:4k', '--size=96k'], [16, 4, 4])):
        for p, kib in zip(abc, (32, 64, 96)):
            t.shm_file(os.path.basename(p), kib * KiB)
        r, jobs, il = run_job(t, what, '--name=rr', '--filename=' + ':'.join(abc),
                              '--rw=write', '--bs=4k', *extra)
        if not il:
            continue
        per = [blocks(il.offsets(file=p)) for p in abc]
        if want is None:
            t.eq([sorted(b) for b in per], [list(range(8)), list(range(16)),
                                            list(range(24))],
                 '%s: every block of each file once' % what)
            t.eq([io[0] for io in il.data()][:9], (abc * 3)[:9],
                 '%s: files in turn' % what)
        else:
            t.eq([len(b) for b in per], want, '%s: writes per file' % what)
            t.eq((sorted(set(per[1])), sorted(set(per[2]))),
                 ([0, 2, 4, 6], [0, 2, 4, 6]),
                 '%s: one strided pass of the 32k regions of b and c' % what)

    # random over several files: every block of every file once
    a, b, c = t.path('ra'), t.path('rb'), t.path('rc')
    what = 'filename=a:b:c randrw size=192k'
    r, jobs, il = run_job(t, what, '--name=r', '--filename=%s:%s:%s' % (a, b, c),
                          '--size=192k', '--rw=randrw', '--bs=4k')
    if jobs:
        t.eq(sum(jobs[0].issued[:2]), 48, '%s: reads + writes' % what)
    if il:
        for p in (a, b, c):
            t.eq(sorted(blocks(il.offsets(file=p))), list(range(16)),
                 '%s: %s every block once' % (what, os.path.basename(p)))

    # io_size twice the region, random: two full passes
    f = t.shm_file('twice', 64 * KiB)
    what = 'randread size=64k io_size=128k'
    r, jobs, il = run_job(t, what, '--name=tw', '--filename=' + f,
                          '--size=64k', '--io_size=128k', '--rw=randread')
    if jobs:
        t.eq(jobs[0].issued, (32, 0, 0, 0), '%s: issued rwts' % what)
    if il:
        offs = blocks(il.offsets())
        t.eq((sorted(offs[:16]), sorted(offs[16:])),
             (list(range(16)), list(range(16))), '%s: two passes' % what)

    # percentages of a block device
    dev = t.loop_device(1024 * KiB)
    if dev is None:
        t.skip('loop devices unavailable: size=% of a device')
        return
    what = 'loop size=50% offset=25%'
    r, jobs, il = run_job(t, what, '--name=pd', '--filename=' + dev,
                          '--size=50%', '--offset=25%', '--rw=read',
                          '--bs=4k', '--direct=1')
    if jobs:
        t.eq(jobs[0].issued, (128, 0, 0, 0), '%s: issued rwts' % what)
    if il:
        t.eq(blocks(il.offsets()), list(range(64, 192)), '%s: offsets' % what)


def test_missing_dirs(t):
    """Missing directories on a filename's path are created (as fio does),
    for a laid-out file and for create_on_open=1."""
    for what, args in (
            ('layout in missing dirs', ('--rw=write',)),
            ('create_on_open in missing dirs', ('--rw=write',
                                                '--create_on_open=1')),
            ('read job in missing dirs', ('--rw=read',))):
        top = t.path('md-%d' % len(what))
        f = os.path.join(top, 'a', 'b', 'f.dat')
        r, jobs, _ = run_job(t, what, '--name=md', '--filename=' + f,
                             '--size=256k', '--bs=4k', *args)
        if jobs:
            rd = 'read' in args[0]
            t.eq(jobs[0].issued, (64, 0, 0, 0) if rd else (0, 64, 0, 0),
                 '%s: issued rwts' % what)
            t.eq(ibtest.size_of(f), 256 * KiB, '%s: file size' % what)
            t.eq(oct(os.stat(os.path.join(top, 'a')).st_mode & 0o777),
                 oct(0o777 & ~current_umask()), '%s: directory mode' % what)


def current_umask():
    m = os.umask(0)
    os.umask(m)
    return m


def test_layout_failure_alone(t):
    """A job whose file cannot be laid out (ENOSPC on a 1 MiB tmpfs) fails
    alone, named on stderr and with err= in its report; the other jobs,
    before and after it, run in full; exit status 1."""
    mnt = t.small_tmpfs('small')
    if not mnt:
        return
    good = t.shm_file('lf-good', 512 * KiB)
    bad = os.path.join(mnt, 'bad.dat')
    what = 'layout ENOSPC in one job of three'
    r = t.run('--output-format=json', '--bs=4k',
              '--name=g1', '--filename=' + good, '--rw=read',
              '--size=512k',
              '--name=bad', '--filename=' + bad, '--rw=read', '--size=4m',
              '--name=g2', '--filename=' + good, '--rw=write',
              '--size=512k', '--stonewall')
    t.eq(r.rc, 1, '%s: exit status' % what, r)
    fails = [ln for ln in r.err.splitlines() if 'failed' in ln]
    t.eq(fails, ["iobench: job 'bad' failed: %s: laying out at offset "
                 "1048576: No space left on device" % bad],
         '%s: one stderr line names the job, file, offset, cause' % what)
    try:
        jobs = json.loads(r.out)['jobs']
    except (ValueError, KeyError) as e:
        t.check(False, '%s: valid JSON (%s)' % (what, e), r)
        return
    t.eq([(j['jobname'], j['error'], j['read']['total_ios'],
           j['write']['total_ios']) for j in jobs],
         [('g1', 0, 128, 0), ('bad', 28, 0, 0), ('g2', 0, 0, 128)],
         '%s: per job: error, reads, writes' % what)
    r = t.run('--name=bad', '--filename=' + bad, '--rw=read', '--size=4m')
    rep = ibtest.parse_report(r.out)
    t.check(rep and rep[0].err == 28,
            '%s: normal report err=28' % what, r)
    t.release()


def main():
    t = ibtest.Test()
    test_layout_preserves(t)
    test_default_names(t)
    test_colon_files(t)
    test_offsets(t)
    test_offset_increment(t)
    test_more_regions(t)
    test_missing_dirs(t)
    test_layout_failure_alone(t)
    t.finish()


if __name__ == '__main__':
    main()
