#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio 3.42's log columns: log_prio (the priority column as 0xNNNN, class
<< 13 | hint << 3 | level; without it 1 for the realtime class, else 0)
and log_issue_time (a last column: the issue time in ns in the slat and
clat logs, 0 in the others and in averaged lines), against logs of the
same jobs written by real fio 3.42 runs (tests/data/fio342/log_cols.txt;
fio 3.42 is not installed in CI). Every column but the time, the value
and the issue time is compared line by line; the issue time is checked
against the line's own completion: time == (issue + clat) // 10^6."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342', 'log_cols.txt')
t = ibtest.Test()
COMMON = ['--ioengine=psync', '--size=16k', '--bs=4k', '--rw=write']
JOBS = {
    'a': ['--write_lat_log=P', '--write_bw_log=P', '--write_iops_log=P',
          '--log_offset=1', '--log_issue_time=1', '--log_prio=1',
          '--prioclass=2', '--prio=4', '--priohint=3'],
    'b': ['--write_lat_log=P', '--prioclass=1'],
    'c': ['--rw=randwrite', '--time_based', '--runtime=300ms',
          '--write_lat_log=P', '--write_bw_log=P', '--log_avg_msec=100',
          '--log_offset=1', '--log_issue_time=1', '--log_prio=1', '--prio=4'],
}


def recorded():
    """{'a_clat': [[col, ...], ...]} from the recorded fio 3.42 logs."""
    logs, cur = {}, None
    with open(DATA) as f:
        for line in f.read().splitlines():
            if line.startswith('#'):
                continue
            if line.startswith('== '):
                cur = logs.setdefault(line[3:], [])
            else:
                cur.append(line.split(', '))
    return logs


def read_log(prefix, kind):
    try:
        with open('%s_%s.1.log' % (prefix, kind)) as f:
            return [line.split(', ') for line in f.read().splitlines()]
    except OSError:
        return None


def issue_times(name, rows):
    """The issue column: > 0, in issue order (one I/O at a time), and the
    line's completion (issue + clat) in the line's millisecond."""
    issue = [int(r[-1]) for r in rows]
    t.check(all(i > 0 for i in issue) and issue == sorted(issue),
            '%s: issue times > 0 and in order' % name, issue)
    t.eq([int(r[0]) for r in rows],
         [(int(r[-1]) + int(r[1])) // 1000000 for r in rows],
         '%s: time == (issue + clat) // 10^6' % name)


def compare(name, got, want, exact_lines):
    """Columns from the ddir on (the issue time excepted where it is a
    measured value) as fio 3.42's, line by line."""
    if got is None:
        t.check(False, '%s: log written' % name)
        return
    if exact_lines:
        t.eq(len(got), len(want), '%s: %d lines as fio 3.42' % (name, len(want)))
    else:
        t.check(len(got) >= 2, '%s: at least 2 windows' % name, got)
    measured = name.endswith(('_clat', '_slat')) and len(want[0]) == 7 and \
        want[0][-1] != '0'
    n = len(want[0]) - 1 if measured else len(want[0])
    rows = got if not exact_lines else got[:len(want)]
    t.eq([r[2:n] for r in rows], [want[i % len(want)][2:n]
                                  for i in range(len(rows))],
         '%s: columns as fio 3.42\'s (%s)' % (name, ', '.join(want[0][2:n])))
    t.eq({len(r) for r in rows}, {len(want[0])}, '%s: %d columns' % (name, len(want[0])))
    if measured:
        issue_times(name, rows)


def run_jobs(want):
    for job, opts in JOBS.items():
        prefix = t.path(job)
        target = t.shm_file('lg_%s.dat' % job)
        r = t.run('--name=' + job, '--filename=' + target, *COMMON,
                  *[o.replace('=P', '=' + prefix) for o in opts])
        if not t.ok(r, 'job %s' % job):
            continue
        for kind in ('clat', 'slat', 'lat', 'bw', 'iops'):
            key = '%s_%s' % (job, kind)
            if key in want:
                if not want[key]:
                    t.eq(read_log(prefix, kind), [], key + ': empty as fio 3.42\'s')
                else:
                    compare(key, read_log(prefix, kind), want[key], job != 'c')
    issue_times('fio 3.42 a_clat', want['a_clat'])	# the rule holds there too


def bad_values():
    """One line naming the option, exit 1, no log and no target written."""
    cases = [
        (['--write_lat_log=%s' % t.path('x'), '--log_issue_time=1'],
         'iobench: log_issue_time: needs write_lat_log and log_offset=1\n'),
        (['--write_bw_log=%s' % t.path('x'), '--log_offset=1',
          '--log_issue_time=1'],
         'iobench: log_issue_time: needs write_lat_log and log_offset=1\n'),
        (['--log_prio=maybe'], None),
        (['--log_issue_time=2'], None),
    ]
    target = t.path('bad.dat')
    for opts, want in cases:
        r = t.run('--name=x', '--filename=' + target, '--size=16k', *opts)
        t.check(r.rc == 1 and r.out == '' and r.err.count('\n') == 1 and
                (r.err == want if want else
                 r.err.startswith('iobench: ' + opts[0][2:].split('=')[0])),
                '%s: one line naming the option' % ' '.join(opts), r)
        t.check(not os.path.exists(target) and
                not os.path.exists(t.path('x') + '_clat.1.log') and
                not os.path.exists(t.path('x') + '_bw.1.log'),
                '%s: nothing written' % ' '.join(opts))
    r = t.run('--parse-only', '--name=a', '--filename=x', '--write_lat_log=p',
              '--log_offset=1', '--log_issue_time=1', '--log_prio=1')
    t.eq((r.rc, r.out, r.err), (0, '', ''), '--parse-only log_issue_time, log_prio')


def main():
    bad_values()
    run_jobs(recorded())
    t.finish()


if __name__ == '__main__':
    main()
