#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The live view (doc/live-statistics.md) through a pseudo-terminal: tmux
(a server of this test's own, -L) runs iobench in a 120x40 window; the
screen is read with capture-pane while a scripted run goes on (two null
jobs, one reading at 2000 IOPS, one writing at 1000, 3 s, intervals of
500 ms) and after it.

While it runs: the heading, the column titles, one row per job with its
state letter and its own direction's numbers only (the reader writes
nothing, the writer reads nothing), the total row the sum of the rows, the
progress between 0 and 100%. After it: the table erased, the report
printed, and no status line. --eta=always (fio's status line asked for)
and --eta=never show no table; with group_reporting the row is the
group's. Skipped without tmux."""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

JOBS = ('--ioengine=null', '--bs=4k', '--size=1g', '--time_based', '--runtime=3',
        '--interval=500ms', '--name=a', '--rate_iops=2000',
        '--name=b', '--rw=write', '--rate_iops=1000')
ROW = re.compile(r'^(\S+)\s+(\S)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)%\s+(\d+)\s*$')
TOTAL = re.compile(r'^total\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s*$')


class Tmux:
    runs = 0

    def __init__(self, t):
        Tmux.runs += 1      # a server of its own per run: none shuts down under it
        self.sock = 'ibtest-live-%d-%d' % (os.getpid(), Tmux.runs)
        self.t = t

    def tm(self, *args):
        return subprocess.run(['tmux', '-L', self.sock] + list(args),
                              capture_output=True, text=True, timeout=30)

    def start(self, argv, done):
        cmd = ' '.join("'%s'" % a for a in argv) + '; touch %s; sleep 600' % done
        p = self.tm('new-session', '-d', '-x', '120', '-y', '40', 'bash', '-c', cmd)
        return self.t.eq(p.returncode, 0, 'tmux new-session', p.stderr)

    def screen(self):
        return self.tm('capture-pane', '-p').stdout

    def stop(self):
        self.tm('kill-server')


def table(screen):
    """The live view's rows on a screen: ({name: row match}, total match)."""
    rows, total = {}, None
    for line in screen.split('\n'):
        m = ROW.match(line)
        if m and m.group(1) != 'job':
            rows[m.group(1)] = m
        m = TOTAL.match(line)
        if m:
            total = m
    return rows, total


def run_view(t, extra, until, what):
    """Run the jobs in tmux (extra before them: for both); return (screen
    when until(screen) held, end screen)."""
    tx = Tmux(t)
    done = t.path('done')
    if os.path.exists(done):
        os.unlink(done)
    seen = None
    if not tx.start(t.argv(*extra, *JOBS), done):
        tx.stop()
        return None, ''
    deadline = time.time() + t.scaled(30)
    try:
        while time.time() < deadline and not os.path.exists(done):
            s = tx.screen()
            if seen is None and until(s):
                seen = s
            time.sleep(0.1)
        end = tx.screen()
    finally:
        tx.stop()
    t.check(os.path.exists(done), '%s: the run ended' % what)
    return seen, end


def running_table(s):
    rows, total = table(s)
    return ('a.1' in rows and 'b.2' in rows and total and
            rows['a.1'].group(3) != '0' and rows['b.2'].group(6) != '0')


def test_view(t):
    seen, end = run_view(t, (), running_table, 'live view')
    if not t.check(seen is not None, 'live view: the table while the jobs run', end):
        return
    t.check(re.search(r'^iobench: \d\dm:\d\ds elapsed, eta \d\dm:\d\ds, 2 of 2 jobs running',
                      seen, re.M), 'live view: the heading', seen)
    t.check(re.search(r'^job\s+st\s+r IOPS\s+r BW\s+r p99\s+w IOPS\s+w BW\s+w p99\s+done\s+err',
                      seen, re.M), 'live view: the column titles', seen)
    rows, total = table(seen)
    a, b = rows['a.1'], rows['b.2']
    t.eq((a.group(2), b.group(2)), ('R', 'W'), 'live view: the state letters')
    t.eq((a.group(6), a.group(7), a.group(8)), ('0', '0KiB/s', '-'),
         'live view: the reader writes nothing')
    t.eq((b.group(3), b.group(4), b.group(5)), ('0', '0KiB/s', '-'),
         'live view: the writer reads nothing')
    t.check(a.group(5).endswith('s') and b.group(8).endswith('s'),
            'live view: each job\'s p99 latency shown', seen)
    t.eq((total.group(1), total.group(4)), (a.group(3), b.group(6)),
         'live view: total IOPS = the rows\' sum (one job per direction)')
    t.eq((total.group(2), total.group(5)), (a.group(4), b.group(7)),
         'live view: total bandwidth = the rows\' sum')
    t.check(0 <= int(a.group(9)) <= 100 and int(a.group(10)) == 0,
            'live view: progress in 0..100%, no errors', seen)
    t.check('r IOPS' not in end and 'Run status group 0 (all jobs):' in end,
            'live view: erased at the end, the report printed', end)
    t.check('Jobs: ' not in seen + end, 'live view: no fio status line', seen)


def test_asked_line(t):
    for extra, what in ((('--eta=always',), '--eta=always'), (('--eta=never',), '--eta=never')):
        seen, end = run_view(t, extra, lambda s: 'Jobs: ' in s, what)
        t.check('r IOPS' not in (seen or '') + end, '%s: no live view' % what, end)
        if extra[0] == '--eta=always':
            t.check(seen is not None, '--eta=always: fio\'s status line', end)


def test_group(t):
    seen, end = run_view(t, ('--group_reporting',),
                         lambda s: 'group.0' in s and table(s)[1] is not None, 'group')
    if t.check(seen is not None, 'group_reporting: the table', end):
        rows, _ = table(seen)
        t.eq(sorted(rows), ['group.0'], 'group_reporting: one row, the group\'s', seen)


def main():
    t = ibtest.Test()
    if not shutil.which('tmux'):
        t.skip('tmux is not installed')
        t.finish()
    test_view(t)
    test_group(t)
    if not t.reduced:
        test_asked_line(t)
    t.finish()


if __name__ == '__main__':
    main()
