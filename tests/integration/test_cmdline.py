#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The command line: fio's four argv forms and bare flags, global options
before the first --name, no --name at all, --version, --help, size units,
unknown options (an error naming the option, non-zero exit, nothing
created), and subcommands (`iobench run ARGS` is `iobench ARGS`; a job file
named like a subcommand is reached as ./NAME or after `--`).
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(HERE, '..', '..', 'meson.build')) as f:
        m = re.search(r"version:\s*'([^']+)'", f.read())
    return m.group(1) if m else None


def one_job(t, what, args, want_issued, nblocks_log=None):
    """Run args; expect one job block with issued rwts == want_issued."""
    r = t.run(*args)
    if not t.ok(r, what):
        return None
    jobs = ibtest.parse_report(r.out)
    if t.eq(len(jobs), 1, '%s: job blocks' % what, r):
        t.eq(jobs[0].issued, want_issued, '%s: issued rwts' % what)
        t.eq(jobs[0].err, 0, '%s: err=' % what)
    return r


def test_forms(t):
    """--opt=value, -opt=value, --opt value, -opt value, bare flags."""
    target = t.shm_file('forms', 64 * 1024)
    log = t.path('forms.iolog')
    argv = ['--name=forms', '-filename=' + target, '--size', '64k',
            '-bs', '8k', '--rw=write', '-ioengine', 'psync',
            '--write_iolog', log, '-thread', '--group_reporting']
    if one_job(t, 'four argv forms', argv, (0, 8, 0, 0)):
        il = ibtest.parse_iolog(log)
        t.eq(il.offsets('write'), [i * 8192 for i in range(8)],
             'four argv forms: iolog write offsets')

    # the same with every form swapped
    argv = ['-name', 'forms2', '--filename', target, '-size=64k',
            '--bs', '16k', '-rw', 'read', '--ioengine=psync', '--thread']
    one_job(t, 'four argv forms (swapped)', argv, (4, 0, 0, 0))


def test_no_name(t):
    target = t.shm_file('noname', 64 * 1024)
    one_job(t, 'no --name', ['--filename=' + target, '--size=64k',
                             '--bs=4k', '--rw=read'], (16, 0, 0, 0))


def test_globals(t):
    """Options before the first --name apply to every job; after it, only
    to that job."""
    a = t.shm_file('ga', 64 * 1024)
    b = t.shm_file('gb', 64 * 1024)
    r = t.run('--size=64k', '--rw=read', '--bs=4k', '--name=a',
              '--filename=' + a, '--bs=16k', '--name=b', '--filename=' + b)
    if not t.ok(r, 'globals'):
        return
    jobs = {j.name: j for j in ibtest.parse_report(r.out)}
    t.eq(sorted(jobs), ['a', 'b'], 'globals: job names')
    if 'a' in jobs and 'b' in jobs:
        t.eq(jobs['a'].issued, (4, 0, 0, 0), 'globals: job a (bs=16k)')
        t.eq(jobs['b'].issued, (16, 0, 0, 0), 'globals: job b (bs=4k global)')


def test_global_section(t):
    """--name=global starts a global section: its options apply to the
    jobs after it."""
    a = t.shm_file('gs', 64 * 1024)
    r = t.run('--name=global', '--bs=8k', '--rw=read', '--size=64k',
              '--name=a', '--filename=' + a, '--name=b', '--filename=' + a,
              '--bs=16k')
    if not t.ok(r, '--name=global'):
        return
    jobs = {j.name: j.issued for j in ibtest.parse_report(r.out)}
    t.eq(jobs, {'a': (8, 0, 0, 0), 'b': (4, 0, 0, 0)},
         '--name=global: issued rwts per job')


def test_units(t):
    """k/m suffixes in base 1024, any case, optional B; 0x hex."""
    target = t.shm_file('units', 1024 * 1024)
    for size, n in (('1m', 256), ('1M', 256), ('1mb', 256), ('1MB', 256),
                    ('1024k', 256), ('1024KiB', 250), ('0x100000', 256),
                    ('1048576', 256), ('512K', 128)):
        one_job(t, 'size=%s' % size, ['--name=u', '--filename=' + target,
                                      '--size=' + size, '--bs=4k',
                                      '--rw=read'], (n, 0, 0, 0))
    # time suffixes: a time_based job runs at least its whole runtime
    for rt, ms in (('300ms', 300), ('250000us', 250), ('250000usec', 250),
                   ('300msec', 300), ('1', 1000), ('1s', 1000)):
        what = 'time_based runtime=%s' % rt
        r = t.run('--name=u', '--filename=' + target, '--size=64k',
                  '--rw=read', '--time_based', '--runtime=' + rt)
        if t.ok(r, what):
            jobs = ibtest.parse_report(r.out)
            run = jobs[0].dirs.get('read', {}).get('runtime_ms', 0) if jobs else 0
            t.check(run >= ms, '%s: read runtime %dmsec >= %d' % (what, run, ms),
                    r)
    one_job(t, 'bs=0x2000', ['--name=u', '--filename=' + target,
                             '--size=64k', '--bs=0x2000', '--rw=read'],
            (8, 0, 0, 0))


def test_version_help(t):
    r = t.run('--version')
    t.ok(r, '--version')
    ver = project_version()
    t.check(ver is not None and ver in r.out,
            '--version prints the project version %r' % ver, r)
    t.check('iobench' in r.out, '--version names iobench', r)
    t.eq(len(r.out.strip().splitlines()), 1, '--version: lines printed')

    r = t.run('--help')
    t.ok(r, '--help')
    t.check('--version' in r.out, '--help mentions --version', r)


def test_subcommands(t):
    target = t.shm_file('sub', 64 * 1024)
    with open(t.path('run'), 'w') as f:  # a job file named like a subcommand
        f.write('[sub]\nfilename=%s\nsize=64k\nbs=4k\nrw=read\n' % target)
    for args in (['./run'], ['--', 'run'], ['run', 'run'], ['run', './run'],
                 ['--readonly', 'run']):
        what = 'job file "run" as %s' % ' '.join(args)
        r = t.run(*args)
        if t.ok(r, what):
            jobs = ibtest.parse_report(r.out)
            t.eq([(j.name, j.issued) for j in jobs], [('sub', (16, 0, 0, 0))],
                 '%s: job blocks' % what, r)
    one_job(t, 'run subcommand with options', ['run', '--name=o',
            '--filename=' + target, '--size=32k', '--rw=read'], (8, 0, 0, 0))
    # no job: the same usage and message on stderr, nothing on stdout, 1
    bare = t.run()
    t.eq((bare.rc, bare.out), (1, ''), 'no arguments: status, stdout')
    t.check(bare.err.startswith('usage: iobench') and bare.err.endswith(
        '\niobench: no job given (job options or a job file)\n'),
        'no arguments: usage, then the message, on stderr', bare)
    r = t.run('run')  # the subcommand, not the job file ./run
    t.eq((r.rc, r.out, r.err), (1, '', bare.err),
         '"run" alone: the subcommand, with no job')
    helped = t.run('--help')
    t.ok(helped, '--help')
    t.check(re.search(r'^Commands .*:\n  run +fio-style jobs, the default',
                      helped.out, re.M | re.S) is not None,
            '--help lists the subcommands', helped)
    t.check('\n       iobench COMMAND [arguments]\n' in helped.out,
            '--help: the COMMAND usage line', helped)
    r = t.run('run', '--help')
    t.eq((r.rc, r.out, r.err), (0, helped.out, ''), 'run --help = --help')
    t.eq(bare.err, helped.out + 'iobench: no job given (job options or a '
         'job file)\n', 'no-job usage = --help text')
    test_help_command(t, helped)


def test_help_command(t, helped):
    """`iobench help` is the usage (it was taken for a job file 'help':
    "help: No such file or directory"); `help CMD` is CMD's --help."""
    r = t.run('help')
    t.eq((r.rc, r.out, r.err), (0, helped.out, ''), 'help = --help')
    t.check(re.search(r'^  help +', helped.out, re.M) is not None,
            '--help lists help', helped)
    r = t.run('help', 'run')
    t.eq((r.rc, r.out, r.err), (0, helped.out, ''), 'help run = --help')
    curve = t.run('curve', '--help')
    r = t.run('help', 'curve')
    t.eq((r.rc, r.out, r.err), (curve.rc, curve.out, curve.err),
         'help curve = curve --help')
    r = t.run('help', 'nosuch')
    t.eq((r.rc, r.out, r.err), (1, '', 'iobench help: nosuch: not a command '
         '(iobench help lists them)\n'), 'help nosuch')


def test_unknown(t):
    """An option iobench does not know: error naming it, nothing created."""
    target = t.path('never')
    log = t.path('never.iolog')
    cases = [
        ('--bogus_option=3', 'bogus_option'),
        ('-bogus_option', 'bogus_option'),
        ('--fixedbufs', 'fixedbufs'),           # io_uring's, not psync's
        ('--userspace_reap', 'userspace_reap'),  # libaio's
        ('--cgroup=foo', 'cgroup'),             # fio's, not implemented
    ]
    for opt, name in cases:
        what = 'unknown option %s' % opt
        r = t.run('--name=u', '--filename=' + target, '--size=64k',
                  '--rw=write', '--ioengine=psync', '--write_iolog=' + log,
                  opt)
        t.fails(r, what)
        t.check(name in r.err, '%s: stderr names %s' % (what, name), r)
        t.check(not os.path.exists(target), '%s: target not created' % what)
        t.check(not os.path.exists(log), '%s: iolog not created' % what)
    # the value of a known option that does not parse
    for opt, name in (('--bs=4q', 'bs'), ('--rw=sideways', 'rw'),
                      ('--ioengine=nosuch', 'nosuch')):
        what = 'bad value %s' % opt
        r = t.run('--name=u', '--filename=' + target, '--size=64k', opt)
        t.fails(r, what)
        t.check(name in r.err, '%s: stderr names %s' % (what, name), r)
        t.check(not os.path.exists(target), '%s: target not created' % what)


def test_exit_status(t):
    """A job that fails while running: non-zero exit, the job named on
    stderr, its err= set; the other job still runs and reports err=0."""
    good = t.shm_file('good', 64 * 1024)
    full = t.small_tmpfs('full', '256k')
    if full is not None:
        what = 'a job writing past a full tmpfs'
        r = t.run('--name=good', '--filename=' + good, '--size=64k',
                  '--rw=read', '--name=failer', '--filename=' +
                  os.path.join(full, 'f'), '--size=1m', '--rw=write',
                  '--ioengine=psync', '--fallocate=none')
        t.fails(r, what)
        t.check("iobench: job 'failer' (pid " in r.err,
                '%s: stderr names the job and its process' % what, r)
        jobs = {j.name: j for j in ibtest.parse_report(r.out)}
        t.eq(sorted(jobs), ['failer', 'good'], '%s: job blocks' % what, r)
        if 'good' in jobs and 'failer' in jobs:
            t.eq((jobs['good'].err, jobs['good'].issued), (0, (16, 0, 0, 0)),
                 '%s: the good job (err, issued)' % what)
            t.eq(jobs['failer'].err, 28, '%s: failer err= (ENOSPC)' % what)
    # a target that cannot be a file at all: refused, named
    d = t.mkdir('adir')
    what = 'a directory as filename'
    r = t.run('--name=dirjob', '--filename=' + d, '--size=64k', '--rw=read')
    t.fails(r, what)
    t.check(d in r.err, '%s: stderr names the path' % what, r)


def main():
    t = ibtest.Test()
    test_version_help(t)
    test_subcommands(t)
    test_unknown(t)
    test_forms(t)
    test_no_name(t)
    test_globals(t)
    test_units(t)
    test_global_section(t)
    test_exit_status(t)
    t.finish()


if __name__ == '__main__':
    main()
