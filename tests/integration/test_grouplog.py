#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Group logs (log_group=1 with group_reporting, doc/live-statistics.md).

Null engine with a rate, randrw, numjobs=3. Averaged bw/iops logs
(log_avg_msec): the group log's value of each window and direction is the
sum of the job logs' values of that window, and nothing else is there.
Per-I/O logs: the group's lat/clat/slat/iops/bw logs are the jobs' lines
merged in time order, as many per direction as the report's total_ios, their
block sizes summing to its io_bytes.

Bad input: log_group without group_reporting, or without a log: one stderr
line naming log_group, exit 1, no log written."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

JOB = ('--name=g', '--ioengine=null', '--bs=4k', '--rw=randrw', '--numjobs=3',
       '--rate_iops=400,200', '--group_reporting', '--log_group=1',
       '--output-format=json')
DIRS = ('read', 'write')


def rows(path):
    with open(path) as f:
        return [[int(x) for x in line.split(',')] for line in f]


def test_summed(t):
    """1 s time-based, 200 ms windows: window sums per direction."""
    r = t.run(*JOB, '--size=1m', '--time_based', '--runtime=1',
              '--log_avg_msec=200', '--write_iops_log=a', '--write_bw_log=b')
    if not t.ok(r, 'log_group, averaged logs'):
        return
    for prefix, kind in (('a', 'iops'), ('b', 'bw')):
        want = {}
        for n in (1, 2, 3):
            for row in rows(t.path('%s_%s.%d.log' % (prefix, kind, n))):
                key = (row[0] // 200 * 200, row[2])
                want[key] = want.get(key, 0) + row[1]
        got = rows(t.path('%s_%s.group0.log' % (prefix, kind)))
        t.eq({(x[0], x[2]): x[1] for x in got}, want,
             '%s group log: each window the sum of the jobs\' windows' % kind)
        t.eq(len(got), len(want), '%s group log: one line per window and direction' % kind)
        t.eq([(x[0], x[2]) for x in got], sorted(want),
             '%s group log: in time order, read before write' % kind)
        t.check(len(want) >= 6, '%s group log: both directions, several windows' % kind,
                sorted(want))


def test_merged(t):
    """Size-based, per-I/O logs: 64 I/Os per job."""
    r = t.run(*JOB, '--size=256k', '--write_lat_log=c', '--write_iops_log=a',
              '--write_bw_log=b')
    if not t.ok(r, 'log_group, per-I/O logs'):
        return
    rep = json.loads(r.out)
    t.eq(len(rep['jobs']), 1, 'group_reporting: one entry')
    job = rep['jobs'][0]
    t.eq(sum(job[d]['total_ios'] for d in DIRS), 192, 'the report: 3 x 64 I/Os')
    for prefix, kind in (('c', 'lat'), ('c', 'clat'), ('c', 'slat'),
                         ('a', 'iops'), ('b', 'bw')):
        jobs = []
        for n in (1, 2, 3):
            jobs += rows(t.path('%s_%s.%d.log' % (prefix, kind, n)))
        got = rows(t.path('%s_%s.group0.log' % (prefix, kind)))
        t.eq(sorted(got), sorted(jobs), '%s group log: the jobs\' lines, all of them' % kind)
        t.eq([x[0] for x in got], sorted(x[0] for x in got),
             '%s group log: in time order' % kind)
        for i, d in enumerate(DIRS):
            if kind == 'slat' and not jobs:
                continue
            mine = [x for x in got if x[2] == i]
            t.eq(len(mine), job[d]['total_ios'], '%s group log: %s lines = total_ios' % (kind, d))
            t.eq(sum(x[3] for x in mine), job[d]['io_bytes'],
                 '%s group log: %s block sizes sum to io_bytes' % (kind, d))


def test_bad(t):
    for args, what in ((('--write_iops_log=a',), 'without group_reporting'),
                       (('--group_reporting',), 'without a log')):
        d = t.mkdir('bad%d' % len(what))
        r = t.run('--name=g', '--ioengine=null', '--size=64k', '--log_group=1',
                  *args, cwd=d)
        t.eq(r.rc, 1, 'log_group %s: exit 1' % what)
        lines = r.err.strip().splitlines()
        t.check(len(lines) == 1 and 'log_group' in lines[0],
                'log_group %s: one stderr line naming it' % what, r.err)
        t.eq(os.listdir(d), [], 'log_group %s: nothing written' % what)


def main():
    t = ibtest.Test()
    test_summed(t)
    test_merged(t)
    test_bad(t)
    t.finish()


if __name__ == '__main__':
    main()
