#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench's defaults: direct=1 and ioengine=io_uring, with fallbacks.

The command line iobench exists for, as typed (scaled down by --size), runs
O_DIRECT through io_uring at the depth asked for: the device's own counters
see every I/O reported. --defaults=fio gives fio's buffered psync (the page
cache answers a second pass). A default engine the kernel refuses (a seccomp
filter, tests/helpers/seccomp_run.c) falls back to libaio, then psync, with
one line; a default direct=1 the target cannot do (ramfs, bs=512 on a
4096-byte-sector device) runs buffered with one line, and is an error before
anything is written when direct=1 was given.

argv: iobench [seccomp_run helper]
"""
import json
import os
import shutil
import stat
import subprocess
import sys
import time

import ibtest

# the command line of the issue, scaled down by --size
TYPED = ['--rw=randrw', '--rwmixread=75', '--bs=4k', '--iodepth=64',
         '--numjobs=8']


def warnings(r):
    return [l for l in r.err.splitlines() if l.startswith('iobench: warning:')]


def load_json(t, path, r):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        t.check(False, 'JSON output: %s' % e, r)
        return None


def issued(doc):
    """Reads and writes the jobs report as issued (total_ios)."""
    return (sum(j['read']['total_ios'] for j in doc['jobs']),
            sum(j['write']['total_ios'] for j in doc['jobs']))


def dev_rw(dev):
    """Reads and writes the device completed, merged ones included."""
    s = ibtest.block_stat(dev)
    return s[0] + s[1], s[4] + s[5]


def header_engine(out):
    for l in out.splitlines():
        if ', ioengine=' in l:
            return l.split(', ioengine=')[1]
    return None


def probe_reads(t, dev):
    """Device reads the safety check of 8 clones makes (libblkid probes each
    clone's target through the page cache, which the kernel drops at the
    device's last close): a write-only run of the typed command's shape."""
    before = dev_rw(dev)
    r = t.run('--rw=randwrite', '--bs=4k', '--iodepth=64', '--numjobs=8',
              '--filename=' + dev, '--size=4k')
    after = dev_rw(dev)
    t.ok(r, 'probe-read measurement run')
    t.eq(after[1] - before[1], 8, 'probe-read run: 8 writes of 4k')
    return after[0] - before[0]


def test_typed(t, dev):
    """The issue's command line: O_DIRECT io_uring at depth 64 on the device."""
    js = t.path('typed.json')
    probes = probe_reads(t, dev)
    t.check(0 < probes <= 8 * 16, 'safety probes: a handful of reads per '
            'clone (%d for 8)' % probes)
    before = dev_rw(dev)
    r = t.run(*TYPED, '--filename=' + dev, '--size=4m', '--json-output=' + js)
    after = dev_rw(dev)
    if not t.ok(r, 'typed command line'):
        return
    t.eq(warnings(r), [], 'typed command line: no warning')
    t.eq(header_engine(r.out), 'io_uring, iodepth=64', 'header engine and depth')
    doc = load_json(t, js, r)
    if not doc:
        return
    reads, writes = issued(doc)
    t.eq(reads + writes, 8 * 1024, 'typed: 8 jobs x 4 MiB of 4 KiB I/Os')
    t.eq(after[0] - before[0], reads + probes,
         'device reads = reported reads %d + %d safety probe reads' %
         (reads, probes))
    t.eq(after[1] - before[1], writes, 'device writes = reported writes')
    for j in doc['jobs']:
        eff = j['effective options']
        t.eq((eff['ioengine'], eff['direct'], eff['direct_requested']),
             ('io_uring', 1, 1), 'JSON effective options')
        t.check('ioengine_fallback' not in eff and
                'direct_fallback' not in eff, 'JSON: no fallback', eff)
        # batching left to iobench: adaptive, its probes counted (a 4 MiB
        # job may end before its first probe does); what the ring set up
        # that no option asked for, from a known list
        t.check('batch_probes_won_batched' in eff and
                'batch_probes_won_per_io' in eff and
                'batch_probes_won_spin' in eff and
                'batch_probes_won_no_spin' in eff,
                'JSON: adaptive batching on, its probes counted', eff)
        spins = eff.get('batch_probes_won_spin', 0) + \
            eff.get('batch_probes_won_no_spin', 0)
        batches = eff.get('batch_probes_won_batched', 0) + \
            eff.get('batch_probes_won_per_io', 0)
        # the job may end during the last spin probe
        t.check(spins in (batches, batches - 1),
                'JSON: io_uring: a spin probe after each batching probe', eff)
        setup = eff.get('engine_setup', '').split(',')
        t.check(set(setup) <= {'', 'fixedbufs', 'registerfiles', 'ring_fd',
                               'coop_taskrun', 'single_issuer',
                               'defer_taskrun', 'iowq_workers=1'},
                'JSON: the engine\'s own set-up named', eff)
        t.check('registerfiles' in setup and 'iowq_workers=1' in setup,
                'JSON: the device registered with the ring, one io-wq '
                'worker', eff)
        t.check(j['iodepth_level']['>=64'] > 90.0,
                'IO depths: >=64 for most I/Os (%s)' % j['iodepth_level'])
        t.check('direct' not in j['job options'] and
                'ioengine' not in j['job options'],
                'JSON job options: only what was typed', j['job options'])
    t.check('>=64=' in r.out and 'IO depths' in r.out, 'normal: IO depths line')
    depth_line = [l for l in r.out.splitlines() if 'IO depths' in l][0]
    t.check(float(depth_line.split('>=64=')[1].rstrip('%')) > 90.0,
            'normal IO depths show 64: %s' % depth_line)


def test_fio_defaults(t, dev):
    """--defaults=fio: buffered psync; the page cache serves a second pass
    (the test holds the device open between the passes: the kernel drops a
    block device's page cache at its last close)."""
    args = TYPED + ['--filename=' + dev, '--size=2m', '--defaults=fio']
    fd = os.open(dev, os.O_RDONLY)
    try:
        fio_passes(t, args, dev)
    finally:
        os.close(fd)


def fio_passes(t, args, dev):
    for n in (1, 2):
        js = t.path('fio%d.json' % n)
        before = dev_rw(dev)
        r = t.run(*args, '--json-output=' + js)
        after = dev_rw(dev)
        if not t.ok(r, '--defaults=fio pass %d' % n):
            return
        t.eq(header_engine(r.out), 'psync, iodepth=64', 'fio defaults: header')
        t.eq(warnings(r), [], 'fio defaults: no warning line on stderr')
        t.eq(r.out.count('warning [sync-depth]'), r.out.count('(groupid='),
             'fio defaults: the sync-depth check once per job block', r)
        doc = load_json(t, js, r)
        if not doc:
            return
        eff = doc['jobs'][0]['effective options']
        t.eq((eff['ioengine'], eff['direct'], eff['direct_requested']),
             ('psync', 0, 0), 'fio defaults: JSON effective options')
        t.check('batch_probes_won_batched' not in eff and
                'engine_setup' not in eff,
                'fio defaults: no adaptive batching, no engine set-up', eff)
        opts = doc['jobs'][0]['job options']
        t.eq((opts.get('defaults'), 'direct' in opts, 'ioengine' in opts),
             ('fio', False, False), 'fio defaults: JSON job options as typed')
        reads, _ = issued(doc)
        if n == 2:
            t.check(after[0] - before[0] < reads,
                    'second buffered pass: device reads %d < reported %d' %
                    (after[0] - before[0], reads))


SYSCTL = '/proc/sys/kernel/io_uring_disabled'


class Refuser:
    """Runs iobench with io_uring refused: under the seccomp helper (ENOSYS,
    this process tree only) or, where seccomp filters cannot be installed,
    with kernel.io_uring_disabled=2 (EPERM, machine-wide: set for one run and
    restored at once). mode None: neither can be arranged."""

    def __init__(self, t, helper):
        self.t = t
        self.helper = helper
        self.mode = None
        if helper:
            r = t.run('no-uring', 'true', prog=helper)
            if r.rc == 0:
                self.mode = 'seccomp'
                self.why = 'Function not implemented'
                return
        if os.access(SYSCTL, os.W_OK):
            self.mode = 'sysctl'
            self.why = 'Operation not permitted'

    def run(self, *args, aio=False):
        t = self.t
        if self.mode == 'seccomp':
            pre = ('no-async',) if aio else ('no-uring',)
            return t.run(*pre, *t.argv(*args), prog=self.helper,
                         timeout=t.scaled(120))
        with open(SYSCTL) as f:
            old = f.read().strip()
        try:
            with open(SYSCTL, 'w') as f:
                f.write('2')
            return t.run(*args)
        finally:
            with open(SYSCTL, 'w') as f:
                f.write(old)


def test_engine_fallback(t, helper):
    ref = Refuser(t, helper)
    if not ref.mode:
        t.skip('io_uring cannot be refused here (no seccomp, no sysctl)')
        return
    why = 'io_uring: ' + ref.why
    f = t.path('fb.dat')
    js = t.path('fb.json')
    r = ref.run('--name=fb', '--filename=' + f, '--size=1m', '--iodepth=8',
                '--json-output=' + js)
    if not t.ok(r, 'io_uring refused (%s)' % ref.mode):
        return
    t.eq(warnings(r), ["iobench: warning: job 'fb': ioengine=libaio, not the "
                       "default io_uring (%s)" % why],
         'io_uring refused: one line')
    t.eq(header_engine(r.out), 'libaio, iodepth=8', 'io_uring refused: header')
    doc = load_json(t, js, r)
    if doc:
        eff = doc['jobs'][0]['effective options']
        t.eq((eff['ioengine'], eff['direct'], eff['ioengine_fallback']),
             ('libaio', 1, why), 'io_uring refused: JSON')
        t.eq(doc['jobs'][0]['read']['total_ios'], 256, 'libaio did the I/O')
    if ref.mode == 'seccomp':
        r = ref.run('--name=fb', '--filename=' + f, '--size=1m',
                    '--iodepth=8', '--numjobs=3', aio=True)
        if t.ok(r, 'io_uring and libaio refused, 3 clones'):
            t.eq(warnings(r), [
                "iobench: warning: job 'fb': ioengine=psync, not the default "
                "io_uring (%s; libaio: Function not implemented)" % why],
                'both refused: psync, one line for 3 clones')
            t.eq(header_engine(r.out), 'psync, iodepth=8',
                 'both refused: header')
    # an engine given is used or fails, never replaced
    r = ref.run('--name=fb', '--filename=' + f, '--size=1m',
                '--ioengine=io_uring')
    t.eq(r.rc, 1, 'given io_uring refused: the job fails', r)
    t.check('ioengine=io_uring: not available on this system' in r.err,
            'given io_uring refused: said so', r)
    t.eq(warnings(r), [], 'given io_uring refused: no fallback line')
    # an engine option only io_uring takes: no fallback can honour it
    r = ref.run('--name=fb', '--filename=' + f, '--size=1m', '--fixedbufs')
    t.eq(r.rc, 1, 'fixedbufs with io_uring refused: error', r)
    t.eq(r.err, "iobench: job 'fb': no I/O engine can run it here: %s; "
         "libaio does not take fixedbufs; psync does not take fixedbufs\n"
         % why, 'fixedbufs: why')


def ramfs(t):
    mnt = t.mkdir('ramfs')
    p = subprocess.run(['mount', '-t', 'ramfs', 'ramfs', mnt],
                       capture_output=True, text=True)
    if p.returncode != 0:
        t.skip('mount -t ramfs: %s' % p.stderr.strip())
        return None
    t.mounts.append(mnt)
    return mnt


def test_no_odirect_fs(t):
    """ramfs refuses O_DIRECT: buffered when it is the default, else an error."""
    mnt = ramfs(t)
    if not mnt:
        return
    f = os.path.join(mnt, 'sub', 'r.dat')
    js = t.path('ramfs.json')
    why = 'the filesystem of %s does not support O_DIRECT' % f
    for given in ('--direct=1', '--buffered=0'):
        r = t.run('--name=r', '--filename=' + f, '--size=1m', '--rw=write',
                  given)
        t.eq(r.rc, 1, 'ramfs, %s: refused' % given, r)
        t.eq(r.err, "iobench: job 'r': %s (direct=1)\n" % why,
             'ramfs, %s: the error' % given)
        t.check(not os.path.exists(os.path.dirname(f)),
                'ramfs, %s: nothing created' % given)
    r = t.run('--name=r', '--filename=' + f, '--size=1m', '--rw=randrw',
              '--iodepth=4', '--json-output=' + js)
    if t.ok(r, 'ramfs, default direct'):
        t.eq(warnings(r), ["iobench: warning: job 'r': buffered I/O, not the "
                           "default direct=1 (%s)" % why], 'ramfs: one line')
        doc = load_json(t, js, r)
        if doc:
            eff = doc['jobs'][0]['effective options']
            t.eq((eff['ioengine'], eff['direct'], eff['direct_requested'],
                  eff['direct_fallback']), ('io_uring', 0, 1, why),
                 'ramfs: JSON effective options')
            reads, writes = issued(doc)
            t.eq(reads + writes, 256, 'ramfs: the I/O was done')
        t.eq(os.path.getsize(f), 1 << 20, 'ramfs: file laid out')
    r = t.run('--name=r', '--filename=' + f, '--size=1m', '--direct=0')
    t.ok(r, 'ramfs, direct=0 given')
    t.eq(warnings(r), [], 'ramfs, direct=0 given: no warning')


def test_sector_4k(t):
    """bs=512 on a 4096-byte-sector device."""
    dev = t.loop_device(16 << 20, name='s4k.img', sector_size=4096)
    if not dev:
        t.skip('no loop devices')
        return
    before = dev_rw(dev)
    r = t.run('--name=s', '--filename=' + dev, '--size=64k', '--bs=512',
              '--rw=randwrite', '--direct=1')
    t.eq(r.rc, 1, '4k sectors, bs=512, direct=1 given: refused', r)
    t.eq(r.err, "iobench: job 's': bs (write)=512 is not a multiple of 4096, "
         "the direct I/O alignment of %s (direct=1)\n" % dev,
         '4k sectors: the error')
    t.eq(dev_rw(dev)[1], before[1], '4k sectors, refused: nothing written')
    js = t.path('s4k.json')
    r = t.run('--name=s', '--filename=' + dev, '--size=64k', '--bs=512',
              '--rw=randread', '--numjobs=2', '--json-output=' + js)
    if t.ok(r, '4k sectors, bs=512, default direct'):
        t.eq(warnings(r), [
            "iobench: warning: job 's': buffered I/O, not the default direct=1 "
            "(bs (read)=512 is not a multiple of 4096, the direct I/O "
            "alignment of %s)" % dev], '4k sectors: one line for 2 clones')
        doc = load_json(t, js, r)
        if doc:
            t.eq([j['effective options']['direct'] for j in doc['jobs']],
                 [0, 0], '4k sectors: JSON direct used 0')


def test_jobfile_and_showcmd(t):
    f = t.path('jf.dat')
    jf = t.path('d.fio')
    with open(jf, 'w') as fh:
        fh.write('[global]\ndefaults=fio\nfilename=%s\nsize=256k\n'
                 '[a]\n[b]\nioengine=libaio\n[c]\ndirect=1\n' % f)
    js = t.path('jf.json')
    r = t.run(jf, '--json-output=' + js)
    if t.ok(r, 'job file with defaults=fio in [global]'):
        doc = load_json(t, js, r)
        if doc:
            got = [(j['jobname'], j['effective options']['ioengine'],
                    j['effective options']['direct']) for j in doc['jobs']]
            t.eq(got, [('a', 'psync', 0), ('b', 'libaio', 0), ('c', 'psync', 1)],
                 'job file: fio defaults, given options honoured')
            t.eq(doc['global options'],
                 {'defaults': 'fio', 'filename': f, 'size': '256k'},
                 'job file: JSON global options as written')
    r = t.run('--filename=' + f, '--size=256k', '--rw=randread', '--showcmd')
    t.eq(r.out, 'iobench --name=job --filename=%s --size=256k --rw=randread\n'
         % f, '--showcmd: only what was given')
    # a synchronous engine chosen explicitly: the sync-depth check, once,
    # under the job (it was also a stderr line, which --warnings=none kept)
    line = ('  warning [sync-depth]: ioengine=psync is synchronous: iodepth=4 '
            'is effectively 1')
    r = t.run('--filename=' + f, '--size=256k', '--ioengine=psync',
              '--iodepth=4')
    t.ok(r, 'psync given, iodepth=4')
    t.eq((warnings(r), r.out.count('is effectively 1'),
          line in r.out.splitlines()), ([], 1, True),
         'psync given: the sync-depth check only, once', r)
    r = t.run('--filename=' + f, '--size=256k', '--ioengine=psync',
              '--iodepth=4', '--warnings=none')
    t.ok(r, 'psync given, iodepth=4, --warnings=none')
    t.eq((r.err, r.out.count('effectively 1')), ('', 0),
         '--warnings=none: no synchronous note anywhere', r)


def batch_dists(t, what, args):
    """(iodepth_submit, iodepth_complete) of a 256-read io_uring job (no
    --name: with a job file, these options are then its globals)."""
    js = t.path('batch.json')
    r = t.run('--rw=randread', '--bs=4k', '--size=1m',
              '--ioengine=io_uring', '--iodepth=16', *args,
              '--output-format=json', '--json-output=' + js)
    if not t.ok(r, what):
        return None, None
    doc = load_json(t, js, r)
    if not doc:
        return None, None
    j = doc['jobs'][0]
    t.eq(j['read']['total_ios'], 256, what + ': 256 reads')
    return j['iodepth_submit'], j['iodepth_complete']


def test_batches(t, dev):
    """Not given, the batch options are iobench's: a refill's I/Os go in
    with one submit call (the first fill: all 16 at once), a reap takes up
    to iodepth; fio's (one I/O per call) with defaults=fio or as given, on
    the command line or in [global]."""
    sub, comp = batch_dists(t, 'iobench batches', ['--filename=' + dev])
    if sub:
        t.check(sub['16'] > 0, 'iobench batches: the first fill is one call '
                'of 16 I/Os', sub)
        t.check(sub['32'] == sub['64'] == sub['>=64'] == 0 and
                comp['32'] == comp['64'] == comp['>=64'] == 0,
                'iobench batches: no call above iodepth', (sub, comp))
    one = {'0': 0.0, '4': 100.0, '8': 0.0, '16': 0.0, '32': 0.0, '64': 0.0,
           '>=64': 0.0}
    for what, args in (('defaults=fio', ['--defaults=fio', '--direct=1']),
                       ('batch options given', ['--iodepth_batch_submit=1',
                        '--iodepth_batch_complete_max=1'])):
        sub, comp = batch_dists(t, what, ['--filename=' + dev] + args)
        if sub:
            t.eq((sub, comp), (one, one), what + ': one I/O per call')
    jf = t.path('batch.fio')
    with open(jf, 'w') as fh:
        fh.write('[global]\nfilename=%s\niodepth_batch_submit=1\n'
                 'iodepth_batch_complete_max=1\n[b]\n' % dev)
    sub, comp = batch_dists(t, 'batch options in [global]', [jf])
    if sub:
        t.eq((sub, comp), (one, one), 'batch options in [global]: one I/O '
             'per call')


OLD_ATIME_NS = 1000000000 * 10 ** 9


def threads_while(t, args):
    """Run iobench with args (one job, JSON output); (the most threads its
    job process had, read from /proc every few ms while it ran, the exit
    status, the job's JSON object or None, stderr)."""
    p = subprocess.Popen(t.argv(*args, '--output-format=json'),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    most = 0
    while p.poll() is None:
        for kid in ibtest.children(p.pid):
            try:
                most = max(most, len(os.listdir('/proc/%d/task' % kid)))
            except OSError:
                pass
        time.sleep(0.005)
    out, err = p.communicate()
    try:
        job = json.loads(out)['jobs'][0]
    except (ValueError, KeyError, IndexError):
        job = None
    return most, p.returncode, job, err


def test_iowq_cap(t, dev):
    """Direct I/O to a block device with iobench's defaults: one bounded
    io-wq worker per ring (the requests io-wq takes there wait only for
    the device's tags). A depth of twice the loop device's tags sends
    requests to io-wq; the job process never has more than its own thread
    and that worker (9 threads on 2 CPUs before). Not on a file, with
    fsync, with defaults=fio, buffered: the kernel's workers, and no
    iowq_workers in the set-up."""
    with open('/sys/block/%s/queue/nr_requests' % os.path.basename(dev)) as f:
        depth = 2 * int(f.read())
    base = ['--name=w', '--filename=' + dev, '--rw=randread', '--bs=4k',
            '--ioengine=io_uring', '--iodepth=%d' % depth, '--time_based',
            '--runtime=400ms']
    if t.wrapper:       # the wrapper's own threads: the flag only
        r, job = t.run_json(base)
        most, rc, err = 2, r.rc, r.err
    else:
        most, rc, job, err = threads_while(t, base)
    t.eq(rc, 0, 'iodepth=%d on the loop device' % depth, err)
    if rc == 0:
        t.check(job is not None and 'iowq_workers=1' in
                job['effective options'].get('engine_setup', ''),
                'engine_setup names iowq_workers=1', job)
    t.check(1 <= most <= 2, 'at most one io-wq worker (%d threads; %d in '
            'flight, twice the tags)' % (most, depth))
    f = t.shm_file('iowq.dat', size=1 << 20)
    for what, args in (('a tmpfs file', ['--filename=' + f, '--size=1m']),
                       ('fsync=8', ['--rw=randwrite', '--fsync=8',
                                    '--allow_data_loss=1']),
                       ('defaults=fio', ['--defaults=fio', '--direct=1']),
                       ('direct=0', ['--direct=0'])):
        r, job = t.run_json(base + args)
        if t.ok(r, 'io-wq as the kernel sets it: ' + what):
            t.check(job is not None and 'iowq' not in
                    job['effective options'].get('engine_setup', ''),
                    'no iowq_workers with ' + what, job)


def getevents_calls(t, *args):
    """(Result, the io_getevents calls strace saw) of iobench with args."""
    log = t.path('peek.strace')
    r = t.run('-f', '-qq', '-e', 'trace=io_getevents', '-o', log,
              *t.argv(*args), prog=shutil.which('strace'),
              timeout=t.scaled(120))
    try:
        with open(log) as f:
            return r, sum('io_getevents(' in line for line in f)
    except OSError:
        return r, None


def test_aio_peek(t, dev):
    """libaio with iobench's defaults reads the completion ring before any
    wait (engine_setup ring_peek): the 256 reads of a tmpfs file complete
    in io_submit, so the job makes no io_getevents at all; defaults=fio
    waits in io_getevents as fio does. A wait for 4 at a time on the loop
    device (what the ring holds, then io_getevents for the rest) still
    gives every read once."""
    f = t.shm_file('peek.dat', size=1 << 20)
    base = ['--name=p', '--filename=' + f, '--ioengine=libaio', '--rw=randread',
            '--bs=4k', '--iodepth=8', '--direct=1', '--output-format=json']
    for what, extra, peek in (('defaults', [], True),
                              ('defaults=fio', ['--defaults=fio'], False)):
        if not shutil.which('strace') or t.wrapper:
            r, calls = t.run(*base, *extra), None
        else:
            r, calls = getevents_calls(t, *base, *extra)
        if not t.ok(r, 'libaio on a tmpfs file, ' + what):
            continue
        job = json.loads(r.out[r.out.index('{'):])['jobs'][0]
        setup = job['effective options'].get('engine_setup', '').split(',')
        t.eq((job['read']['total_ios'], 'ring_peek' in setup),
             (256, peek), what + ': 256 reads, ring_peek in the set-up')
        if calls is None:
            continue
        if peek:
            t.eq(calls, 0, what + ': no io_getevents')
        else:
            t.check(1 <= calls <= 256, what + ': waits in io_getevents '
                    '(%d calls)' % calls)
    if not dev:
        return
    r, job = t.run_json(['--name=p', '--filename=' + dev, '--ioengine=libaio',
                         '--rw=randread', '--bs=4k', '--iodepth=8',
                         '--size=1m', '--iodepth_batch_complete_min=4'])
    if t.ok(r, 'libaio on the loop device, 4 completions per wait'):
        rd = job['read'] if job else {}
        t.eq((rd.get('total_ios'), rd.get('io_bytes')), (256, 1 << 20),
             'every read once, 4 completions per wait')


def read_keeps_atime(t, f, what, *extra, prog=None):
    """A 1 MiB read of f (its atime set far back first); (the JSON's
    effective options or None, whether f's atime stayed)."""
    st = os.stat(f)
    os.utime(f, ns=(OLD_ATIME_NS, st.st_mtime_ns))
    js = t.path('atime.json')
    args = ['--name=a', '--filename=' + f, '--rw=read', '--bs=4k',
            '--size=1m', '--json-output=' + js, *extra]
    if prog:
        r = t.run(*prog[1:], *t.argv(*args), prog=prog[0],
                  timeout=t.scaled(120))
    else:
        r = t.run(*args)
    if not t.ok(r, what):
        return None, None
    doc = load_json(t, js, r)
    if not doc:
        return None, None
    t.eq(issued(doc), (256, 0), what + ': the reads were done')
    return (doc['jobs'][0]['effective options'],
            os.stat(f).st_atime_ns == OLD_ATIME_NS)


def test_noatime(t, dev):
    """Reads leave access times alone: under iobench's defaults every file is
    opened O_NOATIME (counted in the JSON's effective options, noatime_files),
    with --defaults=fio only devices, as fio does; where the kernel refuses
    it (not the file's owner, no CAP_FOWNER) the file is opened without it.
    On a tmpfs mounted strictatime, where every read would set the atime."""
    mnt = t.mkdir('atime')
    p = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'strictatime,size=4m',
                        'tmpfs', mnt], capture_output=True, text=True)
    if p.returncode != 0:
        t.skip('mount -t tmpfs -o strictatime: %s' % p.stderr.strip())
        return
    t.mounts.append(mnt)
    f = os.path.join(mnt, 'a.dat')
    with open(f, 'wb') as fh:
        fh.write(os.urandom(1 << 20))
    eff, kept = read_keeps_atime(t, f, 'noatime, defaults')
    if eff is not None:
        t.eq((eff.get('noatime_files'), kept), (1, True),
             'defaults: opened O_NOATIME, counted; atime kept')
    eff, kept = read_keeps_atime(t, f, 'noatime, defaults=fio',
                                 '--defaults=fio')
    if eff is not None:
        t.eq((eff.get('noatime_files'), kept), (None, False),
             'defaults=fio: a regular file read sets its atime, as in fio')
    os.chown(f, 12345, 12345)
    eff, kept = read_keeps_atime(
        t, f, 'noatime refused', prog=['setpriv', '--bounding-set=-fowner',
                                       '--inh-caps=-fowner'])
    if eff is not None:
        t.eq((eff.get('noatime_files'), kept), (None, False),
             'not the owner, no CAP_FOWNER: opened without O_NOATIME')
    if not dev:
        return
    node = os.path.join(mnt, 'dev')
    os.mknod(node, 0o600 | stat.S_IFBLK, os.stat(dev).st_rdev)
    for extra in ([], ['--defaults=fio']):
        eff, kept = read_keeps_atime(t, node, 'device node %s' % extra,
                                     '--readonly', *extra)
        if eff is not None:
            t.eq((eff.get('noatime_files'), kept), (None, True),
                 'a device node %s: atime kept, not counted' % extra)


def test_files_released(t):
    """The registered files are given back before the job exits: a zram
    device the default io_uring job read can be removed at once (the
    ring's own teardown runs later in a kernel worker: it held the device
    and hot_remove failed EBUSY after every run)."""
    if not os.path.exists('/sys/class/zram-control/hot_add'):
        t.skip('no zram-control: the registered files release')
        return
    for rep in range(3):
        n, dev = ibtest.zram_add(16 << 20)
        r = t.run('--name=z', '--filename=' + dev, '--rw=randread',
                  '--runtime=200ms', '--time_based', '--output-format=json')
        setup = []
        if t.ok(r, 'zram read %d' % rep):
            eff = json.loads(r.out[r.out.index('{'):])['jobs'][0][
                'effective options']
            setup = eff.get('engine_setup', '').split(',')
        err = ibtest.zram_remove(n)
        t.eq(('registerfiles' in setup, err), (True, None),
             'zram read %d: files registered, device removed at once' % rep)
        if err is not None:
            time.sleep(1)
            ibtest.zram_remove(n)


def main():
    t = ibtest.Test()
    helper = sys.argv[2] if len(sys.argv) > 2 else None
    if os.geteuid() != 0:
        t.skip('needs root (loop devices, mounts)')
        t.finish()
    dev = t.loop_device(256 << 20, name='typed.img')
    if dev:
        test_typed(t, dev)
        test_fio_defaults(t, dev)
        test_batches(t, dev)
        test_iowq_cap(t, dev)
    else:
        t.skip('no loop devices')
    test_engine_fallback(t, os.path.abspath(helper) if helper else None)
    test_no_odirect_fs(t)
    test_sector_4k(t)
    test_jobfile_and_showcmd(t)
    test_noatime(t, dev)
    test_aio_peek(t, dev)
    test_files_released(t)
    t.finish()


if __name__ == '__main__':
    main()
