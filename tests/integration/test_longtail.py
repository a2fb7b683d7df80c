#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The long tail of fio job files and command lines: each case runs the
same job through iobench and, when it is installed, fio (3.33 in CI) on
the same tmpfs targets, and compares the facts: what stdout carries, the
files created, the bytes per direction, which target got the writes.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB

t = ibtest.Test()


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def both(*args, cwd=None):
    """(iobench's run, fio's run or None) of the same arguments."""
    return t.run(*args, cwd=cwd), t.fio(*args, cwd=cwd)


def bytes_rw(r):
    """(read, write) io_bytes of the first job of a JSON run, or None."""
    try:
        j = json.loads(r.out)['jobs'][0]
        return j['read']['io_bytes'], j['write']['io_bytes']
    except (ValueError, KeyError, IndexError, TypeError):
        return None


def fresh(d):
    for n in os.listdir(d):
        os.unlink(os.path.join(d, n))


# -- job messages and --output -------------------------------------------
def output_messages():
    """With --output=FILE stdout stays empty; the layout line is in FILE
    after 'Starting 1 process' with the human report, absent with JSON."""
    d = t.mkdir('out')
    for prog in ('iobench', 'fio'):
        for fmt in ('normal', 'json', 'terse'):
            fresh(d)
            args = ('--name=w', '--filename=F', '--size=1m', '--rw=write',
                    '--output=out.txt', '--output-format=' + fmt)
            if prog == 'fio' and fmt == 'terse':
                continue    # as JSON (each fio run costs a second)
            r = t.run(*args, cwd=d) if prog == 'iobench' else \
                t.fio(*args, cwd=d)
            if r is None:
                t.skip('no fio installed')
                return
            if not t.ok(r, '%s --output %s' % (prog, fmt)):
                continue
            t.eq(r.out, '', '%s --output=FILE --output-format=%s: stdout'
                 % (prog, fmt))
            with open(os.path.join(d, 'out.txt')) as f:
                lines = f.read().splitlines()
            lay = 'w: Laying out IO file (1 file / 1MiB)'
            if fmt == 'normal':
                t.eq(lines[2:5], ['Starting 1 process', lay, ''],
                     '%s: the layout line in the file, after the header'
                     % prog)
            else:
                t.eq(lay in lines, False, '%s %s: no layout line in the file'
                     % (prog, fmt))


# -- filename= with read_iolog= ------------------------------------------
def replay_filename():
    """fio ignores filename= beside read_iolog=: the I/O goes to the
    trace's file, or to replay_redirect=. iobench accepts a filename= that
    names that target (by any path) and refuses any other, writing
    nothing."""
    d = t.mkdir('rp')
    c, dd, other = (os.path.join(d, n) for n in ('c', 'd', 'other'))
    log = t.shm_file('flog', data=(
        'fio version 2 iolog\n%s add\n%s open\n%s write 0 4096\n'
        '%s write 4096 4096\n%s read 0 4096\n%s close\n' % ((c,) * 6)
    ).encode())
    cases = [('c', [], c), (c, [], c), ('d', ['--replay_redirect=' + dd], dd),
             ('./d', ['--replay_redirect=' + dd], dd)]
    for k, (name, extra, target) in enumerate(cases):
        for prog in ('iobench', 'fio') if k % 2 == 0 else ('iobench',):
            for p in (c, dd):
                with open(p, 'wb') as f:
                    f.write(bytes(64 * KiB))
            args = ('--name=r', '--filename=' + name, '--read_iolog=' + log,
                    '--output-format=json') + tuple(extra)
            r = t.run(*args, cwd=d) if prog == 'iobench' else \
                t.fio(*args, cwd=d)
            if r is None:
                continue
            what = '%s filename=%s %s' % (prog, name, ' '.join(extra))
            t.ok(r, what)
            t.eq(bytes_rw(r), (4096, 8192), what + ': bytes read, written')
            zero = hashlib.sha256(bytes(64 * KiB)).hexdigest()
            t.eq([digest(p) != zero for p in (c, dd)],
                 [target == c, target == dd], what + ': the target written')
            t.eq(os.path.exists(other), False, what + ': no other file')
    for p in (c, dd):
        with open(p, 'wb') as f:
            f.write(bytes(64 * KiB))
    for name, extra, line in [
            ('other', [], 'filename=other: not a file of the trace '
             'read_iolog=%s (fio would ignore filename= and replay to %s)'
             % (log, c)),
            ('c', ['--replay_redirect=' + dd], 'filename=c: not '
             'replay_redirect=%s (fio would ignore filename= and replay to '
             '%s)' % (dd, dd))]:
        r = t.run('--name=r', '--filename=' + name, '--read_iolog=' + log,
                  *extra, cwd=d)
        t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s\n' % line),
             'filename=%s: one line, exit 1' % name)
        zero = hashlib.sha256(bytes(64 * KiB)).hexdigest()
        t.eq([digest(c), digest(dd), os.path.exists(other)],
             [zero, zero, False], 'filename=%s refused: nothing written' % name)


# -- '%%' in a job file's value ------------------------------------------
SS_JOB = """[ss]
filename=ssfile
size=256k
rw=read
ioengine=psync
ss=iops:2%%
ss_dur=1
runtime=1
time_based
"""


def percent_escape():
    """ss=iops:2%% (fio-plot's steady-state job): 2 percent, the option
    shown as written."""
    d = t.mkdir('pct')
    job = os.path.join(d, 'ss.fio')
    with open(job, 'w') as f:
        f.write(SS_JOB)
    for r in both('--output-format=json', job, cwd=d):
        if r is None:
            continue
        if not t.ok(r, 'ss=iops:2%%'):
            continue
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['steadystate']['ss'], j['job options']['steadystate']),
             ('iops:2.000000%', 'iops:2%%'), '%s: ss=iops:2%%%%'
             % os.path.basename(r.argv[0]))


# -- the job name as the target; $jobname in job files --------------------
def name_is_target():
    """--name=/dev/loopN without filename=: the device itself is the
    target (no /dev/loopN.0.0), with the safety checks of any device."""
    dev = t.loop_device(1 * MiB)
    if not dev:
        t.skip('no loop devices')
        return
    for r in both('--name=' + dev, '--size=256k', '--rw=read',
                  '--output-format=json'):
        if r is None:
            continue
        prog = os.path.basename(r.argv[0])
        t.ok(r, '%s --name=%s' % (prog, dev))
        t.eq(bytes_rw(r), (256 * KiB, 0), prog + ': bytes read from the device')
        t.eq(os.path.exists(dev + '.0.0'), False, prog + ': no %s.0.0' % dev)
    if subprocess.run(['mkfs.ext4', '-q', dev], capture_output=True).returncode:
        t.skip('mkfs.ext4')
        return
    before = digest(t.loop_backing.get(dev, dev))
    r = t.run('--name=' + dev, '--size=256k', '--rw=write')
    t.eq((r.rc, r.out, r.err), (1, '', "iobench: job '%s': %s carries a "
         'filesystem signature (ext4); refusing to write. Use '
         '--allow_data_loss=1 to override.\n' % (dev, dev)),
         'a write to the job name\'s device: the safety check')
    t.eq(digest(t.loop_backing.get(dev, dev)), before, 'device unchanged')
    t.eq(os.path.exists(dev + '.0.0'), False, 'refused: no %s.0.0' % dev)


NAMED_JOB = """[global]
size=64k
rw=write
[sec]
name=foo
[fmt]
name=bar
filename_format=$jobname.x.$filenum
"""


def section_names():
    """A section that sets name=: its files take the section's name
    (sec.0.0, fmt.x.0), its report the name= (foo, bar)."""
    d = t.mkdir('names')
    job = os.path.join(d, 'n.fio')
    for prog in ('iobench', 'fio'):
        fresh(d)
        with open(job, 'w') as f:
            f.write(NAMED_JOB)
        r = t.run('--output-format=json', job, cwd=d) if prog == 'iobench' \
            else t.fio('--output-format=json', job, cwd=d)
        if r is None:
            continue
        if not t.ok(r, prog + ' name= in sections'):
            continue
        t.eq(sorted(os.listdir(d)), ['fmt.x.0', 'n.fio', 'sec.0.0'],
             prog + ': files named after the sections')
        t.eq([j['jobname'] for j in json.loads(r.out)['jobs']],
             ['foo', 'bar'], prog + ': jobs named by name=')


# -- ioscheduler= on a file not laid out yet -----------------------------
def iosched_new_file():
    """ioscheduler= with a filename= that does not exist yet: the
    scheduler of the file system's device is set, the file laid out."""
    dev = t.loop_device(8 * MiB)
    if not dev or subprocess.run(['mkfs.ext4', '-q', dev],
                                 capture_output=True).returncode:
        t.skip('no loop device with ext4')
        return
    mnt = t.mkdir('mnt')
    if subprocess.run(['mount', dev, mnt], capture_output=True).returncode:
        t.skip('mount ext4')
        return
    t.mounts.append(mnt)
    sched = '/sys/block/%s/queue/scheduler' % os.path.basename(dev)
    with open(sched) as f:
        before = f.read()
    for name in ('ib', 'fio'):
        target = os.path.join(mnt, name + '.dat')
        args = ('--name=s', '--filename=' + target, '--size=1m', '--rw=write',
                '--ioscheduler=mq-deadline', '--output-format=json')
        r = t.run(*args) if name == 'ib' else t.fio(*args)
        if r is None:
            continue
        t.ok(r, '%s ioscheduler= on a new file' % name)
        t.eq(bytes_rw(r), (0, MiB), name + ': bytes written')
        t.eq(os.path.getsize(target), MiB, name + ': the file laid out')
        if name == 'ib':
            with open(sched) as f:
                t.eq(f.read(), before, 'iobench: the scheduler restored')


# -- number_ios with loops= ------------------------------------------------
def number_ios_loops():
    """fio's number_ios limits each loops= pass (number_ios times the
    pass number in all): 100 of 256 blocks a pass, 2 passes, 200 I/Os;
    at 300 a pass each pass ends with its 256 blocks."""
    target = t.shm_file('nios.dat', size=MiB)
    for nios, loops, want in ((100, 2, 200), (300, 3, 768)):
        args = ('--name=n', '--filename=' + target, '--size=1m', '--rw=write',
                '--ioengine=psync', '--loops=%d' % loops,
                '--number_ios=%d' % nios, '--output-format=json')
        # fio's count for the second recorded here: 768 (3.33 and 3.42)
        for r in both(*args) if loops == 2 else (t.run(*args),):
            if r is None:
                continue
            prog = os.path.basename(r.argv[0])
            t.ok(r, '%s number_ios=%d loops=%d' % (prog, nios, loops))
            t.eq(bytes_rw(r), (0, want * 4 * KiB), '%s number_ios=%d '
                 'loops=%d: bytes written' % (prog, nios, loops))


# -- a job that ends inside its ramp_time ----------------------------------
def ends_in_ramp():
    """ramp_time=5 with a 1 MiB job: fio reports its bytes over the time it
    ran (not a runtime of 0) and none of its latencies."""
    target = t.shm_file('ramp.dat', size=MiB)
    for r in both('--name=r', '--filename=' + target, '--size=1m',
                  '--rw=randread', '--ioengine=psync', '--ramp_time=5',
                  '--output-format=json'):
        if r is None or not t.ok(r, 'ends in its ramp'):
            continue
        prog = os.path.basename(r.argv[0])
        rd = json.loads(r.out)['jobs'][0]['read']
        t.eq((rd['io_bytes'], rd['total_ios'], rd['clat_ns']['N'],
              rd['lat_ns']['N']), (MiB, 256, 0, 0),
             prog + ': the bytes, no latencies')
        t.check(rd['runtime'] >= 1 and rd['bw'] == rd['io_bytes'] * 1000 //
                1024 // rd['runtime'], prog + ': bw over its runtime', rd)


def unique_filename():
    """unique_filename=0 and 1 (fio's client/server name prefix): a local
    run's files are named the same either way, as fio's."""
    d = t.mkdir('uniq')
    for u in ('0', '1'):
        for run in (t.run, t.fio):
            fresh(d)
            r = run('--name=u', '--directory=' + d, '--size=8k', '--rw=write',
                    '--numjobs=2', '--nrfiles=2', '--unique_filename=' + u,
                    '--output-format=json')
            if r is None or not t.ok(r, 'unique_filename=' + u):
                continue
            prog = os.path.basename(r.argv[0])
            t.eq(sorted(os.listdir(d)), ['u.0.0', 'u.0.1', 'u.1.0', 'u.1.1'],
                 '%s unique_filename=%s: the files' % (prog, u))


# (options, exit 0?, (reads, read bytes, writes issued, write bytes), file
# sizes) on a 1 MiB tmpfs; fio 3.33's the same where it runs the job
FILL = [
    (['--rw=write'], True, (0, 0, 257, MiB), [MiB]),
    (['--rw=write', '--size=2m'], True, (0, 0, 257, MiB), [MiB]),
    (['--rw=write', '--size=2m', '--ioengine=libaio', '--iodepth=8',
      '--direct=1'], True, (0, 0, 264, MiB), [MiB]),
    (['--rw=read'], True, (256, MiB, 0, 0), [MiB]),
    (['--rw=write', '--nrfiles=2'], True, (0, 0, 257, MiB),
     [MiB // 2, MiB // 2]),
]


def fill_device():
    """fill_device=1 (fill_fs): the writes end at ENOSPC without an error
    (size= larger than the space, or none: the file system's free blocks),
    a read job's file is laid out until the file system is full; with
    verify, iobench reads back and checks what it wrote (fio 3.33 does
    not); without fill_device, ENOSPC fails the job."""
    mnt = t.small_tmpfs('fill', '1m')
    if mnt is None:
        return
    for opts, ok, want, sizes in FILL:
        for run in (t.run, t.fio):
            fresh(mnt)
            r = run('--name=f', '--directory=' + mnt, '--bs=4k',
                    '--fill_device=1', '--output-format=json', *opts)
            if r is None:
                continue
            what = '%s fill_device %s' % (os.path.basename(r.argv[0]),
                                          ' '.join(opts))
            if not t.eq(r.rc == 0, ok, what + ': exit status', r):
                continue
            j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
            t.eq((j['read']['total_ios'], j['read']['io_bytes'],
                  j['write']['total_ios'], j['write']['io_bytes'],
                  j['error']), want + (0,), what + ': I/O, no error')
            t.eq(sorted(os.path.getsize(os.path.join(mnt, n))
                        for n in os.listdir(mnt)), sizes, what + ': files')
    fresh(mnt)
    r = t.run('--name=f', '--directory=' + mnt, '--bs=4k', '--fill_fs=1',
              '--rw=write', '--size=2m', '--verify=crc32c',
              '--output-format=json')
    if t.ok(r, 'fill_fs with verify'):
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['write']['io_bytes'], j['read']['io_bytes'], j['error']),
             (MiB, MiB, 0), 'fill_fs with verify: 1 MiB written and checked')
    fresh(mnt)
    r = t.run('--name=f', '--directory=' + mnt, '--bs=4k', '--rw=write',
              '--size=2m')
    t.eq(r.rc, 1, 'no fill_device: ENOSPC fails the job', r)
    t.check('No space left on device' in r.err, 'no fill_device: ENOSPC named',
            r)
    fresh(mnt)
    # the status line's progress over two files: the room they find (each
    # file's region is larger than the file system: half of 1 MiB is the
    # most that plan of 2 x (1 MiB + 4 KiB) could show)
    r = t.run('--name=f', '--directory=' + mnt, '--nrfiles=2', '--bs=4k',
              '--rw=write', '--fill_device=1', '--rate=512k', '--eta=always',
              '--eta-newline=1', '--eta-interval=250ms',
              '--output-format=terse')
    if t.ok(r, 'fill_device over two files, paced'):
        pcts = [float(m) for m in re.findall(
            r'\]\[([0-9.]+)%\]', (r.err + r.out).replace('\r', '\n'))]
        t.check(pcts and max(pcts) > 50 and max(pcts) <= 100,
                'fill_device over two files: the status line\'s progress '
                'passes half way', pcts)
    fresh(mnt)


def opendir():
    """opendir=DIR: the job's files are every regular file below DIR,
    subdirectories too, in fio's order (readdir's, a subdirectory's files
    where it is met); without size= each is read whole: the same iolog
    sequence as fio 3.33. A writing job needs allow_data_loss=1."""
    top = t.mkdir('od')
    os.makedirs(os.path.join(top, 'sub', 'deeper'), exist_ok=True)
    for name, n in (('a', 16), ('sub/b', 32), ('sub/c', 2),
                    ('sub/deeper/d', 4)):
        with open(os.path.join(top, name), 'wb') as f:
            f.write(os.urandom(n * 4096))
    os.symlink(os.path.join(top, 'a'), os.path.join(top, 'link'))
    seqs = {}
    for prog, run in (('iobench', t.run), ('fio', t.fio)):
        log = t.path('od-%s.log' % prog)
        r = run('--name=o', '--opendir=' + top, '--rw=read', '--bs=4k',
                '--ioengine=psync', '--write_iolog=' + log,
                '--output-format=json')
        if r is None or not t.ok(r, prog + ' opendir'):
            continue
        j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
        t.eq((j['read']['total_ios'], j['read']['io_bytes']),
             (54, 54 * 4096), prog + ' opendir: every file read whole')
        seqs[prog] = [(io[0], io[2]) for io in
                      ibtest.parse_iolog(log).ios if io[1] == 'read']
    if 'iobench' in seqs:
        t.eq(sorted(set(os.path.relpath(f, top) for f, _ in seqs['iobench'])),
             ['a', 'sub/b', 'sub/c', 'sub/deeper/d'],
             'opendir: the regular files below it, no link')
    if len(seqs) == 2:
        t.eq(seqs['iobench'], seqs['fio'], 'opendir: fio 3.33\'s sequence')
    # with filename=: the directory's files, then filename='s
    extra = t.shm_file('od-extra', data=os.urandom(8 * 4096))
    seqs = {}
    for prog, run in (('iobench', t.run), ('fio', t.fio)):
        log = t.path('odf-%s.log' % prog)
        r = run('--name=o', '--opendir=' + os.path.join(top, 'sub', 'deeper'),
                '--filename=' + extra, '--rw=read', '--bs=4k',
                '--ioengine=psync', '--write_iolog=' + log)
        if r is None or not t.ok(r, prog + ' opendir with filename'):
            continue
        lg = ibtest.parse_iolog(log)
        seqs[prog] = [(io[0], io[2]) for io in lg.ios if io[1] == 'read']
        t.eq(lg.files, [os.path.join(top, 'sub', 'deeper', 'd'), extra],
             prog + ' opendir with filename: its files, then filename\'s')
        t.eq(len(seqs[prog]), 12, prog + ' opendir with filename: reads')
    if len(seqs) == 2:
        t.eq(seqs['iobench'], seqs['fio'],
             'opendir with filename: fio 3.33\'s sequence')
    r = t.run('--name=o', '--opendir=' + top, '--rw=randwrite', '--bs=4k')
    t.eq(r.rc, 1, 'opendir with writes: refused', r)
    t.check('allow_data_loss=1' in r.err, 'opendir with writes: the way on',
            r)


def submit_inline():
    """io_submit_mode=inline, fio's default and iobench's only way, runs
    the job as without it, in both tools."""
    target = t.shm_file('inline.dat', size=64 * KiB)
    for r in both('--name=i', '--filename=' + target, '--size=64k',
                  '--rw=randread', '--io_submit_mode=inline',
                  '--output-format=json'):
        if r is None or not t.ok(r, 'io_submit_mode=inline'):
            continue
        j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
        t.eq(j['read']['total_ios'], 16, '%s io_submit_mode=inline: reads'
             % os.path.basename(r.argv[0]))


# -- stats=0 ---------------------------------------------------------------
STATS_JOBS = """[global]
filename=%s
size=64k
bs=4k
ioengine=psync
%s
[prep]
rw=write
stats=0
write_iolog=%s
write_lat_log=%s
[meas]
%s
rw=read
"""


def stats_off():
    """stats=0: the job runs (its 16 writes are in its write_iolog, its
    header line is printed), but no report shows it: not in the normal
    report's job blocks or run status groups, not in JSON or terse, not
    in the interval stream, and its lat logs stay empty (fio's files).
    fio 3.33's human report has the same job blocks. In a group_reporting
    group the group is the other job's alone, named after it, as fio's."""
    target = t.shm_file('stats0.dat', size=64 * KiB)
    d = t.mkdir('stats0')
    for extra, sep in (('', 'stonewall'), ('group_reporting', '')):
        what = 'stats=0 ' + (extra or 'then stonewall')
        fresh(d)
        jf = t.path('stats0.fio')     # outside d, which fresh() empties
        with open(jf, 'w') as f:
            f.write(STATS_JOBS % (target, extra, os.path.join(d, 'p.iolog'),
                                  os.path.join(d, 'p'), sep))
        r = t.run(jf, '--interval-json=' + os.path.join(d, 's.ndjson'))
        if not t.ok(r, what):
            continue
        t.eq([(j.name, j.issued) for j in ibtest.parse_report(r.out)],
             [('meas', (16, 0, 0, 0))], what + ': job blocks')
        t.check('prep: (g=0): rw=write' in r.out, what + ': its header', r)
        groups = [line.split()[3] for line in r.out.splitlines()
                  if line.startswith('Run status group')]
        t.eq(groups, ['1'] if sep else ['0'], what + ': run status groups')
        writes = [io for io in ibtest.parse_iolog(os.path.join(d, 'p.iolog')).ios
                  if io[1] == 'write']
        t.eq(len(writes), 16, what + ': the stats=0 job\'s writes')
        t.eq(sorted((n, os.path.getsize(os.path.join(d, n)))
                    for n in os.listdir(d) if n.endswith('.1.log')),
             [('p_clat.1.log', 0), ('p_lat.1.log', 0), ('p_slat.1.log', 0)],
             what + ': its lat logs, empty')
        with open(os.path.join(d, 's.ndjson')) as f:
            names = {json.loads(line).get('jobname') for line in f}
        t.eq(names, {'meas', None} if extra else {'meas'},
             what + ': interval stream jobs')
        rj = t.run(jf, '--output-format=json')
        if t.ok(rj, what + ' json'):
            jobs = json.loads(rj.out[rj.out.index('{'):])['jobs']
            t.eq([(j['jobname'], j['read']['total_ios'],
                   j['write']['total_ios']) for j in jobs],
                 [('meas', 16, 0)], what + ': JSON jobs')
        rt = t.run(jf, '--output-format=terse')
        if t.ok(rt, what + ' terse'):
            t.eq([line.split(';')[2] for line in rt.out.splitlines()
                  if line.startswith('3;')], ['meas'], what + ': terse lines')
        fresh(d)
        rf = t.fio(jf)
        if rf is not None and t.ok(rf, what + ' (fio 3.33)'):
            t.eq([(j.name, j.issued) for j in ibtest.parse_report(rf.out)],
                 [('meas', (16, 0, 0, 0))], what + ': fio 3.33\'s job blocks')


# -- softrandommap -----------------------------------------------------------
def softrandommap():
    """A random map larger than the machine can commit (twice its RAM and
    swap: the kernel's heuristic overcommit refuses it at once): the job
    fails naming norandommap and softrandommap; with softrandommap=1 it
    goes on without the map after one warning, its 1000 I/Os done, as
    fio 3.33's."""
    try:
        with open('/proc/sys/vm/overcommit_memory') as f:
            policy = f.read().strip()
        with open('/proc/meminfo') as f:
            info = {ln.split(':')[0]: int(ln.split()[1]) * 1024 for ln in f}
    except (OSError, ValueError, IndexError):
        policy, info = None, {}
    if policy != '0' or 'MemTotal' not in info:
        t.skip('vm.overcommit_memory is %s, not the heuristic (0): a map '
               'too large to allocate cannot be made' % policy)
        return
    room = info['MemTotal'] + info.get('SwapTotal', 0)
    size = 2 * room * 8 * 4096      # a map of twice that: bits of 4k blocks
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + \
        ':allocator_may_return_null=1'
    args = ['--name=m', '--ioengine=null', '--size=%d' % size,
            '--rw=randread', '--bssplit=4k/50:8k/50', '--number_ios=1000',
            '--output-format=json']
    r = t.run(*args, env=env)
    t.eq(r.rc, 1, 'random map without memory: the job fails', r)
    t.check('no memory for the random map' in r.err and
            'softrandommap=1' in r.err, 'random map without memory: named, '
            'and the ways on', r)
    for prog, run in (('iobench', t.run), ('fio', t.fio)):
        r = run(*(args + ['--softrandommap=1']), env=env)
        if r is None or not t.ok(r, prog + ' softrandommap=1'):
            continue
        j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
        t.eq(j['read']['total_ios'], 1000, prog + ' softrandommap=1: reads')
        if prog == 'iobench':
            t.eq(len([ln for ln in r.err.splitlines()
                      if 'softrandommap' in ln]), 1,
                 'softrandommap=1: one warning line', r)


# -- files of different sizes, random offsets ---------------------------------
def uneven_files():
    """Random reads over three existing files of 4, 8 and 12 blocks,
    roundrobin: the smallest is done first, and fio finds that by a draw
    against its full map, which the next file's offsets then follow: the
    same write_iolog sequence as fio 3.33."""
    d = t.mkdir('uneven')
    seqs = {}
    for prog, run in (('iobench', t.run), ('fio', t.fio)):
        fresh(d)
        for name, n in (('a', 4), ('b', 8), ('c', 12)):
            with open(os.path.join(d, name), 'wb') as f:
                f.write(bytes(n * 4096))
        log = t.path('uneven-%s.log' % prog)
        mine = t.fio_like() if prog == 'iobench' else []
        r = run('--name=u', '--filename=a:b:c', '--rw=randread', '--bs=4k',
                '--ioengine=psync', '--write_iolog=' + log, *mine, cwd=d)
        if r is None or not t.ok(r, prog + ' uneven files'):
            continue
        seqs[prog] = [(os.path.basename(io[0]), io[2] // 4096)
                      for io in ibtest.parse_iolog(log).ios]
        t.eq(sorted(seqs[prog]), sorted((f, b) for f, n in
                                        (('a', 4), ('b', 8), ('c', 12))
                                        for b in range(n)),
             prog + ' uneven files: every block once')
    if len(seqs) == 2:
        t.eq(seqs['iobench'], seqs['fio'], 'uneven files: fio 3.33\'s sequence')


def main():
    uneven_files()
    softrandommap()
    stats_off()
    submit_inline()
    opendir()
    fill_device()
    unique_filename()
    output_messages()
    replay_filename()
    percent_escape()
    name_is_target()
    section_names()
    iosched_new_file()
    number_ios_loops()
    ends_in_ramp()
    t.finish()


if __name__ == '__main__':
    main()
