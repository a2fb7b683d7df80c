#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every rw mode with every engine, on a /dev/shm file (direct=1) and on a
loop device with no size (whole capacity): exact issued counts (size/bs),
write_iolog offsets aligned and in range, sequential modes ascending from 0
(reads and writes each with their own position, as fio), random modes
covering every block exactly once per pass (twice with loops=2), and
norandommap sampling with replacement.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MODES = ['read', 'write', 'randread', 'randwrite', 'rw', 'readwrite', 'randrw']
ENGINES = ['psync', 'sync', 'pvsync', 'pvsync2', 'vsync', 'io_uring',
           'libaio', 'null']
SYNC_ENGINES = ('psync', 'sync', 'pvsync', 'pvsync2', 'vsync')
SIZE = 256 * ibtest.KiB
BS = 4096
NBLK = SIZE // BS


def io_uring_disabled():
    try:
        with open('/proc/sys/kernel/io_uring_disabled') as f:
            return f.read().strip() == '2'
    except OSError:
        return False


def want_issued(mode, n):
    if mode in ('read', 'randread'):
        return (n, 0, 0, 0)
    if mode in ('write', 'randwrite'):
        return (0, n, 0, 0)
    return None                         # mixed: checked as r + w == n


def check_layout(t, what, log, target, size, bs):
    """Every data I/O: the target, length bs, aligned, inside [0, size)."""
    t.eq(log.version, ibtest.IOLOG_VERSION, '%s: iolog version line' % what)
    t.eq(log.bad, [], '%s: iolog lines that do not parse' % what)
    t.eq(log.files, [target], '%s: iolog file add lines' % what)
    ios = log.data()
    t.eq(sorted({io[0] for io in ios}), [target], '%s: iolog file names' % what)
    t.eq(sorted({io[3] for io in ios}), [bs], '%s: iolog lengths' % what)
    bad = [io for io in ios if io[2] % bs or io[2] + io[3] > size]
    t.eq(bad, [], '%s: misaligned or out-of-range I/Os' % what)


def check_order(t, what, mode, log, nblk, bs, passes=1):
    full = [i * bs for i in range(nblk)]
    if mode in ('read', 'write'):
        t.eq(log.offsets(), full * passes, '%s: sequential offsets' % what)
    elif mode in ('rw', 'readwrite'):
        for d in ('read', 'write'):
            offs = log.offsets(d)
            t.eq(offs, full[:len(offs)],
                 '%s: %s offsets ascending from 0' % (what, d))
    else:
        counts = {}
        for off in log.offsets():
            counts[off] = counts.get(off, 0) + 1
        t.eq(sorted(counts), full, '%s: random offsets cover every block' % what)
        t.eq(sorted(set(counts.values())), [passes],
             '%s: each block exactly %d time(s)' % (what, passes))


def run_mode(t, what, target, mode, engine, size, extra=()):
    log = t.path('iolog')
    if os.path.exists(log):
        os.unlink(log)
    depth = '1' if engine in SYNC_ENGINES else '8'
    args = ['--name=m', '--filename=' + target, '--rw=' + mode,
            '--bs=%d' % BS, '--ioengine=' + engine, '--iodepth=' + depth,
            '--write_iolog=' + log]
    if engine != 'null':
        args.append('--direct=1')
    r = t.run(*args, *extra)
    if not t.ok(r, what):
        return None, None
    jobs = ibtest.parse_report(r.out)
    if not t.eq(len(jobs), 1, '%s: job blocks in the report' % what, r):
        return None, None
    t.eq(jobs[0].err, 0, '%s: err=' % what)
    if not t.check(os.path.exists(log), '%s: write_iolog file exists' % what):
        return jobs[0], None
    return jobs[0], ibtest.parse_iolog(log)


def one(t, where, target, mode, engine, size, extra=(), passes=1):
    what = '%s %s %s %s' % (where, mode, engine, ' '.join(extra))
    job, log = run_mode(t, what, target, mode, engine, size, extra)
    if job is None:
        return
    n = passes * (size // BS)
    want = want_issued(mode, n)
    if want:
        t.eq(job.issued, want, '%s: issued rwts' % what)
    elif t.check(job.issued is not None, '%s: issued rwts line' % what):
        t.eq(job.issued[0] + job.issued[1], n, '%s: reads + writes' % what)
        t.eq(job.issued[2:], (0, 0), '%s: trim and sync issued' % what)
        t.check(job.issued[0] > 0 and job.issued[1] > 0,
                '%s: both directions issued' % what, job.issued)
    if log is None:
        return
    t.eq(len(log.data()), n, '%s: iolog data lines' % what)
    if job.issued:
        t.eq(len(log.data('read')), job.issued[0], '%s: iolog reads' % what)
        t.eq(len(log.data('write')), job.issued[1], '%s: iolog writes' % what)
    check_layout(t, what, log, target, size, BS)
    check_order(t, what, mode, log, size // BS, BS, passes)


# engine options: the same exact counts and coverage with each
VARIANTS = [
    ('io_uring', ['--fixedbufs']),
    ('io_uring', ['--registerfiles']),
    ('io_uring', ['--sqthread_poll']),
    ('io_uring', ['--nonvectored=1']),
    ('io_uring', ['--nonvectored=0']),
    ('io_uring', ['--fixedbufs', '--registerfiles', '--sqthread_poll']),
    ('libaio', ['--userspace_reap']),
    ('io_uring', ['--iodepth=16', '--iodepth_batch_submit=4',
                  '--iodepth_batch_complete_min=2',
                  '--iodepth_batch_complete_max=8', '--iodepth_low=4']),
    ('libaio', ['--iodepth=16', '--iodepth_batch_submit=4',
                '--iodepth_batch_complete_min=2',
                '--iodepth_batch_complete_max=8', '--iodepth_low=4']),
    ('io_uring', ['--iodepth=64', '--iodepth_batch_submit=0',
                  '--iodepth_batch_complete_min=0']),
    ('pvsync2', ['--hipri']),
    ('io_uring', ['--iodepth=16', '--serialize_overlap=1']),
    ('libaio', ['--iodepth=16', '--serialize_overlap=1']),
]


def time_based(t, target, mode, engine):
    """time_based starts new passes: sequential offsets wrap to 0, random
    ones cover every block once per pass (the map is reset when full)."""
    what = 'shm %s %s time_based runtime=1' % (mode, engine)
    job, log = run_mode(t, what, target, mode, engine, SIZE,
                        ('--size=%d' % SIZE, '--time_based', '--runtime=1'))
    if job is None or log is None:
        return
    offs = [o // BS for o in log.offsets()]
    t.check(len(offs) > NBLK, '%s: more than one pass' % what, len(offs))
    if job.issued:
        t.eq(sum(job.issued[:2]), len(offs), '%s: issued = iolog lines' % what)
    if mode == 'read':
        t.eq(offs, [i % NBLK for i in range(len(offs))],
             '%s: offsets wrap to the start' % what)
        return
    passes = [offs[i:i + NBLK] for i in range(0, len(offs), NBLK)]
    bad = [i for i, p in enumerate(passes[:-1]) if sorted(p) != list(range(NBLK))]
    t.eq(bad, [], '%s: full passes that are not a permutation' % what)
    t.eq(len(set(passes[-1])), len(passes[-1]),
         '%s: no repeat within the last pass' % what)


def depth_warning(t, target, engines):
    """iodepth>1 with a synchronous engine: a warning naming the engine and
    iodepth in the report; none for the asynchronous ones."""
    for engine in engines:
        what = '%s iodepth=8' % engine
        r = t.run('--name=d', '--filename=' + target, '--size=64k',
                  '--rw=read', '--iodepth=8', '--ioengine=' + engine)
        if not t.ok(r, what):
            continue
        # the sync-depth check says it once, under the job in the report
        # (--warnings selects it), never on stderr
        warned = [ln for ln in r.out.splitlines()
                  if 'sync-depth' in ln and engine in ln and 'iodepth' in ln]
        t.eq([ln for ln in r.err.splitlines() if 'iodepth' in ln], [],
             '%s: no depth line on stderr' % what, r)
        if engine in SYNC_ENGINES:
            t.eq(len(warned), 1, '%s: one warning line naming the engine '
                 'and iodepth' % what, r)
        else:
            t.eq(warned, [], '%s: no depth warning' % what)


def engines_here(t):
    engines = list(ENGINES)
    if io_uring_disabled():
        t.skip('io_uring disabled by the kernel (io_uring_disabled=2)')
        engines.remove('io_uring')
    return engines


def grid(t, engines):
    """(engine, mode): every engine with every mode; under a wrapper
    (memcheck: each run 1.5 s or more) each engine and each mode once,
    (psync, read), (sync, write), ... (null, read): these 8 of the 56 runs
    and the VARIANTS' reach every line of src/ the whole grid does (gcov:
    tools/vg-coverage.py runs modes)."""
    if not t.reduced:
        return [(e, m) for e in engines for m in MODES]
    n = max(len(engines), len(MODES))
    return [(engines[i % len(engines)], MODES[i % len(MODES)])
            for i in range(n)]


def main():
    t = ibtest.Test()
    engines = engines_here(t)
    shm = t.shm_file('target', SIZE)
    for engine, mode in grid(t, engines):
        one(t, 'shm', shm, mode, engine, SIZE, ('--size=%d' % SIZE,))

    # (under a wrapper randrw only: the loop device runs each with randrw)
    for engine, opts in VARIANTS:
        if engine in engines:
            for mode in ('randrw',) if t.reduced else \
                    ('read', 'randwrite', 'randrw'):
                one(t, 'shm', shm, mode, engine, SIZE,
                    ['--size=%d' % SIZE] + opts)

    depth_warning(t, shm, engines)

    for mode, engine in (('read', 'psync'), ('randread', 'psync'),
                         ('randrw', 'libaio')):
        time_based(t, shm, mode, engine)

    # loops: every block once per pass
    for mode in ('read', 'randread', 'randwrite', 'randrw'):
        one(t, 'shm', shm, mode, 'psync', SIZE,
            ('--size=%d' % SIZE, '--loops=2'), passes=2)

    # norandommap: with replacement, so 64 draws over 64 blocks repeat
    what = 'shm randread norandommap'
    job, log = run_mode(t, what, shm, 'randread', 'psync', SIZE,
                        ('--size=%d' % SIZE, '--norandommap'))
    if job and log:
        t.eq(job.issued, (NBLK, 0, 0, 0), '%s: issued rwts' % what)
        check_layout(t, what, log, shm, SIZE, BS)
        offs = log.offsets()
        t.check(len(set(offs)) < len(offs), '%s: some block repeats' % what,
                sorted(offs))

    # a loop device, no size= given: its whole capacity (BLKGETSIZE64)
    dev = t.loop_device(SIZE)
    if dev is None:
        t.skip('loop devices unavailable: loop-device cases')
    else:
        for engine, mode in grid(t, engines):
            # null does no I/O, so it does not ask the device its size
            extra = ('--size=%d' % SIZE,) if engine == 'null' else ()
            one(t, 'loop', dev, mode, engine, SIZE, extra)
        one(t, 'loop', dev, 'randread', 'io_uring', SIZE, ('--loops=2',),
            passes=2)
        for engine, opts in VARIANTS:
            if engine in engines:
                one(t, 'loop', dev, 'randrw', engine, SIZE, opts)
    t.finish()


if __name__ == '__main__':
    main()
