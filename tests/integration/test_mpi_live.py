#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The live view under MPI (doc/mpi.md, doc/live-statistics.md): mpirun
with two oversubscribed ranks in a pseudo-terminal of 120x40 (`script`),
each rank running two null jobs, a reader at 2000 IOPS and a writer at
1000, 3 s, intervals of 500 ms. Rank 0 draws a line per host and the
total; the frames are read back from the terminal's byte stream.

At a fixed point (the first frame where both hosts have both directions'
numbers): the heading with both hosts running, the column titles, one row
per rank named HOST:RANK with the reader's state letter, nonzero IOPS and a
p99 latency in each direction, no errors, progress in 0..100%; the total
row's IOPS the sum of the hosts' in each direction, its p99 '-'. At the
end the table is erased before the report ("All clients"). With mpirun's
output going to a file (Open MPI's pseudo-terminal then has no size) there
is no view. Skips (77) only without Open MPI (mpirun)."""
import os
import re
import shutil
import socket
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MPIRUN = shutil.which('mpirun')
JOBS = ('--ioengine=null', '--bs=4k', '--size=1g', '--time_based', '--runtime=3',
        '--interval=500ms', '--name=a', '--rate_iops=2000',
        '--name=b', '--rw=write', '--rate_iops=1000')
ESC = re.compile(r'\x1b\[[0-9]*[A-Za-z]')
ROW = re.compile(r'^(\S+)\s+(\S)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+)%\s+(\d+)$')
TOTAL = re.compile(r'^total\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+)$')


def mpirun_argv(t):
    return [MPIRUN, '--allow-run-as-root', '--oversubscribe', '-np', '2'] + \
        t.argv(*JOBS)


def frames(raw):
    """The tables drawn: each frame's lines, escapes removed."""
    out = []
    for part in raw.split('iobench-mpi: ')[1:]:
        if ' hosts running' not in part.split('\n', 1)[0]:
            continue
        lines = []
        for ln in ('iobench-mpi: ' + part).split('\n'):
            ln = ESC.sub('', ln).strip('\r').rstrip()
            if not ln:
                break
            lines.append(ln)
            if ln.startswith('total'):
                break
        out.append(lines)
    return out


def rows(frame):
    hosts, total = {}, None
    for ln in frame[2:]:
        m = ROW.match(ln)
        if m:
            hosts[m.group(1)] = m
        m = TOTAL.match(ln)
        if m:
            total = m
    return hosts, total


def full(frame, names):
    h, total = rows(frame)
    return (total is not None and sorted(h) == names and
            all(h[n].group(3) != '0' and h[n].group(6) != '0' for n in names))


def test_view(t):
    out = t.path('typescript')
    cmd = 'stty rows 40 cols 120; exec ' + ' '.join("'%s'" % a for a in mpirun_argv(t))
    p = subprocess.run(['script', '-qfec', cmd, out], stdin=subprocess.DEVNULL,
                       capture_output=True, env=ibtest.mpi_env(), timeout=t.scaled(120))
    if not t.eq(p.returncode, 0, 'mpirun in a pseudo-terminal: exit 0', p.stderr):
        return
    raw = open(out, encoding='utf-8', errors='replace').read()
    host = socket.gethostname()[:12]
    names = ['%s:0' % host, '%s:1' % host]
    fr = [f for f in frames(raw) if full(f, names)]
    if not t.check(fr, 'a frame with both hosts reading and writing', raw[-3000:]):
        return
    f = fr[0]
    t.check(re.match(r'^iobench-mpi: \d\dm:\d\ds elapsed, 2 of 2 hosts running$', f[0]),
            'the heading: both hosts running', f)
    t.check(re.match(r'^host\s+st\s+r IOPS\s+r BW\s+r p99\s+w IOPS\s+w BW\s+w p99\s+done\s+err$',
                     f[1]), 'the column titles', f)
    t.eq(len(f), 5, 'two host rows and the total', f)
    h, total = rows(f)
    for n in names:
        r = h[n]
        t.eq(r.group(2), 'R', '%s: the first running job\'s letter (the reader)' % n)
        t.check(r.group(5).endswith('s') and r.group(8).endswith('s'),
                '%s: a p99 in each direction' % n, f)
        t.check(0 <= int(r.group(9)) <= 100 and r.group(10) == '0',
                '%s: progress in 0..100%%, no errors' % n, f)
    t.eq((int(total.group(1)), int(total.group(4))),
         (sum(int(h[n].group(3)) for n in names), sum(int(h[n].group(6)) for n in names)),
         'total IOPS = the hosts\' sum, per direction', f)
    t.eq((total.group(3), total.group(6), total.group(7)), ('-', '-', '0'),
         'total: no p99, no errors', f)
    end = raw.rfind(' hosts running')
    t.check(end >= 0 and 'All clients' in raw[end:] and
            '\x1b[2K\n' * 5 in raw[end:raw.find('All clients', end)],
            'the table erased, then the report', raw[end:end + 2000])


def test_no_terminal(t):
    r = t.run('--allow-run-as-root', '--oversubscribe', '-np', '2', *t.argv(*JOBS),
              prog=MPIRUN, env=ibtest.mpi_env(), timeout=120)
    if t.ok(r, 'mpirun to a file'):
        t.check('hosts running' not in r.out and 'All clients' in r.out,
                'mpirun\'s output not a terminal: no view, the report', r.out[:2000])


def main():
    t = ibtest.mpi_test(MPIRUN)
    test_view(t)
    test_no_terminal(t)
    t.finish()


if __name__ == '__main__':
    main()
