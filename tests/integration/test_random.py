#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""random_distribution (issue 13, second part): the offsets a job issues
follow fio's definitions, checked statistically over the iolog, not only
parsed. zipf, pareto and normal: the iolog's blocks are turned back into
ranks (fio spreads rank r to (r * 0x61C8864680B583EB + off) mod n, and a
given center fixes off), and a chi-square test compares the rank
histogram with the distribution computed here from fio's formulas, and
with fio 3.33's own run of the same job. zoned and zoned_abs: the share of
I/Os per zone (chi-square), uniform inside a zone, and per direction
(exact). On a tmpfs file with the null engine, and on a loop device.
file_service_type: the file order from the iolog (exact, and as fio 3.33's
for roundrobin[:N] and sequential), random:N runs, zipf over files
(rank-frequency). percentage_random, allrandrepeat, random_generator.
"""
import bisect
import collections
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB
SPREAD = 0x61C8864680B583EB
N = 16384                       # 64 MiB in 4 KiB ranges
IOS = 20480
INV = pow(SPREAD, -1, 1 << 64) % N
CHI2_P001 = {3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12,
             9: 27.88, 10: 29.59, 11: 31.26}


def blocks(t, target, dist, fio=False, extra=()):
    """Block indexes (offset / 4k) of a randread job's reads."""
    log = t.path('r.%s.%d.iolog' % (dist.replace(':', '_').replace('/', '_'),
                                    fio))
    args = ['--name=r', '--filename=' + target, '--size=64m', '--bs=4k',
            '--rw=randread', '--random_distribution=' + dist,
            '--io_size=%d' % (IOS * 4096), '--write_iolog=' + log,
            '--output-format=json', '--ioengine=null'] + list(extra)
    r = t.fio(*args) if fio else t.run(*args)
    if r is None:
        return None
    if not t.ok(r, '%s%s' % (dist, ' (fio)' if fio else '')):
        return None
    b = [io[2] // 4096 for io in ibtest.parse_iolog(log).ios
         if io[1] == 'read']
    t.eq(len(b), IOS, '%s%s: reads' % (dist, ' (fio)' if fio else ''))
    return b


def ranks(bl, off):
    return [((b - off) % N) * INV % N for b in bl]


def chi2(obs, exp):
    """Pearson's statistic; bins with expected < 5 are merged forward."""
    o2, e2, ao, ae = [], [], 0.0, 0.0
    for o, e in zip(obs, exp):
        ao += o
        ae += e
        if ae >= 5:
            o2.append(ao)
            e2.append(ae)
            ao = ae = 0.0
    if ae and e2:
        o2[-1] += ao
        e2[-1] += ae
    return sum((o - e) ** 2 / e for o, e in zip(o2, e2)), len(o2) - 1


def chi2_two(a, b):
    """Two-sample statistic over the same bins (equal totals)."""
    pairs = [(x, y) for x, y in zip(a, b) if x + y >= 10]
    return sum((x - y) ** 2 / (x + y) for x, y in pairs), len(pairs) - 1


EDGES = [0, 1, 2, 3, 4, 6, 10, 20, 50, 100, 300, 1000, 4000, N]


def binned(rk):
    c = [0] * (len(EDGES) - 1)
    for r in rk:
        c[bisect.bisect_right(EDGES, r) - 1] += 1
    return c


def quad(rank_of_u, steps=400000):
    """Bin probabilities of rank = f(u), u uniform on [0, 1] (midpoints)."""
    c = [0] * (len(EDGES) - 1)
    for i in range(steps):
        r = min(rank_of_u((i + 0.5) / steps), N - 1)
        c[bisect.bisect_right(EDGES, r) - 1] += 1
    return [x / steps for x in c]


def zipf_rank_fn(theta, n=N):
    zetan = sum((1.0 / i) ** theta for i in range(1, n + 1))
    zeta2 = 1.0 + 0.5 ** theta
    alpha = 1.0 / (1.0 - theta)
    eta = (1.0 - (2.0 / n) ** (1.0 - theta)) / (1.0 - zeta2 / zetan)

    def f(u):
        z = u * zetan
        if z < 1.0:
            return 0
        if z < 1.0 + 0.5 ** theta:
            return 1
        return int(n * (eta * u - eta + 1.0) ** alpha)
    return f


def pareto_rank_fn(h):
    p = math.log(h) / math.log(1.0 - h)
    return lambda u: int((N - 1) * u ** p)


def normal_probs(dev, samples=60000):
    """fio's normal by Monte Carlo (12 uniform draws and a deviation)."""
    rng = random.Random(7)
    s = min(math.ceil(N * dev / 100.0), N // 2)
    c = [0] * 10
    for _ in range(samples):
        v = (sum(rng.randrange(N + 1) for _ in range(12)) + 11) // 12
        d = int(s * rng.random()) - s // 2
        while v + d >= N or v + d < 0:
            d = int(d / 2)
        c[min((v + d) * 10 // N, 9)] += 1
    return [x / samples for x in c]


def check_shape(t, name, rk, probs, fio_rk=None):
    obs = binned(rk)
    stat, df = chi2(obs, [p * len(rk) for p in probs])
    t.check(stat < CHI2_P001.get(df, 3 * df), '%s: ranks vs fio\'s definition:'
            ' chi2=%.1f df=%d %s' % (name, stat, df, obs))
    if fio_rk is not None:
        stat, df = chi2_two(obs, binned(fio_rk))
        t.check(stat < CHI2_P001.get(df, 3 * df), '%s: ranks vs fio 3.33\'s '
                'run: chi2=%.1f df=%d' % (name, stat, df))


def test_zipf_pareto(t, f):
    cases = [('zipf:1.2:0.25', zipf_rank_fn(1.2), N // 4),
             ('zipf:0.8:0', zipf_rank_fn(0.8), 0),
             ('pareto:0.2:0.5', pareto_rank_fn(0.2), N // 2),
             ('pareto:0.4:0', pareto_rank_fn(0.4), 0)]
    for dist, fn, off in cases:
        b = blocks(t, f, dist)
        if b is None:
            continue
        fb = blocks(t, f, dist, fio=True)
        check_shape(t, dist, ranks(b, off), quad(fn),
                    ranks(fb, off) if fb else None)
        t.check(len(set(b)) < IOS, '%s: no random map (repeats)' % dist)
    # no center: the hot block is anywhere, the shape is the same
    b = blocks(t, f, 'zipf:1.2')
    if b:
        top = collections.Counter(b).most_common(2)
        t.eq((top[1][0] - top[0][0]) % N, SPREAD % N,
             'zipf:1.2: the second hottest block is one spread step on')
        check_shape(t, 'zipf:1.2', ranks(b, top[0][0]), quad(zipf_rank_fn(1.2)))


def test_normal(t, f):
    for dist, dev in (('normal:10', 10), ('normal:0', 0), ('normal:50:0.5', 50)):
        b = blocks(t, f, dist)
        if b is None:
            continue
        probs = normal_probs(dev)
        rk = ranks(b, 0)
        obs = [0] * 10
        for r in rk:
            obs[min(r * 10 // N, 9)] += 1
        stat, df = chi2(obs, [p * len(rk) for p in probs])
        t.check(stat < CHI2_P001.get(df, 3 * df), '%s: ranks vs fio\'s '
                'definition: chi2=%.1f df=%d %s' % (dist, stat, df, obs))
        fb = blocks(t, f, dist, fio=True)
        if fb:
            fobs = [0] * 10
            for r in ranks(fb, 0):
                fobs[min(r * 10 // N, 9)] += 1
            stat, df = chi2_two(obs, fobs)
            t.check(stat < CHI2_P001.get(df, 3 * df), '%s: vs fio 3.33: '
                    'chi2=%.1f df=%d %s %s' % (dist, stat, df, obs, fobs))


def zone_counts(bl, bounds):
    c = [0] * (len(bounds) - 1)
    for b in bl:
        c[bisect.bisect_right(bounds, b) - 1] += 1
    return c


def test_zoned(t, f):
    spec = [(60, 10), (30, 20), (8, 30), (2, 40)]
    dist = 'zoned:' + ':'.join('%d/%d' % z for z in spec)
    bounds, at = [0], 0
    for _, size in spec:
        at += size * N // 100
        bounds.append(at)
    for fio in (False, True):
        b = blocks(t, f, dist, fio=fio)
        if b is None:
            continue
        who = 'fio 3.33' if fio else 'iobench'
        obs = zone_counts(b, bounds)
        stat, df = chi2(obs, [p * IOS / 100 for p, _ in spec])
        t.check(stat < CHI2_P001[df], 'zoned %s: I/Os per zone %s chi2=%.1f'
                % (who, obs, stat))
        first = [x for x in b if x < bounds[1]]
        quarter = zone_counts(first, [bounds[1] * i // 4 for i in range(5)])
        stat, df = chi2(quarter, [len(first) / 4] * 4)
        t.check(stat < CHI2_P001[df], 'zoned %s: uniform inside a zone %s'
                % (who, quarter))
    dist = 'zoned_abs:70/8m:20/24m:10/32m'
    bounds = [0, 2048, 8192, N]
    for fio in (False, True):
        b = blocks(t, f, dist, fio=fio)
        if b is None:
            continue
        obs = zone_counts(b, bounds)
        stat, df = chi2(obs, [0.7 * IOS, 0.2 * IOS, 0.1 * IOS])
        t.check(stat < 13.8, 'zoned_abs %s: I/Os per zone %s chi2=%.1f' %
                ('fio 3.33' if fio else 'iobench', obs, stat))


def test_zoned_missing(t, f):
    """Zone sizes left out share what the given ones leave, evenly and
    rounded down (fio's rule; its own example zoned:50/5:30/15:20/): no
    I/O below the zones of 0% of the I/Os, none past the 99% three
    thirds cover; the same bounds on fio 3.33's run of the job."""
    for dist, lo, hi in (('zoned:0/10:0/:100/', 55 * N // 100, N),
                         ('zoned:0/:0/0:100', 66 * N // 100, 99 * N // 100),
                         ('zoned:0/5:0/15:100/', 20 * N // 100, N)):
        for fio in (False, True):
            b = blocks(t, f, dist, fio=fio)
            if b is None:
                continue
            who = 'fio 3.33' if fio else 'iobench'
            t.eq((len(b), min(b) >= lo, max(b) < hi), (IOS, True, True),
                 '%s %s: I/Os, all in blocks %d..%d' % (who, dist, lo, hi))
            t.check(max(b) >= hi - (hi - lo) // 8,
                    '%s %s: the zone reaches its end' % (who, dist))


def test_zoned_dirs(t):
    dev = t.loop_device(8 * MiB)
    if dev is None:
        t.skip('no loop devices: zoned per direction')
        return
    log = t.path('zd.iolog')
    r = t.run('--name=zd', '--filename=' + dev, '--rw=randrw', '--bs=4k',
              '--random_distribution=zoned:100/50:0/50,0/50:100/50',
              '--io_size=4m', '--ioengine=libaio', '--iodepth=8',
              '--allow_data_loss=1', '--write_iolog=' + log)
    if not t.ok(r, 'zoned per direction on a loop device'):
        return
    ios = ibtest.parse_iolog(log).ios
    reads = [io[2] for io in ios if io[1] == 'read']
    writes = [io[2] for io in ios if io[1] == 'write']
    t.eq(len(reads) + len(writes), 1024, 'zoned per direction: I/Os')
    t.check(reads and max(reads) < 4 * MiB, 'zoned: reads in the first half')
    t.check(writes and min(writes) >= 4 * MiB, 'zoned: writes in the '
            'second half')


def test_parse(t):
    for v, msg in (('zipf:1', 'zipf theta must be above 0 and not 1'),
                   ('pareto:1.5', 'pareto h must be between 0 and 1'),
                   ('zoned:50/10:40/20', "the zones' percentages must add up "
                    'to 100 and their sizes to at most 100'),
                   ('zoned:50/100:50/', 'zone 2 has 50% of the I/Os but no '
                    'size'),
                   ('gamma:2', 'unknown distribution (random, zipf, pareto, '
                    'normal, zoned, zoned_abs)')):
        r = t.run('--parse-only', '--name=x', '--size=1m', '--rw=randread',
                  '--random_distribution=' + v)
        t.fails(r, 'random_distribution=' + v)
        t.eq(r.err.strip(), 'iobench: random_distribution=%s: %s' % (v, msg),
             'random_distribution=%s: message' % v, r)
    # random: the default, with the map (each block once)
    f = t.shm_file('u', size=1 * MiB)
    log = t.path('u.iolog')
    r = t.run('--name=u', '--filename=' + f, '--rw=randread', '--bs=4k',
              '--random_distribution=random', '--ioengine=null', '--size=1m',
              '--write_iolog=' + log)
    if t.ok(r, 'random_distribution=random'):
        offs = [io[2] for io in ibtest.parse_iolog(log).ios]
        t.eq(sorted(offs), [i * 4096 for i in range(256)],
             'random: every block once')


def file_order(t, d, fst, fio=False, nrfiles=3, size='48k', rw='read'):
    """(file number, offset KiB) of each read, from the iolog."""
    for n in os.listdir(d):
        os.unlink(os.path.join(d, n))
    log = t.path('fs.%d.iolog' % fio)
    if os.path.exists(log):
        os.unlink(log)     # fio appends
    args = ['--name=fs', '--directory=' + d, '--nrfiles=%d' % nrfiles,
            '--size=' + size, '--bs=4k', '--rw=' + rw,
            '--file_service_type=' + fst, '--ioengine=psync', '--direct=0',
            '--write_iolog=' + log, '--output-format=json']
    r = t.fio(*args) if fio else t.run(*args)
    if r is None:
        return None
    if not t.ok(r, 'file_service_type=%s%s' % (fst, ' (fio)' if fio else '')):
        return None
    return [(int(io[0].rsplit('.', 1)[1]), io[2] // KiB)
            for io in ibtest.parse_iolog(log).ios if io[1] == 'read']


def test_file_service(t):
    d = t.mkdir('fsdir')
    want = {
        'roundrobin': [(f, o) for o in (0, 4, 8, 12) for f in range(3)],
        'roundrobin:2': [(f, o) for p in ((0, 4), (8, 12)) for f in range(3)
                         for o in p],
        'sequential': [(f, o) for f in range(3) for o in (0, 4, 8, 12)],
        'sequential:2': [(f, o) for f in range(3) for o in (0, 4, 8, 12)],
    }
    for fst, w in want.items():
        got = file_order(t, d, fst)
        if got is None:
            continue
        t.eq(got, w, 'file_service_type=%s: file order' % fst)
        fgot = file_order(t, d, fst, fio=True)
        if fgot is not None:
            t.eq(fgot, w, 'file_service_type=%s: file order, fio 3.33' % fst)
    for fio in (False, True):
        got = file_order(t, d, 'random:4', fio=fio, nrfiles=4, size='1m')
        if got is None:
            continue
        who = 'fio 3.33' if fio else 'iobench'
        c = collections.Counter(f for f, _ in got)
        if fio:     # fio 3.33 goes on until each file is done: more I/Os
            t.check(len(c) == 4 and min(c.values()) >= 64,
                    'random:4 fio 3.33: every file read %s' % dict(c))
            continue
        t.eq(sorted(c.values()), [64] * 4, 'random:4 %s: each file fully '
             'read once' % who)
        runs, n = [], 1
        for a, b in zip(got, got[1:]):
            if a[0] == b[0]:
                n += 1
            else:
                runs.append(n)
                n = 1
        t.check(min(runs) >= 4 and len(runs) < 64, 'random:4 %s: runs of at '
                'least 4 I/Os per file (%d switches)' % (who, len(runs)))
        t.check(got != sorted(got, key=lambda x: x[0]), 'random:4 %s: files '
                'interleaved' % who)
    # zipf over 8 files: the rank-frequency of the files
    for fio in (False, True):
        got = file_order(t, d, 'zipf:1.2', fio=fio, nrfiles=8, size='32m',
                         rw='randread')
        if got is None:
            continue
        who = 'fio 3.33' if fio else 'iobench'
        c = sorted(collections.Counter(f for f, _ in got).values(),
                   reverse=True)
        if not fio:
            t.eq(sum(c), 8192, 'zipf files %s: reads' % who)
        # fio's definition: zipf over 8 << 10 ranges from a random start,
        # file = range >> 10: the best fitting start (one parameter)
        stat, exp = min((chi2(c, [p * sum(c) for p in probs])[0], probs)
                        for probs in file_zipf_probs(1.2, 8))
        t.check(stat < CHI2_P001[6], 'zipf files %s: rank-frequency %s vs '
                '%s chi2=%.1f' % (who, c, [round(e * sum(c)) for e in exp],
                                  stat))


def file_zipf_probs(theta, files):
    """For each start (every 32nd range): the files' shares, sorted, of
    zipf over files << 10 ranges starting there, file = range >> 10."""
    n = files << 10
    fn = zipf_rank_fn(theta, n)
    steps = 200000
    hist = collections.Counter(min(fn((i + 0.5) / steps), n - 1)
                               for i in range(steps))
    out = []
    for start in range(0, n, 32):
        per = [0] * files
        for rank, k in hist.items():
            per[((rank + start) % n) >> 10] += k
        out.append([v / steps for v in sorted(per, reverse=True)])
    return out


def test_pct_random(t):
    f = t.shm_file('pr', size=16 * MiB)
    for pct, fio in ((0, False), (25, False), (100, False), (25, True),
                     (75, True)):
        log = t.path('pr%d.%d.iolog' % (pct, fio))
        a = ['--name=pr', '--filename=' + f, '--rw=randread', '--bs=4k',
             '--percentage_random=%d' % pct, '--ioengine=null', '--size=16m',
             '--write_iolog=' + log]
        r = t.fio(*a) if fio else t.run(*a)
        if r is None:
            continue
        if not t.ok(r, 'percentage_random=%d%s' % (pct, ' fio' if fio else '')):
            continue
        offs = [io[2] for io in ibtest.parse_iolog(log).ios]
        t.eq(len(offs), 4096, 'percentage_random=%d: reads' % pct)
        follow = sum(1 for a, b in zip(offs, offs[1:]) if b == a + 4096)
        share = follow / (len(offs) - 1)
        want = (100 - pct) / 100
        t.check(abs(share - want) < 0.03, 'percentage_random=%d%s: %.3f of '
                'the I/Os follow the one before (want %.2f)' %
                (pct, ' (fio 3.33)' if fio else '', share, want))
    r = t.run('--parse-only', '--name=x', '--size=1m',
              '--percentage_random=50,101')
    t.fails(r, 'percentage_random=50,101')
    t.eq(r.err.strip(), 'iobench: percentage_random=50,101: each value must '
         'be 0..100', 'percentage_random message', r)
    test_generators(t, f)


def test_generators(t, f):
    """lfsr (the permutation) and tausworthe64 (64-bit draws, the map):
    every 4k block once in each of two passes."""
    for gen in ('lfsr', 'tausworthe64', 'tausworthe'):
        log = t.path('gen.%s.iolog' % gen)
        r = t.run('--name=g', '--filename=' + f, '--rw=randread', '--bs=4k',
                  '--random_generator=' + gen, '--ioengine=null',
                  '--size=1m', '--loops=2', '--write_iolog=' + log)
        if not t.ok(r, 'random_generator=' + gen):
            continue
        offs = [io[2] for io in ibtest.parse_iolog(log).ios]
        every = [i * 4096 for i in range(256)]
        t.eq(len(offs), 512, '%s: reads' % gen)
        t.eq(sorted(offs[:256]), every, '%s: pass 1 covers each block once'
             % gen)
        t.eq(sorted(offs[256:]), every, '%s: pass 2 covers each block once'
             % gen)
    r = t.run('--parse-only', '--name=x', '--size=1m',
              '--random_generator=xorshift')
    t.fails(r, 'random_generator=xorshift')
    t.eq(r.err.strip(), 'iobench: random_generator=xorshift: unknown '
         'generator (tausworthe, lfsr, tausworthe64)', 'unknown generator', r)


def test_allrandrepeat(t):
    f = t.shm_file('ar', size=4 * MiB)
    logs = {}
    for allr in (0, 1):
        for run in range(2):
            log = t.path('ar%d.%d.iolog' % (allr, run))
            r = t.run('--name=ar', '--filename=' + f, '--rw=randrw',
                      '--bs=4k', '--randrepeat=0', '--random_generator=tausworthe',
                      '--allrandrepeat=%d' % allr, '--ioengine=null', '--size=4m',
                      '--write_iolog=' + log)
            if t.ok(r, 'allrandrepeat=%d run %d' % (allr, run)):
                logs[allr, run] = ibtest.parse_iolog(log).ios
    if len(logs) == 4:
        t.check(logs[1, 0] == logs[1, 1], 'allrandrepeat=1: runs repeat')
        t.check(logs[0, 0] != logs[0, 1], 'randrepeat=0: runs differ')


def main():
    t = ibtest.Test()
    f = t.shm_file('dist', size=64 * MiB)
    test_parse(t)
    test_zipf_pareto(t, f)
    test_normal(t, f)
    test_zoned(t, f)
    test_zoned_missing(t, f)
    test_zoned_dirs(t)
    test_file_service(t)
    test_pct_random(t)
    test_allrandrepeat(t)
    t.finish()


if __name__ == '__main__':
    main()
