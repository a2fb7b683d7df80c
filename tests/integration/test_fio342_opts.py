#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio 3.42's engine and process options against what fio 3.42 does (facts
recorded from real runs into tests/data/fio342: fio 3.42 is not installed
in CI): uncached (RWF_DONTCACHE), comm, libaio_vectored, priohint."""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342')
t = ibtest.Test()


def facts(name):
    """A recorded fio 3.42 run: {'key': int} from 'key value' lines."""
    with open(os.path.join(DATA, name)) as f:
        return {k: int(v) for k, v in (line.split() for line in
                                       f.read().splitlines()
                                       if not line.startswith('#'))}


def parse_only(opts, want_err, what):
    """--parse-only with opts: exit 0 and silent, or exit 1 and the one
    line want_err, nothing on stdout."""
    r = t.run('--parse-only', '--name=a', '--filename=x', *opts)
    t.eq((r.rc, r.out, r.err), (1 if want_err else 0, '', want_err or ''),
         what)


def pwritev2_flags(strace_out):
    """The flags argument of each pwritev2 call in an strace log."""
    return sorted({int(m.group(1), 0) for m in re.finditer(
        r'pwritev2\(.*, \d+, (0x[0-9a-f]+|\d+)[^)]*\) = ', strace_out)})


def uncached_run(direct, want):
    """uncached=1 with pvsync2 on tmpfs: buffered, tmpfs refuses
    RWF_DONTCACHE (fio 3.42: error 95 at the first write, nothing written,
    exit 1): refused before any write, one line naming the option (the
    flag on a file system that takes it: test_fio342_atomic); direct=1: no
    flag, every byte written."""
    key = 'direct' if direct else 'buffered'
    target = t.shm_file('u%d.dat' % direct, size=64 * 1024)
    log = t.path('u%d.strace' % direct)
    r = t.run('-f', '-o', log, '-e', 'trace=pwritev2',
              *t.argv('--name=u', '--filename=' + target, '--size=64k',
                      '--bs=4k', '--rw=write', '--ioengine=pvsync2',
                      '--uncached=1', '--direct=%d' % direct,
                      '--output-format=json'),
              prog=shutil.which('strace'), timeout=t.scaled(60))
    with open(log) as f:
        flags = pwritev2_flags(f.read())
    if not direct:
        t.eq((r.rc, r.out, flags), (want['buffered_exit'], '', []),
             'uncached on tmpfs: refused before any write')
        t.check(r.err.count('\n') == 1 and 'uncached: ' in r.err and
                'RWF_DONTCACHE' in r.err,
                'uncached on tmpfs: one line naming the option', r.err)
        return
    t.eq(flags, [want[key + '_rwf']],
         'uncached=1 %s: pwritev2 flags as fio 3.42\'s' % key)
    try:
        j = json.loads(r.out)['jobs'][0]
    except (ValueError, KeyError, IndexError):
        t.check(False, 'uncached %s: JSON report' % key, r)
        return
    t.eq((j['error'], j['write']['io_bytes']),
         (want[key + '_error'], want[key + '_write_bytes']),
         'uncached=1 %s: error and bytes as fio 3.42\'s' % key)


def uncached():
    want = facts('uncached.txt')
    if not shutil.which('strace'):
        t.skip('no strace')
    else:
        uncached_run(0, want)
        uncached_run(1, want)
    for e in ('pvsync2', 'io_uring'):
        for v in ('0', '1', '2'):
            parse_only(['--ioengine=' + e, '--uncached=' + v], None,
                       '--parse-only %s uncached=%s' % (e, v))
    parse_only(['--ioengine=pvsync2', '--uncached=x'],
               "iobench: uncached: invalid number 'x'\n", 'uncached=x')


def read_comm(pid):
    try:
        with open('/proc/%d/comm' % pid, errors='replace') as f:
            return f.read().rstrip('\n')
    except OSError:
        return None


def comm():
    """comm=NAME: the running job's worker process is named NAME's first
    15 bytes, the parent keeps its name, as fio 3.42's; an empty name is
    refused with one line."""
    want = {}
    with open(os.path.join(DATA, 'comm.txt')) as f:
        for line in f.read().splitlines():
            if not line.startswith('#'):
                k, v = line.split()
                want[k] = v
    target = t.shm_file('c.dat', size=1024 * 1024)
    p = subprocess.Popen(t.argv('--name=c', '--filename=' + target,
                                '--size=1m', '--rw=read', '--ioengine=psync',
                                '--time_based', '--runtime=%d' % t.scaled(2),
                                '--comm=ibworker_with_a_long_name',
                                '--output=/dev/null'),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True)
    names = []
    if ibtest.wait_job_io(p.pid, t.scaled(20)):
        names = [read_comm(k) for k in ibtest.children(p.pid)]
    parent = read_comm(p.pid)
    err = p.communicate(timeout=t.scaled(60))[1]
    t.eq((p.returncode, err), (0, ''), 'comm: the run')
    t.eq(names, [want['worker']], 'comm: the worker\'s name as fio 3.42\'s')
    t.eq(parent, os.path.basename(t.bin)[:15], 'comm: the parent keeps its name')
    parse_only(['--comm=x'], None, '--parse-only comm=x')
    parse_only(['--comm='], 'iobench: comm: needs a value\n',
               'comm= (empty): one line')
    t.eq(want['empty_exit'], '1', 'fio 3.42 refuses an empty comm too')


def traced(facts_file, name):
    """fio 3.42's facts, strace (None: skipped, said so) and a 64 KiB
    target."""
    strace = shutil.which('strace')
    if not strace:
        t.skip('no strace')
        return None, None, None
    return facts(facts_file), strace, t.shm_file(name, size=64 * 1024)


def libaio_vectored():
    """libaio_vectored=1: every iocb IOCB_CMD_PWRITEV (PREADV) with one
    iovec of the block size, the same bytes and I/O count as fio 3.42's;
    the data read back is what was written."""
    want, strace, target = traced('libaio_vectored.txt', 'v.dat')
    if not strace:
        return
    log = t.path('v.strace')
    r = t.run('-f', '-o', log, '-e', 'trace=io_submit', '-s', '8',
              *t.argv('--name=v', '--filename=' + target, '--size=64k',
                      '--bs=4k', '--rw=write', '--ioengine=libaio',
                      '--iodepth=4', '--libaio_vectored=1',
                      '--output-format=json'),
              prog=strace, timeout=t.scaled(60))
    if r.rc == 1 and 'libaio' in r.err and 'not built' in r.err:
        t.skip('no libaio in this build')
        return
    if not t.ok(r, 'libaio_vectored=1'):
        return
    with open(log) as f:
        text = f.read()
    ops = re.findall(r'aio_lio_opcode=(\w+)', text)
    lens = set(re.findall(r'iov_len=(\d+)', text))
    t.eq((ops.count('IOCB_CMD_PWRITEV'), len(ops) - ops.count('IOCB_CMD_PWRITEV'),
          sorted(lens)),
         (want['pwritev_iocbs'], want['other_iocbs'], [str(want['iov_len'])]),
         'libaio_vectored: the iocbs as fio 3.42\'s')
    j = json.loads(r.out)['jobs'][0]
    t.eq((j['error'], j['write']['io_bytes'], j['write']['total_ios']),
         (want['error'], want['write_io_bytes'], want['write_total_ios']),
         'libaio_vectored: error, bytes, I/Os as fio 3.42\'s')
    r = t.run('--name=v', '--filename=' + target, '--size=64k', '--bs=4k',
              '--rw=write', '--ioengine=libaio', '--iodepth=4',
              '--libaio_vectored=1', '--verify=crc32c', '--output=/dev/null')
    t.ok(r, 'libaio_vectored: PREADV reads back what PWRITEV wrote (verify)')
    parse_only(['--ioengine=libaio', '--libaio_vectored=1'], None,
               '--parse-only libaio_vectored=1')
    parse_only(['--ioengine=libaio', '--libaio_vectored=maybe'],
               "iobench: libaio_vectored: invalid boolean 'maybe' "
               "(use 1/0, true/false, yes/no, on/off)\n",
               'libaio_vectored=maybe: one line')


def priohint():
    """priohint=N: the job's ioprio_set(2) value carries the hint in bits
    3-12, as fio 3.42's (class BE when no class is given)."""
    want, strace, target = traced('priohint.txt', 'p.dat')
    if not strace:
        return
    for key, opts in (('hint3_prio4', ['--priohint=3', '--prio=4']),
                      ('hint1', ['--priohint=1'])):
        log = t.path(key + '.strace')
        r = t.run('-f', '-o', log, '-e', 'trace=ioprio_set', '-X', 'raw',
                  *t.argv('--name=p', '--filename=' + target, '--size=64k',
                          '--ioengine=psync', '--output=/dev/null', *opts),
                  prog=strace, timeout=t.scaled(60))
        if not t.ok(r, 'priohint ' + key):
            continue
        with open(log) as f:
            vals = [int(v, 0) for v in re.findall(
                r'ioprio_set\(0x1, 0, (0x[0-9a-f]+|\d+)\)\s+= 0', f.read())]
        t.eq(vals, [want[key + '_class'] << 13 | want[key + '_data']],
             'priohint %s: the ioprio value as fio 3.42\'s' % key)
    for v in ('0', '1023'):
        parse_only(['--priohint=' + v], None, '--parse-only priohint=' + v)
    r = t.run('--parse-only', '--name=a', '--filename=x', '--priohint=1024')
    t.check(r.rc == 1 and r.err.count('\n') == 1 and
            r.err.startswith('iobench: priohint: '),
            'priohint=1024: one line naming the option', r)


def main():
    uncached()
    comm()
    libaio_vectored()
    priohint()
    t.finish()


if __name__ == '__main__':
    main()
