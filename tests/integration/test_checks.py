#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Validity checks (issue 18), each provoked on purpose on a real target and
shown clean without its cause:

  page-cache       buffered reads of a cached file on a block-device file system
  write-cache      writes without fsync to a disk whose write cache is on
  buffered-device  direct=0 on a loop device
  unwritten        reads of a sparse file, of a fresh zram device
  compressible     zero_buffers written to zram
  cpu-bound        the null engine at full speed
  cpu-oversubscribed  two null-engine jobs pinned to one CPU
  tool-bound       the null engine reaching iobench's own ceiling
  depth-low        iodepth=64 capped by iodepth_batch_complete_min=64
  sync-depth       psync at iodepth=8
  short-run        a 1-second run asking for p99.99
  runtime-off      a time_based run interrupted early
  batch-unfilled   psync with iodepth_batch_submit=16
  step             a blkio read IOPS limit set on the job at 2.5 s
  warm-up          the same limit on the first 1.5 s only, without ramp_time
  trend            a limit lowered each second of the second half

and the brief's seed command lines on prefilled tmpfs files and loop
devices (O_DIRECT) fire none. Also: --warnings, the environment object,
--env, the tool overhead line, and a randrepeat=0 job replayed exactly by
the randseed= its report gives.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB


REPRINT = [None]     # tests/tools/reprint: the results reader


def read_back(t, what, jpath, doc):
    """The JSON report read back and printed again has the same checks,
    seeds and tool overhead (they are judged again from the evidence)."""
    if not REPRINT[0]:
        return
    p = subprocess.run([REPRINT[0], 'json', jpath], capture_output=True, text=True)
    if not t.eq(p.returncode, 0, '%s: read back' % what, p.stderr):
        return
    again = json.loads(p.stdout)
    # a group_reporting entry has no evidence: its checks were judged per job
    pairs = [(a, b) for a, b in zip(again['jobs'], doc['jobs']) if 'iobench evidence' in b]
    for key in ('iobench checks', 'random seed', 'tool overhead', 'iobench evidence'):
        t.eq([a.get(key) for a, b in pairs], [b.get(key) for a, b in pairs],
             '%s: read back, the same %s' % (what, key))
    t.eq(again.get('environment'), doc.get('environment'),
         '%s: read back, the same environment' % what)


def run_checks(t, what, *args, rc=0, cwd=None):
    """Run with normal output on stdout and JSON to a file: (result, doc,
    {job index: [check ids]}, [text check lines]). The JSON is read back
    (read_back) when a check fired."""
    jpath = t.path('out%d.json' % t.passed)
    r = t.run('--json-output=' + jpath, '--output-format=normal', *args,
              cwd=cwd, timeout=60)
    if not t.eq(r.rc, rc, '%s: exit status' % what, r):
        return r, None, {}, []
    with open(jpath) as f:
        doc = json.load(f)
    if any(j.get('iobench checks') for j in doc['jobs']):
        read_back(t, what, jpath, doc)
    os.unlink(jpath)
    ids = {i: [c['id'] for c in j.get('iobench checks', [])]
           for i, j in enumerate(doc['jobs'])}
    lines = [ln for ln in r.out.splitlines()
             if re.match(r'  (warning|info) \[[a-z-]+\]: ', ln)]
    return r, doc, ids, lines


def fires(t, what, args, check, **kw):
    """The run fires `check` (job 0), in JSON and in the text; returns its
    JSON entry."""
    r, doc, ids, lines = run_checks(t, what, *args, **kw)
    if doc is None:
        return None
    t.check(check in ids.get(0, []), '%s: %s fires (got %s)' % (what, check, ids), r)
    t.check(any('[%s]' % check in ln for ln in lines),
            '%s: a "%s" line under the job' % (what, check), r.out)
    for c in doc['jobs'][0].get('iobench checks', []):
        if c['id'] == check:
            t.check(c['severity'] in ('warning', 'info') and c['message'] and
                    isinstance(c['evidence'], dict) and c['evidence'],
                    '%s: %s has severity, message and evidence' % (what, check), c)
            return c
    return None


# In a sanitizer build the tool really is several times slower per I/O, so
# the checks about the tool's own cost may rightly fire on a clean job there.
SANITIZED = bool(os.environ.get('ASAN_OPTIONS') or os.environ.get('UBSAN_OPTIONS'))
TOOL_COST = {'tool-bound', 'cpu-bound', 'clock-cost'}


def load_explained(t, what, job):
    """The checks of job that say what the machine did to the run, each
    exactly as its own evidence gives it: the rate series' (warm-up, step,
    trend: series_fires), short-run (fewer latency samples than the
    percentile needs) and runtime-off (a time_based job held past or
    short of its runtime). On a loaded machine a clean job rightly gets
    them; anything else is not explained by the load."""
    got = [c['id'] for c in job.get('iobench checks', [])]
    series = [c for c in got if c in SERIES_IDS]
    t.eq(sorted(series), sorted(series_fires(job.get('iobench evidence', {}))),
         '%s: the rate-series checks follow the run\'s own series' % what)
    out = set(series)
    for c in job.get('iobench checks', []):
        ev = c.get('evidence', {})
        if c['id'] == 'short-run' and ev.get('samples', 0) < ev.get('samples_needed', 0):
            out.add('short-run')
        ran, asked = ev.get('runtime_ms', 0), ev.get('runtime_asked_ms', 0)
        if c['id'] == 'runtime-off' and (ran * 10 < asked * 9 or
                                         ran > asked + asked // 10 + 1000):
            out.add('runtime-off')
    return out


def clean(t, what, args, **kw):
    r, doc, ids, lines = run_checks(t, what, *args, **kw)
    if doc is None:
        return
    if SANITIZED or t.wrapper:
        ids = {k: [c for c in v if c not in TOOL_COST] for k, v in ids.items()}
        lines = [ln for ln in lines
                 if not any('[%s]' % c in ln for c in TOOL_COST)]
    # what the load explains, by the run's own evidence, is not a failure
    for k, job in enumerate(doc['jobs']):
        why = load_explained(t, '%s (job %d)' % (what, k), job)
        ids[k] = [c for c in ids.get(k, []) if c not in why]
        lines = [ln for ln in lines if not any('[%s]' % c in ln for c in why)]
    t.eq(sum(len(v) for v in ids.values()), 0, '%s: no check fires (%s)' % (what, ids), r.out)
    t.eq(lines, [], '%s: no check line' % what)


def block_dir():
    """A temp directory on a file system over a block device, or None."""
    for d in ('/var/tmp', '/tmp'):
        try:
            st = os.stat(d)
        except OSError:
            continue
        sysdev = '/sys/dev/block/%d:%d' % (os.major(st.st_dev), os.minor(st.st_dev))
        if os.path.exists(sysdev):
            return d, os.path.realpath(sysdev)
    return None, None


def disk_write_cache(sysdev):
    for p in (sysdev, os.path.dirname(sysdev)):
        try:
            with open(os.path.join(p, 'queue', 'write_cache')) as f:
                return f.read().strip()
        except OSError:
            continue
    return ''


def test_block_fs(t):
    d, sysdev = block_dir()
    if not d:
        t.skip('no file system over a block device for page-cache/write-cache')
        return
    fd, path = tempfile.mkstemp(prefix='ibchecks.', dir=d)
    try:
        os.write(fd, os.urandom(8 * MiB))
        os.fsync(fd)
        os.close(fd)
        with open(path, 'rb') as f:      # now in the page cache
            while f.read(MiB):
                pass
        # invalidate=0: fio's default invalidate=1 would drop the cache first
        base = ['--name=pc', '--filename=' + path, '--size=8m', '--bs=4k',
                '--ioengine=psync', '--invalidate=0']
        c = fires(t, 'cached file, buffered', base + ['--rw=read', '--direct=0'],
                  'page-cache')
        if c:
            t.eq(c['evidence']['read_bytes'], 8 * MiB, 'page-cache: read_bytes')
            t.check(c['evidence']['device_read_bytes'] < 4 * MiB,
                    'page-cache: the device read less than half', c)
        clean(t, 'cached file, O_DIRECT', base + ['--rw=read', '--direct=1'])
        if disk_write_cache(sysdev) != 'write back':
            t.skip('write cache off on %s' % sysdev)
            return
        fires(t, 'write, no fsync', base + ['--rw=write', '--direct=1'], 'write-cache')
        clean(t, 'write, end_fsync=1', base + ['--rw=write', '--direct=1', '--end_fsync=1'])
    finally:
        os.unlink(path)


def test_sparse(t):
    sparse = t.shm_file('sparse', 4 * MiB)
    base = ['--name=sp', '--rw=randread', '--bs=4k', '--size=4m']
    c = fires(t, 'sparse file', base + ['--filename=' + sparse], 'unwritten')
    if c:
        t.eq(c['evidence'], {'range_bytes': 4 * MiB, 'data_bytes': 0},
             'unwritten: evidence')
    full = t.shm_file('full', data=ibtest.pattern(4 * MiB))
    clean(t, 'file with data', base + ['--filename=' + full])
    # --warnings picks the checks
    clean(t, '--warnings=none', base + ['--filename=' + sparse, '--warnings=none'])
    clean(t, '--warnings=cpu-bound', base + ['--filename=' + sparse,
                                             '--warnings=cpu-bound'])
    fires(t, '--warnings=cpu-bound,unwritten',
          base + ['--filename=' + sparse, '--warnings=cpu-bound,unwritten'], 'unwritten')
    r = t.run(*base, '--filename=' + sparse, '--warnings=nope')
    t.eq(r.rc, 1, '--warnings=nope: exit status')
    t.check("unknown check 'nope'" in r.err, '--warnings=nope: named', r)


def test_zram(t):
    if not os.path.exists('/sys/class/zram-control/hot_add') or os.geteuid():
        t.skip('no zram-control')
        return
    try:
        n, dev = ibtest.zram_add(16 * MiB)
    except OSError as e:
        t.skip('zram hot_add: %s' % e)
        return
    try:
        base = ['--name=z', '--filename=' + dev, '--bs=64k', '--direct=1']
        c = fires(t, 'zram, fresh, read', base + ['--rw=read'], 'unwritten')
        if c:
            t.eq(c['evidence'], {'range_bytes': 16 * MiB, 'data_bytes': 0},
                 'zram unwritten: evidence')
        c = fires(t, 'zram, zero_buffers', base + ['--rw=write', '--zero_buffers=1'],
                  'compressible')
        if c:
            t.eq(c['severity'], 'warning', 'zram zero_buffers: severity')
            t.eq(c['evidence']['zram'], 1, 'zram zero_buffers: zram')
            t.check(c['evidence']['compress_ratio'] < 0.05,
                    'zram zero_buffers: compress_ratio', c)
        clean(t, 'zram, random data', base + ['--rw=write'])
        clean(t, 'zram, written, read', base + ['--rw=read'])
    finally:
        t.eq(ibtest.zram_remove(n), None, 'zram%d removed' % n)


def pinned(t, cpu, fn):
    old = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    try:
        fn()
    finally:
        os.sched_setaffinity(0, old)


def tool_bound(t, null):
    """The null engine at full speed is all tool work, so tool-bound fires
    when the run's own evidence says so: the calibrated cost per I/O times
    the job's I/Os, over the CPU time the job ran (schedstat), is at least
    half. The calibration keeps the best of five short rounds; on a machine
    loaded by others (cache and CPU shared) the job's own cost per I/O was
    seen at more than twice it under ASan, the share under 0.5 and the
    check rightly quiet: then it must not fire, and that is asserted."""
    what = 'null engine, full speed'
    r, doc, ids, lines = run_checks(t, what, *null)
    if doc is None:
        return
    job = doc['jobs'][0]
    ev = job['iobench evidence']
    ios = job['read']['total_ios']
    if not t.check(ev['calibrated'] and ev['sched_ok'] and ios > 0,
                   '%s: calibrated, schedstat read, I/O done' % what, ev):
        return
    share = ios * ev['tool_ns_per_io'] / ev['sched_run_ns']
    hit = [c for c in job.get('iobench checks', []) if c['id'] == 'tool-bound']
    t.eq(bool(hit), share >= 0.5, '%s: tool-bound fires iff its share (%.3f: '
         '%d I/Os x %.1f ns over %d ns run) >= 0.5' %
         (what, share, ios, ev['tool_ns_per_io'], ev['sched_run_ns']), ids)
    t.eq(any('[tool-bound]' in ln for ln in lines), bool(hit),
         '%s: a "tool-bound" line under the job iff it fired' % what, r.out)
    if hit:
        # the JSON's ios are the report's; its share to 6 digits
        t.check(abs(hit[0]['evidence']['tool_cpu_share'] - share) <=
                1e-5 * share, '%s: tool_cpu_share is the run\'s own' % what,
                hit[0])


def test_cpu(t, loop):
    null = ['--name=n', '--ioengine=null', '--rw=randread', '--bs=4k',
            '--size=1g', '--time_based', '--runtime=1']
    fires(t, 'null engine, full speed', null, 'cpu-bound')
    tool_bound(t, null)
    cpu = min(os.sched_getaffinity(0))

    def two_on_one():
        c = fires(t, 'two null jobs on one CPU', null + ['--numjobs=2'],
                  'cpu-oversubscribed')
        if c:
            t.eq((c['evidence']['jobs'], c['evidence']['cpus']), (2, 1),
                 'cpu-oversubscribed: jobs, cpus')
        if loop:
            clean(t, 'psync on a loop device, one CPU',
                  ['--name=p', '--ioengine=psync', '--rw=randread', '--bs=4k',
                   '--filename=' + loop, '--time_based', '--runtime=1'])
    pinned(t, cpu, two_on_one)


def test_depth(t, loop):
    base = ['--name=d', '--rw=randread', '--bs=4k', '--filename=' + loop,
            '--size=16m']
    # one I/O per submit (fio's batching): the refill after each drain to 0
    # is seen at every depth on the way up (a batched refill goes in at 64)
    c = fires(t, 'iodepth=64 capped by batch_complete_min',
              base + ['--iodepth=64', '--iodepth_batch_complete_min=64',
                      '--iodepth_batch_submit=1'], 'depth-low')
    if c:
        t.eq(c['evidence']['iodepth'], 64, 'depth-low: iodepth')
        t.check(c['evidence']['percent_at_depth'] < 50, 'depth-low: percent', c)
    clean(t, 'iodepth=64', base + ['--iodepth=64'])
    # few in flight is what a rate asks for, and verify_only counts the
    # writes it lists as issued: no depth-low (both fired it)
    r, doc, ids, _ = run_checks(t, 'rate_iops at iodepth=32', *base,
                                '--iodepth=32', '--rate_iops=2000',
                                '--time_based', '--runtime=1')
    if doc:
        t.eq((doc['jobs'][0]['iobench evidence']['paced'],
              'depth-low' in ids.get(0, [])), (1, False),
             'rate_iops: paced, no depth-low (%s)' % ids, r.out)
    vbase = ['--name=v', '--rw=randwrite', '--bs=4k', '--filename=' + loop,
             '--size=4m', '--verify=crc32c', '--iodepth=32']
    r = t.run(*vbase, '--verify_state_save=0')
    if t.ok(r, 'verify: the blocks written'):
        r, doc, ids, _ = run_checks(t, 'verify_only at iodepth=32', *vbase,
                                    '--verify_only=1')
        if doc:
            t.eq((doc['jobs'][0]['iobench evidence']['verify_only'],
                  'depth-low' in ids.get(0, [])), (1, False),
                 'verify_only: no depth-low (%s)' % ids, r.out)
    fires(t, 'psync iodepth=8', base + ['--ioengine=psync', '--iodepth=8'], 'sync-depth')
    clean(t, 'psync iodepth=1', base + ['--ioengine=psync', '--iodepth=1'])
    fires(t, 'loop, direct=0', base + ['--direct=0'], 'buffered-device')
    c = fires(t, 'psync, iodepth_batch_submit=16',
              base + ['--ioengine=psync', '--iodepth=16', '--iodepth_batch_submit=16'],
              'batch-unfilled')
    if c:
        t.eq(c['evidence']['iodepth_batch_submit'], 16, 'batch-unfilled: batch')
        t.eq(c['evidence']['max_per_submit'], 4, 'batch-unfilled: 1-4 I/Os per call')
    clean(t, 'io_uring, iodepth_batch_submit=16',
          base + ['--ioengine=io_uring', '--iodepth=16', '--iodepth_batch_submit=16'])


def test_short_run(t, loop):
    base = ['--name=s', '--rw=randread', '--bs=1m', '--filename=' + loop,
            '--ioengine=psync', '--time_based', '--runtime=1']
    c = fires(t, '1 s run, p99.99', base + ['--percentile_list=99.99'], 'short-run')
    if c:
        t.eq(c['evidence']['samples_needed'], 10000, 'short-run: samples_needed')
        t.check(c['evidence']['samples'] < 10000, 'short-run: samples', c)
    clean(t, '1 s run, p99', base + ['--percentile_list=99'])


def test_runtime(t, loop):
    jpath = t.path('int.json')
    argv = t.argv('--name=i', '--rw=randread', '--bs=4k', '--filename=' + loop,
                  '--ioengine=psync', '--time_based', '--runtime=5',
                  '--output-format=json', '--json-output=' + jpath)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    # the job reading (not a guessed 1.5 s), then 1 s of its 5
    t.check(ibtest.wait_job_io(p.pid, t.scaled(60)), 'interrupted: the job reads')
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=t.scaled(30))
    t.eq(p.returncode, 130, 'interrupted time_based: exit status')
    with open(jpath) as f:
        j = json.load(f)['jobs'][0]
    c = [c for c in j['iobench checks'] if c['id'] == 'runtime-off']
    if t.eq(len(c), 1, 'interrupted time_based: runtime-off fires', j['iobench checks']):
        t.eq(c[0]['evidence']['runtime_asked_ms'], 5000, 'runtime-off: asked')
        t.check(c[0]['evidence']['runtime_ms'] < 4500, 'runtime-off: ran', c)


BLKIO = '/sys/fs/cgroup/blkio'


# The rate series' samples are counted in batches of 256 I/Os: a sample is
# within two batches of what the job did in its second.
BATCH = 256
# a limit of 6000 IOPS, lowered each second of the second half
FALLING = [(0, 6000), (4.2, 5000), (5.2, 4000), (6.2, 3000), (7.2, 2000),
           (8.2, 1500)]


def kept(t, what, j, schedule, last, unlimited=0):
    """Whether the job's rate series kept, in each whole second up to
    `last`, 90% of the lowest IOPS limit in force in that second (schedule
    as throttled()'s; a second with no limit in force needs `unlimited`),
    within two of the series' batches: the same run's own measure that the
    machine let the job run at the limits it was given. A skip if not: on a
    loaded machine the job's own rate falls and rises with the load, and
    the rate-series checks rightly say so."""
    series = j['iobench evidence']['series']
    low = []
    for i in range(1, min(last, len(series))):
        cur = [iops for at, iops in schedule if at <= i]
        during = [iops for at, iops in schedule if i < at < i + 1]
        limits = ([cur[-1]] if cur else []) + during
        floor = min(limits) * 9 // 10 if limits else unlimited
        if series[i] < floor - 2 * BATCH:
            low.append((i, series[i], floor))
    if low:
        t.skip('%s: the job did not keep its limits (second, IOPS, needed: '
               '%s): the machine, not the limit, set its rate' % (what, low))
    return not low


def throttled(t, what, args, dev, schedule):
    """Run iobench in a blkio cgroup whose read IOPS limit on dev changes as
    schedule says: [(seconds after the start, IOPS or 0 for none)]. iobench
    joins the cgroup before its exec, so its job process is throttled from
    its first read (moving the job in once it appeared let it read
    unthrottled for as long as that took: a warm-up that did not fire).
    Returns the JSON job, or None."""
    jpath = t.path('thr.json')
    cg = os.path.join(BLKIO, 'ibtest.%d' % os.getpid())
    st = os.stat(dev)
    key = '%d:%d' % (os.major(st.st_rdev), os.minor(st.st_rdev))
    os.mkdir(cg)

    def limit(iops):
        with open(os.path.join(cg, 'blkio.throttle.read_iops_device'), 'w') as f:
            f.write('%s %d' % (key, iops))

    def join():
        with open(os.path.join(cg, 'tasks'), 'w') as f:
            f.write(str(os.getpid()))
    try:
        for at, iops in schedule:
            if at <= 0:
                limit(iops)
        p = subprocess.Popen(t.argv(*args, '--output-format=json', '--json-output=' + jpath),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             preexec_fn=join)
        t0 = time.time()
        for at, iops in schedule:
            if at > 0:
                time.sleep(max(0.0, at - (time.time() - t0)))
                limit(iops)
        err = p.communicate(timeout=t.scaled(60))[1]
    finally:
        for _ in range(100):
            try:
                os.rmdir(cg)
                break
            except OSError:
                time.sleep(0.05)
    if not t.eq(p.returncode, 0, '%s: exit status' % what, err):
        return None
    with open(jpath) as f:
        return json.load(f)['jobs'][0]


SERIES_IDS = ('warm-up', 'step', 'trend')


def _mean(v):
    return sum(v) / len(v) if v else 0.0


def _find_step(v):
    """checks.c's find_step: the split with the largest drop that stays
    (mean after < 20% of the mean before, no interval after >= 35%)."""
    best = 0.0
    for k in range(2, len(v) - 1):
        b, a = _mean(v[:k]), _mean(v[k:])
        if a >= 0.2 * b or max(v[k:]) >= 0.35 * b or b - a <= best:
            continue
        best = b - a
    return best > 0


def series_fires(ev):
    """Which of warm-up, step and trend the rules of src/report/checks/checks.c give for
    the rate series in the report's evidence (the series without its last
    interval, in IOPS): the exact answer the report must agree with,
    whatever the machine let the job do."""
    s, ms = ev.get('series', []), ev.get('series_ms', 0)
    n = len(s) - 1 if s else 0
    if n < 4 or not ms:
        return []
    v = [x * 1000.0 / ms for x in s[:n]]
    got = []
    steady = sorted(v[n // 2:])
    m = len(steady)
    steady = steady[m // 2] if m % 2 else (steady[m // 2 - 1] + steady[m // 2]) / 2
    if not ev.get('ramp_time_us') and steady > 0 and v[0] < 0.25 * steady:
        got.append('warm-up')
    step = _find_step(v)
    if n >= 5 and step:
        got.append('step')
    if n >= 8 and not step:
        w = v[n // 2:]
        k = len(w)
        mx, my = (k - 1) / 2.0, _mean(w)
        sxy = sum((i - mx) * (y - my) for i, y in enumerate(w))
        sxx = sum((i - mx) ** 2 for i in range(k))
        syy = sum((y - my) ** 2 for y in w)
        change = sxy / sxx * (k - 1) / my if my > 0 and sxx > 0 else 0
        r2 = sxy * sxy / (sxx * syy) if sxx > 0 and syy > 0 else 0
        if abs(change) >= 0.25 and r2 >= 0.6:
            got.append('trend')
    return got


def series_agrees(t, what, j):
    """The report's warm-up, step and trend checks are exactly what its own
    rate series gives (series_fires): true on any machine, loaded or not.
    Returns the ids that fired."""
    got = [c['id'] for c in j['iobench checks'] if c['id'] in SERIES_IDS]
    ev = j['iobench evidence']
    t.eq(sorted(got), sorted(series_fires(ev)),
         '%s: the rate-series checks follow the run\'s own series' % what,
         (ev.get('series'), ev.get('series_ms')))
    return got


def test_series(t, loop):
    """The rate series: a read IOPS limit set mid-run (step), a limit on the
    first 1.5 s only (slow first reads: warm-up), a falling limit (trend).
    In every run the checks that fire are exactly what the run's own series
    gives (series_agrees); where the series shows that the machine let the
    job keep the limits it was given (kept), the intended check fires, or
    none at a steady limit. On a loaded machine the job's rate follows the
    load too, and the checks rightly say so: then only the agreement is
    asserted."""
    if t.wrapper:
        t.skip('rate series under a wrapper: its timing is not the job\'s')
        return
    if not os.path.exists(os.path.join(BLKIO, 'blkio.throttle.read_iops_device')):
        t.skip('no blkio cgroup (v1) for the rate limit')
        return
    base = ['--name=r', '--rw=randread', '--bs=4k', '--filename=' + loop,
            '--ioengine=psync', '--time_based', '--runtime=7']
    j = throttled(t, 'rate limit at 2.5 s', base, loop, [(2.5, 300)])
    # a step needs the unlimited rate before it over twice the limit
    if j and series_agrees(t, 'rate limit at 2.5 s', j) is not None and \
            kept(t, 'rate limit at 2.5 s', j, [(2.5, 300)], 2,
                 unlimited=2 * 300 + 2 * BATCH):
        c = [c for c in j['iobench checks'] if c['id'] == 'step']
        if t.eq(len(c), 1, 'rate limit: step fires', (j['iobench checks'],
                                                      j['iobench evidence']['series'])):
            t.check(c[0]['evidence']['at_s'] in (2.0, 3.0),
                    'step: at 2 or 3 s', c)
            t.check(c[0]['evidence']['after_iops'] < 0.5 * c[0]['evidence']['before_iops'],
                    'step: the rate after is below half', c)
    # the same at a steady limit: no step, warm-up or trend where the
    # series is steady. (Not without a limit: an unlimited job's rate
    # follows whatever else runs on the machine; at 300 IOPS the job has
    # CPU to spare, unless the machine is very loaded, when a second with
    # no batch done is a real drop that the checks report.)
    j = throttled(t, 'a steady rate limit', base, loop, [(0, 300)])
    if j:
        series_agrees(t, 'a steady rate limit', j)
        t.check(j['read']['total_ios'] > 0, 'a steady rate limit: reads done')
    # after the slow start a steady 3000 IOPS, not no limit: an unlimited
    # job's rate follows whatever else runs on the machine (a trend)
    slow = [(0, 300), (1.5, 3000)]
    j = throttled(t, 'slow first reads', base, loop, slow)
    if j and series_agrees(t, 'slow first reads', j) is not None and \
            kept(t, 'slow first reads', j, slow, 7):
        t.check('warm-up' in [c['id'] for c in j['iobench checks']],
                'slow first 1.5 s: warm-up fires', (j['iobench checks'],
                                                    j['iobench evidence']['series']))
    j = throttled(t, 'slow first reads, ramp_time=2', base + ['--ramp_time=2'], loop,
                  slow)
    if j:
        got = series_agrees(t, 'slow first reads, ramp_time=2', j)
        t.check('warm-up' not in got, 'ramp_time=2: no warm-up', got)
        t.eq([c['id'] for c in j['iobench checks'] if c['id'] not in SERIES_IDS],
             [], 'slow first 1.5 s with ramp_time=2: no other check')
    # a limit of 6000 IOPS, lowered each second of the second half
    base[-1] = '--runtime=10'
    j = throttled(t, 'falling limit', base, loop,
                  FALLING)
    if j and series_agrees(t, 'falling limit', j) is not None and \
            kept(t, 'falling limit', j, FALLING, 10):
        c = [c for c in j['iobench checks'] if c['id'] == 'trend']
        if t.eq(len(c), 1, 'falling limit: trend fires', (j['iobench checks'],
                                                          j['iobench evidence']['series'])):
            t.check(c[0]['evidence']['change'] < -0.25, 'trend: the rate fell', c)
    j = throttled(t, 'constant limit', base, loop, [(0, 6000)])
    if j and series_agrees(t, 'constant limit', j) is not None and \
            kept(t, 'constant limit', j, [(0, 6000)], 10):
        t.eq([c['id'] for c in j['iobench checks']], [], 'constant limit: clean')


def seeds_clean(t, shm, loop):
    seed1 = ['--rw=randrw', '--rwmixread=75', '--bs=4k', '--iodepth=64',
             '--numjobs=8', '--size=1m']
    seed3 = ['--direct=1', '--rw=read', '--bs=64k', '--ioengine=io_uring',
             '--iodepth=64', '--runtime=1', '--numjobs=4', '--time_based',
             '--group_reporting', '--readonly', '--size=1m']
    for where, target in (('shm', shm), ('loop', loop)):
        if not target:
            continue
        clean(t, 'seed 1 (%s)' % where, seed1 + ['--filename=' + target])
        clean(t, 'seed 3 (%s)' % where, seed3 + ['--filename=' + target])
    d = t.mkdir('tgs')
    with open(os.path.join(d, 'TGS'), 'wb') as f:
        f.write(ibtest.pattern(MiB))
    clean(t, 'seed 2 (relative file TGS)',
          ['--randrepeat=1', '--ioengine=libaio', '--direct=1', '--gtod_reduce=1',
           '--name=TGS', '--filename=TGS', '--bs=4k', '--iodepth=64', '--size=1m',
           '--readwrite=randrw', '--rwmixread=75', '--numjobs=8'], cwd=d)


def test_env_and_seeds(t, shm):
    base = ['--name=e', '--rw=randread', '--bs=4k', '--filename=' + shm, '--size=1m']
    r, doc, ids, lines = run_checks(t, 'environment', *base)
    if doc:
        env = doc.get('environment', {})
        t.check(env.get('hostname') and env.get('cpus_online', 0) > 0,
                'JSON environment: host and CPUs', env)
        t.eq([x.get('path') for x in env.get('targets', [])], [shm],
             'JSON environment: the target')
        rs = doc['jobs'][0]['random seed']
        t.eq((rs['source'], rs['randseed'], rs['replay']),
             ('randrepeat', 137, 'randrepeat=1'), 'default seed')
        t.check(re.search(r'^  tool overhead: \d+ ns per I/O, ceiling \d+ IOPS per job$',
                          r.out, re.M), 'tool overhead line', r.out)
        t.check(doc['jobs'][0]['tool overhead']['ns_per_io'] > 0,
                'JSON tool overhead', doc['jobs'][0].get('tool overhead'))
        t.check('Environment:' not in r.out, 'no environment text without --env')
    r = t.run(*base, '--env', '--no-calibrate')
    t.check('Environment:' in r.out and '\nRandom seeds' in r.out and
            '  e (job 1): randrepeat=1, offset seed ' in r.out,
            '--env: environment and seeds in the text', r.out)
    t.check('tool overhead' not in r.out, '--no-calibrate: no tool overhead', r.out)
    # randrepeat=0: the seed drawn is reported, randseed= replays it exactly
    logs = [t.path('iolog%d' % i) for i in range(3)]
    rand = base[:1] + ['--rw=randrw', '--bsrange=4k-16k', '--filename=' + shm, '--size=1m']
    r, doc, _, _ = run_checks(t, 'randrepeat=0', *rand, '--randrepeat=0',
                              '--write_iolog=' + logs[0])
    if not doc:
        return
    rs = doc['jobs'][0]['random seed']
    t.eq(rs['source'], 'drawn', 'randrepeat=0: seed drawn')
    t.eq(rs['replay'], 'randseed=%d' % rs['randseed'], 'randrepeat=0: replay option')
    run_checks(t, 'replay', *rand, '--' + rs['replay'], '--write_iolog=' + logs[1])
    run_checks(t, 'randrepeat=0 again', *rand, '--randrepeat=0',
               '--write_iolog=' + logs[2])
    # the I/O lines (v3 logs also carry each I/O's time, which differs)
    ios = [ibtest.parse_iolog(p).ios for p in logs]
    t.check(len(ios[0]) > 50, 'iolog has the I/Os', len(ios[0]))
    t.check(ios[0] == ios[1], 'randseed=N replays the same offsets, sizes, directions')
    t.check(ios[0] != ios[2], 'another randrepeat=0 run draws another stream')


def main():
    t = ibtest.Test()
    if len(sys.argv) > 2:
        REPRINT[0] = os.path.abspath(sys.argv[2])
    shm = t.shm_file('data', data=ibtest.pattern(MiB))
    test_env_and_seeds(t, shm)
    test_sparse(t)
    test_block_fs(t)
    test_zram(t)
    loop = t.loop_device(16 * MiB)
    if loop:
        with open(loop, 'r+b', buffering=0) as f:
            f.write(ibtest.pattern(16 * MiB))
    else:
        t.skip('no loop devices')
    test_cpu(t, loop)
    if loop:
        test_depth(t, loop)
        test_short_run(t, loop)
        test_runtime(t, loop)
        test_series(t, loop)
    seeds_clean(t, shm, loop)
    t.finish()


if __name__ == '__main__':
    main()
