#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench.py lateness: how late iobench starts paced I/Os (issue 15's target).

    tools/bench.py lateness [--rates 1000,10000,50000] [--runtime S]
                            [--spin 0,50,100]
                            [--cases floor,null,psync-shm,uring-shm,aio-zram]
                            [--target-us 20] [--idle-wait S] [--nice N]
                            [--fifo PRIO]
                            [--iobench PATH] [--wakefloor PATH] [--json FILE]

Each case runs once per rate and rate_spin value with rate_iops=R (open
loop, linear) and reads the "late" block of the job's JSON report: every
started I/O's lateness, start - due time in ns, where "start" is the
clock reading the loop hands the I/O to the engine with (the same reading
slat and lat start from; 0 when on time), as a histogram with the report's
percentiles (percentile_list=50:99:99.9), the count above rate_late (set to
the target) and the worst one. That is the scheduler's own added latency:
the time between when the schedule wanted an I/O and when iobench got it
to the engine, with nothing queued behind the device (the rates stay far
below what the target sustains; "backlog" > 1 would say otherwise).

The "floor" case is not iobench: tools/wakefloor sleeps until the same
due times with the same wait (timer slack 1 ns, nanosleep, the last
rate_spin polled) and measures its own lateness. It is what the machine
costs any scheduler that sleeps, fio's rate_iops too, and it runs
alternated with the iobench cases (floor and every case at one rate and
spin, then the next), so the difference between a case and the floor
beside it is iobench's own share. On a virtual machine the floor's p50
without rate_spin is the timer wake-up (15-25 us on the development VM),
so the 20 us target needs rate_spin above the floor's p99 wake-up.

PASS when p99 < --target-us (the issue: "below 20 us at p99 on an idle
machine"); both the p99 from the histogram (1/64 resolution) and the exact
count of I/Os later than the target are shown: late% <= 1 is the same
statement without the bucket rounding. "backlog" is the deepest backlog
seen (I/Os due and not started): above 1 the job had to queue (iodepth
full, or the job held off the CPU), so its lateness is no longer only the
scheduler's. "p99-floor" is the row's p99 minus the p99 of the floor
run beside it (same rate and rate_spin): iobench's own share of the tail,
judged by "own < 20 us". On the development VM the floor itself misses
20 us at p99 even on an idle machine (its timer wake-ups take 45-70 us,
and a vCPU that never sleeps still loses the CPU for 30 us to 2 ms a few
times a second), so the first verdict judges the machine and the second
iobench. The machine's load average and the
CPU time other processes used during each run ("others", in CPUs) are
printed with every row: a FAIL with others > 0.3 measured a busy machine,
not the scheduler. Nothing is asserted; the exit status is 1 only when a
run failed. Runs at --nice (default -20) in a session of its own, like
the other cases of bench.py. Standard library only.
"""
import argparse
import json
import os
import sys

import bench

PCT = (50.0, 99.0, 99.9)
CASES = {
    'null': ('null engine, QD1', ['--ioengine=null', '--size=1g']),
    'psync-shm': ('psync 4k randread O_DIRECT, /dev/shm file',
                  ['--ioengine=psync', '--direct=1'], 'shm'),
    'uring-shm': ('io_uring 4k randread QD8 O_DIRECT, /dev/shm file '
                  '(tmpfs reads go through io-wq: async completions)',
                  ['--ioengine=io_uring', '--direct=1', '--iodepth=8'],
                  'shm'),
    'aio-zram': ('libaio 4k randread QD8 O_DIRECT, zram device (zram '
                 'completes in io_submit: the async loop with no wait on '
                 'a device; io_uring punts zram reads to io-wq)',
                 ['--ioengine=libaio', '--direct=1', '--iodepth=8'],
                 'zram'),
}
FLOOR = 'floor'     # tools/wakefloor: the OS's own wake-up lateness


def case_argv(opts, env, name, rate, spin):
    spec = CASES[name]
    argv = (['chrt', '-f', str(opts.fifo)] if opts.fifo else []) + [
        opts.iobench, '--name=late', '--rw=randread', '--bs=4k',
            '--time_based', '--runtime=%dms' % int(opts.runtime * 1000),
            '--output-format=json', '--rate_iops=%d' % rate,
            '--rate_late=%dus' % opts.target_us, '--rate_spin=%dus' % spin,
            '--percentile_list=' + ':'.join('%g' % p for p in PCT)]
    argv += spec[1]
    if len(spec) > 2:
        path = env.shm_file() if spec[2] == 'shm' else env.zram_dev()
        if not path:
            return None
        argv += ['--filename=' + path, '--size=256m']
    return argv


def floor_argv(opts, rate, spin):
    return (['chrt', '-f', str(opts.fifo)] if opts.fifo else []) + [
        opts.wakefloor, str(rate), '%g' % opts.runtime, str(spin),
            str(opts.target_us)]


def pct_of(late, p):
    return late.get('percentile', {}).get('%f' % p)


def one_run(opts, env, name, rate, spin):
    out = os.path.join(env.dir, 'out')
    if opts.idle_wait:
        bench.wait_quiet(opts.idle_wait)
    b0 = bench.busy_jiffies()
    floor = name == FLOOR
    argv = floor_argv(opts, rate, spin) if floor else \
        case_argv(opts, env, name, rate, spin)
    if argv is None:
        return {'case': name, 'rate': rate, 'spin_us': spin,
                'error': 'no zram device (needs root and zram)'}
    status, ru, _, secs = bench.run_tree(argv, opts.runtime * 10 + 30, out,
                                         opts.nice, env)
    own = ru.ru_utime + ru.ru_stime
    others = max(0.0, (bench.busy_jiffies() - b0) /
                 os.sysconf('SC_CLK_TCK') - own) / secs
    with open(out, errors='replace') as f:
        text = f.read()
    row = {'case': name, 'rate': rate, 'spin_us': spin, 'others': others,
           'loadavg': os.getloadavg()[0]}
    if status != 0:
        row['error'] = 'exit status %d: %s' % (status, text[-300:])
        return row
    if floor:
        row.update(json.loads(text))
        row.update({'iops': row['started'] / opts.runtime, 'backlog_max': 0})
    else:
        rd = json.loads(text[text.find('{'):])['jobs'][0]['read']
        late = rd['late']
        row.update({'iops': rd['iops'], 'started': late.get('started', 0),
                    'late_ios': late['ios'], 'max_ns': late['max_ns'],
                    'unstarted': late['unstarted'],
                    'backlog_max': late['backlog_max']})
        for p in PCT:
            row['p%g' % p] = pct_of(late, p)
    p99 = row['p99']
    row['pass'] = p99 is not None and p99 < opts.target_us * 1000
    return row


def us(ns):
    return '-' if ns is None else '%.2f' % (ns / 1000.0)


def add_own_share(rows, opts):
    """iobench's own share of each row's p99: its p99 minus the p99 of the
    floor run beside it (same rate and rate_spin, alternated with it), the
    lateness any sleeping scheduler pays on this machine. A difference of
    percentiles, not a percentile of differences: it says how much later
    than the machine's own wake-ups iobench's tail is."""
    floors = {(r['rate'], r['spin_us']): r.get('p99') for r in rows
              if r['case'] == FLOOR and 'error' not in r}
    for r in rows:
        base = floors.get((r['rate'], r['spin_us']))
        if r['case'] == FLOOR or 'error' in r or base is None or \
                r.get('p99') is None:
            continue
        r['own_p99'] = r['p99'] - base
        r['own_pass'] = r['own_p99'] < opts.target_us * 1000


def print_rows(rows, opts, f):
    f.write('%-10s %7s %5s %9s %9s %8s %8s %8s %9s %7s %7s %7s %6s  %-11s '
            '%9s  %s\n' % (
                'case', 'rate', 'spin', 'iops', 'started', 'p50 us',
                'p99 us', 'p99.9 us', 'max us', 'late%', 'backlog', 'others',
                'load1', 'p99 < %d us' % opts.target_us, 'p99-floor',
                'own < %d us' % opts.target_us))
    for r in rows:
        if 'error' in r:
            f.write('%-10s %7d %5d  ERROR %s\n' % (r['case'], r['rate'],
                                                   r['spin_us'], r['error']))
            continue
        late_pct = 100.0 * r['late_ios'] / r['started'] if r['started'] \
            else 0.0
        own = r.get('own_p99')
        f.write('%-10s %7d %5d %9.0f %9d %8s %8s %8s %9s %7.3f %7d %7.2f '
                '%6.2f  %-11s %9s  %s\n' % (
                    r['case'], r['rate'], r['spin_us'], r['iops'],
                    r['started'], us(r['p50']), us(r['p99']),
                    us(r['p99.9']), us(r['max_ns']), late_pct,
                    r['backlog_max'], r['others'], r['loadavg'],
                    'PASS' if r['pass'] else 'FAIL',
                    '-' if own is None else '%+.2f' % (own / 1000.0),
                    '-' if own is None else
                    ('PASS' if r['own_pass'] else 'FAIL')))


def parse_args(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(
        prog='bench.py lateness',
        description='start - due time of paced I/Os, p50/p99/max')
    ap.add_argument('--rates', default='1000,10000,50000')
    ap.add_argument('--spin', default='0,50,100',
                    help='rate_spin values in us (default 0,50,100)')
    ap.add_argument('--runtime', type=float, default=2.0)
    ap.add_argument('--cases', default=','.join([FLOOR] + list(CASES)))
    ap.add_argument('--target-us', type=int, default=20)
    ap.add_argument('--nice', type=int, default=-20)
    ap.add_argument('--idle-wait', type=float, default=5.0,
                    help='before each run wait up to this many seconds for '
                    'other processes to use < 0.25 CPU (default 5)')
    ap.add_argument('--iobench', default=bench.DEFAULT_IOBENCH)
    ap.add_argument('--fifo', type=int, default=0, metavar='PRIO',
                    help='run iobench and the floor under chrt -f PRIO '
                    '(SCHED_FIFO): what the scheduler adds when the OS '
                    'gives it the CPU at once (0: no, the default). With '
                    'rate_spin the spin counts against the kernel\'s RT '
                    'throttling (sched_rt_runtime_us): 50 ms stalls each '
                    'second once a spinning task uses 95%% of a CPU')
    ap.add_argument('--wakefloor', default=os.path.join(
        os.path.dirname(here), 'build', 'tools', 'wakefloor'))
    ap.add_argument('--json', metavar='FILE')
    opts = ap.parse_args(argv)
    opts.rate_list = [int(x) for x in opts.rates.split(',') if x]
    opts.spin_list = [int(x) for x in opts.spin.split(',') if x]
    opts.case_list = [c for c in opts.cases.split(',') if c]
    bad = [c for c in opts.case_list if c not in CASES and c != FLOOR]
    if bad:
        ap.error('unknown case(s) %s; known: %s' % (
            ','.join(bad), ','.join(CASES)))
    opts.iobench = os.path.abspath(opts.iobench)
    opts.wakefloor = os.path.abspath(opts.wakefloor)
    return opts


def main(argv):
    opts = parse_args(argv)
    if os.environ.get('IOBENCH_BENCH_SESSION') is None:
        return bench.in_own_session(['lateness'] + argv, opts.nice)
    try:
        os.setpriority(os.PRIO_PROCESS, 0, opts.nice)
    except OSError:
        pass
    env = bench.Env()
    load0 = os.getloadavg()
    # cases alternate within each rate and spin: a drift of the machine
    # hits the floor and iobench alike
    rows = [one_run(opts, env, c, r, s) for r in opts.rate_list
            for s in opts.spin_list for c in opts.case_list]
    load1 = os.getloadavg()
    env.cleanup()
    add_own_share(rows, opts)
    m = bench.machine()
    sys.stdout.write('lateness of paced I/Os (start - due), %gs per run; '
                     'kernel %s, %s, %d CPUs; nice %d%s; loadavg %.2f -> '
                     '%.2f\n\n' % (opts.runtime, m['kernel'], m['cpu'],
                                   m['cpus'],
                                   os.getpriority(os.PRIO_PROCESS, 0),
                                   ', SCHED_FIFO %d' % opts.fifo
                                   if opts.fifo else '',
                                   load0[0], load1[0]))
    print_rows(rows, opts, sys.stdout)
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump({'machine': m, 'loadavg': [load0, load1],
                       'target_us': opts.target_us, 'rows': rows}, f,
                      indent=1)
    return 1 if any('error' in r for r in rows) else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
