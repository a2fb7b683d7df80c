#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Read/write mix and split block sizes: rwmixread / rwmixwrite keep the
long-run read share within 1 percentage point; bs=4k,16k reads 4k and writes
16k, each aligned to its own size.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB


def run_job(t, what, *args):
    log = t.path('mix.iolog')
    if os.path.exists(log):
        os.unlink(log)
    r = t.run('--name=mix', '--write_iolog=' + log, *args)
    if not t.ok(r, what):
        return None, None
    jobs = ibtest.parse_report(r.out)
    if not t.eq(len(jobs), 1, '%s: job blocks' % what, r):
        return None, None
    if not t.check(jobs[0].issued is not None, '%s: issued rwts line' % what, r):
        return None, None
    il = ibtest.parse_iolog(log) if os.path.exists(log) else None
    t.check(il is not None, '%s: iolog written' % what)
    return jobs[0], il


def check_share(t, what, job, il, nios, read_pct):
    r, w = job.issued[0], job.issued[1]
    t.eq(r + w, nios, '%s: reads + writes' % what)
    t.eq(job.issued[2:], (0, 0), '%s: trim, sync issued' % what)
    share = 100.0 * r / max(1, r + w)
    t.check(abs(share - read_pct) <= 1.0,
            '%s: read share %.2f%% within 1 of %d%%' % (what, share, read_pct),
            job.issued)
    if il:
        t.eq((len(il.data('read')), len(il.data('write'))), (r, w),
             '%s: iolog reads, writes' % what)


def test_mix(t):
    shm = t.shm_file('mix', 16 * MiB)
    cases = [
        # (what, args, number of I/Os, expected read %)
        ('null randrw rwmixread=75',
         ['--ioengine=null', '--size=64m', '--bs=4k', '--rw=randrw',
          '--rwmixread=75', '--filename=' + shm], 16384, 75),
        ('null rw rwmixread=75',
         ['--ioengine=null', '--size=64m', '--bs=4k', '--rw=rw',
          '--rwmixread=75', '--filename=' + shm], 16384, 75),
        ('null randrw rwmixwrite=10',
         ['--ioengine=null', '--size=64m', '--bs=4k', '--rw=randrw',
          '--rwmixwrite=10', '--filename=' + shm], 16384, 90),
        ('null randrw default mix',
         ['--ioengine=null', '--size=64m', '--bs=4k', '--rw=randrw',
          '--filename=' + shm], 16384, 50),
        ('io_uring randrw rwmixread=75 direct',
         ['--ioengine=io_uring', '--iodepth=16', '--direct=1', '--size=16m',
          '--bs=4k', '--rw=randrw', '--rwmixread=75', '--filename=' + shm],
         4096, 75),
        ('psync randrw rwmixwrite=25 direct',
         ['--ioengine=psync', '--direct=1', '--size=16m', '--bs=4k',
          '--rw=randrw', '--rwmixwrite=25', '--filename=' + shm], 4096, 75),
    ]
    for what, args, nios, pct in cases:
        job, il = run_job(t, what, *args)
        if job:
            check_share(t, what, job, il, nios, pct)


def test_split_bs(t):
    size = 1 * MiB
    shm = t.shm_file('split', size)
    base = ['--filename=' + shm, '--size=1m', '--bs=4k,16k', '--direct=1',
            '--ioengine=psync']
    # one direction only: exact counts with that direction's size
    for rw, want, ddir, bs in (('read', (256, 0, 0, 0), 'read', 4096),
                               ('randread', (256, 0, 0, 0), 'read', 4096),
                               ('write', (0, 64, 0, 0), 'write', 16384),
                               ('randwrite', (0, 64, 0, 0), 'write', 16384)):
        what = 'bs=4k,16k rw=%s' % rw
        job, il = run_job(t, what, *base, '--rw=' + rw)
        if not job:
            continue
        t.eq(job.issued, want, '%s: issued rwts' % what)
        if il:
            ios = il.data(ddir)
            t.eq(len(ios), want[0] + want[1], '%s: iolog I/Os' % what)
            t.eq(sorted({io[3] for io in ios}), [bs], '%s: lengths' % what)
            t.eq(sorted(io[2] for io in ios), [i * bs for i in range(size // bs)],
                 '%s: every %d-byte block once' % (what, bs))
    # both directions: reads 4k, writes 16k, each aligned to its own size
    for rw in ('rw', 'randrw'):
        what = 'bs=4k,16k rw=%s' % rw
        job, il = run_job(t, what, *base, '--rw=' + rw)
        if not job or not il:
            continue
        reads, writes = il.data('read'), il.data('write')
        t.check(reads and writes, '%s: both directions' % what, job.issued)
        t.eq((len(reads), len(writes)), job.issued[:2],
             '%s: iolog reads, writes vs issued' % what)
        t.eq(sorted({io[3] for io in reads}), [4096], '%s: read lengths' % what)
        t.eq(sorted({io[3] for io in writes}), [16384],
             '%s: write lengths' % what)
        bad = [io for io in reads if io[2] % 4096 or io[2] + 4096 > size] + \
              [io for io in writes if io[2] % 16384 or io[2] + 16384 > size]
        t.eq(bad, [], '%s: misaligned or out-of-range I/Os' % what)


def main():
    t = ibtest.Test()
    test_mix(t)
    test_split_bs(t)
    t.finish()


if __name__ == '__main__':
    main()
