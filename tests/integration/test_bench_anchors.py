#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/bench.py anchors --smoke on the null engine and a /dev/shm file
(psync): the rows each case has, the JSON's runs and verdicts, the exact
verdict logic on the medians the same run measured (never a speed).
"""
import os
import shutil
import sys

import ibtest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'tools', 'bench.py')
sys.path.insert(0, os.path.dirname(BENCH))     # bench_verdicts, bench_anchors
ROWS = {'null-qd1': ['iobench', 'fio', 'ceiling'],
        'null-qd32': ['iobench', 'fio'],
        'psync-shm': ['iobench', 'fio', 'ceiling']}


def check_case(t, name, c):
    runs = c.get('runs', {})
    t.eq(sorted(runs), sorted(ROWS[name]), '%s: its rows' % name, runs)
    for row, rr in runs.items():
        t.eq(len(rr), 1, '%s %s: one run (smoke)' % (name, row), rr)
        m = rr[0] if rr else {}
        t.check('error' not in m and m.get('ios', 0) > 0,
                '%s %s: did I/O' % (name, row), m)
    ib = (runs.get('iobench') or [{}])[0]
    fio = (runs.get('fio') or [{}])[0]
    if ib.get('iops') and fio.get('iops'):
        t.eq(c['ib_over_best_fio'], ib['iops'] / fio['iops'],
             '%s: ib/best fio is the round\'s own ratio' % name, c)
    if name == 'null-qd1':
        ceil = (runs.get('ceiling') or [{}])[0]
        t.check(ceil.get('p50_ns') is not None and ib.get('p50_ns') is not None,
                'null-qd1: p50 from iobench and the ceiling\'s lat loop', runs)
        if ceil.get('p50_ns') is not None and ib.get('p50_ns') is not None:
            t.eq(c['added_p50']['iobench'], ib['p50_ns'] - ceil['p50_ns'],
                 'null-qd1: added p50 = iobench p50 - ceiling p50', c)


def check_intervals(t):
    """The verdicts' 90% intervals (bench_verdicts.median_ci): the order
    statistics whose binomial coverage of the median is >= 90%, and the
    verdict decided only when its interval is on one side of the goal."""
    import bench_verdicts as bv
    vals = [1.0, 1.2, 0.9, 1.1, 1.3, 0.8, 1.05, 0.95]
    t.eq([bv.median_ci(list(range(n))) for n in (4, 5, 8, 11)],
         [None, (0, 4), (1, 6), (2, 8)],
         'median_ci: none below 5 values; k = 1, 2, 3 at n = 5, 8, 11')
    t.eq(bv.median_ci(vals), (0.9, 1.2), 'median_ci: unsorted input')
    v = bv._verdict('c', 'x', 1.06, '>= 1.05', True, (0.9, 1.2), 1.05)
    t.eq((v['decided'], bv.verdict_word(v)), (False, 'PASS?'),
         'an interval across the goal: undecided, PASS?')
    v = bv._verdict('c', 'x', 1.2, '>= 1.05', True, (1.06, 1.3), 1.05)
    t.eq((v['decided'], bv.verdict_word(v)), (True, 'PASS'),
         'an interval above the goal: decided PASS')
    v = bv._verdict('c', 'x', 0.8, '<= 0.70', False, (0.71, 0.9), 0.7)
    t.eq((v['decided'], bv.verdict_word(v)), (True, 'FAIL'),
         'at most: an interval above the bound: decided FAIL')
    v = bv._verdict('c', 'x', 1.2, '>= 1.05', True, None, 1.05)
    t.eq((v['decided'], bv.verdict_word(v)), (None, 'PASS'),
         'no interval (one round): the median\'s verdict alone')
    # --until-decided: which cases get one more round
    import bench_anchors as ba

    def case(name, ratios):
        runs = {'iobench': [{'iops': 100.0 * x, 'ios': 1} for x in ratios],
                'fio': [{'iops': 100.0, 'ios': 1} for _ in ratios]}
        return {'target': 'null', 'runs': runs, 'rounds': len(ratios)}
    res = {'null-qd1': case('null-qd1', [0.9, 1.2, 1.0, 1.1, 1.3]),
           'null-qd32': case('null-qd32', [1.2, 1.3, 1.25, 1.4, 1.1])}
    cases = [c for c in ba.all_cases() if c.name in res]
    t.eq([c.name for c in ba.undecided(res, cases, 8)], ['null-qd1'],
         '--until-decided: only the case whose interval straddles 1.05')
    res['null-qd1']['rounds'] = 8
    t.eq(ba.undecided(res, cases, 8), [],
         '--until-decided: none once it has N rounds')


def check_ceiling_aio(t, ceiling):
    """tools/ceiling's aio loop (the libaio cases' ceiling row): the
    command bench_anchors gives a libaio case, and the loop itself on a
    file: whole reads, a line parse_ceiling reads; a depth of 0 refused."""
    import bench_anchors as ba

    class Env:
        def path(self, target):
            return '/t/' + target

    class Opts:
        runtime = 2
    Opts.ceiling = ceiling
    case = [c for c in ba.all_cases() if c.name == 'libaio-loop'][0]
    t.eq(ba._ceiling(Opts, case, Env()),
         [ceiling, 'aio', '/t/loop', '32', '2'],
         'libaio cases: the ceiling row runs its aio loop at their depth')
    path = t.path('aio-data')
    with open(path, 'wb') as f:
        f.write(bytes(range(256)) * 4096)       # 1 MiB: 256 4k blocks
    r = t.run('aio', path, '8', '0.2', prog=ceiling, timeout=t.scaled(30))
    t.eq(r.rc, 0, 'ceiling aio: exit 0', r)
    m = ba.parse_ceiling(r.out) if 'iops=' in r.out else {}
    t.check(r.out.startswith('ceiling: aio %s depth=8 bs=4096 ' % path) and
            m.get('ios', 0) >= 8, 'ceiling aio: its line, at least one '
            'batch of 8 reads completed', r)
    r = t.run('aio', path, '0', '0.2', prog=ceiling, timeout=t.scaled(30))
    t.eq((r.rc, r.out), (2, ''), 'ceiling aio: depth 0 refused (usage)', r)


def main():
    t = ibtest.Test()
    check_intervals(t)
    ceiling = os.path.join(os.path.dirname(os.path.dirname(t.bin)), 'tools',
                           'ceiling')
    check_ceiling_aio(t, ceiling)
    if t.wrapper:
        t.skip('compares run times: not under a wrapper')
        t.finish()
    if not shutil.which('fio'):
        t.skip('fio is not installed')
        t.finish()
    jpath = t.path('anchors.json')
    r = t.run(BENCH, 'anchors', '--smoke', '--runtime', '0.3',
              '--targets', 'null,shm', '--engines', 'psync', '--no-seed',
              '--iobench', t.bin, '--ceiling', ceiling, '--json', jpath,
              prog=sys.executable, timeout=t.scaled(120))
    t.eq(r.rc, 0, 'anchors --smoke exits 0', r)
    lines = r.out.splitlines()
    t.check(lines and lines[0].startswith('anchors: iobench-') and
            'nice 0;' in lines[0], 'first line: versions, nice 0', r)
    doc = t.load_json(jpath)
    cases = doc.get('cases', {})
    t.eq(sorted(cases), sorted(ROWS), 'JSON: the three cases', sorted(cases))
    for name, c in cases.items():
        if name in ROWS:
            check_case(t, name, c)
    tg = doc.get('targets', [])
    want = [('null-qd1', 'ib/best fio'), ('null-qd1', 'QD1 p50'),
            ('null-qd32', 'ib/best fio'), ('psync-shm', None)]
    t.eq(len(tg), len(want), 'JSON: one verdict per goal', tg)
    for v in tg:
        m = v.get('measured')
        goal = v.get('goal', '')
        if v['target'].startswith('ib/best fio') and m is not None:
            t.eq(v['met'], m >= 1.05, '%s: PASS iff >= 1.05' % v['case'], v)
        t.check(goal and v['met'] in (True, False, None), 'verdict shape', v)
    verdicts = [ln.split()[-1] for ln in lines
                if ln.split()[:1] and ln.split()[0] in ROWS and
                ln.split()[-1] in ('PASS', 'FAIL', '-')]
    t.eq(len(verdicts), len(tg), 'a table line per verdict', lines)
    for name, c in cases.items():
        t.eq(c.get('best_fio'), 'fio',
             '%s: the best fio is the one fio row run' % name, c)
    check_from_json(t, jpath, r.out)
    t.finish()


def check_from_json(t, jpath, live):
    """--from-json recomputes the saved run's table and verdicts: the
    same lines as the live run printed, below its own first line."""
    r = t.run(BENCH, 'anchors', '--from-json', jpath, prog=sys.executable,
              timeout=t.scaled(60))
    t.eq(r.rc, 0, '--from-json exits 0', r)
    t.check(r.out.startswith('anchors (from %s): ' % jpath),
            '--from-json: its first line names the file', r.out[:200])
    t.eq(r.out.splitlines()[1:], live.splitlines()[1:],
         '--from-json: the live run\'s table and verdicts, line for line', r)
    r = t.run(BENCH, 'anchors', '--from-json', jpath, '--markdown',
              prog=sys.executable, timeout=t.scaled(60))
    md = [ln for ln in r.out.splitlines() if ln.startswith('|')]
    t.eq([ln.split(' | ')[0] for ln in md[2:]],
         ['| ' + n for n in ROWS],
         '--markdown: a header, a rule and a line per case', r)
    verdicts = [ln.split()[-1] for ln in live.splitlines()
                if ln.split()[-1:] in (['PASS'], ['FAIL'], ['-'])
                and ln.split()[0] in ROWS]
    t.eq(' '.join(ln.rstrip(' |').split(' | ')[-1] for ln in md[2:]).split(),
         verdicts, '--markdown: the verdicts in the live run\'s order', md)


if __name__ == '__main__':
    main()
