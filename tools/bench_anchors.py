#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench.py anchors: iobench's defaults against the strongest fio settings.

    tools/bench.py anchors [--rounds N] [--runtime S] [--targets LIST]
                           [--engines LIST] [--fio342 PATH]
                           [--t-io-uring PATH] [--sqpoll] [--batch]
                           [--baseline PATH] [--nice N] [--smoke]
                           [--until-decided N]
                           [--iobench PATH] [--fio PATH] [--ceiling PATH]
                           [--json FILE]

Every case is one job (4k random reads, O_DIRECT) on one target: a
/dev/shm file (shm), a loop device with direct I/O over a tmpfs file
(loop), a zram device (zram), a file on ext4 and on xfs, each over a loop
device of its own (ext4, xfs), and no target (the null engine). Engines:
io_uring and libaio at iodepth 32, psync and pvsync2 at iodepth 1; the
null engine at iodepth 1 and 32. The seed cases (seed-loop, seed-zram):
8 jobs, io_uring, iodepth 64, randrw 75/25. Rows ("tools") per case:

  iobench     iobench with its defaults
  baseline    another iobench build, its defaults (--baseline)
  ib-s1c1     iobench, fio's batching: one I/O per submit and per reap
  ib-s1cN     iobench, one I/O per submit, up to iodepth per reap
  ib-sNc1     iobench, the refill in one submit, one I/O per reap
  ib-sNcN     iobench, the refill in one submit, up to iodepth per reap
              (the four with --batch, on io_uring and libaio)
  fio         fio with its defaults
  fio-best    fio with iodepth_batch_submit=32, iodepth_batch_complete_min=1,
              iodepth_batch_complete_max=32 (its HOWTO's batching), and on
              io_uring fixedbufs=1 registerfiles=1 hipri=0
  fio-sqpoll  fio-best with sqthread_poll=1 (--sqpoll; io_uring)
  fio342      the same best flags with fio 3.42 (--fio342 PATH)
  t/io_uring  fio 3.42's t/io_uring (--t-io-uring PATH): io_uring
              (registered buffers and files, batches of 32), libaio (-a1),
              pvsync2 (-S1); IOPS is the mean of its per-second lines
  ceiling     tools/ceiling: io_uring with every kernel feature the target
              allows (QD32), libaio's leanest loop (QD32: a batch of
              completions refilled with one io_submit), pread (psync QD1),
              or its timed QD1 loop "lat" (the latency rows)

Every round runs every case once per row, one after the other, so a drift
of the machine lands on all of a case's rows alike; the rows' order
rotates by one each round, so no row is always the first after a case
change. Each ratio is the
median over the rounds of the round's own ratio. "best fio" is the one of
fio, fio-best and fio342 with the highest median IOPS, "best fixed" the
one of the ib-* rows: a setting, chosen once per case (the highest row of
each round would be biased up by the noise alone). CPU ns/io is
the wait4() user+system time of the tool's process tree over its I/Os.

Each verdict's measured median comes with a 90% interval: the order
statistics of the per-round values that cover the median with at least
that probability (distribution-free: 5 rounds give the lowest and the
highest, 8 the second lowest and second highest). A verdict whose interval
lies on one side of its goal is decided; one whose interval straddles it
is shown PASS? or FAIL?: on this 2-vCPU VM two runs of the same command
differ by up to 20%, and 5 rounds cannot tell 1.03x from 1.07x. With
--until-decided N, after --rounds the cases with an undecided verdict run
more rounds, all their rows, one round at a time, until every verdict is
decided or they have N rounds (a case's rounds are in its JSON, "rounds").

Verdicts (PASS/FAIL, nothing asserted; exit status 1 only if a run failed):
  every case: iobench >= 1.05x the best fio, or >= 0.98x the ceiling
  where the best fio is within 5% of it; and >= 1.00x t/io_uring
  batching (--batch): iobench >= 0.97x the best of the ib-* rows
  latency: on psync-zram and null-qd1, iobench's p50 clat minus the
  ceiling's p50 <= 100 ns, and below fio's (minus the same)
  seed: IOPS >= 1.3x fio-best, CPU ns/io <= 0.7x fio-best's

Both tools run at --nice (default 0, the machine's own priority) in a
session of their own. Needs root for the loop, zram, ext4 and xfs targets
(skipped otherwise). Standard library only.
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

import bench
from bench_verdicts import IB_BATCH, LAT_CASES, summarize, targets, \
    verdict_word

FIO_BATCH = ['--iodepth_batch_submit=32', '--iodepth_batch_complete_min=1',
             '--iodepth_batch_complete_max=32']
URING_BEST = ['--fixedbufs=1', '--registerfiles=1', '--hipri=0']
TARGETS = ('shm', 'loop', 'zram', 'ext4', 'xfs', 'null')
ENGINES = ('io_uring', 'libaio', 'psync', 'pvsync2')
DEPTH = {'io_uring': 32, 'libaio': 32, 'psync': 1, 'pvsync2': 1}
ROWS = ('iobench', 'baseline', 'ib-s1c1', 'ib-s1cN', 'ib-sNc1', 'ib-sNcN',
        'fio',
        'fio-best', 'fio-sqpoll', 'fio342', 't/io_uring', 'ceiling')
FS_SIZE = 512 * bench.MIB


class Case:
    def __init__(self, name, target, engine, depth, extra=()):
        self.name, self.target, self.engine = name, target, engine
        self.depth, self.extra = depth, list(extra)
        self.seed = name.startswith('seed-')

    def args(self):
        rw = ['--rw=randread'] if not self.seed else \
            ['--rw=randrw', '--rwmixread=75']
        a = ['--ioengine=' + self.engine, '--bs=4k',
             '--iodepth=%d' % self.depth] + rw + self.extra
        if self.engine == 'null':
            return a + ['--size=1g']
        return a + ['--direct=1']


def all_cases():
    cases = [Case('null-qd1', 'null', 'null', 1),
             Case('null-qd32', 'null', 'null', 32)]
    for t in TARGETS[:-1]:
        for e in ENGINES:
            cases.append(Case('%s-%s' % (e.replace('_', ''), t), t, e,
                              DEPTH[e]))
    for t in ('loop', 'zram'):
        cases.append(Case('seed-' + t, t, 'io_uring', 64, ['--numjobs=8']))
    return cases


# -- targets ------------------------------------------------------------------
class Targets(bench.Env):
    """bench.Env's shm file, loop and zram devices, plus a file on ext4 and
    on xfs, each file system on a loop device of its own (direct I/O on)."""

    def __init__(self):
        super().__init__()
        self.fs = {}            # kind -> (loop device, mount point, file)

    def _sh(self, *argv):
        return subprocess.run(argv, capture_output=True, text=True,
                              timeout=120)

    def fs_file(self, kind):
        if kind in self.fs:
            return self.fs[kind][2]
        self.fs[kind] = ('', '', None)
        img = os.path.join(self.dir, kind + '.img')
        with open(img, 'wb') as f:
            f.truncate(FS_SIZE)
        r = self._sh('losetup', '--direct-io=on', '--show', '-f', img)
        dev = r.stdout.strip() if r.returncode == 0 else ''
        mnt = os.path.join(self.dir, kind + '.mnt')
        os.mkdir(mnt)
        self.fs[kind] = (dev, '', None)
        mkfs = ['mkfs.ext4', '-q', '-F'] if kind == 'ext4' else \
            ['mkfs.xfs', '-q', '-f']
        if not dev or self._sh(*mkfs, dev).returncode or \
                self._sh('mount', dev, mnt).returncode:
            return None
        path = os.path.join(mnt, 'data')
        self._fill(path)
        self.fs[kind] = (dev, mnt, path)
        return path

    def path(self, target):
        if target == 'shm':
            return self.shm_file()
        if target == 'loop':
            return self.loop_dev()
        if target == 'zram':
            return self.zram_dev()
        if target in ('ext4', 'xfs'):
            return self.fs_file(target)
        return None

    def cleanup(self):
        for dev, mnt, _ in list(self.fs.values()):
            if mnt:
                self._sh('umount', mnt)
            if dev:
                self._sh('losetup', '-d', dev)
        self.fs = {}
        super().cleanup()


# -- command lines --------------------------------------------------------------
def _job(cmd, case, env, opts, extra=()):
    argv = list(cmd) + ['--name=bench', '--time_based',
                        '--runtime=%dms' % int(opts.runtime * 1000),
                        '--output-format=json'] + case.args() + list(extra)
    path = env.path(case.target)
    if path:
        argv.append('--filename=' + path)
        if case.target in ('shm', 'ext4', 'xfs'):
            argv.append('--size=256m')
    return argv


def _ib_batch(case, which):
    sub, cmax = IB_BATCH[which]
    n = str(case.depth)
    return ['--iodepth_batch_submit=' + (n if sub == 'N' else sub),
            '--iodepth_batch_complete_max=' + (n if cmax == 'N' else cmax)]


def _fio_best(case, sqpoll=False):
    if case.engine not in ('io_uring', 'libaio') or case.depth < 2:
        return []
    extra = FIO_BATCH + (URING_BEST if case.engine == 'io_uring' else [])
    return extra + (['--sqthread_poll=1'] if sqpoll else [])


def _t_io_uring(opts, case, env):
    flag = {'io_uring': [], 'libaio': ['-a1'], 'pvsync2': ['-S1']}
    d = str(case.depth)
    batch = ['-s' + d, '-c' + d] if case.depth > 1 else ['-s1', '-c1']
    uring = case.engine == 'io_uring'
    return [opts.t_io_uring, '-d' + d, *batch, '-b4096', '-p0',
            '-B%d' % uring, '-F%d' % uring, '-n1', '-O1', '-R1',
            '-r%d' % t_secs(opts), *flag[case.engine],
            env.path(case.target)]


def t_secs(opts):
    """t/io_uring's -r: whole seconds, at least 2 (a one-second run
    prints no per-second line)"""
    return max(2, math.ceil(opts.runtime))


# tools/ceiling's loop per engine (psync's depth is 1)
CEILING_MODE = {'io_uring': 'uring', 'libaio': 'aio', 'psync': 'pread'}


def _ceiling(opts, case, env):
    if case.name in LAT_CASES:
        return [opts.ceiling, 'lat', env.path(case.target) or '-', '1',
                '%g' % opts.runtime]
    if case.seed or case.target == 'null':
        return None
    mode = CEILING_MODE.get(case.engine)
    return mode and [opts.ceiling, mode, env.path(case.target),
                     str(case.depth), '%g' % opts.runtime]


def row_argv(opts, row, case, env):
    """The command line of row on case, or None where the row has none."""
    if row == 'iobench':
        return _job([opts.iobench], case, env, opts)
    if row == 'baseline':      # where the batching differs: async engines
        ok = opts.baseline and (case.depth > 1 and case.engine != 'null')
        return ok and _job([opts.baseline], case, env, opts)
    if row in IB_BATCH:
        ok = opts.batch and case.engine in ('io_uring', 'libaio') and \
            case.depth > 1
        return ok and _job([opts.iobench], case, env, opts,
                           _ib_batch(case, row))
    if row == 'fio':
        return _job([opts.fio], case, env, opts)
    if row == 'fio-best':
        best = _fio_best(case)
        return best and _job([opts.fio], case, env, opts, best)
    if row == 'fio-sqpoll':
        ok = opts.sqpoll and case.engine == 'io_uring'
        return ok and _job([opts.fio], case, env, opts, _fio_best(case, True))
    if row == 'fio342':
        return opts.fio342 and _job([opts.fio342], case, env, opts,
                                    _fio_best(case))
    if row == 't/io_uring':
        ok = opts.t_io_uring and case.engine in ('io_uring', 'libaio',
                                                 'pvsync2') and not case.seed
        return ok and _t_io_uring(opts, case, env)
    if row == 'ceiling':
        return opts.ceiling and _ceiling(opts, case, env)
    return None


# -- one run ----------------------------------------------------------------------
def _p50(d):
    pct = (d.get('clat_ns') or {}).get('percentile') or {}
    v = pct.get('50.000000')
    return float(v) if v is not None else None


def parse_report(text):
    """{iops, ios, p50_ns} of a fio-format JSON report (p50: the first
    job's read clat, else its write clat)."""
    start = text.find('{')
    if start < 0:
        raise ValueError('no JSON report')
    rep = json.JSONDecoder().raw_decode(text[start:])[0]
    iops = ios = 0
    p50 = None
    for job in rep['jobs']:
        for ddir in ('read', 'write'):
            d = job.get(ddir) or {}
            iops += float(d.get('iops', 0))
            ios += int(d.get('total_ios', 0))
            if p50 is None and d.get('total_ios'):
                p50 = _p50(d)
    return {'iops': iops, 'ios': ios, 'p50_ns': p50}


def parse_t_io_uring(text, secs):
    """The mean of t/io_uring's per-second IOPS= lines (a run of one
    second may print none: then its one 'Maximum IOPS=')."""
    def num(m):
        return float(m.group(1)) * {'K': 1e3, 'M': 1e6}.get(m.group(2), 1)
    vals = [num(m) for m in re.finditer(r'^IOPS=([\d.]+)([KM]?),', text,
                                        re.M)]
    if not vals:
        vals = [num(m) for m in re.finditer(
            r'^Maximum IOPS=([\d.]+)([KM]?)', text, re.M)]
    if not vals:
        raise ValueError('no IOPS= line')
    iops = statistics.mean(vals)
    return {'iops': iops, 'ios': int(iops * secs), 'p50_ns': None}


def parse_ceiling(text):
    p50 = re.search(r'p50_ns=(\d+)', text)
    return {'iops': float(re.search(r'iops=([\d.]+)', text).group(1)),
            'ios': int(re.search(r'ios=(\d+)', text).group(1)),
            'p50_ns': float(p50.group(1)) if p50 else None}


def measure(opts, row, argv, env):
    out = os.path.join(env.dir, 'out')
    b0 = bench.busy_jiffies()
    status, ru, _, secs = bench.run_tree(argv, opts.runtime * 10 + 30, out,
                                         opts.nice, env)
    cpu = ru.ru_utime + ru.ru_stime
    hz = os.sysconf('SC_CLK_TCK')
    others = max(0.0, (bench.busy_jiffies() - b0) / hz - cpu) / secs
    with open(out, errors='replace') as f:
        text = f.read()
    if status != 0:
        return {'error': 'exit status %d: %s' % (status, text[-300:])}
    try:
        if row == 'ceiling':
            m = parse_ceiling(text)
        elif row == 't/io_uring':
            m = parse_t_io_uring(text, t_secs(opts))
        else:
            m = parse_report(text)
    except (ValueError, KeyError, AttributeError) as e:
        return {'error': 'unreadable output (%s): %s' % (e, text[-300:])}
    m['cpu_ns'] = cpu * 1e9 / m['ios'] if m['ios'] else None
    m['others'] = others
    return m


def run_round(opts, env, res, cases):
    """One more round of each of cases (Case objects)."""
    for case in cases:
        c = res[case.name]
        if c.get('skipped'):
            continue
        if case.target != 'null' and not env.path(case.target):
            c['skipped'] = 'target %s not available' % case.target
            continue
        rnd = c['rounds']
        # the rows' order rotates by one each round: a row that follows
        # the previous case's last one (its exit, its device's state) is a
        # different row every round
        k = rnd % len(ROWS)
        for row in ROWS[k:] + ROWS[:k]:
            argv = row_argv(opts, row, case, env)
            if not argv:
                continue
            m = measure(opts, row, argv, env)
            if 'error' in m:
                sys.stderr.write('anchors: %s %s round %d: %s\n' % (
                    case.name, row, rnd + 1, m['error']))
            c['runs'].setdefault(row, []).append(m)
        c['rounds'] = rnd + 1


def undecided(res, cases, most):
    """The cases (of cases) with a verdict the rounds have not decided and
    fewer than most rounds."""
    summarize(res)
    open_ = {t['case'] for t in targets(res) if t.get('decided') is False}
    return [c for c in cases if c.name in open_ and
            res[c.name]['rounds'] < most]


def run_rounds(opts, env, res):
    for rnd in range(opts.rounds):
        run_round(opts, env, res, opts.case_list)
        sys.stderr.write('anchors: round %d of %d done\n' % (
            rnd + 1, opts.rounds))
    while opts.until_decided:
        more = undecided(res, opts.case_list, opts.until_decided)
        if not more:
            break
        run_round(opts, env, res, more)
        sys.stderr.write('anchors: one more round of %s\n' % ','.join(
            c.name for c in more))


# -- output ---------------------------------------------------------------------
def _f(v, spec):
    return '-' if v is None else format(v, spec)


def print_table(res, tgts, f):
    cols = '%-13s %-10s %12s %9s %9s %8s %6s %4s\n'
    f.write(cols % ('case', 'row', 'IOPS', 'cpu ns/io', 'p50 ns', 'ib/row',
                    'others', 'runs'))
    for name, c in res.items():
        if c.get('skipped'):
            f.write('%-13s skipped: %s\n' % (name, c['skipped']))
            continue
        first = True
        for row in ROWS:
            m = c['median'].get(row)
            if m is None:
                continue
            if not m['ok_runs']:
                f.write('%-13s %-10s failed (see stderr)\n' % (
                    name if first else '', row))
            else:
                r = c['ib_over'].get(row)
                f.write(cols % (name if first else '', row,
                                _f(m['iops'], ',.0f'), _f(m['cpu_ns'], '.0f'),
                                _f(m['p50_ns'], '.0f'),
                                '' if row == 'iobench' else
                                _f(r, '.3f') + 'x' if r else '-',
                                _f(m['others'], '.2f'), m['ok_runs']))
            first = False
    f.write('\n%-13s %-40s %9s %-17s %-14s %s\n' % (
        'case', 'target', 'measured', '90% interval', 'goal', 'verdict'))
    for t in tgts:
        ci = t.get('ci')
        ival = '-' if not ci else '%s..%s' % (_f(ci[0], '.3f'),
                                              _f(ci[1], '.3f'))
        f.write('%-13s %-40s %9s %-17s %-14s %s\n' % (
            t['case'], t['target'], _f(t['measured'], '.3f'), ival,
            t['goal'], verdict_word(t)))


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog='bench.py anchors',
        description='iobench defaults vs fio best flags, fio 3.42, '
        't/io_uring and the ceiling, alternated, medians of ratios')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--runtime', type=float, default=3.0,
                    help='seconds per run (default 3)')
    ap.add_argument('--targets', default=','.join(TARGETS),
                    help='subset of ' + ','.join(TARGETS))
    ap.add_argument('--engines', default=','.join(ENGINES),
                    help='subset of ' + ','.join(ENGINES))
    ap.add_argument('--cases', default='',
                    help='only these case names (after --targets/--engines)')
    ap.add_argument('--seed', action=argparse.BooleanOptionalAction,
                    default=True, help='the 8-job randrw seed cases')
    ap.add_argument('--iobench', default=bench.DEFAULT_IOBENCH)
    ap.add_argument('--baseline', default=None, metavar='PATH')
    ap.add_argument('--fio', default=shutil.which('fio') or 'fio')
    ap.add_argument('--fio342', default=None, metavar='PATH',
                    help='fio 3.42 (any newer fio) for the fio342 row')
    ap.add_argument('--t-io-uring', default=None, metavar='PATH',
                    help="fio's t/io_uring for its row")
    ap.add_argument('--ceiling', default=None,
                    help='default: tools/ceiling next to the iobench build')
    ap.add_argument('--sqpoll', action='store_true',
                    help='the fio-sqpoll row (fio-best + sqthread_poll=1)')
    ap.add_argument('--batch', action='store_true',
                    help="iobench's fixed batching rows (ib-s1c1, ib-s1cN, "
                    'ib-sNc1, ib-sNcN) and the adaptive-batching verdict')
    ap.add_argument('--nice', type=int, default=0,
                    help='run every tool at this nice value (default 0)')
    ap.add_argument('--until-decided', type=int, default=0, metavar='N',
                    help='after --rounds, more rounds of the cases with an '
                    'undecided verdict, up to N rounds each (default: none)')
    ap.add_argument('--smoke', action='store_true',
                    help='shape check: 1 round of 0.5 s')
    ap.add_argument('--json', metavar='FILE')
    ap.add_argument('--from-json', metavar='FILE',
                    help="print a saved run's (--json) table and verdicts "
                    'again; alone, nothing is run')
    ap.add_argument('--markdown', action='store_true',
                    help='with --from-json: the table as Markdown')
    opts = ap.parse_args(argv)
    if opts.smoke:
        opts.rounds, opts.runtime = 1, 0.5
    if opts.rounds < 1 or opts.runtime <= 0:
        ap.error('--rounds and --runtime must be positive')
    opts.iobench = os.path.abspath(opts.iobench)
    if opts.ceiling is None:
        opts.ceiling = bench.build_tool(opts.iobench, 'ceiling')
    if not os.access(opts.ceiling, os.X_OK):
        opts.ceiling = None
    for name in ('baseline', 'fio342', 't_io_uring'):
        path = getattr(opts, name)
        if path and not os.access(path, os.X_OK):
            ap.error('--%s: not an executable: %s' % (
                name.replace('_', '-'), path))
    if not shutil.which(opts.fio):
        ap.error('fio not found: %s' % opts.fio)
    tg, en = opts.targets.split(','), opts.engines.split(',')
    bad = [x for x in tg if x not in TARGETS] + \
        [x for x in en if x not in ENGINES]
    if bad:
        ap.error('unknown target or engine: %s' % ','.join(bad))
    names = [n for n in opts.cases.split(',') if n]
    opts.case_list = [
        c for c in all_cases()
        if c.target in tg and (c.engine in en or c.engine == 'null')
        and (opts.seed or not c.seed) and (not names or c.name in names)]
    known = {c.name for c in all_cases()}
    if [n for n in names if n not in known]:
        ap.error('unknown case(s); known: ' + ','.join(sorted(known)))
    return opts


def _k(v):
    return '-' if v is None else '%.0fk' % (v / 1000)


def print_markdown(res, tgts, f):
    """The docs' table: a line per case, IOPS medians, the ratios the
    verdicts use and the verdicts in order."""
    rows = ('iobench', 'baseline', 'fio', 'fio-best', 'fio342', 't/io_uring',
            'ceiling')
    f.write('| case | ' + ' | '.join(rows) + ' | ib/best fio | '
            'ib/best fixed | ib CPU ns/io | verdicts |\n')
    f.write('|---' * (len(rows) + 5) + '|\n')
    for name, c in res.items():
        if c.get('skipped'):
            continue
        med = c['median']
        cells = [_k((med.get(r) or {}).get('iops')) for r in rows]
        bf, bx = c.get('best_fio'), c.get('best_fixed')
        v = ' '.join(verdict_word(t) for t in tgts if t['case'] == name)
        f.write('| %s | %s | %s | %s | %s | %s |\n' % (
            name, ' | '.join(cells),
            '-' if c['ib_over_best_fio'] is None else
            '%.2fx (%s)' % (c['ib_over_best_fio'], bf),
            '-' if c['ib_over_best_fixed'] is None else
            '%.2fx (%s)' % (c['ib_over_best_fixed'], bx),
            _f((med.get('iobench') or {}).get('cpu_ns'), '.0f'), v))


def header(vers, mach, rounds, runtime, source='', upto=0):
    """The first line: the tools, the rounds, the machine (source: a saved
    run's file, with --from-json; upto: --until-decided)."""
    return ('anchors%s: %s vs %s%s; %d round(s)%s x %gs; kernel %s, %d CPUs; '
            'nice %d; loadavg %.2f -> %.2f\n\n' % (
                ' (from %s)' % source if source else '',
                vers['iobench'], vers['fio'],
                ' and ' + vers['fio342'] if vers.get('fio342') else '',
                rounds, ', up to %d where undecided' % upto if upto else '',
                runtime, mach['kernel'], mach['cpus'], mach['nice'],
                mach['loadavg_start'][0], mach['loadavg_end'][0]))


def report_saved(path, markdown=False):
    """--from-json: a saved run's table and verdicts, recomputed from its
    runs with this file's verdict logic (nothing is run)."""
    with open(path) as f:
        doc = json.load(f)
    res = {name: {k: v for k, v in c.items()
                  if k in ('target', 'args', 'runs', 'skipped', 'rounds')}
           for name, c in doc['cases'].items()}
    summarize(res)
    tgts = targets(res)
    sys.stdout.write(header(doc['versions'], doc['machine'], doc['rounds'],
                            doc['runtime_s'], path,
                            doc.get('until_decided', 0)))
    if markdown:
        print_markdown(res, tgts, sys.stdout)
    else:
        print_table(res, tgts, sys.stdout)
    return 0


def main(argv):
    opts = parse_args(argv)
    if opts.from_json:
        return report_saved(opts.from_json, opts.markdown)
    if os.environ.get('IOBENCH_BENCH_SESSION') is None:
        return bench.in_own_session(['anchors'] + argv, opts.nice)
    env = Targets()
    res = {c.name: {'target': c.target, 'args': c.args(), 'runs': {},
                    'rounds': 0} for c in opts.case_list}
    mach = bench.machine()
    mach['nice'] = os.getpriority(os.PRIO_PROCESS, 0)
    run_rounds(opts, env, res)
    summarize(res)
    tgts = targets(res)
    mach['loadavg_end'] = os.getloadavg()
    vers = {'iobench': bench.tool_version([opts.iobench]),
            'fio': bench.tool_version([opts.fio]),
            'fio342': opts.fio342 and bench.tool_version([opts.fio342])}
    out = sys.stdout
    out.write(header(vers, mach, opts.rounds, opts.runtime,
                     upto=opts.until_decided))
    print_table(res, tgts, out)
    out.flush()
    env.cleanup()
    if opts.json:
        doc = {'machine': mach, 'versions': vers, 'rounds': opts.rounds,
               'until_decided': opts.until_decided,
               'runtime_s': opts.runtime, 'cases': res, 'targets': tgts}
        with open(opts.json, 'w') as f:
            json.dump(doc, f, indent=1)
    failed = any(m.get('error') for c in res.values()
                 for runs in c['runs'].values() for m in runs)
    return 1 if failed else 0
