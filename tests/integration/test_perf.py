#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/bench.py --smoke runs every case once and prints the whole table.

Checks the shape only (rows, columns, JSON keys), never a speed.
"""
import os
import shlex
import shutil
import subprocess
import sys

import ibtest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..',
                     'tools', 'bench.py')
CASES = ['null-qd1', 'null-qd32', 'uring-shm', 'aio-shm', 'psync-shm',
         'uring-loop', 'null-nj1', 'null-nj2', 'null-nj8', 'uring-nj8',
         'uring-nj8-4t', 'verify-crc32c']
# round 1's 15 targets, then issue 21's: 4 for each io_uring case, the user
# time above the ceiling's (2), the numjobs scaling with the machine's own
# (3), the 4 TiB memory and (perf installed) the startup: as processes and
# as threads, and the floors of each (6)
N_TARGETS = 15 + 8 + 2 + 4 + (6 if shutil.which('perf') else 0)
COLS = ['case', 'tool', 'IOPS', 'usr', 'ns/io', 'sys', 'ns/io', 'RSS', 'MiB',
        'PSS', 'MiB', '1stIO', 'ms', 'calls/io', 'others', 'runs']


def rows(out):
    """case -> {tool: fields} from the table part of bench's stdout."""
    table, case = {}, None
    for line in out.splitlines():
        if not line.strip() or line.startswith('target'):
            if table:
                break
            continue
        f = line.split()
        if f[0] in CASES:
            case = f[0]
            f = f[1:]
        if case and f and f[0] in ('iobench', 'fio', 'ceiling', 'ib/fio',
                                   'ib/ceil', 'pair', 'ib/pair'):
            table.setdefault(case, {})[f[0]] = f[1:]
    return table


def main():
    t = ibtest.Test()
    if not shutil.which('fio'):
        t.skip('fio is not installed')
        t.finish()
    jpath = t.path('bench.json')
    wrap = ['--iobench-wrapper', shlex.join(t.wrapper)] if t.wrapper else []
    r = t.run(BENCH, '--smoke', '--iobench', t.bin, *wrap, '--json', jpath,
              prog=sys.executable, timeout=t.scaled(300))
    t.eq(r.rc, 0, 'bench --smoke exits 0', r)
    perf = shutil.which('perf') is not None
    lines = r.out.splitlines()
    t.check(lines and lines[0].startswith('iobench iobench-'),
            'first line names both versions', r)
    t.check(len(lines) > 2 and lines[2].split() == COLS, 'column header', r)
    table = rows(r.out)
    loop = ibtest.loop_available()
    for c in CASES:
        if c == 'uring-loop' and not loop:
            continue
        t.check(c in table, 'table has case %s' % c, r)
        got = table.get(c, {})
        for tool in ('iobench', 'fio', 'ib/fio'):
            t.eq(len(got.get(tool, [])), 9 if tool != 'ib/fio' else 7,
                 '%s: %s row has all columns' % (c, tool), got)
        want_ceil = c in ('uring-shm', 'psync-shm', 'uring-loop')
        t.eq('ceiling' in got, want_ceil, '%s: ceiling row' % c, got)
        want_pair = c == 'null-nj2'
        t.eq(len(got.get('pair', [])), 9 if want_pair else 0,
             '%s: the two-separate-runs row iff numjobs=2' % c, got)
        t.eq(len(got.get('ib/pair', [])), 1 if want_pair else 0,
             '%s: iobench over the two separate runs' % c, got)
        if got.get('iobench'):
            t.check(int(got['iobench'][0].replace(',', '')) > 0,
                    '%s: iobench did I/O' % c, got)
            has_io = c.split('-')[0] != 'null'
            t.eq(got['iobench'][5] != '-', has_io,
                 '%s: 1st I/O time iff the engine makes I/O calls' % c, got)
            if perf:
                t.eq(got['iobench'][6] != '-', has_io,
                     '%s: system calls per I/O iff a target' % c, got)
                if c == 'uring-shm':
                    t.check(float(got['iobench'][6]) > 0,
                            '%s: some system calls per I/O' % c, got)
    tgt = [ln for ln in lines if ln.endswith((' yes', ' NO', ' -'))]
    t.eq(len(tgt), N_TARGETS, 'targets section has %d rows' % N_TARGETS, r)
    for what in ('first I/O ms (processes)', 'first I/O ms (thread=1)'):
        t.check(any(ln.startswith('21: numjobs=64 ' + what) for ln in tgt)
                or not perf, 'smoke: the startup target (64 jobs, %s)' % what,
                tgt)
    doc = t.load_json(jpath)
    t.eq(sorted(doc.get('cases', {})), sorted(CASES), 'JSON has every case')
    t.eq(doc.get('rounds'), 1, 'JSON: smoke is one round')
    med = doc.get('cases', {}).get('null-qd1', {}).get('median', {})
    t.eq(sorted(med.get('iobench', {})),
         sorted(['iops', 'usr_ns', 'sys_ns', 'rss_mib', 'pss_mib',
                 'first_io_ms', 'syscalls_io', 'foreign_cpus', 'cpus_used',
                 'ok_runs']),
         'JSON median keys')
    t.eq(len(doc.get('targets', [])), N_TARGETS, 'JSON has every target')
    sc = doc.get('machine', {}).get('syscall') or {}
    t.eq(sorted(sc), ['calls', 'sys_ns', 'usr_ns', 'wall_ns'],
         'JSON: the empty system call\'s cost (tools/syscost)', sc)
    t.check(any(ln.startswith('empty syscall: wall ') for ln in lines),
            'the empty system call\'s cost is printed', r)
    net = [x for x in doc.get('targets', [])
           if x['target'] == '21: uring-shm usr ns/I/O less syscall billing']
    t.eq(len(net), 1, 'the user time less syscall billing is a target', net)
    st = doc.get('startup') or {}
    for key in ('processes', 'threads'):
        t.check(not perf or (st.get('jobs') == 64 and
                             (st.get(key, {}).get('ms') or 0) > 0),
                'JSON: the startup measure (%s)' % key, st)
    for key in ('fork', 'thread'):
        t.check(not perf or (st.get('floor', {}).get(key) or 0) > 0,
                'JSON: the machine\'s floor for 64 bare %ss' % key, st)
    pair = doc.get('cases', {}).get('null-nj2', {}).get('median', {})
    t.check((pair.get('pair', {}).get('iops') or 0) > 0,
            'JSON: two separate numjobs=1 runs at once did I/O', pair)
    scratch = doc.get('scratch_dir', '')
    t.check(scratch.startswith('/dev/shm/iobench-bench.'), 'JSON: scratch dir')
    t.check(scratch and not os.path.exists(scratch),
            'bench removed its scratch directory %s' % scratch)
    t.finish()


if __name__ == '__main__':
    main()
