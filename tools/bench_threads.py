#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench.py threads: thread start-up at large numjobs, iobench against fio.

    tools/bench.py threads [--jobs 2048,4088] [--rounds N] [--runtime S]
                           [--iobench PATH] [--fio PATH] [--fio2 PATH]
                           [--nice N] [--json FILE] [--smoke]

Each run is one whole command: numjobs=N --thread, the null engine, 4k
random reads, time_based with runtime S (default 2), the group's report
in JSON to a file. The figure is the wall time from launch to exit: the
start-up of N threads, the S seconds of I/O, the stop and the report. A
round runs every tool once per numjobs value, the tools' order rotating
from round to round, so that a drift of the machine (it is shared) hits
them alike. The verdict is per numjobs and per fio: the median over the
rounds of each round's iobench/fio wall-time ratio (the two runs of a
round are neighbours in time); PASS when it is <= 1.0 (iobench at least
as fast as that fio). --fio2 adds a second fio (another version) with its
own ratio; it is optional and never needed by the tests.

fio refuses numjobs=4096 ("maximum number of jobs reached": its job table
holds 4096 slots in segments of 8, one segment kept back), so the large
row is 4088, the most fio runs (--jobs 4096 gives iobench's time there
and fio's refusal as a failed run).

Wall time includes the runtime itself, so the ratio of start-up plus stop
alone is (wall - S) / (fio wall - S); both are shown. Standard library.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_IOBENCH = os.path.join(os.path.dirname(HERE), 'build', 'src',
                               'iobench')


def job_args(jobs, runtime, out):
    return ['--name=t', '--ioengine=null', '--rw=randread', '--bs=4k',
            '--size=64m', '--numjobs=%d' % jobs, '--thread',
            '--time_based', '--runtime=%g' % runtime, '--group_reporting',
            '--output-format=json', '--output=' + out]


def prio(nice):
    """preexec: the run's own session and autogroup at nice, as bench.py's
    runs, so that the neighbours' load weighs on both tools alike."""
    def fn():
        try:
            with open('/proc/self/autogroup', 'w') as f:
                f.write('%d' % nice)
        except OSError:
            pass
        try:
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        except OSError:
            pass
    return fn


def run_once(binary, jobs, runtime, nice, tmp, timeout):
    """Wall seconds of one whole command, or None if it failed."""
    out = os.path.join(tmp, 'out.json')
    argv = [binary] + job_args(jobs, runtime, out)
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout,
                           start_new_session=True, preexec_fn=prio(nice))
    except subprocess.TimeoutExpired:
        sys.stderr.write('bench threads: %s numjobs=%d: timed out after '
                         '%d s\n' % (binary, jobs, timeout))
        return None
    wall = time.monotonic() - t0
    if p.returncode != 0:
        msg = p.stderr.decode(errors='replace').strip().splitlines()
        sys.stderr.write('bench threads: %s numjobs=%d: exit %d: %s\n' % (
            binary, jobs, p.returncode, msg[0] if msg else ''))
        return None
    return wall


def rounds(opts, tools):
    """{jobs: {tool: [wall or None per round]}}: every round runs each
    tool once per numjobs, the tools' order rotated by one each round."""
    res = {j: {t: [] for t in tools} for j in opts.jobs}
    names = list(tools)
    with tempfile.TemporaryDirectory(prefix='iob-threads-') as tmp:
        for r in range(opts.rounds):
            order = names[r % len(names):] + names[:r % len(names)]
            for j in opts.jobs:
                for t in order:
                    w = run_once(tools[t], j, opts.runtime, opts.nice, tmp,
                                 opts.timeout)
                    res[j][t].append(w)
                    sys.stderr.write('bench threads: round %d numjobs=%d '
                                     '%s: %s\n' % (r + 1, j, t,
                                                   '-' if w is None else
                                                   '%.2f s' % w))
    return res


def paired(a, b, sub=0.0):
    """Median over the rounds of a/b (each less sub), rounds where both
    ran; None if none did."""
    rs = [(x - sub) / (y - sub) for x, y in zip(a, b)
          if x is not None and y is not None and y - sub > 0]
    return statistics.median(rs) if rs else None


def verdicts(opts, res, tools):
    rows = []
    for j in opts.jobs:
        for t in tools:
            if t == 'iobench':
                continue
            ratio = paired(res[j]['iobench'], res[j][t])
            rows.append({'jobs': j, 'vs': t, 'ratio': ratio,
                         'ratio_net': paired(res[j]['iobench'], res[j][t],
                                             opts.runtime),
                         'pass': None if ratio is None else ratio <= 1.0})
    return rows


def med(runs):
    ok = [w for w in runs if w is not None]
    return statistics.median(ok) if ok else None


def fmt(v, spec='%.2f'):
    return '-' if v is None else spec % v


def report(opts, res, tools, rows, load0, out):
    out.write('thread start-up: numjobs=N --thread, null engine, '
              'time_based runtime=%g s, whole command; %d round(s), '
              'alternated; nice %d; loadavg %.2f -> %.2f\n\n' % (
                  opts.runtime, opts.rounds, opts.nice, load0,
                  os.getloadavg()[0]))
    out.write('%-8s %-8s %10s  %s\n' % ('numjobs', 'tool', 'median s',
                                         'runs s'))
    for j in opts.jobs:
        for t in tools:
            out.write('%-8d %-8s %10s  %s\n' % (
                j, t, fmt(med(res[j][t])),
                ' '.join(fmt(w) for w in res[j][t])))
    out.write('\n%-8s %-8s %14s %18s  %s\n' % (
        'numjobs', 'vs', 'iobench/tool', 'less the runtime', 'target <= 1'))
    for r in rows:
        out.write('%-8d %-8s %14s %18s  %s\n' % (
            r['jobs'], r['vs'], fmt(r['ratio'], '%.3f'),
            fmt(r['ratio_net'], '%.3f'),
            '-' if r['pass'] is None else 'PASS' if r['pass'] else 'FAIL'))


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog='bench.py threads',
        description='thread start-up at large numjobs: iobench vs fio, '
        'whole-command wall time, alternated rounds, median ratios')
    ap.add_argument('--jobs', default='2048,4088',
                    help='comma-separated numjobs values (default 2048,4088: '
                    '4088 is the most fio accepts)')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--runtime', type=float, default=2.0)
    ap.add_argument('--iobench', default=DEFAULT_IOBENCH)
    ap.add_argument('--fio', default=shutil.which('fio') or 'fio')
    ap.add_argument('--fio2', default=None, metavar='PATH',
                    help='a second fio (another version), its own ratio')
    ap.add_argument('--nice', type=int, default=-20)
    ap.add_argument('--timeout', type=int, default=600,
                    help='seconds before one run counts as failed')
    ap.add_argument('--json', metavar='FILE')
    ap.add_argument('--smoke', action='store_true',
                    help='shape only: numjobs 8, 1 round of 0.2 s')
    opts = ap.parse_args(argv)
    if opts.smoke:
        opts.jobs, opts.rounds, opts.runtime = '8', 1, 0.2
    try:
        opts.jobs = [int(j) for j in opts.jobs.split(',') if j]
    except ValueError:
        ap.error('--jobs: not a list of numbers: %s' % opts.jobs)
    if not opts.jobs or min(opts.jobs) < 1:
        ap.error('--jobs: numbers of at least 1')
    if opts.rounds < 1 or opts.runtime <= 0:
        ap.error('--rounds and --runtime must be positive')
    for name in ('iobench', 'fio', 'fio2'):
        path = getattr(opts, name)
        if path is not None and not shutil.which(path):
            ap.error('--%s: not an executable: %s' % (name, path))
    return opts


def main(argv):
    opts = parse_args(argv)
    tools = {'iobench': os.path.abspath(opts.iobench), 'fio': opts.fio}
    if opts.fio2:
        tools['fio2'] = opts.fio2
    load0 = os.getloadavg()[0]
    res = rounds(opts, tools)
    rows = verdicts(opts, res, tools)
    report(opts, res, tools, rows, load0, sys.stdout)
    if opts.json:
        doc = {'runtime_s': opts.runtime, 'rounds': opts.rounds,
               'tools': tools, 'walls_s': {str(j): res[j] for j in res},
               'verdicts': rows}
        with open(opts.json, 'w') as f:
            json.dump(doc, f, indent=1)
    failed = any(w is None for j in res for t in res[j] for w in res[j][t])
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
