#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Job sequencing and memory options (issue 13): exec_prerun/exec_postrun
(run around the job's I/O, output in JOB.prerun.txt / JOB.postrun.txt in
the current directory, a failing prerun skips the job without an error),
side by side with fio 3.33; iomem=/mem= (each accepted kind writes and
verifies with exact counts, and its mapping is seen in /proc/PID/maps;
the huge page kinds and cudamalloc are refused by name); wait_for (a job
starts once every earlier job of that name ended, in the same group: the
order of the jobs' prerun/postrun marks, as with fio; an unknown or later
waitee is refused).
"""
import hashlib
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

SIZE = 64 * 1024


def md5_of(data):
    return hashlib.md5(data).hexdigest()


def exec_job(t, target, pre, post, fmt='normal'):
    return ['--name=jj', '--filename=' + target, '--size=%d' % SIZE,
            '--bs=4k', '--rw=write', '--ioengine=psync',
            '--buffer_pattern=0xab', '--exec_prerun=' + pre,
            '--exec_postrun=' + post, '--output-format=' + fmt]


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def run_exec(t, prog, sub):
    """The write job with prerun/postrun md5sum of the target, in cwd sub."""
    cwd = t.mkdir(sub)
    target = t.shm_file(sub + '.dat', size=SIZE)   # zeros
    mark = os.path.join(cwd, 'pre.mark')
    args = exec_job(t, target, 'echo pre-echo; touch %s; md5sum %s' % (mark, target),
                    'md5sum ' + target)
    if prog == 'fio':
        r = t.fio(*args, cwd=cwd)
    else:
        r = t.run(*args, cwd=cwd)
    return r, cwd, target


def test_exec(t, prog):
    r, cwd, target = run_exec(t, prog, 'ex_' + prog)
    if r is None:
        t.skip('fio not installed')
        return
    if not t.ok(r, '%s exec_prerun/postrun' % prog):
        return
    pre = read_text(os.path.join(cwd, 'jj.prerun.txt'))
    post = read_text(os.path.join(cwd, 'jj.postrun.txt'))
    t.eq(pre, '%s  %s\n' % (md5_of(bytes(SIZE)), target),
         '%s: prerun saw the zeroed file (before the I/O)' % prog)
    t.eq(post, '%s  %s\n' % (md5_of(b'\xab' * SIZE), target),
         '%s: postrun saw the written data (after the I/O)' % prog)
    t.check(os.path.exists(os.path.join(cwd, 'pre.mark')),
            '%s: prerun command ran' % prog)
    # only the last simple command is redirected (fio's " > F 2>&1")
    t.eq(r.out.count('pre-echo\n'), 1, '%s: first command on stdout' % prog)
    for mode in ('prerun', 'postrun'):
        t.eq(r.out.count('jj : Saving output of %s in jj.%s.txt\n' % (mode, mode)),
             1, '%s: %s message on stdout' % (prog, mode))
    jobs = ibtest.parse_report(r.out)
    t.eq(len(jobs), 1, '%s: one job block' % prog)
    if jobs:
        t.eq(jobs[0].issued, (0, 16, 0, 0), '%s: issued' % prog)
    t.eq(sorted(n for n in os.listdir(cwd)),
         ['jj.postrun.txt', 'jj.prerun.txt', 'pre.mark'], '%s: files in cwd' % prog)


def test_failed_prerun(t, prog):
    cwd = t.mkdir('fail_' + prog)
    target = t.shm_file('fail_%s.dat' % prog, size=SIZE)
    args = ['--name=ff', '--filename=' + target, '--size=%d' % SIZE,
            '--bs=4k', '--rw=read', '--ioengine=psync',
            '--exec_prerun=echo first-cmd && exit 3',
            '--exec_postrun=touch post.mark',
            '--output-format=json']
    r = t.fio(*args, cwd=cwd) if prog == 'fio' else t.run(*args, cwd=cwd)
    if r is None:
        t.skip('fio not installed')
        return
    if not t.ok(r, '%s failing prerun: the run succeeds' % prog):
        return
    # fio prints its message on stdout before the JSON; iobench on stderr
    text = r.out[r.out.index('{'):]
    job = json.loads(text)['jobs'][0]
    t.eq(job['error'], 0, '%s failing prerun: no error' % prog)
    t.eq(job['read']['total_ios'], 0, '%s failing prerun: no I/O' % prog)
    t.eq(sorted(os.listdir(cwd)), ['ff.prerun.txt'],
         '%s failing prerun: no postrun' % prog)
    want = 'ff : Saving output of prerun in ff.prerun.txt\n'
    t.eq((r.out if prog == 'fio' else r.err).count(want), 1,
         '%s failing prerun: message' % prog)
    # the command's own output: fio's stdout; iobench's stderr when
    # stdout carries JSON (as its messages)
    t.eq((r.out if prog == 'fio' else r.err).count('first-cmd\n'), 1,
         '%s failing prerun: the command\'s output' % prog)
    if prog != 'fio':
        t.eq(r.out[0], '{', 'iobench: stdout is the JSON alone')
        t.eq(r.err, want + 'first-cmd\n', 'iobench: stderr')


def child_maps(pid, timeout=10):
    """/proc/CHILD/maps of iobench pid's job process, once it runs."""
    end = time.time() + timeout
    while time.time() < end:
        try:
            with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
                kids = f.read().split()
            if kids:
                time.sleep(0.5)     # past its setup
                with open('/proc/%s/maps' % kids[0]) as f:
                    return f.read()
        except OSError:
            pass
        time.sleep(0.05)
    return ''


def region_of(maps, size):
    """The maps lines of exactly size bytes."""
    out = []
    for ln in maps.splitlines():
        lo, hi = (int(x, 16) for x in ln.split()[0].split('-'))
        if hi - lo == size:
            out.append(ln)
    return out


def test_iomem_maps(t, kind, want):
    """A running job's buffers (iodepth 4 x 64 KiB) are the mapping want
    names (a substring of its maps line)."""
    f = t.shm_file('maps_%s.dat' % kind.replace('/', '_').replace(':', '_'),
                   size=1 << 20)
    args = ['--name=mm', '--filename=' + f, '--bs=64k', '--iodepth=4',
            '--ioengine=libaio', '--rw=randwrite', '--time_based',
            '--runtime=2', '--iomem=' + kind, '--output-format=json']
    p = subprocess.Popen(t.argv(*args), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=t.dir)
    lines = region_of(child_maps(p.pid), 4 * 65536)
    out, err = p.communicate(timeout=t.scaled(60))
    t.eq(p.returncode, 0, 'iomem=%s running: exit status' % kind, err)
    t.check(any(want in ln for ln in lines),
            'iomem=%s: a 256 KiB mapping with %r' % (kind, want), lines)


def test_iomem(t):
    f = t.shm_file('iomem.dat', size=SIZE)
    mf = t.path('bufs.map')
    for kind in ('malloc', 'shm', 'mmap', 'mmapshared', 'mmap:' + mf):
        for opt in ('iomem', 'mem'):
            r = t.run('--name=im', '--filename=' + f, '--size=%d' % SIZE,
                      '--bs=8k', '--iodepth=4', '--ioengine=io_uring',
                      '--rw=randwrite', '--verify=crc32c', '--%s=%s' % (opt, kind),
                      '--output-format=json')
            if not t.ok(r, '%s=%s' % (opt, kind)):
                continue
            job = json.loads(r.out)['jobs'][0]
            t.eq((job['write']['total_ios'], job['read']['total_ios'],
                  job['error']), (8, 8, 0), '%s=%s: writes, verified reads' % (opt, kind))
        t.check(not os.path.exists(mf), 'iomem=%s: no buffer file left' % kind)
    for kind, what in (('shmhuge', 'huge page'), ('mmaphuge', 'huge page'),
                       ('mmaphuge:' + mf, 'huge page'), ('cudamalloc', 'GPU memory')):
        r = t.run('--name=im', '--filename=' + f, '--size=%d' % SIZE,
                  '--mem=' + kind)
        t.eq(r.rc, 1, 'mem=%s: refused' % kind, r)
        t.eq(r.err, 'iobench: iomem=%s: %s buffers not supported by iobench '
             '(malloc, shm, mmap[:FILE], mmapshared are)\n' % (kind, what),
             'mem=%s: the reason' % kind)
    test_iomem_maps(t, 'shm', 'SYSV')
    test_iomem_maps(t, 'mmapshared', '/dev/zero (deleted)')
    test_iomem_maps(t, 'mmap:' + mf, mf + ' (deleted)')


WAIT_JOBS = """[global]
filename=%(f)s
size=256k
bs=4k
rw=write
ioengine=psync
%(extra)s
[A]
rate=512k
numjobs=%(n)d
exec_prerun=echo A-start >> order.txt && true
exec_postrun=echo A-end >> order.txt && true
[B]
wait_for=A
exec_prerun=echo B-start >> order.txt && true
exec_postrun=echo B-end >> order.txt && true
[C]
rate=1m
exec_prerun=echo C-start >> order.txt && true
exec_postrun=echo C-end >> order.txt && true
"""


def test_wait_for(t, prog, n, extra):
    what = '%s wait_for (numjobs=%d%s)' % (prog, n, ', ' + extra if extra else '')
    cwd = t.mkdir('wait_%s_%d%s' % (prog, n, extra.replace('=', '')))
    jf = os.path.join(cwd, 'w.fio')
    with open(jf, 'w') as f:
        f.write(WAIT_JOBS % {'f': t.shm_file('w_%s.dat' % prog, size=256 * 1024),
                             'n': n, 'extra': extra})
    args = [jf, '--output-format=json']
    r = t.fio(*args, cwd=cwd) if prog == 'fio' else t.run(*args, cwd=cwd)
    if r is None:
        t.skip('fio not installed')
        return
    if not t.ok(r, what):
        return
    order = read_text(os.path.join(cwd, 'order.txt')).split()
    t.eq(sorted(order), sorted(['A-start', 'A-end'] * n +
                               ['B-start', 'B-end', 'C-start', 'C-end']),
         what + ': every mark once per job')
    last_a_end = max(i for i, m in enumerate(order) if m == 'A-end')
    t.check(order.index('B-start') > last_a_end,
            what + ': B starts after every A ended: %s' % order)
    t.check(order.index('C-start') < last_a_end,
            what + ': C (no wait_for) starts with A: %s' % order)
    t.check(order.index('B-start') < order.index('B-end'), what + ': B in order')
    jobs = json.loads(r.out[r.out.index('{'):])['jobs']
    t.eq([(j['jobname'], j['groupid'], j['write']['total_ios'], j['error'])
          for j in jobs], [('A', 0, 64, 0)] * n + [('B', 0, 64, 0), ('C', 0, 64, 0)],
         what + ': jobs, group, I/Os')
    msgs = (r.out if prog == 'fio' else r.err).splitlines()
    post_a = max(i for i, m in enumerate(msgs) if m.startswith('A : Saving output of postrun'))
    pre_b = msgs.index('B : Saving output of prerun in B.prerun.txt')
    t.check(pre_b > post_a, what + ': B\'s prerun message after A\'s postrun ones')


def test_wait_for_sigint(t):
    """SIGINT while the waitee runs: it ends (its postrun runs), the
    waiting job never starts."""
    cwd = t.mkdir('wait_int')
    jf = os.path.join(cwd, 's.fio')
    with open(jf, 'w') as f:
        f.write('[global]\nfilename=%s\nsize=1m\nbs=4k\nrw=read\n'
                'ioengine=psync\n[A]\ntime_based\nruntime=30\n'
                'exec_postrun=echo A-end >> order.txt && true\n'
                '[B]\nwait_for=A\n'
                'exec_prerun=echo B-start >> order.txt && true\n'
                % t.shm_file('wi.dat', size=1 << 20))
    p = subprocess.Popen(t.argv(jf, '--output-format=json'), cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A reading (its reads, not a guessed 1.5 s: under load A may not
    # have read yet), then a little more of its runtime
    t.check(ibtest.wait_job_io(p.pid, t.scaled(60)), 'wait_for: A reads')
    time.sleep(0.2)
    p.send_signal(2)
    out, err = p.communicate(timeout=t.scaled(60))
    t.eq(p.returncode, 130, 'wait_for, SIGINT: exit status', err)
    t.eq(read_text(os.path.join(cwd, 'order.txt')), 'A-end\n',
         'wait_for, SIGINT: A ran its postrun, B never started')
    jobs = json.loads(out)['jobs']
    t.eq([(j['jobname'], j['read']['total_ios'] > 0, j['error']) for j in jobs],
         [('A', True, 0), ('B', False, 0)], 'wait_for, SIGINT: the jobs')


def test_wait_for_refused(t):
    f = t.shm_file('wr.dat', size=65536)
    for jobs, msg in (('[A]\nwait_for=Z\n', "job 'A': wait_for=Z: no earlier job named 'Z'"),
                      ('[A]\nwait_for=B\n[B]\n', "job 'A': wait_for=B: no earlier job named 'B'")):
        jf = t.path('wr.fio')
        with open(jf, 'w') as fh:
            fh.write('[global]\nfilename=%s\nsize=64k\n%s' % (f, jobs))
        r = t.run(jf)
        t.eq((r.rc, r.err), (1, 'iobench: %s\n' % msg), 'wait_for refused: ' + msg)


def main():
    t = ibtest.Test()
    for prog in ('iobench', 'fio'):
        test_exec(t, prog)
        test_failed_prerun(t, prog)
    test_iomem(t)
    for prog in ('iobench', 'fio'):
        test_wait_for(t, prog, 1, '')
        test_wait_for(t, prog, 2, '')
    test_wait_for(t, 'iobench', 1, 'thread=1')
    test_wait_for(t, 'iobench', 2, 'thread=1')
    test_wait_for_sigint(t)
    test_wait_for_refused(t)
    t.finish()


if __name__ == '__main__':
    main()
