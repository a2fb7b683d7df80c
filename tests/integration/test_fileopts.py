#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Options of fio's job files people write (issue 13, first slice): every
fio option name is refused by name ("not supported by iobench", engine
options naming their engine), never "unknown option"; values as the next
word; aliases (nr_files, threads, fileoffset); deprecated no-ops; any
integer for a boolean; size=N%%; time_based without runtime (size-based, as
fio); several filename= lines adding files; filename_format. Side by side
with fio 3.33 where it is installed (psync, direct=0 given explicitly).
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
SAME = ['--ioengine=psync', '--direct=0', '--output-format=json']


def fio_names():
    """fio's generic option names (--cmdhelp=all), or None without fio."""
    fio = shutil.which('fio')
    if not fio:
        return None
    out = subprocess.run([fio, '--cmdhelp=all'], capture_output=True,
                         text=True).stdout
    return sorted({ln.split(':')[0].strip() for ln in out.splitlines()
                   if ':' in ln and ln.split(':')[0].strip()})


def test_every_fio_name(t):
    names = fio_names()
    if names is None:
        t.skip('fio not installed: its option names')
        return
    f = t.shm_file('names', size=64 * KiB)
    unknown = []
    for n in names:
        r = t.run('--parse-only', '--name=x', '--filename=' + f,
                  '--size=64k', '--%s=1' % n)
        if 'unknown option' in r.err:
            unknown.append(n)
        elif r.rc != 0 and 'not supported by iobench' not in r.err \
                and 'invalid' not in r.err and ': ' not in r.err:
            unknown.append(n + '?')
    t.eq(unknown, [], 'fio option names iobench calls unknown')
    t.check(len(names) > 200, 'fio lists its options (%d)' % len(names))
    r = t.run('--parse-only', '--name=x', '--filename=' + f,
              '--pool=rbd')
    t.eq(r.err.strip(), "iobench: --pool: option of fio's dfs, rados and "
         "rbd engines, not supported by iobench", 'engine option message', r)
    t.fails(r, 'engine option refused')


def test_next_word(t):
    f = t.shm_file('nw', size=64 * KiB)
    prefix = t.path('lat')
    r = t.run('--name=nw', '--filename=' + f, '--size', '64k', '--bs', '16k',
              '--rw', 'read', '--write_lat_log', prefix, '--direct', '0',
              '--ioengine', 'psync')
    if t.ok(r, 'values as the next word'):
        jobs = ibtest.parse_report(r.out)
        t.eq(jobs[0].issued, (4, 0, 0, 0), 'next word: issued rwts')
        t.check(os.path.exists(prefix + '_lat.1.log'),
                'next word: lat log %s_lat.1.log written' % prefix,
                os.listdir(t.dir))


def test_aliases_values(t):
    f = t.shm_file('al', size=256 * KiB)
    jf = t.path('al.fio')
    with open(jf, 'w') as fh:
        fh.write('[al]\nfilename=%s\nthreads=1\nverifysort=1\n'
                 'verifysort_nr=1024\nsize=100%%\nrw=read\nbs=64k\n'
                 'fileoffset=0\ngroup_reporting=5\n' % f)
    r = t.run(*SAME, jf)
    if t.ok(r, 'aliases, deprecated no-ops, size=100%%'):
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['read']['total_ios'], j['read']['io_bytes']),
             (4, 256 * KiB), 'size=100%% of a 256k file: reads, bytes')
    d = t.mkdir('nrf')
    r = t.run(*SAME, '--name=nrf', '--directory=' + d, '--nr_files=4',
              '--size=64k', '--rw=write', '--bs=4k')
    if t.ok(r, 'nr_files'):
        t.eq(sorted(os.listdir(d)), ['nrf.0.%d' % i for i in range(4)],
             'nr_files=4: the files')
        j = json.loads(r.out)['jobs'][0]
        t.eq(j['write']['total_ios'], 16, 'nr_files=4: writes')


def side_by_side(t, what, jobtext, files):
    """Run jobtext (with {F0}.. file names) in iobench and fio; compare
    total_ios and io_bytes per direction and the files' sizes."""
    got = {}
    for who in ('iobench', 'fio'):
        paths = [t.path('%s.%s.%d' % (what.replace(' ', '_'), who, i))
                 for i in range(files)]
        jf = t.path('%s.fio' % who)
        with open(jf, 'w') as fh:
            fh.write(jobtext.format(*paths))
        r = t.run(*SAME, jf) if who == 'iobench' else t.fio(*SAME, jf)
        if r is None:
            t.skip('%s: fio not installed' % what)
            return got.get('iobench')
        if not t.ok(r, '%s: %s' % (what, who)):
            return None
        out = r.out[r.out.index('{'):]
        jobs = json.loads(out)['jobs']
        got[who] = ([(j['jobname'], j[d]['total_ios'], j[d]['io_bytes'])
                     for j in jobs for d in ('read', 'write')],
                    [ibtest.size_of(p) for p in paths], r)
    t.eq(got['iobench'][:2], got['fio'][:2],
         '%s: per job ios and bytes per direction, file sizes (fio)' % what)
    return got['iobench']


def test_filenames(t):
    job = ('[global]\nfilename={0}\nrw=write\nsize=64k\n'
           '[j]\nfilename={1}\nfilename={2}\n')
    res = side_by_side(t, 'three filename lines', job, 3)
    if res:
        t.eq(res[0][1], ('j', 15, 61440), 'three files: writes, bytes')
        t.eq(res[1], [21845] * 3, 'three files: each size/3')
    job = ('[global]\nfilename={0}\nfilename={1}\nrw=write\nsize=64k\n'
           'bs=16k\n[a]\n[b]\nrw=read\n[c]\nfilename={2}\nsize=96k\n')
    res = side_by_side(t, 'global filename lines', job, 3)
    if res:
        t.eq(res[1], [32 * KiB] * 3,
             'global filename lines: file sizes')
    job = '[tb]\nfilename={0}\nrw=write\nsize=64k\ntime_based\n'
    res = side_by_side(t, 'time_based without runtime', job, 1)
    if res:
        t.eq(res[0][1], ('tb', 16, 65536), 'time_based alone: size-based')
        t.check('time_based without a runtime' in res[2].err,
                'time_based alone: warns', res[2])


def test_filename_format(t):
    d = t.mkdir('fmt')
    r = t.run(*SAME, '--name=fmt', '--directory=' + d, '--nrfiles=2',
              '--numjobs=2', '--size=16k', '--rw=write',
              '--filename_format=f.$clientuid.$jobname.$jobnum.$filenum.x')
    if t.ok(r, 'filename_format'):
        t.eq(sorted(os.listdir(d)), ['f..fmt.0.0.x', 'f..fmt.0.1.x',
                                     'f..fmt.1.0.x', 'f..fmt.1.1.x'],
             'filename_format: names (as fio)')
        t.eq([ibtest.size_of(os.path.join(d, n)) for n in sorted(os.listdir(d))],
             [8 * KiB] * 4, 'filename_format: sizes')
    r = t.run('--parse-only', '--name=x', '--filename_format=' + 'a' * 300)
    t.fails(r, 'filename_format too long')


def main():
    t = ibtest.Test()
    test_every_fio_name(t)
    test_next_word(t)
    test_aliases_values(t)
    test_filenames(t)
    test_filename_format(t)
    t.finish()


if __name__ == '__main__':
    main()
