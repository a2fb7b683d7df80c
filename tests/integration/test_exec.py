#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Job sequencing and memory options (issue 13): exec_prerun/exec_postrun
(run around the job's I/O, output in JOB.prerun.txt / JOB.postrun.txt in
the current directory, a failing prerun skips the job without an error),
side by side with fio 3.33.
"""
import hashlib
import json
import os
import sys

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
            '--exec_prerun=exit 3', '--exec_postrun=touch post.mark',
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
    if prog != 'fio':
        t.eq(r.out[0], '{', 'iobench: stdout is the JSON alone')


def main():
    t = ibtest.Test()
    for prog in ('iobench', 'fio'):
        test_exec(t, prog)
        test_failed_prerun(t, prog)
    t.finish()


if __name__ == '__main__':
    main()
