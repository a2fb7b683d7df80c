#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio 3.42's sprandom (spr_num_regions, spr_op, spr_cs) and ramp_size
against what fio 3.42 does (facts recorded from real runs into
tests/data/fio342/sprandom.txt and ramp_size.txt: fio 3.42 is not
installed in CI). fio draws its blocks and its keep/drop choices from its
own generators, so the order and the number of rewrites differ from run
to run of another program; the facts compared are the ones its rules fix:
regions of one size, the rewrites of each region being blocks of the
region before at the place the cache rule puts them, every block written,
the byte budget, and the refusals."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342')
t = ibtest.Test()
BS = 4096
REGION_WRITES = 294     # 4825088 physical bytes / 4 regions / 4 KiB


def facts(name):
    """A recorded fio 3.42 run: {'key': 'value'} from 'key value' lines."""
    with open(os.path.join(DATA, name)) as f:
        return dict(line.split(None, 1) for line in f.read().splitlines()
                    if line and not line.startswith('#'))


def shape(offsets, cache):
    """Per region of REGION_WRITES writes: (writes, rewrites), and whether
    every rewrite is of a block last written in the region before, in one
    run right after the region's first write (no cache) or at its end."""
    seen, regions, ok = {}, [], True
    for r in range(0, len(offsets), REGION_WRITES):
        w = offsets[r:r + REGION_WRITES]
        pos = [i for i, o in enumerate(w) if o in seen]
        reg = r // REGION_WRITES
        ok = ok and all(seen[w[i]] == reg - 1 for i in pos)
        k = len(pos)
        if k:
            want = (list(range(len(w) - k, len(w))) if cache
                    else list(range(1, 1 + k)))
            ok = ok and pos == want
        regions.append((len(w), k))
        for o in w:
            seen[o] = reg
    return regions, ok


def spr_run(key, want, extra):
    target = t.shm_file('s_%s.dat' % key, size=4 * 1024 * 1024)
    log = t.path('s_%s.iolog' % key)
    r, j = t.run_json(['--name=s', '--filename=' + target, '--size=4m',
                       '--bs=4k', '--rw=randwrite', '--sprandom=1',
                       '--spr_num_regions=4', '--write_iolog=' + log] + extra)
    if not t.ok(r, 'sprandom %s' % key) or j is None:
        return
    offs = ibtest.parse_iolog(log).offsets('write')
    regions, ok = shape(offs, key == 'cache')
    fio_writes = [int(v) for v in want[key + '_region_writes'].split(',')]
    t.eq(int(want[key + '_shape_ok']), 1, 'fio 3.42 %s: the shape' % key)
    t.check(ok, 'sprandom %s: each region rewrites blocks of the region '
            'before, where fio 3.42 puts them' % key, regions)
    # every region full but the last (fio: 294,294,294,286)
    t.eq([w for w, _ in regions[:-1]], fio_writes[:-1],
         'sprandom %s: writes per region as fio 3.42\'s' % key)
    t.check(0 < regions[-1][0] <= REGION_WRITES and
            len(regions) in (len(fio_writes), len(fio_writes) + 1),
            'sprandom %s: the last region' % key, regions)
    t.eq((len(set(offs)), max(offs), regions[0][1]),
         (int(want[key + '_unique_blocks']), int(want[key + '_max_offset']), 0),
         'sprandom %s: every block written, region 0 all new' % key)
    t.eq((j['write']['total_ios'], j['write']['io_bytes']),
         (len(offs), len(offs) * BS), 'sprandom %s: the report counts the '
         'log\'s writes' % key)
    # writes = blocks + rewrites, within the physical budget (1178 blocks)
    t.eq(len(offs), 1024 + sum(k for _, k in regions),
         'sprandom %s: writes are the blocks plus the rewrites' % key)
    t.check(len(offs) <= 4825088 // BS,
            'sprandom %s: within the physical size' % key, len(offs))
    t.eq(r.out.count('sprandom sets'), 0,
         'sprandom: no notes in the JSON on stdout (fio prints %s there)'
         % want[key + '_notes_on_stdout'])


def spr_randrw(want):
    """randrw: reads and the new writes draw from one permutation of the
    blocks, as from fio's one lfsr: no block both read and written, every
    block one or the other, reads each once."""
    target = t.shm_file('s_rw.dat', size=4 * 1024 * 1024)
    log = t.path('s_rw.iolog')
    r, j = t.run_json(['--name=s', '--filename=' + target, '--size=4m',
                       '--bs=4k', '--rw=randrw', '--sprandom=1',
                       '--spr_num_regions=4', '--write_iolog=' + log])
    if not t.ok(r, 'sprandom randrw') or j is None:
        return
    io = ibtest.parse_iolog(log)
    rd, wr = io.offsets('read'), io.offsets('write')
    t.eq((len(set(rd)) == len(rd), len(set(rd) & set(wr)),
          len(set(rd) | set(wr))),
         (int(want['randrw_read_blocks']) == int(want['randrw_reads']),
          int(want['randrw_both']), int(want['randrw_blocks'])),
         'sprandom randrw: reads and writes share the blocks as in fio 3.42')
    t.eq((j['read']['total_ios'], j['write']['total_ios']),
         (len(rd), len(wr)), 'sprandom randrw: the report counts the log')


def spr_refused(want):
    target = t.shm_file('s_bad.dat', size=4 * 1024 * 1024)
    with open(target, 'rb') as f:
        before = f.read()
    base = ['--name=s', '--filename=' + target, '--size=4m', '--bs=4k',
            '--rw=randwrite', '--sprandom=1', '--output=/dev/null']
    for key, opt, msg in (
            ('bs12k', '--bs=12k', 'sprandom: the write block size (12288) '
             'must be a power of 2'),
            ('rw_write', '--rw=write', 'sprandom: needs random writes'),
            ('taus', '--random_generator=tausworthe',
             'sprandom: needs random_generator=lfsr'),
            ('map', '--norandommap=0', 'sprandom: needs norandommap=1'),
            ('cs2m_100', '--spr_cs=2m', 'spr_cs=2097152: larger than a region '
             '(48250 bytes: at most 2 regions for this cache)')):
        r = t.run(*base, opt)
        lines = [ln for ln in r.err.splitlines() if 'Laying out' not in ln]
        t.check(r.rc == int(want[key + '_exit']) == 1 and len(lines) == 1 and
                msg in lines[0], 'sprandom %s: refused with one line, as '
                'fio 3.42 refuses it' % opt, r)
    with open(target, 'rb') as f:
        t.check(f.read() == before, 'sprandom refused: the file untouched')
    for opt in ('--spr_op=0', '--spr_op=1', '--spr_op=x',
                '--spr_num_regions=0'):
        r = t.run('--parse-only', '--name=a', '--filename=x', *base[2:6], opt)
        t.check(r.rc == 1 and r.out == '' and r.err.count('\n') == 1 and
                opt[2:].split('=')[0] in r.err, '%s: one line' % opt, r)
    r = t.run('--parse-only', '--name=a', '--filename=x', *base[2:6],
              '--spr_num_regions=10', '--spr_op=0.3', '--spr_cs=64k')
    t.eq((r.rc, r.out, r.err), (0, '', ''), '--parse-only sprandom options')


def ramp_short(want):
    """Done within its first second: fio never looks at the ramp, so the
    whole job counts, without latencies."""
    target = t.shm_file('r1.dat', size=1024 * 1024)
    r, j = t.run_json(['--name=a', '--filename=' + target, '--size=1m',
                       '--bs=4k', '--rw=write', '--ramp_size=512k'])
    if not t.ok(r, 'ramp_size short') or j is None:
        return
    w = j['write']
    t.eq((r.rc, w['io_bytes'], w['total_ios'], w['clat_ns']['N']),
         (int(want['short_exit']), int(want['short_write_bytes']),
          int(want['short_write_ios']), int(want['short_clat_n'])),
         'ramp_size: a job done inside its ramp, as fio 3.42')


def ramp_timed(want):
    """rate=8m, ramp_size=4m, runtime=1: the ramp ends at a once-a-second
    look with at least 4 MiB done; then the runtime runs and only its I/O
    counts, latencies included."""
    target = t.shm_file('r2.dat', size=64 * 1024 * 1024)
    log = t.path('r2.iolog')
    r, j = t.run_json(['--name=b', '--filename=' + target, '--size=64m',
                       '--bs=4k', '--rw=write', '--ramp_size=4m', '--rate=8m',
                       '--time_based', '--runtime=1', '--write_iolog=' + log])
    if not t.ok(r, 'ramp_size timed') or j is None:
        return
    w = j['write']
    n = len(ibtest.parse_iolog(log).data('write'))
    ramp = (n - w['total_ios']) * BS
    t.check(ramp >= 4 * 1024 * 1024 and
            int(want['timed_ramp_bytes']) >= 4 * 1024 * 1024,
            'ramp_size: the ramp did 4 MiB or more (fio 3.42: %s)'
            % want['timed_ramp_bytes'], (ramp, n, w['total_ios']))
    t.check(1000 <= w['runtime'] < 2000 and
            1000 <= int(want['timed_runtime_ms']) < 2000,
            'ramp_size: the counted runtime is the runtime, not the ramp '
            '(fio 3.42: %s ms)' % want['timed_runtime_ms'], w['runtime'])
    t.eq((w['clat_ns']['N'] == w['total_ios'], r.rc),
         (bool(int(want['timed_clat_n_equals_ios'])), int(want['timed_exit'])),
         'ramp_size: latencies of the counted I/Os, as fio 3.42')


def ramp_group(want):
    """group_reporting: the group's bytes end every job's ramp. Job a at
    1 MiB/s alone would need 6 s for ramp_size=6m; with job b at 7 MiB/s
    the group passes 6 MiB before the first look, so both ramps end there
    and a's last I/O comes a runtime (1 s) later, as in fio 3.42 (1.86 s)."""
    logs = [t.path('g%s.iolog' % n) for n in 'ab']
    args = ['--group_reporting', '--ramp_size=6m', '--time_based',
            '--runtime=1', '--bs=4k', '--rw=write', '--size=32m']
    for n, rate, log in zip('ab', ('1m', '7m'), logs):
        args += ['--name=' + n, '--rate=' + rate, '--write_iolog=' + log,
                 '--filename=' + t.shm_file('g%s.dat' % n, size=32 << 20)]
    r, j = t.run_json(args)
    if not t.ok(r, 'ramp_size group') or j is None:
        return
    a = ibtest.parse_iolog(logs[0])
    last_a = max(int(line.split()[0]) for line in open(logs[0])
                 if ' write ' in line)
    n = len(a.data('write')) + len(ibtest.parse_iolog(logs[1]).data('write'))
    w = j['write']
    t.check(last_a < 5000000 and int(want['group_a_last_us']) < 5000000,
            'ramp_size group: job a\'s ramp ended on the group\'s bytes '
            '(its last I/O at %s us; fio 3.42: %s)' %
            (last_a, want['group_a_last_us']), last_a)
    t.check((n - w['total_ios']) * BS >= 6 << 20 and
            1000 <= w['runtime'] < 2000 and
            1000 <= int(want['group_runtime_ms']) < 2000,
            'ramp_size group: the group did 6 MiB in its ramp, the runtime '
            'counted after it', (n, w['total_ios'], w['runtime']))


def ramp_refused(want):
    r = t.run('--name=c', '--filename=' + t.path('never.dat'), '--size=1m',
              '--rw=write', '--ramp_size=512k', '--ramp_time=1')
    t.check(r.rc == int(want['both_exit']) == 1 and
            r.err == 'iobench: ramp_size: not together with ramp_time '
            '(one or the other)\n' and
            not os.path.exists(t.path('never.dat')),
            'ramp_size with ramp_time: refused as by fio 3.42, nothing '
            'created', r)
    r = t.run('--parse-only', '--group_reporting', '--name=a',
              '--filename=x', '--ramp_size=512k', '--name=b', '--filename=y',
              '--ramp_size=256k')
    t.check(r.rc == int(want['inconsistent_exit']) == 1 and
            r.err.count('\n') == 1 and 'ramp_size' in r.err and
            'group_reporting' in r.err,
            'ramp_size differing within a group: refused as by fio 3.42', r)
    r = t.run('--parse-only', '--group_reporting', '--name=a', '--filename=x',
              '--ramp_size=512k', '--numjobs=2')
    t.eq((r.rc, r.err), (0, ''), 'ramp_size: a group of clones agrees')
    r = t.run('--parse-only', '--name=a', '--filename=x', '--ramp_size=abc')
    t.check(r.rc == 1 and r.err.count('\n') == 1 and 'ramp_size' in r.err,
            'ramp_size=abc: one line', r)


def main():
    want = facts('sprandom.txt')
    spr_run('nocache', want, [])
    spr_run('cache', want, ['--spr_cs=1m'])
    spr_randrw(want)
    spr_refused(want)
    ramp = facts('ramp_size.txt')
    ramp_short(ramp)
    ramp_timed(ramp)
    ramp_group(ramp)
    ramp_refused(ramp)
    t.finish()


if __name__ == '__main__':
    main()
