#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/bench.py threads --smoke: one round of numjobs=8 --thread, null
engine, time_based runtime 0.2 s, iobench and fio (Debian's): the table's
shape and the JSON (never a speed: the verdicts depend on the machine).
Each whole command lasts at least its runtime; each verdict is the ratio
of the round's two wall times and PASS exactly when it is <= 1.
"""
import json
import os
import shutil
import subprocess
import sys

import ibtest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'tools', 'bench.py')


def main():
    t = ibtest.Test()
    if t.wrapper:
        t.skip('bench.py threads times whole commands: not under a wrapper')
        t.finish()
    if not shutil.which('fio'):
        t.skip('no fio: bench.py threads compares against it')
        t.finish()
    out = t.path('threads.json')
    p = subprocess.run([sys.executable, BENCH, 'threads', '--smoke',
                        '--nice=0', '--iobench', t.bin, '--json', out],
                       capture_output=True, text=True, timeout=t.scaled(120))
    t.eq(p.returncode, 0, 'bench.py threads --smoke: exit 0', p.stderr)
    lines = p.stdout.splitlines()
    t.check(lines and lines[0].startswith('thread start-up: numjobs=N '
                                          '--thread, null engine'),
            'the header line', p.stdout)
    t.check(any(l.split()[:2] == ['8', 'fio'] and
                l.split()[-1] in ('PASS', 'FAIL') for l in lines),
            'a verdict row for numjobs=8 against fio', p.stdout)
    doc = t.load_json(out)
    walls = doc.get('walls_s', {}).get('8', {})
    t.eq(sorted(walls), ['fio', 'iobench'], 'JSON: both tools timed', doc)
    t.check(all(len(w) == 1 and w[0] is not None and w[0] >= 0.2
                for w in walls.values()),
            'each whole command lasted at least its 0.2 s runtime', walls)
    rows = doc.get('verdicts', [])
    t.eq([(r['jobs'], r['vs']) for r in rows], [(8, 'fio')],
         'JSON: one verdict, numjobs=8 against fio', rows)
    if rows and len(walls.get('fio', [])) == 1:
        r = rows[0]
        t.check(abs(r['ratio'] - walls['iobench'][0] / walls['fio'][0]) < 1e-9,
                'the ratio is the round\'s iobench/fio wall time', r)
        t.eq(r['pass'], r['ratio'] <= 1.0, 'PASS iff the ratio <= 1', r)
    t.finish()


if __name__ == '__main__':
    main()
