#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Verify state files, the verify options added with them, and verify
with a rate (src/io/verify/vrun.h, src/io/verify/vstate.c).

1. A randwrite verify job on a loop device interrupted by SIGINT mid-run
   saves local-v-0-verify.state listing exactly the writes it completed;
   verify_only with verify_state_load=1 reads exactly those blocks (0
   errors), a corrupted one is reported at its offset, a corrupted block
   the state does not list is not read.
2. verify_write_sequence: blocks of an earlier pass put back fail on
   numberio with the state's write numbers, and pass with the check off.
3. rate/rate_iops with verify: the writes keep the rate, the verify reads
   do not; counts as fio 3.33's.
4. Options: verify_state_save=0 writes no file, experimental_verify and
   trim_verify_zero are accepted with the same counts, refused mixes.
"""
import json
import os
import re
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

BS = 4096
HDR = struct.Struct('<8sII16sQQQII')
REC = struct.Struct('<QQIHH')


def read_state(path):
    """(header fields, [(offset, seq, len, file)]) of a state file."""
    with open(path, 'rb') as f:
        data = f.read()
    h = HDR.unpack_from(data, 0)
    recs = [REC.unpack_from(data, HDR.size + i * REC.size)[:4]
            for i in range(h[6])]
    return h, recs


def interrupted_write(t, dev, sig=signal.SIGINT):
    """randwrite at 400 IOPS over 1024 blocks, sig after ~1 s (under a
    wrapper both slowed alike: the signal still comes mid-run)."""
    args = t.argv('--name=v', '--filename=' + dev, '--size=4m', '--bs=4k',
                  '--rw=randwrite', '--ioengine=io_uring', '--iodepth=8',
                  '--verify=crc32c', '--rate_iops=%d' % int(400 / t.slow),
                  '--output-format=json')
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=t.dir)
    time.sleep(t.scaled(1.0))
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=t.scaled(60))
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    r = ibtest.Result(args, p.returncode, out, err)
    try:
        return r, json.loads(out)['jobs'][0]
    except (ValueError, KeyError, IndexError):
        return r, None


def test_interrupted(t):
    dev = t.loop_device(4 << 20)
    if dev is None:
        t.skip('no loop devices')
        return
    backing = t.loop_backing[dev]
    state = os.path.join(t.dir, 'local-v-0-verify.state')
    r, j = interrupted_write(t, dev)
    t.eq(r.rc, 130, 'SIGINT: exit status', r)
    if not t.check(j is not None and os.path.exists(state),
                   'SIGINT: a report and the state file', r):
        return
    done = j['write']['total_ios']
    t.check(0 < done < 1024, 'SIGINT: stopped mid-run (%d writes)' % done)
    h, recs = read_state(state)
    t.eq((h[0], h[1], h[2], h[3].rstrip(b'\0'), h[5], h[6]),
         (b'IBVSTATE', 1, 1, b'crc32c', done, done),
         'state: header (every issued write completed, each listed)')
    offs = [rec[0] for rec in recs]
    t.eq((len(set(offs)), sorted({rec[2] for rec in recs}),
          sorted(rec[1] for rec in recs) == list(range(done))),
         (done, [BS], True), 'state: distinct blocks, write numbers 0..N-1')
    load = ['--name=v', '--filename=' + dev, '--size=4m', '--bs=4k',
            '--rw=randwrite', '--ioengine=psync', '--verify=crc32c',
            '--verify_only=1', '--verify_state_load=1']
    r, j = t.run_json(load)
    t.eq((r.rc, j and j['error'], j and j['read']['total_ios']),
         (0, 0, done), 'load: exactly the completed blocks, no error', r)
    # without the state verify_only checks every block: unwritten ones fail
    r = t.run(*load[:-1], '--verify_state_load=0')
    t.eq(r.rc, 1, 'verify_only without the state: unwritten blocks fail', r)
    # a block the state does not list is not read
    free = [o for o in range(0, 4 << 20, BS) if o not in set(offs)]
    if free:
        ibtest.flip(backing, free[0] + 100)
    bad = offs[done // 2]
    ibtest.flip(backing, bad + 100)
    # (continue_on_error: counted, exit status 0, as in test_verify)
    r, j = t.run_json(load + ['--continue_on_error=verify'])
    t.eq((r.rc, j and j['read']['total_ios'], j and j['total_err']),
         (0, done, 1), 'load: one corrupted block of %d' % done, r)
    found = re.findall(r'^crc32c: verify failed at file %s offset (\d+), '
                       r'length 4096' % re.escape(dev), r.err, re.M)
    t.eq(found, [str(bad)], 'load: the corrupted offset, only it')
    r = t.run(*load)
    t.check(r.rc == 1 and 'crc32c: verify failed at file %s offset %d,'
            % (dev, bad) in r.err, 'load: fatal at that offset', r)
    # a read job with verify= checks the listed blocks the same way
    r, j = t.run_json(['--name=v', '--filename=' + dev, '--size=4m',
                       '--bs=4k', '--rw=randread', '--ioengine=psync',
                       '--verify=crc32c', '--verify_state_load=1',
                       '--continue_on_error=verify'])
    t.eq((r.rc, j and j['read']['total_ios'], j and j['total_err']),
         (0, done, 1), 'read job with the state: same blocks', r)
    os.unlink(state)
    # SIGTERM: the same
    r, j = interrupted_write(t, dev, signal.SIGTERM)
    done = j and j['write']['total_ios']
    t.check(r.rc == 130 and done and 0 < done < 1024,
            'SIGTERM: stopped mid-run (%s writes)' % done, r)
    t.eq(os.path.exists(state) and read_state(state)[0][6], done,
         'SIGTERM: every completed write listed')


def test_write_sequence(t):
    path = t.shm_file('seq.dat')
    base = ['--name=v', '--filename=' + path, '--size=64k', '--bs=4k',
            '--rw=write', '--ioengine=psync', '--verify=crc32c']
    state = os.path.join(t.dir, 'local-v-0-verify.state')
    r = t.run(*base, '--do_verify=0')
    t.eq(r.rc, 0, 'pass 1 written', r)
    with open(path, 'rb') as f:
        old = f.read()
    r, j = t.run_json(base + ['--loops=2'])
    t.eq((r.rc, j and j['write']['total_ios'], j and j['read']['total_ios']),
         (0, 32, 32), 'two passes written and verified', r)
    h, recs = read_state(state)
    t.eq((h[5], [rec[1] for rec in recs], [rec[0] for rec in recs]),
         (32, list(range(16, 32)), list(range(0, 65536, BS))),
         'state: the second pass only (the first was overwritten)')
    with open(path, 'r+b') as f:
        f.write(old)    # the first pass's blocks: write numbers 0..15
    load = base + ['--verify_only=1', '--verify_state_load=1',
                   '--verify_header_seed=0']
    r = t.run(*load)
    t.check(r.rc == 1 and re.search(r'^verify: bad header numberio 0, wanted '
                                    r'16 at file %s offset 0,' % re.escape(path),
                                    r.err, re.M),
            'a stale block: numberio', r)
    r, j = t.run_json(load + ['--verify_write_sequence=0'])
    t.eq((r.rc, j and j['error'], j and j['read']['total_ios']),
         (0, 0, 16), 'verify_write_sequence=0: numberio not checked', r)
    r = t.run(*base[:-1], '--verify=md5', '--verify_only=1',
              '--verify_state_load=1')
    t.check(r.rc == 1 and 'was saved by a job with verify=crc32c, this one '
            'has verify=md5' in r.err, 'another verify type: refused', r)


def counts(j):
    return (j['write']['total_ios'], j['read']['total_ios'], j['error'])


def test_rate(t):
    path = t.shm_file('rate.dat', 1 << 20)
    for extra in ([], ['--verify_backlog=32'], ['--rate=2m']):
        args = ['--name=v', '--filename=' + path, '--size=1m', '--bs=4k',
                '--rw=randwrite', '--ioengine=psync', '--verify=crc32c']
        args += extra if extra[-1:] == ['--rate=2m'] else \
            ['--rate_iops=500'] + extra
        r, j = t.run_json(args)
        what = 'rate + verify %s' % ' '.join(args[-2:])
        if not t.check(r.rc == 0 and j, what, r):
            continue
        t.eq(counts(j), (256, 256, 0), what + ': counts')
        # 256 writes at 500/s (2 MiB/s: 512/s): half a second; reads unpaced
        wt, rt = j['write']['runtime'], j['read']['runtime']
        t.check(450 <= wt <= 1500 and rt < wt, what + ': write runtime %d ms,'
                ' read %d ms' % (wt, rt))
        f = t.fio(*args, '--output-format=json')
        if f is not None:
            fj = json.loads(f.out[f.out.find('{'):])['jobs'][0]
            t.eq(counts(fj), counts(j), what + ': as fio 3.33')
    for opt, msg in [('--thinktime=100', 'thinktime'),
                     ('--rate_min=1k', 'rate_min')]:
        r = t.run('--name=v', '--filename=' + path, '--size=64k',
                  '--rw=write', '--verify=crc32c', opt)
        t.check(r.rc == 1 and 'verify: not supported by iobench together '
                'with thinktime or rate_min/rate_iops_min' in r.err,
                'verify with %s: refused' % msg, r)


def test_options(t):
    path = t.shm_file('o.dat')
    state = os.path.join(t.dir, 'local-o.j-0-verify.state')
    base = ['--name=o/j', '--filename=' + path, '--size=64k', '--bs=4k',
            '--rw=randwrite', '--ioengine=psync', '--verify=crc32c']
    for opt in ['--experimental_verify=1', '--trim_verify_zero=1',
                '--trim_verify_zero=0', '--experimental_verify=0']:
        r, j = t.run_json(base + [opt])
        t.eq((r.rc, j and counts(j)), (0, (16, 16, 0)), 'accepted: ' + opt, r)
    t.eq(read_state(state)[0][6], 16, 'state named after o/j: 16 blocks')
    # experimental_verify: fio 3.33 replays, iobench reads its record back:
    # the same counts for one loop (fio's replay keeps only the last loop's)
    for rw in ('randwrite', 'write'):
        args = ['--name=x', '--filename=' + path, '--size=256k', '--bs=4k',
                '--rw=' + rw, '--ioengine=psync', '--verify=crc32c',
                '--experimental_verify=1']
        r, j = t.run_json(args)
        t.eq((r.rc, j and counts(j)), (0, (64, 64, 0)),
             'experimental_verify, ' + rw, r)
        f = t.fio(*args, '--output-format=json')
        if f is not None:
            fj = json.loads(f.out[f.out.find('{'):])['jobs'][0]
            t.eq(counts(fj), (64, 64, 0), 'experimental_verify, %s: fio 3.33'
                 % rw)
    os.unlink(state)
    r, j = t.run_json(base + ['--verify_state_save=0'])
    t.eq((r.rc, os.path.exists(state)), (0, False),
         'verify_state_save=0: no file', r)
    r, j = t.run_json(base + ['--verify_only=1', '--verify_state_save=1'])
    t.eq((r.rc, os.path.exists(state)), (0, False),
         'verify_only saves no state', r)
    r = t.run(*base, '--verify_only=1', '--verify_state_load=1')
    t.check(r.rc == 1 and 'verify_state_load: cannot open '
            'local-o.j-0-verify.state: No such file or directory' in r.err,
            'load without a state file', r)
    r = t.run(*base, '--verify_state_load=1')
    t.check(r.rc == 1 and 'verify_state_load=1 with rw=randwrite: needs '
            'verify_only=1 or a read job' in r.err, 'load in a writing job', r)
    r = t.run(*base, '--verify_async_cpus=1')
    t.check(r.rc == 1 and 'verify_async_cpus: not supported by iobench '
            '(blocks are checked in the job\'s own process: there are no '
            'verify threads to pin)' in r.err, 'verify_async_cpus: refused', r)
    # numjobs: one file per clone, fio's index (0, 1); default file names
    r = t.run('--name=n', '--size=64k', '--bs=4k', '--rw=randwrite',
              '--ioengine=psync', '--verify=crc32c', '--numjobs=2')
    for i in range(2):
        p = os.path.join(t.dir, 'local-n-%d-verify.state' % i)
        t.eq(os.path.exists(p) and read_state(p)[0][6], 16,
             'numjobs: state of clone %d' % i, r)


def test_runtime_and_errors(t):
    """A runtime end saves what was written; a state that cannot be
    written fails the job."""
    path = t.shm_file('rt.dat', 4 << 20)
    base = ['--name=rt', '--filename=' + path, '--size=4m', '--bs=4k',
            '--rw=randwrite', '--ioengine=psync', '--verify=crc32c']
    state = os.path.join(t.dir, 'local-rt-0-verify.state')
    r, j = t.run_json(base + ['--rate_iops=400', '--runtime=500ms',
                              '--do_verify=0'])
    done = j and j['write']['total_ios']
    t.check(r.rc == 0 and done and 0 < done < 1024,
            'runtime: stopped mid-run (%s writes)' % done, r)
    t.eq(os.path.exists(state) and read_state(state)[0][6], done,
         'runtime: every completed write listed')
    r, j = t.run_json(base + ['--verify_only=1', '--verify_state_load=1'])
    t.eq((r.rc, j and j['read']['total_ios'], j and j['error']),
         (0, done, 0), 'runtime: the load reads them', r)
    # with do_verify: the written blocks are verified, then the job ends
    # (it used to start the writes again as a next pass)
    r, j = t.run_json(base + ['--rate_iops=400', '--runtime=500ms'])
    w = j and j['write']['total_ios']
    t.check(r.rc == 0 and w and 0 < w < 1024 and j['read']['total_ios'] == w,
            'runtime + do_verify: %s written, all read back once' % w, r)
    # the state is written to a unique new file renamed into place (no
    # fixed .tmp name to plant a link at): a directory in its place fails
    os.unlink(state)
    os.mkdir(state)
    r = t.run(*base, '--size=64k')
    t.check(r.rc == 1 and 'verify_state_save: cannot write '
            'local-rt-0-verify.state: Is a directory' in r.err,
            'an unwritable state fails the job', r)
    t.eq([n for n in os.listdir(os.path.dirname(state))
          if n.startswith('local-rt-0-verify.state.')], [],
         'an unwritable state: no temporary file left', r)
    os.rmdir(state)
    # a working directory where no state can be written: refused before
    # any write (the target keeps its bytes)
    ro = t.mkdir('ro')
    if not t.check(subprocess.run(['mount', '-t', 'tmpfs', '-o', 'ro', 'tmpfs',
                                   ro]).returncode == 0, 'mount a read-only tmpfs'):
        return
    try:
        target = os.path.join(t.dir, 'keep')
        with open(target, 'wb') as f:
            f.write(b'\xa5' * 65536)
        r = t.run('--name=ro', '--filename=' + target, '--rw=write',
                  '--verify=crc32c', '--size=64k', cwd=ro)
        t.check(r.rc == 1 and 'verify_state_save: cannot write '
                'local-ro-0-verify.state in the working directory: '
                'Read-only file system' in r.err,
                'a read-only working directory: refused at the start', r)
        t.eq(ibtest.file_bytes(target), b'\xa5' * 65536,
             'refused at the start: the target untouched')
    finally:
        subprocess.run(['umount', ro])


def main():
    t = ibtest.Test()
    test_options(t)
    test_write_sequence(t)
    test_rate(t)
    test_runtime_and_errors(t)
    test_interrupted(t)
    t.finish()


if __name__ == '__main__':
    main()
