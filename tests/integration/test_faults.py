#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Real I/O errors and resource limits.

ENOSPC: a sparse file on a 1 MiB tmpfs mount; writes past the first MiB
fail. EIO: a loop device (direct-io=off) over a 64 MiB sparse file on a
1 MiB tmpfs whose first MiB is written, so the tmpfs is full: buffered
writes past that MiB fail at writeback (EIO from fsync, or from the write
itself with sync=1), direct writes fail with ENOSPC; with the backing file
then cut to 32 MiB, reads past 32 MiB fail with EIO.

What is checked, as fio 3.33 does it (and, when fio is installed, against
fio itself on the same targets): continue_on_error goes on only after a
non-fatal error (EIO or EILSEQ, or ignore_error's list for the error's
type; read, write (fsync included) or verify); a fatal error of a covered
type is counted when the engine completed it inline (psync), not when
reaped (io_uring, libaio); total_ios counts failed I/Os; err= names the
direction, offset, length, file and errno (with its name) in the report,
the JSON and the terse line show the same error number, and the one stderr
line of a failed job carries err='s text. Resource limits: huge iodepth,
numjobs, bs give a clear error or work; RLIMIT_MEMLOCK too low for
io_uring fixedbufs is explained."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()
ENGINES = (('psync', ()), ('io_uring', ('--iodepth=8',)),
           ('libaio', ('--iodepth=8', '--direct=1')))
COES = ('none', 'read', 'write', 'io', 'verify', 'all')
COVERS = {'none': (), 'read': ('read',), 'write': ('write',),
          'io': ('read', 'write'), 'verify': (), 'all': ('read', 'write')}
# Every run here is written for fio's defaults, buffered psync (fio runs
# many of the same command lines): given first, so options after override.
FIO_DEFAULTS = ('--ioengine=psync', '--direct=0')
EIO_TEXT = 'Input/output error (EIO)'
ENOSPC_TEXT = 'No space left on device (ENOSPC)'


def sparse(path, size):
    with open(path, 'wb') as f:
        f.truncate(size)
    return path


def fresh(path, size=4 * MiB):
    """Empty the file on the small tmpfs and make it sparse again."""
    os.truncate(path, 0)
    os.truncate(path, size)


def failing_loop(name, cut_to=None):
    """A loop device over a 64 MiB file on a new, full 1 MiB tmpfs (its
    first MiB written); cut_to: then shrink the file (reads past it fail).
    Each scenario gets its own, so no writeback error is left over from
    another. Returns /dev/loopN or None."""
    if not ibtest.loop_available():
        t.skip('loop devices unavailable: %s' % name)
        return None
    mnt = t.small_tmpfs(name)
    if not mnt:
        return None
    back = os.path.join(mnt, 'back.img')
    with open(back, 'wb') as f:
        f.write(b'\xa5' * MiB)
        f.truncate(64 * MiB)
    p = subprocess.run(['losetup', '--direct-io=off', '--find', '--show', back],
                       capture_output=True, text=True)
    if p.returncode != 0:
        t.check(False, 'losetup', p.stderr)
        return None
    dev = p.stdout.strip()
    t.loops.append(dev)
    if cut_to is not None:
        os.truncate(back, cut_to)
    return dev


def jdoc(r, what):
    """The first job of a JSON report (fio may print lines before it)."""
    try:
        return json.loads(r.out[r.out.index('{'):])['jobs'][0]
    except (ValueError, KeyError, IndexError) as e:
        t.check(False, '%s: valid JSON (%s)' % (what, e), r)
        return None


def facts(j, ddir):
    """What the error handling decides, from a JSON job."""
    d = j[ddir]
    return {'error': j['error'], 'total_err': j.get('total_err'),
            'first_error': j.get('first_error'), 'io_bytes': d['io_bytes'],
            'total_ios': d['total_ios'], 'lat_n': d['clat_ns']['N']}


def failed_lines(r):
    return [ln for ln in r.err.splitlines() if ' failed: ' in ln]


def one_job(r, what):
    jobs = ibtest.parse_report(r.out)
    t.eq(len(jobs), 1, '%s: one job block' % what, r)
    return jobs[0] if jobs else None


def check_failed_line(r, job, what):
    """A failed job: one stderr line, with the report's err= text."""
    lines = failed_lines(r)
    t.eq(len(lines), 1, '%s: one stderr line names the failure' % what, r)
    if lines and job:
        t.check(lines[0].endswith(' failed: ' + job.err_text),
                '%s: the stderr line carries err=\'s text' % what,
                (lines[0], job.err_text))


def same_as_fio(what, args, ddir, prep):
    """Where fio is installed, it must decide the same. prep() resets the
    target before each run; what it returns replaces '{}' in args. Only for
    runs whose counts are deterministic."""
    if not shutil.which('fio'):
        return
    got = []
    for tool in (t.run, t.fio):
        target = prep()
        argv = [a.replace('{}', str(target)) for a in args]
        r = tool(*argv, '--output-format=json')
        j = jdoc(r, '%s (%s)' % (what, 'iobench' if tool == t.run else 'fio'))
        if not j:
            return
        got.append((r.rc, facts(j, ddir)))
    t.eq(got[0], got[1], '%s: iobench and fio 3.33 agree' % what)


def engine_coes():
    """(engine, its options, continue_on_error): every engine with every
    continue_on_error; under a wrapper (memcheck, where this test runs
    alone) each continue_on_error with one engine in turn, each engine
    twice: 6 of 18 runs, and the 12 left out reach no line of src/ the kept
    runs and the other tests do not (gcov: tools/vg-coverage.py runs
    faults)."""
    for i, (eng, extra) in enumerate(ENGINES):
        for j, coe in enumerate(COES):
            if not t.reduced or i == j % len(ENGINES):
                yield eng, extra, coe


def test_enospc(mnt):
    """A fatal ENOSPC on each engine: err=, JSON error, one stderr line."""
    f = sparse(os.path.join(mnt, 'full.dat'), 4 * MiB)
    for eng, extra in ENGINES:
        what = 'ENOSPC %s' % eng
        fresh(f)
        r = t.run(*FIO_DEFAULTS, '--name=e', '--filename=%s' % f, '--rw=write', '--bs=64k',
                  '--size=4m', '--ioengine=%s' % eng, *extra)
        t.eq(r.rc, 1, '%s: exit status' % what, r)
        job = one_job(r, what)
        if not job:
            continue
        t.eq(job.err, 28, '%s: err=28' % what)
        t.eq(job.err_text, 'write offset=1048576, buflen=65536, file=%s: %s'
             % (f, ENOSPC_TEXT), '%s: err= names direction, offset, length, '
             'file, errno' % what)
        check_failed_line(r, job, what)
    os.unlink(f)


def test_coe_enospc(mnt):
    """continue_on_error on a real ENOSPC: 16 x 64 KiB fit, 48 do not.
    ENOSPC is fatal whatever continue_on_error says; with writes covered
    it is counted by psync (inline) and not by io_uring/libaio (reaped)."""
    f = sparse(os.path.join(mnt, 'coe.dat'), 4 * MiB)
    for eng, extra, coe in engine_coes():
        what = 'ENOSPC %s continue_on_error=%s' % (eng, coe)
        fresh(f)
        r = t.run(*FIO_DEFAULTS, '--name=c', '--filename=%s' % f, '--rw=write',
                  '--bs=64k', '--size=4m', '--ioengine=%s' % eng, *extra,
                  '--continue_on_error=%s' % coe, '--output-format=json')
        j = jdoc(r, what)
        if not j:
            continue
        t.eq(r.rc, 1, '%s: exit status' % what, r)
        got = facts(j, 'write')
        counted = 'write' in COVERS[coe] and eng == 'psync'
        t.eq((got['error'], got['io_bytes'], got['lat_n']),
             (28, MiB, 16), '%s: error, the 16 writes that fit' % what)
        t.eq((got['total_err'], got['first_error']),
             (None, None) if coe == 'none' else
             (1, 28) if counted else (0, 0),
             '%s: total_err, first_error' % what)
        # total_ios counts the issued I/Os, failed ones too
        if eng == 'psync':
            t.eq(got['total_ios'], 17, '%s: total_ios' % what)
        else:   # the failed one, and up to 7 more in flight
            t.check(17 <= got['total_ios'] <= 24,
                    '%s: total_ios in 17..24' % what, got['total_ios'])
    same_as_fio('ENOSPC psync continue_on_error=write',
                (*FIO_DEFAULTS, '--name=c', '--filename=%s' % f, '--rw=write', '--bs=64k',
                 '--size=4m', '--continue_on_error=write'), 'write',
                lambda: fresh(f))
    os.unlink(f)


def test_ignore_error(mnt):
    """ignore_error=,ENOSPC makes ENOSPC a non-fatal write error (and turns
    continue_on_error on for writes); a list replaces its type's default."""
    f = sparse(os.path.join(mnt, 'ign.dat'), 4 * MiB)
    for eng, extra in ENGINES:
        for coe in (('--continue_on_error=write',), ()):
            what = 'ignore_error=,ENOSPC %s %s' % (eng, ' '.join(coe))
            fresh(f)
            r = t.run(*FIO_DEFAULTS, '--name=c', '--filename=%s' % f, '--rw=write',
                      '--bs=64k', '--size=4m', '--ioengine=%s' % eng, *extra,
                      '--ignore_error=,ENOSPC', *coe, '--output-format=json')
            j = jdoc(r, what)
            if not j:
                continue
            t.eq(r.rc, 0, '%s: exit status' % what, r)
            t.eq(failed_lines(r), [], '%s: no failure line' % what, r)
            t.eq(facts(j, 'write'),
                 {'error': 28, 'total_err': 48, 'first_error': 28,
                  'io_bytes': MiB, 'total_ios': 64, 'lat_n': 16},
                 '%s: JSON error (the first), counts' % what)
    args = (*FIO_DEFAULTS, '--name=c', '--filename=%s' % f, '--rw=write', '--bs=64k',
            '--size=4m', '--ignore_error=,ENOSPC')
    same_as_fio('ignore_error=,ENOSPC psync', args, 'write', lambda: fresh(f))
    # the same error in normal and terse output
    fresh(f)
    r = t.run(*args)
    job = one_job(r, 'ignore_error normal report')
    if job:
        t.eq((job.err, job.err_text),
             (28, 'write offset=1048576, buflen=65536, file=%s: %s'
              % (f, ENOSPC_TEXT)),
             'ignore_error normal report: err= is the first error')
    t.check('     errors    : total=48, first_error=28/<No space left on '
            'device>\n' in r.out, 'ignore_error normal report: errors line', r)
    fresh(f)
    r = t.run(*args, '--output-format=terse')
    fields = r.out.rstrip('\n').split(';')
    t.eq((fields[4], fields[-2:]), ('28', ['48', '28']),
         'ignore_error terse: error, total_err;first_error', r)
    # a list for reads only leaves writes with the default: ENOSPC is fatal
    # (counted: continue_on_error=all covers writes); so does a write list
    # without ENOSPC
    for ign in ('ENOSPC', ',EIO:EAGAIN', ',5,ENOSPC'):
        what = 'continue_on_error=all ignore_error=%s' % ign
        fresh(f)
        r = t.run(*args[:-1], '--continue_on_error=all', '--ignore_error=' + ign,
                  '--output-format=json')
        j = jdoc(r, what)
        if j:
            t.eq((r.rc, j['error'], j['total_err'], j['first_error']),
                 (1, 28, 1, 28), '%s: ENOSPC stops the job' % what, r)
    # a later continue_on_error= sets the bits anew (fio)
    fresh(f)
    r = t.run(*args, '--continue_on_error=none', '--output-format=json')
    j = jdoc(r, 'ignore_error then continue_on_error=none')
    if j:
        t.eq((r.rc, j['error'], j.get('total_err')), (1, 28, None),
             'ignore_error then continue_on_error=none: stops, no counts', r)
    # bad values: one line naming the option and the token, nothing run
    for v, msg in ((',EFOO', "ignore_error: unknown error 'EFOO' in the write "
                    "list (an errno name such as ENOSPC, or a number 1-4095)"),
                   ('EIO,EIO,EIO,EIO', "ignore_error: 'EIO,EIO,EIO,EIO': at "
                    "most 3 lists (read,write,verify)")):
        fresh(f)
        r = t.run(*args[:-1], '--ignore_error=' + v)
        t.eq((r.rc, r.err, r.out), (1, 'iobench: %s\n' % msg, ''),
             'ignore_error=%s: refused with one line' % v, r)
        t.eq(os.stat(f).st_blocks, 0, 'ignore_error=%s: nothing written' % v)
    os.unlink(f)


def test_read_eio():
    """Reads past the backing file's end: 32 of 64 reads fail with EIO, a
    non-fatal read error: every engine goes on when continue_on_error covers
    reads, and stops at the first otherwise."""
    dev = failing_loop('rd', cut_to=32 * MiB)
    if not dev:
        return
    base = (*FIO_DEFAULTS, '--name=r', '--filename=%s' % dev, '--rw=read', '--bs=64k',
            '--offset=30m', '--size=4m', '--direct=1')
    first = 'read offset=33554432, buflen=65536, file=%s: %s' % (dev, EIO_TEXT)
    for eng, extra, coe in engine_coes():
        what = 'read EIO %s continue_on_error=%s' % (eng, coe)
        r = t.run(*base, '--ioengine=%s' % eng, *extra,
                  '--continue_on_error=%s' % coe, '--output-format=json')
        j = jdoc(r, what)
        if not j:
            continue
        got = facts(j, 'read')
        if 'read' in COVERS[coe]:
            t.eq((r.rc, failed_lines(r)), (0, []),
                 '%s: goes on, exit 0' % what, r)
            t.eq(got, {'error': 5, 'total_err': 32, 'first_error': 5,
                       'io_bytes': 2 * MiB, 'total_ios': 64, 'lat_n': 32},
                 '%s: counts' % what)
            continue
        t.eq(r.rc, 1, '%s: exit status' % what, r)
        t.eq((got['error'], got['io_bytes'], got['lat_n']),
             (5, 2 * MiB, 32), '%s: error, the 32 good reads' % what)
        t.eq((got['total_err'], got['first_error']),
             (None, None) if coe == 'none' else (0, 0),
             '%s: total_err, first_error' % what)
        if eng == 'psync':
            t.eq(got['total_ios'], 33, '%s: total_ios' % what)
    for coe in ('read', 'none', 'write'):
        same_as_fio('read EIO psync continue_on_error=%s' % coe,
                    base + ('--continue_on_error=%s' % coe,), 'read',
                    lambda: None)
    # one run in each format: the same error and counts
    r = t.run(*base, '--continue_on_error=read')
    job = one_job(r, 'read EIO normal')
    if job:
        t.eq((job.err, job.err_text, job.issued), (5, first, (64, 0, 0, 0)),
             'read EIO normal: err= is the first error, issued')
        t.eq(job.dirs.get('read', {}).get('io'), '2048KiB',
             'read EIO normal: the bytes read')
    t.check('     errors    : total=32, first_error=5/<Input/output error>\n'
            in r.out, 'read EIO normal: errors line', r)
    r = t.run(*base, '--continue_on_error=read', '--output-format=terse')
    fields = r.out.rstrip('\n').split(';')
    t.eq((r.rc, fields[4], fields[5], fields[-2:]),
         (0, '5', '2048', ['32', '5']),
         'read EIO terse: error, read KiB, total_err;first_error', r)
    r = t.run(*base)
    job = one_job(r, 'read EIO, no continue_on_error')
    if job:
        t.eq((job.err, job.err_text), (5, first),
             'read EIO, no continue_on_error: err=')
        check_failed_line(r, job, 'read EIO, no continue_on_error')
    # numjobs=2 with group_reporting: the errors add up
    r = t.run(*base, '--continue_on_error=read', '--numjobs=2',
              '--group_reporting', '--output-format=json')
    j = jdoc(r, 'read EIO numjobs=2 group_reporting')
    if j:
        t.eq((r.rc, j['error'], j['total_err'], j['first_error'],
              j['read']['total_ios']), (0, 5, 64, 5, 128),
             'read EIO numjobs=2 group_reporting: summed counts', r)
    t.release()


def test_mixed(what='EIO reads then ENOSPC'):
    """Non-fatal read EIOs, then a fatal ENOSPC write (direct): err= shows
    the error that stopped the job, first_error the first one counted, and
    total_err both kinds (the fatal one counted: psync, writes covered)."""
    dev = failing_loop('mix', cut_to=32 * MiB)
    if not dev:
        return
    log = t.path('mix.iolog')
    r = t.run(*FIO_DEFAULTS, '--name=m', '--filename=%s' % dev, '--rw=rw', '--rwmixread=90',
              '--bs=64k', '--offset=32m', '--size=2m', '--direct=1',
              '--continue_on_error=io', '--allow_data_loss=1',
              '--write_iolog=%s' % log)
    il = ibtest.parse_iolog(log)
    ddirs = [io[1] for io in il.data()]
    if not t.check('write' in ddirs and ddirs[0] == 'read',
                   '%s: reads come first (iolog)' % what, ddirs):
        return
    reads = ddirs.index('write')
    t.eq(r.rc, 1, '%s: exit status' % what, r)
    job = one_job(r, what)
    if job:
        t.eq((job.err, job.issued), (28, (reads, 1, 0, 0)),
             '%s: err=28, issued' % what)
        t.check(job.err_text.startswith('write offset=') and
                job.err_text.endswith(ENOSPC_TEXT), '%s: err= text' % what,
                job.err_text)
        check_failed_line(r, job, what)
    t.check('     errors    : total=%d, first_error=5/<Input/output error>\n'
            % (reads + 1) in r.out, '%s: errors line' % what, r)
    t.release()


def test_write_eio():
    """sync=1: every write waits for its writeback, so the 16 writes past
    the full tmpfs's MiB fail with EIO themselves: a non-fatal write error."""
    for eng, extra in (('psync', ()), ('libaio', ('--iodepth=4',))):
        for coe in ('write', 'none', 'read'):
            what = 'sync=1 write EIO %s continue_on_error=%s' % (eng, coe)
            dev = failing_loop('w%s%s' % (eng, coe))
            if not dev:
                return
            r = t.run(*FIO_DEFAULTS, '--name=w', '--filename=%s' % dev, '--rw=write',
                      '--bs=64k', '--size=2m', '--sync=1',
                      '--ioengine=%s' % eng, *extra,
                      '--continue_on_error=%s' % coe, '--output-format=json')
            j = jdoc(r, what)
            if not j:
                continue
            got = facts(j, 'write')
            if coe == 'write':
                t.eq(r.rc, 0, '%s: exit status' % what, r)
                t.eq(got, {'error': 5, 'total_err': 16, 'first_error': 5,
                           'io_bytes': MiB, 'total_ios': 32, 'lat_n': 16},
                     '%s: counts' % what)
                continue
            t.eq(r.rc, 1, '%s: exit status' % what, r)
            t.eq((got['error'], got['io_bytes'], got['lat_n']),
                 (5, MiB, 16), '%s: error, the 16 writes that fit' % what)
            job_err = (None, None) if coe == 'none' else (0, 0)
            t.eq((got['total_err'], got['first_error']), job_err,
                 '%s: total_err, first_error' % what)
            lines = failed_lines(r)
            t.check(len(lines) == 1 and lines[0].endswith(
                'write offset=1048576, buflen=65536, file=%s: %s'
                % (dev, EIO_TEXT)), '%s: the stderr line' % what, r)
    same_as_fio('sync=1 write EIO psync continue_on_error=write',
                (*FIO_DEFAULTS, '--name=w', '--filename={}', '--rw=write', '--bs=64k',
                 '--size=2m', '--sync=1', '--continue_on_error=write'),
                'write', lambda: failing_loop('wf%d' % len(t.mounts)))
    t.release()


def test_sync_eio():
    """fsync=4 over buffered writes past the full MiB: each fsync fails
    with EIO, a write error. continue_on_error=write goes on (7 errors: no
    sync after the last write), for every engine (iobench's syncs are
    synchronous); a write list without EIO makes it fatal.
    Deliberate differences from fio 3.33: fio issues each failed fsync a
    second time (issued syncs 14, not 7; the second one works, the kernel
    reports a writeback error once), and its io_uring engine loses fsync
    errors altogether (err=0)."""
    cases = [
        # (what, options, exit, total_err, first_error, issued syncs)
        ('continue_on_error=write', ('--continue_on_error=write',), 0, 7, 5, 7),
        ('continue_on_error=write fdatasync', ('--continue_on_error=write',
                                               '--fsync=0', '--fdatasync=4'),
         0, 7, 5, 7),
        ('continue_on_error=write io_uring',
         ('--continue_on_error=write', '--ioengine=io_uring', '--iodepth=4'),
         0, 7, 5, 7),
        ('continue_on_error=write libaio',
         ('--continue_on_error=write', '--ioengine=libaio', '--iodepth=4'),
         0, 7, 5, 7),
        ('continue_on_error=none', ('--continue_on_error=none',), 1, None,
         None, 1),
        ('continue_on_error=read', ('--continue_on_error=read',), 1, 0, 0, 1),
        ('ignore_error=,ENOSPC', ('--ignore_error=,ENOSPC',), 1, 1, 5, 1),
    ]
    for name, opts, rc, total, first, syncs in cases:
        what = 'fsync EIO %s' % name
        dev = failing_loop('s%d' % len(t.mounts))
        if not dev:
            return
        r = t.run(*FIO_DEFAULTS, '--name=s', '--filename=%s' % dev, '--rw=write', '--bs=64k',
                  '--size=2m', '--offset=1m', '--fsync=4', *opts)
        t.eq(r.rc, rc, '%s: exit status' % what, r)
        job = one_job(r, what)
        if not job:
            continue
        t.eq((job.err, job.err_text), (5, 'sync file=%s: %s' % (dev, EIO_TEXT)),
             '%s: err=' % what)
        t.eq(job.issued[1:], (32 if rc == 0 else 4, 0, syncs),
             '%s: issued writes and syncs' % what)
        m = re.search(r'^     errors    : total=(\d+), first_error=(\d+)/',
                      r.out, re.M)
        t.eq((int(m.group(1)), int(m.group(2))) if m else (None, None),
             (total, first), '%s: errors line' % what, r)
        if rc:
            check_failed_line(r, job, what)
        else:
            t.eq(failed_lines(r), [], '%s: no failure line' % what, r)
    same_as_fio('fsync EIO psync continue_on_error=write',
                (*FIO_DEFAULTS, '--name=s', '--filename={}', '--rw=write', '--bs=64k',
                 '--size=2m', '--offset=1m', '--fsync=4',
                 '--continue_on_error=write'),
                'write', lambda: failing_loop('sf%d' % len(t.mounts)))
    t.release()


def test_end_fsync_and_direct():
    dev = failing_loop('end')
    if not dev:
        return
    r = t.run(*FIO_DEFAULTS, '--name=b', '--filename=%s' % dev, '--rw=write', '--bs=64k',
              '--size=4m', '--offset=16m', '--direct=0', '--end_fsync=1',
              '--continue_on_error=all', '--output-format=json')
    j = jdoc(r, 'EIO end_fsync')
    # end_fsync's error ends the job uncounted, whatever continue_on_error
    # says (fio)
    t.eq(r.rc, 1, 'EIO end_fsync: exit status', r)
    if j:
        t.eq((j['error'], j['total_err'], j['first_error']), (5, 0, 0),
             'EIO end_fsync: JSON error, total_err, first_error')
    lines = failed_lines(r)
    t.check(len(lines) == 1 and re.fullmatch(
        r"iobench: job 'b' \(pid \d+\) failed: end_fsync file=%s: %s"
        % (re.escape(dev), re.escape(EIO_TEXT)), lines[0]),
        'EIO end_fsync: the stderr line names it', r)
    # direct writes to the loop on the full tmpfs: ENOSPC from the loop
    r = t.run(*FIO_DEFAULTS, '--name=b', '--filename=%s' % dev, '--rw=write', '--bs=64k',
              '--size=4m', '--offset=24m', '--direct=1', '--ioengine=io_uring',
              '--iodepth=4')
    t.eq(r.rc, 1, 'direct write to a loop on a full fs: exit status', r)
    job = one_job(r, 'direct write to a loop on a full fs')
    if job:
        t.eq((job.err, job.err_text),
             (28, 'write offset=25165824, buflen=65536, file=%s: %s'
              % (dev, ENOSPC_TEXT)),
             'direct write to a loop on a full fs: ENOSPC, with offset')
    t.release()


def test_memlock():
    if not shutil.which('prlimit') or not shutil.which('setpriv'):
        t.skip('prlimit/setpriv not installed')
        return
    f = t.shm_file('ml.dat', 16 * MiB)
    # root's CAP_IPC_LOCK would exempt it from RLIMIT_MEMLOCK: drop it
    r = t.run('--memlock=65536', 'setpriv', '--bounding-set=-ipc_lock',
              '--inh-caps=-ipc_lock', *t.argv(*FIO_DEFAULTS, '--name=m', '--filename=%s' % f,
              '--size=16m', '--rw=read', '--bs=1m', '--ioengine=io_uring',
              '--fixedbufs', '--iodepth=16'), prog=shutil.which('prlimit'),
              timeout=t.scaled(120))
    t.eq(r.rc, 1, 'fixedbufs under a low RLIMIT_MEMLOCK: exit status', r)
    t.check('cannot register 16 buffers of 1048576 bytes (fixedbufs): '
            'RLIMIT_MEMLOCK too low? (ulimit -l)' in r.err,
            'fixedbufs under a low RLIMIT_MEMLOCK: explained', r)
    r = t.run('--memlock=65536', *t.argv(*FIO_DEFAULTS, '--name=m', '--filename=%s' % f,
              '--size=16m', '--rw=read', '--bs=1m', '--ioengine=io_uring',
              '--iodepth=16', '--output-format=terse'),
              prog=shutil.which('prlimit'), timeout=t.scaled(120))
    t.ok(r, 'no fixedbufs: the same limit does not matter')


def test_limits():
    f = t.shm_file('lim.dat', 8 * MiB)
    base = (*FIO_DEFAULTS, '--name=l', '--filename=%s' % f, '--rw=randread',
            '--output-format=terse')
    # (args, expect exit 0? (None: either works, or fails with the clear
    # line), text the one error line must contain)
    cases = [
        # io_setup(65536) needs all of the default system-wide fs.aio-max-nr:
        # it works on a quiet machine, and must say why when others hold some
        (('--iodepth=65536', '--ioengine=libaio', '--size=8m'), None,
         'fs.aio-max-nr'),
        (('--iodepth=4096', '--ioengine=io_uring', '--bs=64k'), True, None),
        # deeper than an SQ ring may be (32768): a larger CQ ring
        (('--iodepth=65536', '--ioengine=io_uring'), True, None),
        (('--iodepth=65537',), False, 'iodepth'),
        (('--numjobs=4097',), False, 'numjobs'),
        # (under a wrapper 16: memcheck of 256 identical job processes took
        # 5 CPU-minutes of the valgrind suite, with nothing the 16 miss; the
        # gcc and ASan suites run the 256)
        (('--numjobs=%d' % (16 if t.wrapper else 256), '--size=256k'), True,
         None),
        (('--bs=16m', '--size=16m', '--ioengine=null'), True, None),
        (('--bs=16m', '--size=4m'), False, 'block size'),
        (('--bs=1g', '--size=2g', '--ioengine=null', '--iodepth=64'), False,
         'no memory'),
    ]
    # under ASan a failed huge allocation must return NULL, as in libc
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + \
        ':allocator_may_return_null=1'
    for args, good, text in cases:
        what = 'limit %s' % ' '.join(args)
        r = t.run(*(base + args), timeout=300, env=env)
        if good or (good is None and r.rc == 0):
            t.ok(r, what)
            continue
        t.eq(r.rc, 1, '%s: exit status' % what, r)
        t.eq(ibtest.size_of(f), 8 * MiB, '%s: the target was not changed' % what)
        lines = r.err.strip().splitlines()
        t.check(len(lines) == 1 and text in lines[0] and
                lines[0].startswith('iobench: '),
                '%s: one clear line naming %s' % (what, text), r)


def main():
    if os.geteuid() != 0:
        t.skip('needs root (tmpfs mounts, loop devices)')
        t.finish()
    mnt = t.small_tmpfs('small')
    if mnt:
        test_enospc(mnt)
        test_coe_enospc(mnt)
        test_ignore_error(mnt)
    test_read_eio()
    test_mixed()
    test_write_eio()
    test_sync_eio()
    test_end_fsync_and_direct()
    test_memlock()
    test_limits()
    t.finish()


if __name__ == '__main__':
    main()
