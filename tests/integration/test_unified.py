#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""unified_rw_reporting (fio 3.33's values none/0, mixed/1, both/2) on a
size-based randrw job (4 MiB of 4 KiB I/Os on a /dev/shm file: 1024 I/Os):
which sections each report has (normal, JSON, terse), and that the "mixed"
one sums the directions (total_ios = reads + writes, bytes, latency
samples, bw samples, the longest runtime). Side by side with fio 3.33 when
it is installed: the same sections and the same I/O counts in them (the
read/write split itself follows each tool's random generator; their sum
and the mixed section do not)."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
IOS = 1024
VALUES = (('none', 'none'), ('0', 'none'), ('mixed', 'mixed'), ('1', 'mixed'),
          ('both', 'both'), ('2', 'both'))
SECTIONS = {'none': ['read', 'write', 'trim', 'sync'], 'mixed': ['mixed'],
            'both': ['read', 'write', 'trim', 'sync', 'mixed']}
# terse v3 fields: 5 + 41 per direction slot + 34 (cpu, depths, latencies)
TERSE_FIELDS = {'none': 5 + 41 * 2 + 34, 'mixed': 5 + 41 + 34, 'both': 5 + 41 * 3 + 34}


def job_args(f, value, fmt):
    return ('--name=u', '--filename=' + f, '--size=4m', '--bs=4k', '--rw=randrw',
            '--ioengine=psync', '--direct=0', '--unified_rw_reporting=' + value,
            '--output-format=' + fmt)


def jdoc(t, r, what):
    try:
        return json.loads(r.out[r.out.index('{'):])['jobs'][0]
    except (ValueError, KeyError, IndexError) as e:
        t.check(False, '%s: valid JSON (%s)' % (what, e), r)
        return None


def sections(j):
    return [k for k in j if k in ('read', 'write', 'trim', 'sync', 'mixed')]


def check_json(t, j, mode, what):
    t.eq(sections(j), SECTIONS[mode], what + ': sections')
    if mode == 'none':
        t.eq(j['read']['total_ios'] + j['write']['total_ios'], IOS, what + ': reads + writes')
        return
    m = j['mixed']
    t.eq((m['total_ios'], m['io_bytes'], m['clat_ns']['N'], m['lat_ns']['N']),
         (IOS, 4 * MiB, IOS, IOS), what + ': mixed counts')
    if mode != 'both':
        return
    r, w = j['read'], j['write']
    t.eq(m['total_ios'], r['total_ios'] + w['total_ios'], what + ': mixed = reads + writes')
    t.eq(m['io_bytes'], r['io_bytes'] + w['io_bytes'], what + ': mixed bytes')
    t.eq(m['runtime'], max(r['runtime'], w['runtime']), what + ': mixed runtime')
    t.eq(m['clat_ns']['min'], min(r['clat_ns']['min'], w['clat_ns']['min']),
         what + ': mixed clat min')
    t.eq(m['clat_ns']['max'], max(r['clat_ns']['max'], w['clat_ns']['max']),
         what + ': mixed clat max')
    t.eq(m['bw_samples'], r['bw_samples'] + w['bw_samples'], what + ': mixed bw samples')


def check_normal(t, out, mode, what):
    lines = [ln.split(':')[0].strip() for ln in out.splitlines()
             if re.match(r'^ +(read|write|trim|mixed): IOPS=', ln)]
    groups = [ln.split(':')[0].strip() for ln in out.splitlines()
              if re.match(r'^ +(READ|WRITE|TRIM|MIXED): bw=', ln)]
    want = {'none': (['read', 'write'], ['READ', 'WRITE']),
            'mixed': (['mixed'], ['MIXED']),
            'both': (['read', 'write', 'mixed'], ['READ', 'WRITE', 'MIXED'])}[mode]
    t.eq((lines, groups), want, what + ': sections and run status lines')
    iss = re.search(r'issued rwts: total=(\d+),(\d+),(\d+),(\d+)', out)
    if t.check(iss is not None, what + ': issued rwts line', out):
        n = [int(x) for x in iss.groups()]
        t.eq(n[0] + n[1], IOS, what + ': issued reads + writes')
        if mode == 'mixed':
            t.eq(n, [IOS, 0, 0, 0], what + ': issued, folded')
    if mode == 'both':  # fio 3.42: the sums, BW without a unit
        t.check(re.search(r'^  mixed: IOPS=[1-9][\d.]*k?, BW=[1-9][\d.]*(Ki|Mi|Gi)? '
                          r'\([1-9][\d.]*[kMG]?\)\(4096KiB/\d+msec\)$', out, re.M),
                what + ': fio 3.42\'s mixed line', out)
        t.check(re.search(r'^  MIXED: bw=.*, io=4096KiB \(4194kB\), run=', out, re.M),
                what + ': MIXED io=', out)


def check_terse(t, out, mode, what):
    line = [ln for ln in out.splitlines() if ln.startswith('3;')]
    if not t.eq(len(line), 1, what + ': one terse line', out):
        return
    f = line[0].split(';')
    t.eq(len(f), TERSE_FIELDS[mode], what + ': terse fields')
    slots = [int(f[5 + 41 * i]) for i in range((len(f) - 39) // 41)]
    if mode == 'mixed':
        t.eq(slots, [4096], what + ': the mixed slot\'s KiB')
    elif mode == 'both':
        t.eq((slots[0] + slots[1], slots[2]), (4096, 4096), what + ': read+write, mixed KiB')
    else:
        t.eq(slots[0] + slots[1], 4096, what + ': read+write KiB')


def run_value(t, f, value, mode):
    what = 'unified_rw_reporting=' + value
    r = t.run(*job_args(f, value, 'json'))
    if t.ok(r, what + ' json'):
        t.eq(r.err, '', what + ': nothing on stderr', r)
        j = jdoc(t, r, what)
        if j:
            check_json(t, j, mode, what)
    r = t.run(*job_args(f, value, 'normal'))
    if t.ok(r, what + ' normal'):
        check_normal(t, r.out, mode, what)
    if mode == 'both':  # fio 3.33 shows the mixed line's numbers as 0
        r = t.run('--fio-version=3.33', *job_args(f, value, 'normal'))
        if t.ok(r, what + ' normal 3.33'):
            t.check(re.search(r'^  mixed: IOPS=0, BW=0 \(0\)\(0B/\d+msec\)$', r.out, re.M),
                    what + ': fio 3.33\'s mixed line', r.out)
    r = t.run(*job_args(f, value, 'terse'))
    if t.ok(r, what + ' terse'):
        check_terse(t, r.out, mode, what)


def side_by_side(t, f, value, mode):
    what = 'unified_rw_reporting=%s vs fio 3.33' % value
    fr = t.fio(*job_args(f, value, 'json'))
    if fr is None:
        t.skip('fio not installed: ' + what)
        return
    r = t.run(*job_args(f, value, 'json'))
    if not (t.ok(fr, what + ': fio') and t.ok(r, what + ': iobench')):
        return
    fj, ij = jdoc(t, fr, what), jdoc(t, r, what)
    if not (fj and ij):
        return
    t.eq(sections(ij), sections(fj), what + ': sections')
    for k in sections(fj):
        if k in ('mixed', 'trim', 'sync'):
            t.eq(ij[k]['total_ios'], fj[k]['total_ios'], what + ': %s total_ios' % k)
    if 'read' in fj:
        t.eq(ij['read']['total_ios'] + ij['write']['total_ios'],
             fj['read']['total_ios'] + fj['write']['total_ios'], what + ': reads + writes')
    fr = t.fio(*job_args(f, value, 'terse'))
    r = t.run(*job_args(f, value, 'terse'))
    if t.ok(fr, what + ': fio terse') and t.ok(r, what + ': iobench terse'):
        t.eq(len(r.out.strip().split(';')), len(fr.out.strip().split(';')),
             what + ': terse fields')


def test_refused(t):
    r = t.run('--parse-only', '--name=u', '--size=4m', '--unified_rw_reporting=3')
    t.fails(r, 'unified_rw_reporting=3')
    t.check('unified_rw_reporting' in r.err and 'none, mixed, both' in r.err,
            'unified_rw_reporting=3: names the values', r)


def main():
    t = ibtest.Test()
    f = t.shm_file('u', size=4 * MiB)
    # Under a wrapper (memcheck) the names only, not their numbers, and no
    # side by side with fio (its iobench runs are run_value's again): the
    # 10 runs of 25 reach every line of src/ the 25 do (gcov:
    # tools/vg-coverage.py runs unified).
    for value, mode in VALUES:
        if not (t.reduced and value.isdigit()):
            run_value(t, f, value, mode)
    for value, mode in (('none', 'none'), ('mixed', 'mixed'), ('both', 'both')):
        if not t.reduced:
            side_by_side(t, f, value, mode)
    test_refused(t)
    t.finish()


if __name__ == '__main__':
    main()
