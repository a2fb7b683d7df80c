#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""File setup options of issue 13, on tmpfs files under /dev/shm:
unlink_each_loop (the files unlinked and created again between loops; a
job that only reads fails with ENOENT after its first loop, as fio does),
openfiles=N below the number of files (at most N open at once, seen with
strace; files served in fio's order, from the iolog) and create_serialize=0
(the jobs' files laid out by threads of their own, at the same time). The
I/O counts side by side with fio 3.33 where it is installed. Also
ioengine=linuxaio, fio's alias of libaio.
"""
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
SAME = ['--ioengine=psync', '--direct=0', '--output-format=json']


def job_of(r):
    return json.loads(r.out[r.out.index('{'):])['jobs'][0]


def traced(t, prog, calls, *args):
    """(Result, strace lines) of prog (None: iobench) under strace -f."""
    log = t.path('strace.log')
    argv = t.argv(*args) if prog is None else [prog] + list(args)
    r = t.run('-f', '-qq', '-e', 'trace=' + calls, '-o', log, *argv,
              prog=shutil.which('strace'))
    with open(log) as fh:
        return r, fh.read().splitlines()


def both(t, calls, *args):
    """{'iobench': (r, lines), 'fio': ...} (fio only where installed)."""
    out = {'iobench': traced(t, None, calls, *args)}
    if shutil.which('fio'):
        out['fio'] = traced(t, shutil.which('fio'), calls, *args)
    return out


def counts(j):
    return tuple((j[d]['total_ios'], j[d]['io_bytes'])
                 for d in ('read', 'write'))


def test_unlink_each_loop(t):
    for rw, ok in (('write', True), ('randwrite', True), ('read', False)):
        got = {}
        for who in ('iobench', 'fio'):
            prog = shutil.which('fio') if who == 'fio' else None
            if who == 'fio' and not prog:
                continue
            f = t.path('uel.%s.%s' % (rw, who))
            r, lines = traced(t, prog, 'unlink,openat', *SAME, '--name=u',
                              '--filename=' + f, '--rw=' + rw, '--bs=4k',
                              '--size=64k', '--loops=3',
                              '--unlink_each_loop=1')
            unl = [ln for ln in lines
                   if 'unlink("%s")' % f in ln and ln.endswith('= 0')]
            j = job_of(r)
            got[who] = (r.rc == 0, j['error'], counts(j), len(unl),
                        os.path.exists(f))
        ios = 48 if ok else 16
        want = ((0, 0), (ios, ios * 4 * KiB)) if ok else \
            ((ios, ios * 4 * KiB), (0, 0))
        # writers: unlinked before loops 2 and 3, the last one's file stays;
        # a reader: its file gone after loop 1, ENOENT (2) reopening it
        t.eq(got['iobench'], (ok, 0 if ok else 2, want, 2 if ok else 1, ok),
             'unlink_each_loop %s: rc, error, counts, unlinks, file left'
             % rw)
        if 'fio' in got:
            t.eq(got['iobench'][1:], got['fio'][1:],
                 'unlink_each_loop %s: as fio' % rw)
    got = {}
    for who in ('iobench', 'fio'):
        d = t.mkdir('uel.of.' + who)
        args = (*SAME, '--name=o', '--directory=' + d, '--nrfiles=4',
                '--openfiles=2', '--rw=write', '--bs=4k', '--size=64k',
                '--loops=2', '--unlink_each_loop=1')
        r = t.run(*args) if who == 'iobench' else t.fio(*args)
        if r is not None and t.ok(r, 'unlink_each_loop+openfiles: ' + who):
            got[who] = (counts(job_of(r)), sorted(
                os.path.getsize(os.path.join(d, n)) for n in os.listdir(d)))
    t.eq(got.get('iobench'), (((0, 0), (32, 128 * KiB)), [16 * KiB] * 4),
         'unlink_each_loop with openfiles=2: writes, the 4 new files')
    if 'fio' in got:
        t.eq(got['iobench'], got['fio'], 'unlink_each_loop+openfiles: as fio')
    got = {}
    for who in ('iobench', 'fio'):
        prog = shutil.which('fio') if who == 'fio' else None
        if who == 'fio' and not prog:
            continue
        f = t.path('uel.tb.' + who)
        r, lines = traced(t, prog, 'unlink', *SAME, '--name=u',
                          '--filename=' + f, '--rw=write', '--size=64k',
                          '--loops=3', '--unlink_each_loop=1', '--time_based',
                          '--runtime=1')
        got[who] = (r.rc, len([ln for ln in lines if 'unlink("%s")' % f in ln
                               and ln.endswith('= 0')]))
    t.eq(got['iobench'], (0, 0), 'unlink_each_loop with time_based: one '
         'pass, nothing unlinked')
    if 'fio' in got:
        t.eq(got['iobench'], got['fio'], 'unlink_each_loop time_based: as fio')
    uring_renewed(t)
    f = t.path('uel.one')
    r = t.run(*SAME, '--name=u', '--filename=' + f, '--rw=write',
              '--size=64k', '--unlink_each_loop=1')
    if t.ok(r, 'unlink_each_loop, one loop'):
        t.eq((counts(job_of(r)), os.path.getsize(f)),
             (((0, 0), (16, 64 * KiB)), 64 * KiB),
             'unlink_each_loop with loops=1: nothing unlinked')
    r = t.run('--parse-only', '--name=u', '--filename=' + f, '--size=64k',
              '--rw=write', '--loops=2', '--unlink_each_loop=1',
              '--verify=crc32c')
    t.fails(r, 'unlink_each_loop with verify')
    t.eq(r.err.strip(), 'iobench: unlink_each_loop: not supported by '
         'iobench together with verify', 'unlink_each_loop+verify: message')


def uring_renewed(t):
    """io_uring with its files registered (by default, and asked): each
    loop's writes land in that loop's new file, not in the old one the
    registered table held (the last file has a whole loop's 16 writes)."""
    for rf in ((), ('--registerfiles=1',), ('--registerfiles=0',)):
        f = t.path('uel.uring%s' % len(rf) + (rf[0][-1] if rf else ''))
        r = t.run('--ioengine=io_uring', '--direct=0', '--output-format=json',
                  '--name=u', '--filename=' + f, '--rw=write', '--bs=4k',
                  '--size=64k', '--loops=3', '--unlink_each_loop=1', *rf)
        what = 'unlink_each_loop, io_uring %s' % (rf or 'defaults',)
        if not t.ok(r, what):
            continue
        j = job_of(r)
        setup = j['effective options'].get('engine_setup', '').split(',')
        t.eq(('registerfiles' in setup, counts(j), os.path.getsize(f)),
             (not rf, ((0, 0), (48, 192 * KiB)), 64 * KiB),
             what + ': registered by itself, counts, the last file full')


def max_open(lines, d):
    """{tid: most files of directory d open at once} from openat/close."""
    fds, most = {}, {}
    for ln in lines:
        m = re.match(r'(\d+)\s+openat\(AT_FDCWD, "%s/[^"]+".* = (\d+)$'
                     % re.escape(d), ln)
        if m:
            open_now = fds.setdefault(m.group(1), set())
            open_now.add(m.group(2))
            most[m.group(1)] = max(most.get(m.group(1), 0), len(open_now))
            continue
        m = re.match(r'(\d+)\s+close\((\d+)\)', ln)
        if m and m.group(1) in fds:
            fds[m.group(1)].discard(m.group(2))
    return most


def test_openfiles(t):
    d = t.mkdir('of')
    for fst, engine, most in (('roundrobin', 'psync', 2),
                              ('random', 'psync', 2),
                              ('sequential', 'psync', 1),
                              ('roundrobin', 'libaio', 2)):
        res = both(t, 'openat,close', *SAME[1:], '--ioengine=' + engine,
                   '--iodepth=4', '--name=of', '--directory=' + d,
                   '--nrfiles=4', '--openfiles=2', '--rw=randread',
                   '--bs=4k', '--size=256k', '--file_service_type=' + fst)
        got = {}
        for who, (r, lines) in res.items():
            per = max_open(lines, d)
            job = [n for n in per.values()]
            got[who] = (r.rc, counts(job_of(r)), max(job) if job else 0)
        t.eq(got['iobench'], (0, ((64, 256 * KiB), (0, 0)), most),
             'openfiles=2 %s %s: rc, counts, most open at once'
             % (fst, engine))
        if 'fio' in got:
            t.eq(got['iobench'][:2], got['fio'][:2],
                 'openfiles=2 %s %s: as fio' % (fst, engine))
    # io_uring: files that open and close as the job goes stay unregistered
    r = t.run(*SAME[1:], '--ioengine=io_uring', '--iodepth=4', '--name=of',
              '--directory=' + d, '--nrfiles=4', '--openfiles=2',
              '--rw=randread', '--bs=4k', '--size=256k')
    if t.ok(r, 'openfiles=2 io_uring'):
        j = job_of(r)
        setup = j['effective options'].get('engine_setup', '').split(',')
        t.eq((counts(j), 'registerfiles' in setup), (((64, 256 * KiB),
                                                       (0, 0)), False),
             'openfiles=2 io_uring: counts, files not registered')
    names = ['of.0.%d' % i for i in range(4)]
    want = {1: [n for n in names for _ in range(4)],
            2: [names[0], names[1]] * 4 + [names[2], names[3]] * 4}
    for n in (1, 2):
        order = {}
        for who in ('iobench', 'fio'):
            log = t.path('of%d.%s.iolog' % (n, who))
            args = (*SAME, '--name=of', '--directory=' + d, '--nrfiles=4',
                    '--openfiles=%d' % n, '--rw=read', '--bs=4k',
                    '--size=64k', '--write_iolog=' + log)
            r = t.run(*args) if who == 'iobench' else t.fio(*args)
            if r is None or not t.ok(r, 'openfiles=%d iolog: %s' % (n, who)):
                continue
            io = ibtest.parse_iolog(log)
            order[who] = ([os.path.basename(f) for f, _, _, _ in io.ios],
                          [(os.path.basename(f), a) for f, a in io.actions])
        # a file keeps its slot until its region is done (fio's rule)
        t.eq(order.get('iobench', [None])[0], want[n],
             'openfiles=%d roundrobin: the order of files' % n)
        acts = [(f, 'add') for f in names]
        for k in range(0, 4, n):
            acts += [(f, 'open') for f in names[k:k + n]]
            acts += [(f, 'close') for f in names[k:k + n]]
        t.eq(order.get('iobench', [None, None])[1], acts,
             'openfiles=%d: the iolog opens and closes files as it goes' % n)
        if 'fio' in order:
            t.eq(order['iobench'], order['fio'],
                 'openfiles=%d: order as fio' % n)
    r = t.run('--name=of', '--directory=' + d, '--nrfiles=2', '--size=64k',
              '--openfiles=1', '--rate=1m')
    t.fails(r, 'openfiles with a rate')
    t.eq(r.err.strip(), 'iobench: openfiles=1 with rate or thinktime '
         "options: fewer open files than the job's 2 is not supported by "
         'iobench', 'openfiles with a rate: message', r)


def layout_tids(lines, paths):
    """{path: set of tids that wrote to it} from pwrite64(fd</path>, ...)."""
    tids = {p: set() for p in paths}
    for ln in lines:
        m = re.match(r'(\d+)\s+pwrite64\(\d+<([^>]+)>', ln)
        if m and m.group(2) in tids:
            tids[m.group(2)].add(m.group(1))
    return tids


def test_create_serialize(t):
    for ser in ('1', '0'):
        d = t.mkdir('cs' + ser)
        paths = [os.path.join(d, 'j%d' % i) for i in range(2)]
        args = [*SAME]
        for i, p in enumerate(paths):
            args += ['--name=j%d' % i, '--filename=' + p, '--size=4m',
                     '--rw=read', '--bs=64k', '--create_serialize=' + ser]
        log = t.path('cs.log')
        r = t.run('-f', '-qq', '-y', '-e', 'trace=execve,pwrite64', '-o', log,
                  *t.argv(*args), prog=shutil.which('strace'))
        if not t.ok(r, 'create_serialize=%s' % ser):
            continue
        with open(log) as fh:
            lines = fh.read().splitlines()
        tids = layout_tids(lines, paths)
        main = lines[0].split()[0] if lines else None
        jobs = json.loads(r.out[r.out.index('{'):])['jobs']
        got = ([j['read']['total_ios'] for j in jobs],
               [len(tids[p]) for p in paths],
               len(tids[paths[0]] | tids[paths[1]]),
               main in tids[paths[0]] | tids[paths[1]],
               [os.path.getsize(p) for p in paths])
        # 1: the parent lays both out; 0: a thread each, not the parent
        want = ([64, 64], [1, 1], 1 if ser == '1' else 2, ser == '1',
                [4 << 20, 4 << 20])
        t.eq(got, want, 'create_serialize=%s: reads, writer threads per '
             'file, threads, the parent wrote, sizes' % ser)


def test_linuxaio(t):
    """ioengine=linuxaio: fio's alias of libaio (found in real job files)."""
    f = t.path('la')
    got = {}
    for who in ('iobench', 'fio'):
        prog = shutil.which('fio') if who == 'fio' else None
        if who == 'fio' and not prog:
            continue
        r, lines = traced(t, prog, 'io_submit', '--name=la', '--filename=' + f,
                          '--size=64k', '--ioengine=linuxaio', '--direct=1',
                          '--iodepth=4', '--output-format=json')
        subs = [ln for ln in lines if 'io_submit(' in ln and
                not ln.endswith('= 0')]
        j = job_of(r)
        got[who] = (r.rc, counts(j), j['job options']['ioengine'],
                    len(subs) > 0)
    t.eq(got['iobench'], (0, ((16, 64 * KiB), (0, 0)), 'linuxaio', True),
         'linuxaio: rc, counts, option as given, io_submit used')
    if 'fio' in got:
        t.eq(got['iobench'], got['fio'], 'linuxaio: as fio')


def main():
    t = ibtest.Test()
    if not shutil.which('strace'):
        t.skip('strace not installed')
        t.finish()
    test_unlink_each_loop(t)
    test_openfiles(t)
    test_create_serialize(t)
    test_linuxaio(t)
    t.finish()


if __name__ == '__main__':
    main()
