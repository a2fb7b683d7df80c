#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Real-world job files (issue 13, second part), iobench's own: a cloud
volume check on a loop device, a database-like mix, a metadata workload
over many small files, a multi-file job, a logging-heavy CI job and a
trim job. Each runs end to end with exact-count assertions, and side by
side with fio 3.33 (same job file, engine and direct given explicitly):
the same I/O counts and bytes per direction for the size-based jobs.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB

CLOUD = """
; cloud volume acceptance: sequential fill, random read IOPS, mixed 70/30
[global]
filename={dev}
ioengine=libaio
direct=1
group_reporting=0

[fill]
rw=write
bs=1m
size=4m
iodepth=4
buffer_compress_percentage=50

[randread]
stonewall
rw=randread
bs=4k
size=4m
iodepth=16
random_distribution=zipf:1.1

[mixed]
stonewall
rw=randrw
rwmixread=70
bssplit=4k/60:16k/30:64k/10
size=4m
iodepth=8
"""

DATABASE = """
; database-like: 8k random pages with periodic fdatasync, a redo log
[global]
directory={dir}
ioengine=psync
direct=0

[pages]
rw=randrw
rwmixread=80
bs=8k
size=8m
fdatasync=16
percentage_random=90

[redo]
rw=write
bs=4k
size=1m
sync=dsync
buffer_pattern=0x0badc0de
"""

METADATA = """
; many small files: write them one after another, read them at random
[global]
directory={dir}
ioengine=psync
direct=0
nrfiles=32
filesize=16k
bs=4k

[create]
rw=write
file_service_type=sequential

[scan]
stonewall
rw=randread
file_service_type=random:4
"""

MULTIFILE = """
; three files, two I/Os each in turn, a skip-sequential reader
[global]
filename={a}:{b}:{c}
ioengine=psync
direct=0

[writer]
rw=write
bs=16k
size=3m
file_service_type=roundrobin:2

[skipper]
stonewall
rw=read:16k
bs=16k
size=3m
"""

LOGGING = """
; a CI job that keeps every log
[ci]
filename={f}
ioengine=psync
direct=0
rw=randwrite
bs=4k
size=2m
write_lat_log={p}
write_bw_log={p}
write_iops_log={p}
write_iolog={p}.iolog
log_offset=1
disk_util=0
dedupe_percentage=25
"""

TRIM = """
; trim a device, then rewrite what was trimmed
[global]
filename={dev}
ioengine=psync
direct=1
bs=64k
size=1m

[discard]
rw=trim

[rewrite]
stonewall
rw=randtrimwrite
"""


def counts(doc):
    """name -> ((ios, bytes) for read, write, trim) of every job."""
    out = {}
    for j in doc['jobs']:
        out[j['jobname']] = tuple((j[d]['total_ios'], j[d]['io_bytes'])
                                  for d in ('read', 'write', 'trim'))
    return out


def run_job(t, name, text, fio=False, extra=()):
    path = t.path(name + '.fio')
    with open(path, 'w') as f:
        f.write(text)
    out = t.path(name + ('.fio' if fio else '.ib') + '.json')
    args = ['--output-format=json', '--output=' + out] + list(extra) + [path]
    r = t.fio(*args) if fio else t.run('--allow_data_loss=1', *args)
    if r is None:
        return None, None
    if not t.ok(r, name + (' (fio 3.33)' if fio else '')):
        return None, r
    if not fio:
        t.eq(r.err, '', '%s: empty stderr' % name, r)
    with open(out) as f:
        return json.load(f), r


def side_by_side(t, name, text, want, mixed=()):
    """want: name -> exact counts. mixed jobs: the total bytes are exact,
    the split between directions is random (fio's too)."""
    doc, _ = run_job(t, name, text)
    if doc is None:
        return None
    got = counts(doc)
    for job, w in want.items():
        if job in mixed:
            t.eq(sum(b for _, b in got[job]), w, '%s/%s: bytes' % (name, job))
        else:
            t.eq(got[job], w, '%s/%s: rwt (ios, bytes)' % (name, job))
    fdoc, _ = run_job(t, name, text, fio=True)
    if fdoc is not None:
        fgot = counts(fdoc)
        for job in want:
            if job in mixed:
                t.eq(sum(b for _, b in fgot[job]), sum(b for _, b in got[job]),
                     '%s/%s: bytes as fio 3.33' % (name, job))
                continue
            t.eq(got[job], fgot[job], '%s/%s: counts as fio 3.33' % (name, job))
    return doc


def test_cloud(t):
    dev = t.loop_device(8 * MiB)
    if dev is None:
        t.skip('no loop devices: cloud volume job')
        return
    side_by_side(t, 'cloud', CLOUD.format(dev=dev), {
        'fill': ((0, 0), (4, 4 * MiB), (0, 0)),
        'randread': ((1024, 4 * MiB), (0, 0), (0, 0)),
        'mixed': 4 * MiB}, mixed=('mixed',))


def test_database(t):
    d = t.mkdir('db')
    doc = side_by_side(t, 'database', DATABASE.format(dir=d), {
        'pages': 8 * MiB,
        'redo': ((0, 0), (256, 1 * MiB), (0, 0))}, mixed=('pages',))
    if doc:
        redo = os.path.join(d, 'redo.0.0')
        data = ibtest.file_bytes(redo)
        t.check(data == bytes.fromhex('0badc0de') * (MiB // 4),
                'database: the redo log holds the pattern')


def test_metadata(t):
    d = t.mkdir('meta')
    doc = side_by_side(t, 'metadata', METADATA.format(dir=d), {
        'create': ((0, 0), (128, 512 * KiB), (0, 0)),
        'scan': ((128, 512 * KiB), (0, 0), (0, 0))})
    if doc:
        t.eq(len([n for n in os.listdir(d) if n.startswith('create.')]), 32,
             'metadata: 32 files made')


def test_multifile(t):
    a, b, c = (t.shm_file(n, size=1 * MiB) for n in ('mfa', 'mfb', 'mfc'))
    side_by_side(t, 'multifile', MULTIFILE.format(a=a, b=b, c=c), {
        'writer': ((0, 0), (192, 3 * MiB), (0, 0)),
        'skipper': ((192, 3 * MiB), (0, 0), (0, 0))})


def test_logging(t):
    f = t.shm_file('ci', size=2 * MiB)
    p = t.path('cilog')
    text = LOGGING.format(f=f, p=p)
    doc, r = run_job(t, 'logging', text)
    if doc is None:
        return
    t.eq(counts(doc)['ci'], ((0, 0), (512, 2 * MiB), (0, 0)), 'logging: rwt')
    t.check('disk_util' not in doc, 'logging: disk_util=0, no disk stats')
    t.check('Laying out' not in r.err, 'logging: no message on stderr', r)
    for kind in ('slat', 'clat', 'lat', 'bw', 'iops'):
        path = '%s_%s.1.log' % (p, kind)
        with open(path) as fh:
            lines = fh.read().splitlines()
        # psync has no submission latency: its slat log stays empty
        t.eq(len(lines), 0 if kind == 'slat' else 512,
             'logging: %s log lines' % kind)
        t.check(all(len(ln.split(',')) == 6 for ln in lines),
                'logging: %s log has the offset column' % kind)
    io = ibtest.parse_iolog(p + '.iolog')
    t.eq(len(io.data('write')), 512, 'logging: iolog writes')
    t.eq(sorted(o for _, _, o, _ in io.data('write')),
         [i * 4096 for i in range(512)], 'logging: every block written once')


def test_log_variants(t):
    """log_unix_epoch: times are epoch ms within the run; log_max_value:
    each averaged window logs its largest latency (>= the mean)."""
    import time
    f = t.shm_file('lv', size=8 * MiB)
    logs = {}
    for mx in (0, 1):
        p = t.path('lv%d' % mx)
        before = int(time.time() * 1000)
        r = t.run('--name=lv', '--filename=' + f, '--rw=randread', '--bs=4k',
                  '--size=8m', '--ioengine=psync', '--direct=0', '--randrepeat=1',
                  '--write_lat_log=' + p, '--log_avg_msec=5',
                  '--log_max_value=%d' % mx, '--log_unix_epoch=1')
        after = int(time.time() * 1000)
        if not t.ok(r, 'log_max_value=%d log_unix_epoch=1' % mx):
            return
        with open(p + '_clat.1.log') as fh:
            rows = [[int(x) for x in ln.split(',')] for ln in fh]
        t.check(rows and all(before <= r0[0] <= after + 5 for r0 in rows),
                'log_unix_epoch: times in [%d, %d]: %s' % (before, after,
                                                          rows[:2]))
        logs[mx] = rows
    if len(logs) == 2:
        mean = sum(r0[1] for r0 in logs[0]) / len(logs[0])
        top = sum(r0[1] for r0 in logs[1]) / len(logs[1])
        t.check(top > mean, 'log_max_value: window maxima (%.0f) above the '
                'means (%.0f)' % (top, mean))


def hist_rows(path):
    with open(path) as fh:
        return [[int(x) for x in ln.split(',')] for ln in fh if ln.strip()]


def test_hist_log(t):
    """write_hist_log/log_hist_msec: fio's histogram log, every I/O in one
    bin of one row, the layout of fio 3.33's own, read by fio's
    fio-histo-log-pctiles.py."""
    import gzip
    import subprocess
    f = t.shm_file('hl', size=32 * MiB)
    rows = {}
    for fio in (False, True):
        p = t.path('hl%d' % fio)
        a = ['--name=hl', '--filename=' + f, '--rw=randread', '--bs=4k',
             '--size=32m', '--ioengine=psync', '--direct=0',
             '--write_hist_log=' + p, '--log_hist_msec=2',
             '--output-format=json']
        r = t.fio(*a) if fio else t.run(*a)
        if r is None or not t.ok(r, 'hist log%s' % (' (fio)' if fio else '')):
            continue
        rows[fio] = hist_rows(p + '_clat_hist.1.log')
    if False not in rows:
        return
    ib = rows[False]
    t.check(ib and all(len(row) == 3 + 1856 for row in ib),
            'hist log: rows of time, ddir, bs and 1856 bins')
    t.eq(sum(sum(row[3:]) for row in ib), 8192, 'hist log: every read in a bin')
    t.eq(sorted({(row[1], row[2]) for row in ib}), [(0, 4096)],
         'hist log: ddir 0, bs 4096')
    times = [row[0] for row in ib]
    t.check(times == sorted(times), 'hist log: times ascending')
    if rows.get(True):      # fio writes no row for a last partial window
        t.eq({len(row) for row in rows[True]}, {len(ib[0])},
             'hist log: as many fields as fio 3.33 writes')
    # log_hist_coarseness=2: each field sums 4 bins, as fio 3.33 writes
    for fio in (False, True):
        p = t.path('hc%d' % fio)
        a = ['--name=hc', '--filename=' + f, '--rw=randread', '--bs=4k',
             '--size=32m', '--ioengine=psync', '--direct=0',
             '--write_hist_log=' + p, '--log_hist_msec=2',
             '--log_hist_coarseness=2', '--output-format=json']
        r = t.fio(*a) if fio else t.run(*a)
        if r is None or not t.ok(r, 'coarse hist log%s' % (' fio' if fio else '')):
            continue
        hc = hist_rows(p + '_clat_hist.1.log')
        if fio and not hc:      # fio writes no row for a last partial window
            continue
        t.eq({len(row) for row in hc}, {3 + 464}, 'log_hist_coarseness=2%s: '
             '464 bins a row' % (' (fio 3.33)' if fio else ''))
        if not fio:
            t.eq(sum(sum(row[3:]) for row in hc), 8192,
                 'log_hist_coarseness=2: every read in a bin')
    tool = '/usr/share/doc/fio/fio-histo-log-pctiles.py.gz'
    if os.path.exists(tool):
        script = t.path('pctiles.py')
        with gzip.open(tool, 'rb') as src, open(script, 'wb') as dst:
            dst.write(src.read())
        pr = subprocess.run([sys.executable, script, '--log-hist-msec', '2',
                             t.path('hl0') + '_clat_hist.1.log'],
                            capture_output=True, text=True)
        last = pr.stdout.strip().splitlines()[-1] if pr.stdout.strip() else ''
        fields = [x.strip() for x in last.split(',')]
        t.check(pr.returncode == 0 and len(fields) >= 7 and
                0 < int(fields[1]) <= 8192,
                "hist log: fio's fio-histo-log-pctiles.py reads it: %r %s" %
                (last, pr.stderr[-300:]))


def test_terse_lat_pct(t):
    """lat_percentiles=1: the terse line's percentile fields are the total
    latency's (the JSON's lat_ns percentiles of the same run)."""
    f = t.shm_file('tp', size=1 * MiB)
    for clat in (1, 0):
        r = t.run('--name=tp', '--filename=' + f, '--rw=randread', '--bs=4k',
                  '--ioengine=libaio', '--iodepth=4', '--direct=0',
                  '--lat_percentiles=1', '--clat_percentiles=%d' % clat,
                  '--output-format=terse,json')
        if not t.ok(r, 'terse lat percentiles (clat_percentiles=%d)' % clat):
            continue
        line = r.out.splitlines()[0].split(';')
        pct = line[17:37]
        doc = json.loads(r.out[r.out.index('{'):])
        lat = doc['jobs'][0]['read']['lat_ns']['percentile']
        want = ['%f%%=%d' % (float(k), v // 1000)
                for k, v in sorted(lat.items(), key=lambda kv: float(kv[0]))]
        t.eq(pct[:len(want)], want, 'terse (clat_percentiles=%d): lat '
             'percentiles in the percentile fields' % clat)


def test_clocksource(t):
    """clocksource: fio's values accepted; the JSON says which clock timed
    the I/Os (clock_gettime when asked for it or gettimeofday)."""
    f = t.shm_file('cs', size=256 * KiB)
    got = {}
    for cs in (None, 'cpu', 'clock_gettime', 'gettimeofday'):
        a = ['--name=cs', '--filename=' + f, '--rw=read', '--ioengine=psync',
             '--direct=0', '--output-format=json']
        if cs:
            a.append('--clocksource=' + cs)
        r = t.run(*a)
        if not t.ok(r, 'clocksource=%s' % cs):
            continue
        j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
        t.eq(j['read']['total_ios'], 64, 'clocksource=%s: reads' % cs)
        got[cs] = j['effective options'].get('clocksource')
    t.eq((got.get('clock_gettime'), got.get('gettimeofday')),
         ('clock_gettime', 'clock_gettime'), 'clocksource: clock_gettime used')
    t.check(got.get(None) in ('cpu', 'clock_gettime') and
            got.get('cpu') == got.get(None), 'clocksource=cpu is the default: '
            '%s' % got)
    r = t.run('--parse-only', '--name=x', '--size=1m', '--clocksource=hpet')
    t.fails(r, 'clocksource=hpet')


def test_per_job_logs(t):
    """per_job_logs=0: PREFIX_kind.log as fio names it; two jobs that would
    share a file are refused."""
    f = t.shm_file('pj', size=256 * KiB)
    for fio in (False, True):
        d = t.mkdir('pj%d' % fio)
        a = ['--name=pj', '--filename=' + f, '--size=256k', '--rw=read',
             '--ioengine=psync', '--direct=0', '--write_bw_log=' + d + '/p',
             '--write_lat_log=' + d + '/p', '--per_job_logs=0',
             '--output-format=json']
        r = t.fio(*a) if fio else t.run(*a)
        if r is None or not t.ok(r, 'per_job_logs=0%s' % (' fio' if fio else '')):
            continue
        t.eq(sorted(os.listdir(d)), ['p_bw.log', 'p_clat.log', 'p_lat.log',
                                     'p_slat.log'],
             'per_job_logs=0%s: file names' % (' (fio 3.33)' if fio else ''))
        if not fio:
            with open(os.path.join(d, 'p_clat.log')) as fh:
                t.eq(len(fh.read().splitlines()), 64, 'per_job_logs=0: lines')
    r = t.run('--name=pj', '--filename=' + f, '--size=256k', '--numjobs=2',
              '--write_bw_log=' + t.path('shared'), '--per_job_logs=0')
    t.fails(r, 'per_job_logs=0 with two jobs on one name')
    t.eq(r.err.strip(), "iobench: per_job_logs=0: jobs 'pj' and 'pj' would "
         "share a log file, not supported by iobench", 'shared log message', r)


def error_dump_many(t, f):
    """256 failing 4 KiB writes: the first lines, as many as the job's
    record holds, then one line counting the others."""
    with open(f, 'wb') as fh:
        fh.truncate(4 * MiB)
    r = t.run('--name=edm', '--filename=' + f, '--size=2m', '--bs=4k', '--rw=write',
              '--ioengine=psync', '--direct=0', '--continue_on_error=write',
              '--ignore_error=,ENOSPC', '--error_dump=1', '--output-format=json')
    if not t.ok(r, 'error_dump=1, 256 errors'):
        return
    shown = error_dump_lines(r.err, 'iobench')
    t.eq([int(x[3]) for x in shown], [MiB + 4096 * i for i in range(len(shown))],
         'error_dump=1: the first errors, in order', r)
    m = re.search(r"^iobench: job 'edm': (\d+) more I/O errors not shown \(error_dump\)$",
                  r.err, re.M)
    if t.check(m is not None, 'error_dump=1: the count of lines not shown', r):
        t.eq(len(shown) + int(m.group(1)), 256, 'error_dump=1: shown + not shown')
    t.eq(len(r.err.splitlines()), len(shown) + 1, 'error_dump=1: no other line', r)


def error_dump_run(t, f, dump, prog=None):
    """2 MiB of 256 KiB writes to a 4 MiB sparse file on a full 1 MiB
    tmpfs: the 4 writes past the first MiB fail with ENOSPC, non-fatal
    here (continue_on_error=write, ignore_error ENOSPC for writes)."""
    with open(f, 'wb') as fh:
        fh.truncate(4 * MiB)
    args = ('--name=ed', '--filename=' + f, '--size=2m', '--bs=256k', '--rw=write',
            '--ioengine=psync', '--direct=0', '--continue_on_error=write',
            '--ignore_error=,ENOSPC', '--error_dump=%d' % dump, '--output-format=json')
    return t.fio(*args) if prog == 'fio' else t.run(*args)


def error_dump_lines(err, prefix):
    """(file, error, ddir, offset, buflen) of each io_u error line."""
    return [m.groups() for m in re.finditer(
        r'^%s: io_u error on file (\S+): ([^:]+): (\w+) offset=(\d+), buflen=(\d+)$'
        % prefix, err, re.M)]


def test_error_dump(t):
    mnt = t.small_tmpfs('edfs')
    if not mnt:
        return
    f = os.path.join(mnt, 'f')
    want = [(f, 'No space left on device', 'write', str(o), '262144')
            for o in (1048576, 1310720, 1572864, 1835008)]
    r = error_dump_run(t, f, 0)
    if t.ok(r, 'error_dump=0'):
        t.eq(r.err, '', 'error_dump=0: nothing on stderr', r)
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['error'], j['total_err'], j['first_error'], j['write']['total_ios']),
             (28, 4, 28, 8), 'error_dump=0: 4 errors counted of 8 writes')
    r = error_dump_run(t, f, 1)
    if t.ok(r, 'error_dump=1'):
        t.eq(error_dump_lines(r.err, 'iobench'), want, 'error_dump=1: one line per error', r)
        t.eq(len(r.err.splitlines()), 4, 'error_dump=1: nothing else on stderr', r)
        j = json.loads(r.out)['jobs'][0]
        t.eq((j['total_err'], j['write']['total_ios']), (4, 8), 'error_dump=1: counts')
    fr = error_dump_run(t, f, 1, prog='fio')
    if fr is None:
        t.skip('fio not installed: error_dump side by side')
    elif t.ok(fr, 'fio 3.33 error_dump=1'):
        t.eq(error_dump_lines(fr.err, 'fio'), want, 'fio 3.33 error_dump=1: same fields', fr)
    error_dump_many(t, f)
    # fio 3.33: "max value out of range: 2 (1 max)", exit 1: booleans are
    # 0 or 1 (its set-style options, time_based=2, take any integer)
    r = t.run('--parse-only', '--name=ed', '--size=64k', '--error_dump=2')
    t.eq((r.rc, r.err), (1, "iobench: error_dump: invalid boolean '2' (use "
                         "1/0, true/false, yes/no, on/off)\n"),
         'error_dump=2 refused, as fio')
    r = t.run('--parse-only', '--name=ed', '--size=64k', '--time_based=2',
              '--runtime=1')
    t.ok(r, 'time_based=2: any integer, as fio')


def test_number_ios(t):
    f = t.shm_file('ni', size=1 * MiB)
    for rw in ('randread', 'randrw', 'write'):
        got = {}
        for fio in (False, True):
            a = ['--name=ni', '--filename=' + f, '--size=1m', '--bs=4k',
                 '--rw=' + rw, '--number_ios=10', '--ioengine=psync',
                 '--direct=0', '--output-format=json']
            r = t.fio(*a) if fio else t.run(*a)
            if r is None or not t.ok(r, 'number_ios %s%s' % (rw, fio)):
                continue
            j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
            got[fio] = j['read']['total_ios'] + j['write']['total_ios']
        t.eq(got.get(False), 10, 'number_ios=10 %s: I/Os' % rw)
        if True in got:
            t.eq(got[False], got[True], 'number_ios=10 %s: as fio 3.33' % rw)
    r = t.run('--parse-only', '--name=ni', '--size=1m', '--number_ios=10',
              '--time_based', '--runtime=1')
    t.fails(r, 'number_ios with time_based')


def test_trim(t):
    dev = t.loop_device(2 * MiB)
    if dev is None:
        t.skip('no loop devices: trim job')
        return
    side_by_side(t, 'trim', TRIM.format(dev=dev), {
        'discard': ((0, 0), (0, 0), (16, 1 * MiB)),
        'rewrite': ((0, 0), (16, 1 * MiB), (16, 1 * MiB))})


def test_messages(t):
    """Job messages: stdout with the human report and with --output=FILE,
    stderr only when stdout carries JSON or terse."""
    d = t.mkdir('msg')
    base = ['--name=m', '--directory=' + d, '--size=256k', '--ioengine=psync',
            '--direct=0']
    # with --output=FILE the messages go into FILE with the human report,
    # nowhere when FILE holds JSON (fio 3.33 and 3.42 alike)
    cases = [([], 'out'), (['--output=' + t.path('m.txt')], 'file'),
             (['--output-format=json', '--output=' + t.path('m.json')], 'none'),
             (['--output-format=json'], 'err'), (['--output-format=terse'], 'err')]
    for extra, where in cases:
        for n in os.listdir(d):
            os.unlink(os.path.join(d, n))
        r = t.run(*(base + extra))
        if not t.ok(r, 'messages %s' % extra):
            continue
        msg = 'm: Laying out IO file (1 file / 0MiB)'
        t.eq((msg in r.out, msg in r.err), (where == 'out', where == 'err'),
             'messages %s: "Laying out" %s' % (extra, where), r)
        if where in ('file', 'none'):
            with open(extra[-1].split('=', 1)[1]) as f:
                t.eq(msg in f.read(), where == 'file',
                     'messages %s: "Laying out" in the file: %s' % (extra, where))
            t.eq((r.out, r.err), ('', ''),
                 'messages %s: empty stdout and stderr' % extra, r)


def main():
    t = ibtest.Test()
    test_messages(t)
    test_cloud(t)
    test_database(t)
    test_metadata(t)
    test_multifile(t)
    test_logging(t)
    test_log_variants(t)
    test_hist_log(t)
    test_terse_lat_pct(t)
    test_clocksource(t)
    test_per_job_logs(t)
    test_error_dump(t)
    test_number_ios(t)
    test_trim(t)
    t.finish()


if __name__ == '__main__':
    main()
