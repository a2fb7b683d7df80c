#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/bench.py instructions: one case under callgrind, the table's and
the JSON's shape (never a count's size: that depends on the build), and
bad input refused with one line naming the option.
"""
import os
import shutil
import sys

import ibtest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'tools', 'bench.py')


def main():
    t = ibtest.Test()
    for prog in ('valgrind', 'fio'):
        if not shutil.which(prog):
            t.skip('%s is not installed' % prog)
            t.finish()
    jpath = t.path('instr.json')
    r = t.run(BENCH, 'instructions', '--cases', 'null-qd32', '--ios', '8192',
              '--iobench', t.bin, '--json', jpath, prog=sys.executable,
              timeout=t.scaled(600))
    t.eq(r.rc, 0, 'bench instructions exits 0', r)
    lines = r.out.splitlines()
    t.eq(lines[0].split() if lines else [],
         ['case', 'iobench', 'fio', 'ceiling', 'ib/fio', 'ib/ceil'],
         'column header', r)
    rows = [ln.split() for ln in lines[1:] if ln.startswith('null-')]
    t.eq([row[0] for row in rows], ['null-qd32'], 'one row, the case asked', r)
    if rows:
        t.eq(rows[0][3], '-', 'the null engine has no ceiling loop', rows)
        t.check(rows[0][4].endswith('x'), 'iobench over fio is a ratio', rows)
    doc = t.load_json(jpath)
    row = doc.get('instructions_per_io', {}).get('null-qd32', {})
    t.eq(sorted(row), ['fio', 'iobench'], 'JSON: both tools counted', row)
    t.check(all(isinstance(v, float) for v in row.values()),
            'JSON: counts per I/O are numbers', row)
    bad = t.run(BENCH, 'instructions', '--cases', 'uring-loop',
                prog=sys.executable)
    last = bad.err.strip().splitlines()[-1:] or ['']
    t.check(bad.rc != 0 and '--cases' in last[0] and 'uring-loop' in last[0],
            'a case it cannot count is refused: option and case named', bad)
    t.finish()


if __name__ == '__main__':
    main()
