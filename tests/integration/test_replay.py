#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Trace replay (read_iolog=) end to end; argv[2] is tests/tools/trace_dump.

Round trips: an iolog written by iobench (v3 and v2) and one written by fio
3.33 are replayed onto a fresh target with write_iolog on: the replay's
log has the input's I/Os exactly (direction, offset, length, order).

Timing: a v3 iolog with an I/O every 100 ms, and iobench's own v3 log.
Each replayed I/O is logged with the clock reading it was prepared at, so
the log gives each I/O's lateness against the recorded times (scaled as
asked) exactly (1 us of rounding): in every run never negative, and the
largest one and the count over 1 ms equal to what the JSON replay object
reports, which iobench measures against its own due times. So a replay
that ignored the times or scaled them wrongly (x2, x0.5) fails in every
run: its I/Os come early, or its own lateness disagrees with the log's.
No bound on the lateness itself: the machine is shared, and stalls of 25,
231 and 881 ms were seen, which delay the I/Os after them.
replay_time_scale=50 doubles the times, 200 halves them (fio's HOWTO: the
percent of the original rate), replay_no_stall issues all at once. The
blktrace captures are held to their recorded times (trace_dump's) alike.

Depth: 64 reads recorded at the same instant keep iodepth=8 in flight
(JSON iodepth_level), and a job with iodepth=1 keeps one.

Block traces captured with Debian's blktrace, or where the kernel refuses
it (lockdown) through tracefs (blkcapture.py), while dd writes and
reads a loop device: the replay onto a second loop device (replay_redirect)
issues exactly the captured reads and writes (test_replay_ops replays
trims and flushes); without replay_redirect it goes
to the captured device itself; replay_scale/replay_align, time scales 50%
and 200% and replay_no_stall; merge_blktrace_file over two captures.

Refusals: bad traces (a bad line, not a trace, a blktrace record cut
short, an I/O beyond the device) and --readonly with writes give one exact
line, exit 1, and the target's bytes unchanged; under --readonly nothing
is opened for writing (strace); a replay with writes onto a device with a
filesystem signature is refused like any writing job.
"""
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402
from blkcapture import Mounts, capture_blktrace, capture_tracefs  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()
TOOL = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None


def ios(log):
    """(ddir, offset, length) of every read/write of an iolog, in order."""
    return [(d, o, n) for _f, d, o, n in ibtest.parse_iolog(log).data()]


def times(log):
    """The v3 times (us) of the read/write lines of an iolog."""
    out = []
    with open(log) as f:
        for line in f.read().splitlines()[1:]:
            p = line.split()
            if len(p) == 5 and p[2] in ('read', 'write'):
                out.append(int(p[0]))
    return out


def replay(log, target, *extra, name='rp'):
    """Replay log onto target with write_iolog; (run, its iolog path)."""
    out = t.path('%s.out.log' % name)
    r = t.run('--name=' + name, '--read_iolog=' + log,
              '--replay_redirect=' + target, '--write_iolog=' + out,
              '--output-format=json', *extra)
    return r, out


def jobj(r):
    try:
        return json.loads(r.out)['jobs'][0]
    except (ValueError, KeyError, IndexError):
        return {}


def digest(path):
    os.sync()
    with open(t.loop_backing.get(path, path), 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


# -- iologs ---------------------------------------------------------------
def round_trips():
    src = t.path('a.dat')
    for ver in ('3', '2'):
        log = t.path('ib%s.log' % ver)
        r = t.run('--name=w', '--filename=' + src, '--size=1m', '--bs=4k',
                  '--rw=randrw', '--iodepth=4', '--write_iolog=' + log,
                  '--write_iolog_version=' + ver, '--output-format=terse')
        t.ok(r, 'iobench writes a v%s iolog' % ver)
        t.eq(ibtest.parse_iolog(log).version, int(ver), 'v%s header' % ver)
        dst = t.path('fresh%s.dat' % ver)
        r, out = replay(log, dst, '--iodepth=4')
        t.ok(r, 'replay of iobench v%s' % ver)
        t.eq(ios(out), ios(log), 'v%s round trip: same I/Os, same order' % ver)
        t.eq(len(ios(log)), 256, 'v%s: 1 MiB of 4k I/Os' % ver)
        if ver == '2':  # a second run replaces the log (fio appends)
            r2 = t.run('--name=w', '--filename=' + src, '--size=1m',
                       '--bs=4k', '--rw=randrw', '--iodepth=4',
                       '--write_iolog=' + log, '--write_iolog_version=2',
                       '--output-format=terse')
            t.ok(r2, 'a second run into the same iolog')
            with open(log) as f:
                heads = [ln for ln in f if ln.startswith('fio version')]
            t.eq((len(heads), len(ios(log))), (1, 256),
                 'a second run\'s iolog: one header, one run\'s I/Os')
        t.eq(set(f for f, *_ in ibtest.parse_iolog(out).data()), {dst},
             'v%s: every I/O on the redirect target' % ver)
        t.eq(jobj(r).get('replay', {}).get('ios'), 256, 'v%s: replay.ios' % ver)
        if ver == '3':
            on_schedule(timed_run(log, dst, 1.0, '--iodepth=4'),
                        'v3 round trip')
    # the same log gzip-compressed through standard input
    with open(log, 'rb') as f:
        z = gzip.compress(f.read())
    out = t.path('stdin.out.log')
    p = subprocess.run(t.argv('--name=s', '--read_iolog=-', '--replay_redirect='
                              + t.path('fresh-stdin.dat'), '--write_iolog=' +
                              out, '--output-format=terse'), input=z,
                       capture_output=True, timeout=t.scaled(120))
    t.eq(p.returncode, 0, 'read_iolog=- (gzip on stdin): exit status', p.stderr)
    t.eq(ios(out), ios(log), 'stdin, gzip: same I/Os, same order')
    # fio 3.33's own v3 iolog
    fsrc = t.path('f.dat')
    flog = t.path('fio.log')
    r = t.fio('--name=f', '--filename=' + fsrc, '--size=512k', '--bs=4k',
              '--rw=randrw', '--ioengine=psync', '--write_iolog=' + flog,
              '--output=/dev/null')
    if r is None:
        t.skip('fio not installed')
        return
    t.ok(r, 'fio writes an iolog')
    t.eq(ibtest.parse_iolog(flog).version, 3, 'fio 3.33 writes v3')
    r, out = replay(flog, t.path('ffresh.dat'))
    t.ok(r, 'replay of fio\'s iolog')
    t.eq(ios(out), ios(flog), 'fio iolog round trip: same I/Os, same order')
    t.eq(len(ios(flog)), 128, 'fio iolog: 512 KiB of 4k I/Os')
    # without replay_redirect: the files the iolog names
    out = t.path('own.out.log')
    r = t.run('--name=own', '--read_iolog=' + flog, '--write_iolog=' + out,
              '--output-format=terse')
    t.ok(r, 'replay onto the iolog\'s own file')
    t.eq(ibtest.parse_iolog(out).data(), ibtest.parse_iolog(flog).data(),
         'own file: same file names, I/Os and order')


def lateness(rec, out, factor):
    """Each replayed I/O is logged with the clock reading the source was
    asked at, so (its time - the first one's) - (its recorded time rec[i],
    us, from the first I/O * factor) is exactly its lateness in us, up to
    3 us of rounding: both log times are cut to whole us, and so is the
    scaled due time."""
    b = times(out)
    exp = [int((x - rec[0]) * factor) for x in rec]
    return [(x - b[0]) - e for x, e in zip(b, exp)], len(exp)


def check_times(rec, out, factor, what, rp):
    """All I/Os logged, none before its due time, the JSON replay object
    says the same lateness as the log (largest, count over 1 ms): iobench's
    own due times are the recorded ones, scaled by factor."""
    late, n = lateness(rec, out, factor)
    t.eq(len(late), n, '%s: every I/O logged' % what)
    t.eq([(i, x) for i, x in enumerate(late) if x < -2], [],
         '%s: no I/O before its due time' % what)
    t.check(abs(rp.get('late_max_ns', -1e9) / 1000 - max(late)) <= 3,
            '%s: JSON late_max_ns is the log\'s largest lateness' % what,
            (rp, max(late)))
    t.check(sum(x > 1001 for x in late) <= rp.get('late_ios', -1) <=
            sum(x >= 999 for x in late),
            '%s: JSON late_ios counts the I/Os over 1 ms late' % what,
            (rp, late))


def on_schedule(run, what):
    """run() -> (recorded times in us, the replay's log, factor, its JSON
    replay object); one run, checked by check_times."""
    rec, out, factor, rp = run()
    check_times(rec, out, factor, what, rp)


def spaced_log(n=10, gap_us=100000, path=None):
    path = path or t.path('spaced.log')
    lines = ['fio version 3 iolog', '0 /x add', '0 /x open']
    lines += ['%d /x %s %d 4096' % (1000 + i * gap_us,
                                    'write' if i % 2 else 'read', i * 8192)
              for i in range(n)]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def timed_run(log, target, factor, *extra):
    """A run() for on_schedule: replay log (an iolog, or a blktrace
    capture) onto target, the same I/Os."""
    if not os.path.exists(log):         # a blktrace NAME.blktrace.N stem
        rec = [ts // 1000 for ts, _ in trace_recs(log)]
        want = [io for _, io in trace_recs(log)]
    else:
        rec, want = times(log), ios(log)

    def run():
        r, out = replay(log, target, *extra)
        t.ok(r, 'timed replay %s' % ' '.join(extra))
        t.eq(ios(out), want, 'timed replay %s: same I/Os' % ' '.join(extra))
        rp = jobj(r).get('replay', {})
        t.eq(rp.get('ios'), len(want), 'timed replay: replay.ios')
        return rec, out, factor, rp
    return run


def timing():
    log = spaced_log()
    for scale, factor in (('100', 1.0), ('50', 2.0), ('200', 0.5)):
        on_schedule(timed_run(log, t.path('tm.dat'), factor, '--ioengine=psync',
                              '--replay_time_scale=' + scale),
                    'time scale %s' % scale)
    r, out = replay(log, t.path('tm.dat'), '--ioengine=psync',
                    '--replay_no_stall=1')
    t.ok(r, 'no_stall replay')
    t.eq(ios(out), ios(log), 'no_stall: same I/Os')
    # a replay that kept the times takes the schedule's span at least
    span, sched = times(out)[-1] - times(out)[0], times(log)[-1] - times(log)[0]
    t.check(span < sched, 'no_stall: 10 I/Os in less than the recorded '
            '%d us (%d us)' % (sched, span))


def depth():
    dev = t.loop_device(8 * MiB)
    if not dev:
        t.skip('no loop devices')
        return
    lines = ['fio version 3 iolog', '0 /x add', '0 /x open']
    lines += ['100 /x read %d 65536' % (i * 65536) for i in range(64)]
    log = t.shm_file('depth.log', data=('\n'.join(lines) + '\n').encode())
    for qd, key in ((8, '8'), (1, '1')):
        r, out = replay(log, dev, '--iodepth=%d' % qd, '--ioengine=libaio')
        t.ok(r, 'depth replay iodepth=%d' % qd)
        lvl = jobj(r).get('iodepth_level', {})
        t.check(lvl.get(key, 0) >= 85.0, 'iodepth=%d: at least 85%% of the '
                'I/Os issued at depth %s' % (qd, key), lvl)
        t.eq(len(ios(out)), 64, 'iodepth=%d: 64 reads' % qd)


# -- refusals -------------------------------------------------------------
def refusals():
    dev = t.loop_device(1 * MiB)
    if not dev:
        t.skip('no loop devices')
        return
    with open(dev, 'r+b') as f:
        f.write(os.urandom(MiB))
    before = digest(dev)
    bad = t.shm_file('bad.log', data=b'fio version 3 iolog\n0 /x add\n'
                     b'5 /x read 0 4096\n9 /x wirte 0 4096\n')
    notrace = t.shm_file('notrace.log', data=b'hello\n')
    beyond = t.shm_file('beyond.log', data=b'fio version 2 iolog\n/x add\n'
                        b'/x write 0 4096\n/x write 1044480 8192\n')
    v3 = spaced_log(path=t.path('rw.log'))
    cases = [
        ('a bad line', bad, [], '%s: line 4: bad action \'wirte\'' % bad),
        ('not a trace', notrace, [], '%s: line 1: not a trace (neither '
         'blktrace records nor a \'fio version 2 iolog\' or \'fio version 3 '
         'iolog\' header)' % notrace),
        ('beyond the device', beyond, [], '%s: line 4: write at offset '
         '1044480 length 8192 ends beyond %s (1048576 bytes)' % (beyond, dev)),
        ('--readonly with writes', v3, ['--readonly'], '%s: line 5: a write, '
         'refused by --readonly (replay_skip=write leaves writes out)' % v3),
        ('filename= not the redirect', v3, ['--filename=' + bad],
         'filename=%s: not replay_redirect=%s (fio would ignore filename= '
         'and replay to %s)' % (bad, dev, dev)),
    ]
    for what, log, extra, line in cases:
        r = t.run('--name=b', '--read_iolog=' + log,
                  '--replay_redirect=' + dev, '--output-format=terse', *extra)
        t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s\n' % line),
             '%s: one exact line, exit 1' % what)
        t.eq(digest(dev), before, '%s: device unchanged' % what)
    r = t.run('--name=b', '--read_iolog=' + v3, '--replay_redirect=' + dev,
              '--readonly', '--replay_skip=write', '--output-format=terse')
    t.ok(r, '--readonly with replay_skip=write: the reads replay')
    t.eq(digest(dev), before, 'reads only: device unchanged')
    readonly_strace(v3, dev)
    signature()
    alignment()


def alignment():
    """Offsets finer than the device's direct I/O alignment: a default
    direct=1 runs buffered (one warning), a given one is refused."""
    dev = t.loop_device(1 * MiB, sector_size=4096)
    if not dev:
        return
    log = t.shm_file('al.log', data=b'fio version 2 iolog\n/x add\n'
                     b'/x read 512 512\n/x read 4096 4096\n')
    why = ('bs (read)=512 is not a multiple of 4096, the direct I/O '
           'alignment of %s' % dev)
    r = t.run('--name=al', '--read_iolog=' + log, '--replay_redirect=' + dev,
              '--output-format=terse')
    t.eq((r.rc, r.err), (0, "iobench: warning: job 'al': buffered I/O, not "
                         "the default direct=1 (%s)\n" % why),
         'unaligned trace, default direct=1: buffered, one warning')
    r = t.run('--name=al', '--read_iolog=' + log, '--replay_redirect=' + dev,
              '--direct=1', '--output-format=terse')
    t.eq((r.rc, r.err), (1, "iobench: job 'al': %s (direct=1)\n" % why),
         'unaligned trace, direct=1 given: refused')


def readonly_strace(log, dev):
    strace = shutil.which('strace')
    if not strace:
        t.skip('strace not installed')
        return
    trace = t.path('strace.log')
    env = dict(os.environ)
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':detect_leaks=0'
    r = t.run('-f', '-qq', '-e', 'trace=open,openat,openat2,creat', '-o',
              trace, *t.argv('--readonly', '--name=b', '--read_iolog=' + log,
                             '--replay_redirect=' + dev),
              prog=strace, env=env, timeout=t.scaled(120))
    t.eq(r.rc, 1, '--readonly replay with writes under strace: refused', r)
    with open(trace) as f:
        opens = [l for l in f if '"%s"' % dev in l]
    t.check(len(opens) >= 1, '--readonly: the device was opened (its size)',
            opens)
    t.eq([l for l in opens if re.search(r'O_RDWR|O_WRONLY|O_CREAT|O_TRUNC', l)],
         [], '--readonly replay with writes: never opened for writing')


def signature():
    if not shutil.which('mkfs.ext4'):
        t.skip('mkfs.ext4 not installed')
        return
    dev = t.loop_device(16 * MiB)
    if not dev or subprocess.run(['mkfs.ext4', '-q', '-F', dev],
                                 capture_output=True).returncode != 0:
        t.skip('no ext4 image')
        return
    before = digest(dev)
    r = t.run('--name=x', '--read_iolog=' + spaced_log(path=t.path('s.log')),
              '--replay_redirect=' + dev, '--output-format=terse')
    t.eq((r.rc, r.err), (1, "iobench: job 'x': %s carries a filesystem "
                         "signature (ext4); refusing to write. Use "
                         "--allow_data_loss=1 to override.\n" % dev),
         'replay with writes onto ext4: refused')
    t.eq(digest(dev), before, 'ext4 device unchanged')


# -- block traces ---------------------------------------------------------
W_BS, W_N, W_SEEK = 4096, 8, 16
R_BS, R_N, R_SKIP = 16384, 4, 2


def dd_workload(kind):
    def run(dev):
        if kind in ('w', 'wr'):
            subprocess.run(['dd', 'if=/dev/zero', 'of=' + dev, 'bs=%d' % W_BS,
                            'count=%d' % W_N, 'seek=%d' % W_SEEK,
                            'oflag=direct', 'conv=notrunc'],
                           capture_output=True, check=True)
        if kind == 'wr':
            time.sleep(0.3)
        if kind in ('r', 'wr'):
            subprocess.run(['dd', 'if=' + dev, 'of=/dev/null', 'bs=%d' % R_BS,
                            'count=%d' % R_N, 'skip=%d' % R_SKIP,
                            'iflag=direct'], capture_output=True, check=True)
        return True
    return run


def capture(dev, name, kind):
    """Debian's blktrace where the kernel lets it, else the blk tracer
    through tracefs (the same per-CPU files)."""
    out = t.mkdir('cap-' + name)
    mounts = Mounts()
    try:
        ok, why = capture_blktrace(dev, out, mounts, dd_workload(kind))
        if not ok:
            ok, why2 = capture_tracefs(dev, out, mounts, dd_workload(kind))
            why = '%s; %s' % (why, why2)
    finally:
        mounts.undo()
    if not ok:
        return None, why
    return os.path.join(out, os.path.basename(dev)), None


def trace_recs(spec):
    """(time ns, (ddir, offset, length)) of the reads/writes trace_dump
    reads."""
    p = subprocess.run([TOOL, spec], capture_output=True, text=True)
    t.check(p.returncode == 0, 'trace_dump %s' % spec, p.stderr)
    out = []
    for line in p.stdout.splitlines():
        f = line.split()
        if f[2] in ('read', 'write'):
            out.append((int(f[0]), (f[2], int(f[3]), int(f[4]))))
    return out


def trace_ios(spec):
    """(ddir, offset, length) of the reads/writes trace_dump reads."""
    return [io for _, io in trace_recs(spec)]


def blktraces():
    if not TOOL:
        t.skip('no trace_dump tool given')
        return
    a = t.loop_device(4 * MiB, name='capA.img')
    b = t.loop_device(4 * MiB, name='capB.img')
    if not a or not b:
        t.skip('no loop devices')
        return
    base, why = capture(a, 'wr', 'wr')
    if not base:
        t.skip('no tracefs capture: %s' % why)
        return
    want = trace_ios(base)
    workload = [('write', (W_SEEK + i) * W_BS, W_BS) for i in range(W_N)] + \
        [('read', (R_SKIP + i) * R_BS, R_BS) for i in range(R_N)]
    t.check(all(w in want for w in workload), 'the capture holds dd\'s I/Os',
            want)
    r, out = replay(base, b)
    t.ok(r, 'blktrace replay onto another loop device')
    t.eq(ios(out), want, 'blktrace replay: the captured I/Os, in order')
    out = t.path('self.out.log')
    r = t.run('--name=self', '--read_iolog=' + base, '--write_iolog=' + out,
              '--replay_no_stall=1', '--output-format=terse')
    t.ok(r, 'blktrace replay onto the captured device (no redirect)')
    t.eq(set(f for f, *_ in ibtest.parse_iolog(out).data()), {a},
         'no redirect: the device the records name')
    r, out = replay(base, b, '--replay_scale=2', '--replay_align=4096')
    t.ok(r, 'replay_scale=2 replay_align=4096')
    t.eq(ios(out), [(d, (o // 2) & ~4095, n) for d, o, n in want],
         'replay_scale/align: offsets / 2, rounded down to 4 KiB')
    rec = [ts for ts, _ in trace_recs(base)]
    t.check(rec[-1] - rec[0] >= 250 * 1000 * 1000,
            'the capture spans the 0.3 s pause', rec)
    for scale, factor in (('100', 1.0), ('50', 2.0), ('200', 0.5)):
        on_schedule(timed_run(base, b, factor, '--replay_time_scale=' + scale),
                    'blktrace time scale %s' % scale)
    r, out = replay(base, b, '--replay_no_stall=1')
    t.ok(r, 'blktrace no_stall')
    t.eq(ios(out), want, 'no_stall: same I/Os')
    tm = times(out)
    t.check(tm[-1] - tm[0] < (rec[-1] - rec[0]) // 1000,
            'no_stall: less than the capture\'s span (its 0.3 s pause)',
            (tm, rec))
    r, out = replay(base, b, '--replay_skip=write')
    t.eq(ios(out), [w for w in want if w[0] == 'read'], 'replay_skip=write')
    merge(a, b, base, want)


def merge(a, b, base, first):
    base2, why = capture(a, 'r2', 'r')
    if not base2:
        t.skip('second capture: %s' % why)
        return
    second = trace_ios(base2)
    merged = t.path('merged.bin')
    r = t.run('--name=m', '--read_iolog=' + base + ':' + base2, '--readonly',
              '--replay_redirect=' + b, '--merge_blktrace_file=' + merged)
    line = r'iobench: %s\.blktrace\.\d+: record \d+: a write, refused by ' \
        r'--readonly \(replay_skip=write leaves writes out\)\n' % re.escape(base)
    t.check(r.rc == 1 and re.fullmatch(line, r.err),
            'merge under --readonly, with writes: one line, refused', r)
    t.check(not os.path.exists(merged), '--readonly: no merged file written')
    r, out = replay(base + ':' + base2, b,
                    '--merge_blktrace_file=' + merged, '--replay_no_stall=1')
    t.ok(r, 'merge_blktrace_file over two captures')
    t.check(os.path.exists(merged), 'the merged file is written')
    t.eq(trace_ios(merged), ios(out), 'the replay issues the merged file')
    t.eq(sorted(ios(out)), sorted(first + second),
         'merged: every I/O of both captures')
    merged2 = t.path('merged2.bin')
    r, out = replay(base + ':' + base2, b, '--merge_blktrace_file=' + merged2,
                    '--merge_blktrace_scalars=50:100',
                    '--merge_blktrace_iters=2:1', '--replay_no_stall=1')
    t.ok(r, 'merge with scalars 50:100 and iters 2:1')
    t.eq(sorted(ios(out)), sorted(first * 2 + second),
         'merged twice the first capture and once the second')
    bad_blktraces(merged, b)


def bad_blktraces(merged, dev):
    """The merged file (48-byte records) cut short, and with a bad magic."""
    with open(merged, 'rb') as f:
        data = f.read()
    n = len(data) // 48
    t.eq(len(data), n * 48, 'merged file: whole 48-byte records')
    cut = t.shm_file('cut.bin', data=data[:-10])
    magic = bytearray(data)
    magic[2 * 48:2 * 48 + 4] = b'\0\0\0\0'
    mag = t.shm_file('magic.bin', data=bytes(magic))
    before = digest(dev)
    for what, path, line in [
            ('cut short', cut, 'record %d: truncated (38 of 48 bytes)' % n),
            ('bad magic', mag,
             'record 3: bad magic 0x00000000 (not a blktrace record)')]:
        r = t.run('--name=b', '--read_iolog=' + path,
                  '--replay_redirect=' + dev, '--output-format=terse')
        t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s: %s\n' % (path, line)),
             'blktrace %s: one exact line, exit 1' % what)
        t.eq(digest(dev), before, 'blktrace %s: device unchanged' % what)


def main():
    round_trips()
    timing()
    depth()
    refusals()
    blktraces()
    t.finish()


if __name__ == '__main__':
    main()
