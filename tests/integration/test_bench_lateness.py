#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/bench.py lateness: one short run per case, rate and rate_spin; the
table's shape, the JSON rows and the counts (never a speed: the verdicts
depend on the machine). The floor case (tools/wakefloor, the OS's own
wake-up lateness) has exactly RATE * RUNTIME_S due times, all started.
"""
import os
import sys

import ibtest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'tools', 'bench.py')
RATE = 2000
RUNTIME_S = 0.25
PCTS = ('p50', 'p99', 'p99.9')


def check_row(t, row, what):
    # the schedule is absolute: RATE * RUNTIME_S I/Os are due by the end,
    # (give or take the one due at the very end), each started or counted
    due = RATE * RUNTIME_S
    got = row.get('started', 0) + row.get('unstarted', 0)
    t.check(abs(got - due) <= 1, '%s: started %d + never started %d = %d'
            % (what, row.get('started', 0), row.get('unstarted', 0), due),
            row)
    vals = [row.get(p) for p in PCTS]
    t.check(None not in vals and vals == sorted(vals),
            '%s: p50 <= p99 <= p99.9' % what, vals)
    t.eq(row.get('pass'), vals[1] is not None and vals[1] < 20000,
         '%s: PASS iff p99 < 20 us' % what, row)
    t.check(0 <= row.get('late_ios', -1) <= row.get('started', 0),
            '%s: late I/Os counted among the started' % what, row)


def check_own(t, rows):
    # iobench's own share: its p99 minus the p99 of the floor beside it
    floors = {r['spin_us']: r['p99'] for r in rows if r['case'] == 'floor'}
    for r in rows:
        what = '%s spin %s' % (r['case'], r['spin_us'])
        if r['case'] == 'floor':
            t.check('own_p99' not in r, '%s: no own share' % what, r)
            continue
        t.eq(r.get('own_p99'), r['p99'] - floors[r['spin_us']],
             '%s: own share = p99 - the floor\'s p99' % what, r)
        t.eq(r.get('own_pass'), r['p99'] - floors[r['spin_us']] < 20000,
             '%s: own PASS iff the share < 20 us' % what, r)


def main():
    t = ibtest.Test()
    if t.wrapper:
        t.skip('times the scheduler: not under a wrapper')
        t.finish()
    jpath = t.path('late.json')
    floor = os.path.join(os.path.dirname(os.path.dirname(t.bin)), 'tools',
                         'wakefloor')
    r = t.run(BENCH, 'lateness', '--rates', str(RATE), '--spin', '0,50',
              '--runtime', str(RUNTIME_S), '--cases', 'floor,null,psync-shm',
              '--idle-wait', '0', '--iobench', t.bin, '--wakefloor', floor,
              '--json', jpath,
              prog=sys.executable, timeout=t.scaled(120))
    t.eq(r.rc, 0, 'bench lateness exits 0', r)
    lines = r.out.splitlines()
    t.check(lines and lines[0].startswith('lateness of paced I/Os'),
            'first line says what is measured', r)
    rows = [ln.split() for ln in lines[3:] if ln.strip()]
    t.eq([(f[0], f[1], f[2]) for f in rows],
         [('floor', '2000', '0'), ('null', '2000', '0'),
          ('psync-shm', '2000', '0'), ('floor', '2000', '50'),
          ('null', '2000', '50'), ('psync-shm', '2000', '50')],
         'one row per case and rate_spin, the cases alternated', r)
    t.check(all(len(f) == 16 and f[13] in ('PASS', 'FAIL') for f in rows),
            'every row has 16 columns and a verdict', r)
    t.check(all((f[14:] == ['-', '-']) == (f[0] == 'floor') for f in rows),
            'the floor rows have no own share, the others have one', r)
    t.check(all(f[15] in ('PASS', 'FAIL') for f in rows if f[0] != 'floor'),
            'the iobench rows have an own verdict', r)
    doc = t.load_json(jpath)
    t.eq(doc.get('target_us'), 20, 'JSON: the target')
    t.eq(len(doc.get('rows', [])), 6, 'JSON: 6 rows')
    for row in doc.get('rows', []):
        check_row(t, row, '%s spin %s' % (row.get('case'), row.get('spin_us')))
    if len(doc.get('rows', [])) == 6:
        check_own(t, doc['rows'])
    t.finish()


if __name__ == '__main__':
    main()
