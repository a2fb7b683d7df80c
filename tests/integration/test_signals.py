#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Signals: SIGINT/SIGTERM stop every job promptly with a valid (partial)
report and exit status 130; a second SIGINT ends at once; a job process
that dies is reported failed with the cause and the run neither hangs nor
succeeds; no job process outlives iobench, even when iobench is killed."""
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

t = ibtest.Test()
# a stop is prompt when it ends the run well before its runtime: the jobs
# run for 60 s, so a stop within 20 s was the signal's doing, not the
# runtime's, on any machine (a fixed few seconds failed under load)
PROMPT = t.scaled(20.0)


class Run:
    """iobench in the background, with its output collected at the end."""

    def __init__(self, *args):
        self.argv = t.argv(*args)
        self.p = subprocess.Popen(self.argv, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL, text=True,
                                  errors='replace', cwd=t.dir)
        self.pid = self.p.pid
        self.out = self.err = ''
        self.rc = None

    def children(self):
        pids = []
        try:
            for tid in os.listdir('/proc/%d/task' % self.pid):
                with open('/proc/%d/task/%s/children' % (self.pid, tid)) as f:
                    pids += [int(x) for x in f.read().split()]
        except OSError:
            pass
        return pids

    def wait_children(self, n, timeout=20.0):
        end = time.monotonic() + t.scaled(timeout)
        while time.monotonic() < end:
            kids = self.children()
            if len(kids) >= n:
                return kids
            time.sleep(0.02)
        return self.children()

    def wait_threads(self, n, timeout=20.0):
        end = time.monotonic() + t.scaled(timeout)
        while time.monotonic() < end:
            try:
                if len(os.listdir('/proc/%d/task' % self.pid)) >= n:
                    return
            except OSError:
                return
            time.sleep(0.02)

    def signal(self, sig):
        os.kill(self.pid, sig)
        return time.monotonic()

    def finish(self, timeout=60):
        """Wait for exit; returns the seconds it took."""
        t0 = time.monotonic()
        try:
            self.out, self.err = self.p.communicate(timeout=t.scaled(timeout))
            self.rc = self.p.returncode
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.out, self.err = self.p.communicate()
            self.rc = 'timeout'
        took = time.monotonic() - t0
        t.check_logs('this run', self)
        return took

    def __str__(self):
        return str(ibtest.Result(self.argv, self.rc, self.out, self.err))


def gone(pid):
    """The process no longer exists (or is a zombie nobody can reap)."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(')', 1)[1].split()[0] in ('Z', 'X')
    except OSError:
        return True


def all_gone(pids, timeout=2.0):
    end = time.monotonic() + t.scaled(timeout)
    while time.monotonic() < end:
        if all(gone(p) for p in pids):
            return True
        time.sleep(0.02)
    return all(gone(p) for p in pids)


def job(name, *extra, runtime='60'):
    return ('--name=%s' % name, '--filename=%s' % t.path(name + '.dat'),
            '--size=8m', '--bs=4k', '--time_based', '--runtime=%s' % runtime,
            *extra)


def json_doc(r, what):
    try:
        return json.loads(r.out)
    except ValueError as e:
        t.check(False, '%s: stdout is one valid JSON document (%s)' % (what, e), r)
        return None


def test_stop(sig, fmt, extra=(), nproc=2, what=''):
    what = '%s %s%s' % (signal.Signals(sig).name, fmt, what)
    r = Run(*job('s', '--numjobs=2', '--ioengine=io_uring', '--iodepth=16',
                 *extra), '--output-format=%s' % fmt)
    kids = r.wait_children(nproc)
    t.eq(len(kids), nproc, '%s: job processes running' % what)
    time.sleep(0.5)
    r.signal(sig)
    took = r.finish()
    t.check(took < PROMPT, '%s: stopped promptly (%.2fs)' % (what, took), r)
    t.eq(r.rc, 130, '%s: exit status 130' % what, r)
    t.check('iobench: interrupted' in r.err, '%s: says it was interrupted'
            % what, r)
    t.check(all_gone(kids), '%s: no job process left' % what, kids)
    if fmt == 'json':
        doc = json_doc(r, what)
        if doc:
            t.eq(len(doc['jobs']), 2, '%s: both jobs in the JSON' % what)
            t.check(all(j['read']['io_bytes'] + j['write']['io_bytes'] > 0
                        for j in doc['jobs']),
                    '%s: the I/O done so far is reported' % what)
            t.eq([j['error'] for j in doc['jobs']], [0, 0],
                 '%s: a stopped job is not a failed job' % what)
    else:
        jobs = ibtest.parse_report(r.out)
        t.eq(len(jobs), 2, '%s: both job blocks in the report' % what, r)
        t.check(all(j.issued and j.issued[0] + j.issued[1] > 0 for j in jobs),
                '%s: the I/O done so far is reported' % what, r)


def test_second_sigint():
    """A job that cannot stop (stopped by SIGSTOP): the first SIGINT waits
    for it, the second kills it and ends the run at once, still reporting."""
    r = Run(*job('h', '--numjobs=2'), '--output-format=json')
    kids = r.wait_children(2)
    time.sleep(0.3)
    os.kill(kids[0], signal.SIGSTOP)
    r.signal(signal.SIGINT)
    time.sleep(1.0)
    t.eq(r.p.poll(), None, 'second SIGINT: the first one waits for the job')
    t0 = r.signal(signal.SIGINT)
    r.finish()
    took = time.monotonic() - t0
    t.check(took < PROMPT, 'second SIGINT: ends at once (%.2fs)' % took, r)
    t.eq(r.rc, 130, 'second SIGINT: exit status 130', r)
    t.check("killed by signal 9" in r.err and str(kids[0]) in r.err,
            'second SIGINT: the killed job is named with the cause', r)
    t.check(all_gone(kids), 'second SIGINT: no job process left', kids)
    doc = json_doc(r, 'second SIGINT')
    if doc:
        errs = sorted(j['error'] for j in doc['jobs'])
        t.check(errs[0] == 0 and errs[1] != 0,
                'second SIGINT: JSON marks only the killed job failed', errs)


def test_sigint_in_layout():
    """SIGINT while a large file is laid out (before any job runs): the
    layout stops between chunks, no job starts, the (empty) report is still
    one valid JSON document, exit 130; the file keeps what was written."""
    r = Run('--name=big', '--filename=%s' % t.path('big.dat'), '--size=8g',
            '--rw=read', '--output-format=json')
    deadline = time.monotonic() + t.scaled(10)
    while (ibtest.size_of(t.path('big.dat')) or 0) == 0 and \
            time.monotonic() < deadline:
        time.sleep(0.01)
    t0 = r.signal(signal.SIGINT)
    r.finish()
    took = time.monotonic() - t0
    t.check(took < PROMPT, 'SIGINT in layout: ends promptly (%.2fs)' % took, r)
    t.eq(r.rc, 130, 'SIGINT in layout: exit status 130', r)
    t.check('interrupted' in r.err, 'SIGINT in layout: says so on stderr', r)
    size = ibtest.size_of(t.path('big.dat')) or 0
    t.check(0 < size < 8 << 30,
            'SIGINT in layout: layout stopped part way (%d bytes)' % size)
    doc = json_doc(r, 'SIGINT in layout')
    if doc:
        j = doc['jobs'][0]
        t.eq((j['read']['total_ios'], j['error']), (0, 0),
             'SIGINT in layout: the job did not run and did not fail')
    try:
        os.unlink(t.path('big.dat'))
    except OSError:
        pass


def test_child_killed():
    r = Run(*job('k', '--numjobs=2', runtime='3s'), '--output-format=json')
    kids = r.wait_children(2)
    time.sleep(0.5)
    os.kill(kids[0], signal.SIGKILL)
    took = r.finish(timeout=30)
    t.check(took < 3 + PROMPT, 'child killed: the run does not hang (%.2fs)'
            % took, r)
    t.eq(r.rc, 1, 'child killed: non-zero exit status', r)
    want = "failed: job process %d killed by signal 9 (Killed)" % kids[0]
    t.check(want in r.err, 'child killed: stderr names the job and cause', r)
    doc = json_doc(r, 'child killed')
    if doc:
        errs = [j['error'] for j in doc['jobs']]
        t.eq(sorted(e != 0 for e in errs), [False, True],
             'child killed: JSON marks exactly one job failed')


def test_parent_killed():
    """iobench killed outright: its job processes die with it."""
    r = Run(*job('p', '--numjobs=3'), '--output-format=json')
    kids = r.wait_children(3)
    t.eq(len(kids), 3, 'parent killed: job processes running')
    time.sleep(0.3)
    r.signal(signal.SIGKILL)
    r.finish()
    t.check(all_gone(kids), 'parent killed: no job process left', kids)


def test_threads():
    r = Run(*job('th', '--numjobs=2', '--thread'), '--output-format=json')
    # no job process to wait for: the two job threads beside the main one
    # (the handlers are in place before any job starts)
    r.wait_threads(3)
    r.signal(signal.SIGINT)
    took = r.finish()
    t.check(took < PROMPT, 'threads SIGINT: stopped promptly (%.2fs)' % took, r)
    t.eq(r.rc, 130, 'threads SIGINT: exit status 130', r)
    doc = json_doc(r, 'threads SIGINT')
    if doc:
        t.eq(len(doc['jobs']), 2, 'threads SIGINT: both jobs reported')


def test_startdelay():
    r = Run(*job('d', '--startdelay=60'), '--output-format=json')
    kids = r.wait_children(1)
    time.sleep(0.3)
    r.signal(signal.SIGTERM)
    took = r.finish()
    t.check(took < PROMPT, 'SIGTERM in startdelay: stopped promptly (%.2fs)'
            % took, r)
    t.eq(r.rc, 130, 'SIGTERM in startdelay: exit status 130', r)
    t.check(all_gone(kids), 'SIGTERM in startdelay: no job process left', kids)
    json_doc(r, 'SIGTERM in startdelay')


test_stop(signal.SIGINT, 'json')
test_stop(signal.SIGTERM, 'normal')
test_stop(signal.SIGINT, 'json', ('--ioengine=libaio',), what=' libaio')
test_stop(signal.SIGTERM, 'json', ('--ioengine=psync', '--rw=randwrite'),
          what=' psync randwrite')
test_second_sigint()
test_sigint_in_layout()
test_child_killed()
test_parent_killed()
test_threads()
test_startdelay()
t.finish()
