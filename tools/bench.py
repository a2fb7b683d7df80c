#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench.py: iobench against Debian's fio on identical jobs and targets.

    tools/bench.py [--rounds N] [--runtime S] [--cases a,b] [--json FILE]
                   [--smoke] [--iobench PATH] [--fio PATH] [--ceiling PATH]
                   [--iobench-wrapper CMD] [--baseline PATH]

Every round runs each case once per tool, alternating iobench, fio (and the
ceiling loop where the case has one), so slow drifts of the machine hit both
tools alike; the table shows medians over the rounds. Per run:

  IOPS        sum of the jobs' read+write "iops" in the tool's JSON report
  usr/sys ns  CPU time per I/O: os.wait4() rusage of the whole process tree
              (waited-for children included) / the report's total_ios
  RSS MiB     peak RSS of the whole run: sum over every process of the tree
              of its VmHWM (/proc sampled every 20 ms, so forked job
              processes count). Not wait4's ru_maxrss: Linux carries it
              across execve, so it would start at this script's own RSS.
  PSS MiB     peak of the sampled sum of Pss (shared pages split fairly)
  others      CPUs the rest of the machine kept busy during the run
              (/proc/stat busy time minus the tool's own): > 0.3 means
              the run shared the 2 CPUs; --idle-wait waits for a quiet
              machine before each run
  1st I/O ms  time from execve to the first I/O system call
              (io_uring_enter, io_submit or a pread64 of one block), from a
              separate run under strace -f --seccomp-bpf: with the seccomp
              filter only the traced calls stop the tracee, so the tracer
              adds a few microseconds per traced call and per fork, the same
              for both tools; null-engine cases have no I/O call and show "-"
  calls/io    system calls per I/O (every kind, start-up included), from a
              separate short run in round 1 under `perf stat -e
              raw_syscalls:sys_enter` (children counted), each tool and the
              ceiling. The header's "empty syscall" is tools/syscost: what
              one getppid() costs here and how getrusage() bills it. Where
              the user part is large (the development VM bills ~500 ns of
              every system call to user mode), a tool's usr ns/io is mostly
              calls/io x that: issue 21's user-time rows are shown as
              measured and less that billing

Machine limits (issue 21): the 'pair' row of null-nj2 runs its one-job
form twice at once as two separate iobench processes, which share nothing:
what this machine gives two CPU-bound jobs, the bound for numjobs=2 (on the
development VM a busy loop on the other vCPU slows a null job by 13-22%). The
numjobs=N start-up is measured as job processes and as threads
(thread=1), beside tools/forkfloor's N bare forks and N bare threads from a
small process: the floor under each. The user time above the ceiling's
compares the two under the same billing.

Nothing here asserts speed: the "targets" section only reports measured vs
goal. Its ratios are the medians of each round's own ratio (the two runs
of a round are neighbours in time), not the ratio of the table's
medians, so a drift of the machine between rounds cancels out. Files live
in one /dev/shm directory and the loop device is detached on exit,
whatever happens. Needs root for the loop-device case (skipped
otherwise). Standard library only.

tools/bench.py anchors [...] (tools/bench_anchors.py, its own --help):
iobench's defaults against fio's best flags, fio 3.42, t/io_uring and the
ceiling on every engine and target (shm, loop, zram, ext4, xfs, null), the
QD1 added latency and the 8-job seed line, PASS/FAIL per target.

tools/bench.py threads [...] (tools/bench_threads.py, its own --help):
thread start-up at numjobs 2048 and 4096 (--thread, null engine), the whole
command's wall time against fio's, alternated rounds, median ratios.

tools/bench.py instructions [...] (tools/bench_instr.py, its own --help):
user-mode instructions per I/O of iobench, fio and the ceiling under
callgrind, a count no load or hypervisor billing moves.

tools/bench.py lateness [...] (tools/bench_lateness.py, its own --help):
how late paced I/Os start after their due time, p50/p99/max per rate,
PASS/FAIL against issue 15's 20 us at p99.

--baseline PATH runs a second iobench build (an older commit, say) in the
same alternation, with iobench's options: its row and the "ib/base" ratios
show whether a change made iobench faster or slower, measured in one run.
"""
import argparse
import atexit
import json
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20
FILE_SIZE = 256 * MIB
TOOLS = ('iobench', 'fio', 'ceiling', 'baseline', 'pair')
IO_CALL = re.compile(r'^(\d+\s+)?([\d.]+) (io_uring_enter|io_submit|'
                     r'pread64)\((.*)')
EXEC_CALL = re.compile(r'^(\d+\s+)?([\d.]+) execve\(')


class Case:
    """One job, run identically by both tools."""

    def __init__(self, name, desc, args, target=None, ceiling=None,
                 timed=True, pair=None):
        self.name = name
        self.desc = desc
        self.args = args          # fio options, without filename/runtime
        self.target = target      # None (null engine), 'shm' or 'loop'
        self.ceiling = ceiling    # (mode, depth) for tools/ceiling, or None
        self.timed = timed        # False: size based (the file's 256m)
        # the options of a one-job run that the 'pair' tool starts twice at
        # once, as two separate iobench processes: what this machine gives
        # two jobs that share nothing, the bound for a numjobs=2 case
        self.pair = pair


def _rand(engine, depth, extra=()):
    return (['--ioengine=' + engine, '--rw=randread', '--bs=4k',
             '--iodepth=%d' % depth, '--direct=1'] + list(extra))


def _null(depth, jobs=1):
    args = ['--ioengine=null', '--rw=randread', '--bs=4k', '--size=1g',
            '--iodepth=%d' % depth]
    return args + (['--numjobs=%d' % jobs] if jobs > 1 else [])


CASES = [
    Case('null-qd1', 'null engine, 4k, iodepth 1', _null(1)),
    Case('null-qd32', 'null engine, 4k, iodepth 32', _null(32)),
    Case('uring-shm', 'io_uring 4k randread QD32 O_DIRECT, /dev/shm file',
         _rand('io_uring', 32), 'shm', ('uring', 32)),
    Case('aio-shm', 'libaio 4k randread QD32 O_DIRECT, /dev/shm file',
         _rand('libaio', 32), 'shm'),
    Case('psync-shm', 'psync 4k randread QD1 O_DIRECT, /dev/shm file',
         _rand('psync', 1), 'shm', ('pread', 1)),
    Case('uring-loop', 'io_uring 4k randread QD32, loop (direct-io=on) '
         'over tmpfs', _rand('io_uring', 32), 'loop', ('uring', 32)),
    Case('null-nj1', 'null engine, 4k, iodepth 64, numjobs 1', _null(64)),
    Case('null-nj2', 'null engine, 4k, iodepth 64, numjobs 2', _null(64, 2),
         pair=_null(64)),
    Case('null-nj8', 'null engine, 4k, iodepth 64, numjobs 8', _null(64, 8)),
    Case('uring-nj8', 'io_uring 4k randread QD64 O_DIRECT, numjobs 8, '
         '/dev/shm file', _rand('io_uring', 64, ['--numjobs=8']), 'shm'),
    # issue 21's memory target: random maps of a 4 TiB target (fio: one bit
    # per 4k block per job, 128 MiB each; iobench: a permutation)
    Case('uring-nj8-4t', 'io_uring 4k randread QD64 O_DIRECT, numjobs 8, '
         '4 TiB sparse /dev/shm file', _rand('io_uring', 64, ['--numjobs=8']),
         'big'),
    # write+verify: every block written with a crc32c header, then read back
    # and checked; size based (a time_based verify phase would have its
    # own runtime). IOPS: read (verify) + write, each over its own phase.
    Case('verify-crc32c', 'io_uring 4k randwrite QD32 O_DIRECT + '
         'verify=crc32c read-back, 256m /dev/shm file',
         ['--ioengine=io_uring', '--rw=randwrite', '--bs=4k', '--iodepth=32',
          '--direct=1', '--verify=crc32c'], 'shm', timed=False),
]


# -- targets ----------------------------------------------------------------
class Env:
    """The files and loop device the cases run on; cleaned up on exit."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix='iobench-bench.', dir='/dev/shm')
        self.loop = None
        self.loop_dio = None
        self.shm = None
        self.zram = None        # the zram device's number once added
        self.child = None       # the Tree of the run in progress, if any
        atexit.register(self.cleanup)

    def _fill(self, path):
        chunk = bytes(range(256)) * (MIB // 256)
        with open(path, 'wb') as f:
            for i in range(FILE_SIZE // MIB):
                f.write(chunk[i % 251:] + chunk[:i % 251])

    def shm_file(self):
        if not self.shm:
            self.shm = os.path.join(self.dir, 'data')
            self._fill(self.shm)
        return self.shm

    def big_file(self):
        """A sparse 4 TiB file (reads of holes: no data is stored)."""
        path = os.path.join(self.dir, 'big')
        if not os.path.exists(path):
            with open(path, 'wb') as f:
                f.truncate(4 << 40)
        return path

    def loop_dev(self):
        """A loop device with direct I/O on over a tmpfs file, or None."""
        if self.loop is None:
            self.loop = ''
            backing = os.path.join(self.dir, 'loop-backing')
            self._fill(backing)
            try:
                out = subprocess.run(
                    ['losetup', '--direct-io=on', '--show', '-f', backing],
                    capture_output=True, text=True, timeout=30)
            except (OSError, subprocess.SubprocessError):
                return None
            if out.returncode == 0 and out.stdout.strip():
                self.loop = out.stdout.strip()
                name = os.path.basename(self.loop)
                try:
                    with open('/sys/block/%s/loop/dio' % name) as f:
                        self.loop_dio = f.read().strip() == '1'
                except OSError:
                    pass
        return self.loop or None

    def zram_dev(self):
        """A zram device of FILE_SIZE filled like the files, or None."""
        if self.zram is None:
            self.zram = ''
            try:
                with open('/sys/class/zram-control/hot_add') as f:
                    self.zram = f.read().strip()
                with open('/sys/block/zram%s/disksize' % self.zram, 'w') as f:
                    f.write(str(FILE_SIZE))
                self._fill('/dev/zram' + self.zram)
            except OSError:
                self._zram_remove()
        return '/dev/zram' + self.zram if self.zram else None

    def _zram_remove(self):
        if self.zram:
            try:
                with open('/sys/class/zram-control/hot_remove', 'w') as f:
                    f.write(self.zram)
            except OSError:
                pass
        self.zram = ''

    def cleanup(self):
        if self.child:
            # fio's job processes setsid(): kill every process of the tree
            tree, self.child = self.child, None
            tree.sample()
            for pid in tree.pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            try:
                os.waitpid(tree.root, 0)
            except OSError:
                pass
        if self.loop:
            for _ in range(20):     # busy until the killed tools are gone
                if subprocess.run(['losetup', '-d', self.loop],
                                  capture_output=True).returncode == 0:
                    break
                time.sleep(0.1)
            self.loop = ''
        self._zram_remove()
        shutil.rmtree(self.dir, ignore_errors=True)


# -- measuring one process tree -----------------------------------------------
class Tree:
    """Samples the memory of a process and all its descendants."""

    def __init__(self, root, nice):
        self.nice = nice
        self.root = root
        self.pids = {root}
        self.outside = set()
        self.hwm = {}             # pid -> peak VmHWM seen (KiB)
        self.pss_peak = 0         # peak of the sum of Pss (KiB)

    def _ppid(self, pid):
        try:
            with open('/proc/%d/stat' % pid) as f:
                s = f.read()
            return int(s[s.rindex(')') + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            return None

    def _grow(self):
        for e in os.listdir('/proc'):
            if not e.isdigit():
                continue
            pid = int(e)
            if pid in self.pids or pid in self.outside:
                continue
            ppid = self._ppid(pid)
            if ppid in self.pids:
                self.pids.add(pid)
                self._renice(pid)
            elif ppid is not None:
                self.outside.add(pid)

    def _renice(self, pid):
        """fio's job processes call setsid(): a new autogroup at nice 0.
        Give it the same nice as the tool's own group."""
        try:
            with open('/proc/%d/autogroup' % pid, 'w') as f:
                f.write('%d' % self.nice)
        except OSError:
            pass

    @staticmethod
    def _kib(path, key):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(key):
                        return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            pass
        return None

    def sample(self):
        self._grow()
        pss = 0
        for pid in self.pids:
            hwm = self._kib('/proc/%d/status' % pid, 'VmHWM:')
            if hwm is not None:
                self.hwm[pid] = max(self.hwm.get(pid, 0), hwm)
            p = self._kib('/proc/%d/smaps_rollup' % pid, 'Pss:')
            pss += p or 0
        self.pss_peak = max(self.pss_peak, pss)


def busy_jiffies():
    """System-wide busy CPU time so far (user..steal, not idle/iowait)."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    return sum(v) - v[3] - v[4]


def wait_quiet(max_wait):
    """Wait (up to max_wait s) for a 1-s window where other processes use
    less than 0.25 CPU; return the seconds waited."""
    hz = os.sysconf('SC_CLK_TCK')
    t0 = time.monotonic()
    while time.monotonic() - t0 < max_wait:
        b0 = busy_jiffies()
        time.sleep(1.0)
        if (busy_jiffies() - b0) / hz < 0.25:
            break
    return time.monotonic() - t0


def session(nice):
    """Popen arguments: a new session whose scheduler autogroup runs at
    nice. With autogroups (Debian's default), the nice value of a process
    only counts inside its session's group, so the group's own nice is what
    keeps the neighbours' builds from taking the tool's CPU."""
    def prio():
        try:
            with open('/proc/self/autogroup', 'w') as f:
                f.write('%d' % nice)
        except OSError:
            pass            # no autogroups: setpriority() alone does it
    return {'start_new_session': True, 'preexec_fn': prio}


def run_tree(argv, timeout, outpath, nice, env, environ=None):
    """Run argv with stdout to outpath; return (status, rusage, tree, secs)."""
    with open(outpath, 'wb') as out:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT,
                             env=environ, **session(nice))
    tree = Tree(p.pid, nice)
    env.child = tree        # killed by env.cleanup() if we are stopped
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - t0 > timeout:
            os.killpg(p.pid, signal.SIGKILL)
        tree.sample()
        time.sleep(0.02)
    p.returncode = status
    env.child = None
    return status, ru, tree, time.monotonic() - t0


def _parse_report(text):
    start = text.find('{')
    if start < 0:
        raise ValueError('no JSON report')
    rep = json.JSONDecoder().raw_decode(text[start:])[0]
    iops = ios = 0
    for job in rep['jobs']:
        for ddir in ('read', 'write', 'trim'):
            d = job.get(ddir)
            if d:
                iops += float(d['iops'])
                ios += int(d['total_ios'])
    return iops, ios


def _parse_pair(text):
    """(IOPS, I/Os) summed over the two JSON reports of a 'pair' run."""
    iops = ios = 0
    dec, pos = json.JSONDecoder(), 0
    for _ in range(2):
        start = text.find('{', pos)
        if start < 0:
            raise ValueError('a pair run printed fewer than two reports')
        end = dec.raw_decode(text[start:])[1] + start
        one = _parse_report(text[start:end])
        iops, ios, pos = iops + one[0], ios + one[1], end
    return iops, ios


def _parse_output(tool, text):
    """(IOPS, I/Os) of one run's output: tools/ceiling's line, a pair's two
    reports, or the tool's JSON report."""
    if tool == 'pair':
        return _parse_pair(text)
    if tool == 'ceiling':
        return (float(re.search(r'iops=([\d.]+)', text).group(1)),
                int(re.search(r'ios=(\d+)', text).group(1)))
    return _parse_report(text)


def measure(tool, argv, opts, env):
    """One measured run; a dict of metrics, or {'error': ...}."""
    out = os.path.join(env.dir, 'out')
    b0 = busy_jiffies()
    status, ru, tree, secs = run_tree(argv, opts.runtime * 10 + 30, out,
                                      opts.nice, env)
    own = ru.ru_utime + ru.ru_stime
    # CPU the rest of the machine used meanwhile, in cores (loop device
    # kworkers count here: they are not the tool's).
    foreign = max(0.0, (busy_jiffies() - b0) / os.sysconf('SC_CLK_TCK')
                  - own) / secs
    with open(out, errors='replace') as f:
        text = f.read()
    if status != 0:
        return {'error': 'exit status %d: %s' % (status, text[-300:])}
    try:
        iops, ios = _parse_output(tool, text)
    except (ValueError, KeyError, AttributeError) as e:
        return {'error': 'unreadable output (%s): %s' % (e, text[-300:])}
    # Not ru_maxrss: Linux carries it across execve, so it starts at the
    # forking Python's own RSS. VmHWM belongs to the new mm: exact.
    rss = sum(tree.hwm.values())
    return {'iops': iops, 'ios': ios, 'wall_s': secs,
            'usr_ns': ru.ru_utime * 1e9 / ios if ios else None,
            'sys_ns': ru.ru_stime * 1e9 / ios if ios else None,
            'rss_mib': rss / 1024.0 if rss else None,
            'pss_mib': tree.pss_peak / 1024.0 if rss else None,
            'procs': len(tree.hwm), 'foreign_cpus': foreign,
            'cpus_used': own / secs}


def first_io_ms(argv, env, nice):
    """ms from execve to the first I/O system call, under strace."""
    trace = os.path.join(env.dir, 'strace')
    cmd = ['strace', '-f', '--seccomp-bpf', '-ttt', '-qq', '-s', '0',
           '-e', 'trace=execve,io_uring_enter,io_submit,pread64',
           '-o', trace, '--'] + argv
    # LeakSanitizer cannot run under ptrace: an ASan build would fail here
    asan = os.environ.get('ASAN_OPTIONS', '')
    environ = dict(os.environ, ASAN_OPTIONS=(asan + ':' if asan else '') +
                   'detect_leaks=0')
    status = run_tree(cmd, 120, os.path.join(env.dir, 'out'), nice, env,
                      environ)[0]
    if status != 0:
        return None
    t_exec = None
    if not os.path.exists(trace):
        return None             # strace could not trace (already traced?)
    with open(trace, errors='replace') as f:
        for line in f:
            m = EXEC_CALL.match(line)
            if m and t_exec is None:
                t_exec = float(m.group(2))
                continue
            m = IO_CALL.match(line)
            if not m or t_exec is None:
                continue
            if m.group(3) == 'pread64' and \
                    not re.search(r', 4096, \d+\)', m.group(4)):
                continue        # not one of the job's block reads
            return (float(m.group(2)) - t_exec) * 1e3
    return None


SYSCALL_COUNT = re.compile(r'^(\d+),[^,]*,raw_syscalls:sys_enter')


def syscalls_per_io(tool, argv, env, nice):
    """System calls per I/O of one run of argv (its whole process tree),
    under perf stat; None where perf cannot count them."""
    data = os.path.join(env.dir, 'perfstat')
    cmd = ['perf', 'stat', '-x,', '-e', 'raw_syscalls:sys_enter', '-o', data,
           '--'] + argv
    out = os.path.join(env.dir, 'out')
    if run_tree(cmd, 120, out, nice, env)[0] != 0:
        return None
    try:
        with open(out, errors='replace') as f:
            text = f.read()
        ios = _parse_output(tool, text)[1]
        with open(data) as f:
            calls = next(int(m.group(1)) for m in map(SYSCALL_COUNT.match, f)
                         if m)
    except (OSError, ValueError, KeyError, AttributeError, StopIteration):
        return None
    return calls / ios if ios else None


def syscall_cost(path):
    """tools/syscost's {wall_ns, usr_ns, sys_ns} per empty system call,
    or None."""
    try:
        r = subprocess.run([path, '1000000'], capture_output=True,
                           text=True, timeout=60)
        return json.loads(r.stdout) if r.returncode == 0 else None
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


# -- the rounds ----------------------------------------------------------------
def job_argv(cmd, case, env, runtime, extra=()):
    """cmd: the tool's command words (its path, after any wrapper)."""
    timed = ['--time_based', '--runtime=%dms' % int(runtime * 1000)]
    argv = list(cmd) + ['--name=bench'] + (timed if case.timed else []) + \
        ['--output-format=json'] + case.args + list(extra)
    if case.target == 'shm':
        argv += ['--filename=' + env.shm_file(), '--size=256m']
    elif case.target == 'loop':
        argv += ['--filename=' + env.loop_dev()]
    elif case.target == 'big':
        argv += ['--filename=' + env.big_file()]
    return argv


def ceiling_argv(binpath, case, env, runtime):
    mode, depth = case.ceiling
    path = env.loop_dev() if case.target == 'loop' else env.shm_file()
    return [binpath, mode, path, str(depth), '%g' % runtime]


def pair_argv(opts, case, env, runtime):
    """Two separate iobench runs of case.pair at once; prints both reports.
    A shell starts them, so the rusage and the tree are both runs'."""
    one = Case(case.name, case.desc, case.pair, case.target)
    argv = job_argv(opts.cmd['iobench'], one, env, runtime,
                    opts.extra['iobench'])
    outs = [os.path.join(env.dir, 'pair.%d.json' % i) for i in (0, 1)]
    script = ('a=$1 b=$2; shift 2; "$@" --output="$a" & p=$!; '
              '"$@" --output="$b" & q=$!; wait $p || exit 1; '
              'wait $q || exit 1; cat "$a" "$b"')
    return ['sh', '-c', script, 'pair'] + outs + argv


def tool_argv(opts, tool, case, env, runtime):
    """The command line of one run of tool on case."""
    if tool == 'ceiling':
        return ceiling_argv(opts.ceiling, case, env, runtime)
    if tool == 'pair':
        return pair_argv(opts, case, env, runtime)
    return job_argv(opts.cmd[tool], case, env, runtime, opts.extra[tool])


PERF_LINE = re.compile(r'^\s*(\S.*?)\s+(\d+)\s+\[\d+\]\s+([\d.]+):\s+'
                       r'(sched:sched_process_exec|syscalls:sys_enter_pread64)')


def startup_ms(opts, env, jobs, extra=()):
    """Milliseconds from iobench's exec to the first block read of any of
    its numjobs=jobs jobs (job processes, or threads with extra
    ['--thread']): perf's sched_process_exec and sys_enter_pread64 events,
    by thread id, so that the parent's own probe reads do not count; or
    None."""
    if not shutil.which('perf'):
        return None
    data = os.path.join(env.dir, 'startup.perf')
    argv = ['perf', 'record', '-q', '-o', data, '-e', 'sched:sched_process_exec',
            '-e', 'syscalls:sys_enter_pread64', '--', opts.iobench,
            '--name=s', '--filename=' + env.shm_file(), '--ioengine=psync',
            '--direct=0', '--size=64m', '--io_size=8k', '--bs=4k',
            '--rw=randread', '--numjobs=%d' % jobs,
            '--output-format=terse'] + list(extra)
    status = run_tree(argv, 600, os.path.join(env.dir, 'out'), opts.nice,
                      env)[0]
    if status != 0:
        return None
    rep = subprocess.run(['perf', 'script', '-i', data, '-F',
                          'comm,tid,cpu,time,event'],
                         capture_output=True, text=True)
    t_exec = parent = None
    for line in rep.stdout.splitlines():
        m = PERF_LINE.match(line)
        if not m:
            continue
        tid, t, ev = int(m.group(2)), float(m.group(3)), m.group(4)
        if ev.endswith('exec') and 'iobench' in m.group(1) and t_exec is None:
            t_exec, parent = t, tid
        elif t_exec is not None and ev.endswith('pread64') and tid != parent:
            return (t - t_exec) * 1e3
    return None


def forkfloor_ms(path, mode, n):
    """tools/forkfloor's ms for n bare forks or threads, or None."""
    try:
        r = subprocess.run([path, mode, str(n)], capture_output=True,
                           text=True, timeout=600)
        return json.loads(r.stdout)['ms'] if r.returncode == 0 else None
    except (OSError, ValueError, KeyError, subprocess.SubprocessError):
        return None


def _median_of(runs):
    runs = sorted(r for r in runs if r is not None)
    return {'ms': runs[len(runs) // 2] if runs else None, 'runs_ms': runs}


def measure_startup(opts, env):
    """numjobs=N from launch to the first I/O, as job processes and as
    threads, alternated with the machine's floors (N bare forks, N bare
    threads) over min(rounds, 3) rounds; medians. None without perf, which
    times the first I/O."""
    if not shutil.which('perf'):
        return None
    n, got = opts.startup_jobs, {k: [] for k in ('p', 't', 'fork', 'thread')}
    floor = opts.forkfloor if os.access(opts.forkfloor, os.X_OK) else None
    for _ in range(min(opts.rounds, 3)):
        for key in got:
            if opts.idle_wait:
                wait_quiet(opts.idle_wait)
            if key == 'p':
                got[key].append(startup_ms(opts, env, n))
            elif key == 't':
                got[key].append(startup_ms(opts, env, n, ['--thread']))
            elif floor:
                got[key].append(forkfloor_ms(floor, key, n))
    return {'jobs': n, 'processes': _median_of(got['p']),
            'threads': _median_of(got['t']),
            'floor': {k: _median_of(got[k])['ms'] for k in ('fork', 'thread')}}


def run_rounds(opts, cases, env, res):
    waited = 0.0
    for rnd in range(opts.rounds):
        for case in cases:
            if case.target == 'loop' and not env.loop_dev():
                res[case.name]['skipped'] = 'no loop device (root needed)'
                continue
            order = ['iobench', 'fio'] + (['baseline'] if opts.baseline
                                          else [])
            if rnd % 2:
                order.reverse()
            if case.ceiling and opts.ceiling:
                order.append('ceiling')
            if case.pair:
                order.append('pair')
            for tool in order:
                if opts.idle_wait:
                    waited += wait_quiet(opts.idle_wait)
                m = measure(tool, tool_argv(opts, tool, case, env,
                                            opts.runtime), opts, env)
                # the extra short runs: first I/O time, system calls
                short = tool_argv(opts, tool, case, env,
                                  min(opts.runtime, 1.0))
                if tool in ('iobench', 'fio', 'baseline') and case.target \
                        and opts.strace and 'error' not in m:
                    m['first_io_ms'] = first_io_ms(short, env, opts.nice)
                if rnd == 0 and case.target and opts.syscalls \
                        and 'error' not in m:
                    m['syscalls_io'] = syscalls_per_io(tool, short, env,
                                                       opts.nice)
                res[case.name]['runs'][tool].append(m)
                if 'error' in m:
                    sys.stderr.write('bench: %s/%s round %d: %s\n' % (
                        case.name, tool, rnd + 1, m['error']))
            sys.stderr.write('bench: round %d/%d %s done (%.0f s waited '
                             'for a quiet machine so far)\n' % (
                                 rnd + 1, opts.rounds, case.name, waited))


def profile(opts, cases, env):
    """--perf: one run of iobench per case under perf record -g; print
    where the cycles go (top symbols of the tool's own threads)."""
    for case in cases:
        if case.target == 'loop' and not env.loop_dev():
            continue
        data = os.path.join(env.dir, 'perf.data')
        argv = job_argv([opts.iobench], case, env, opts.runtime,
                        opts.extra['iobench'])
        status = run_tree(['perf', 'record', '-q', '-g', '-o', data, '--'] +
                          argv, opts.runtime * 10 + 60,
                          os.path.join(env.dir, 'out'), opts.nice, env)[0]
        with open(os.path.join(env.dir, 'out'), errors='replace') as f:
            iops = _parse_report(f.read())[0] if status == 0 else None
        print('== %s: %s  (IOPS %s)' % (case.name, ' '.join(argv[1:]),
                                        _fmt(iops, ',.0f')))
        rep = subprocess.run(['perf', 'report', '-i', data, '--no-children',
                              '--stdio', '-g', 'none', '--percent-limit',
                              '1.5', '--sort', 'comm,dso,sym'],
                             capture_output=True, text=True)
        lines = [ln for ln in rep.stdout.splitlines()
                 if ln.strip() and not ln.startswith('#')]
        print('\n'.join(lines[:opts.perf_top]) + '\n')


def _median(runs, key):
    vals = [r[key] for r in runs if r.get(key) is not None]
    return statistics.median(vals) if vals else None


def summarize(res):
    keys = ('iops', 'usr_ns', 'sys_ns', 'rss_mib', 'pss_mib', 'first_io_ms',
            'syscalls_io', 'foreign_cpus', 'cpus_used')
    for name, c in res.items():
        c['median'] = {}
        for tool, runs in c['runs'].items():
            ok = [r for r in runs if 'error' not in r]
            if ok:
                c['median'][tool] = {k: _median(ok, k) for k in keys}
                c['median'][tool]['ok_runs'] = len(ok)


def _ratio(a, b):
    return a / b if a is not None and b else None


OPS = {'>=': lambda v, g: v >= g, '<=': lambda v, g: v <= g,
       '<': lambda v, g: v < g}


def targets(res, startup=None, syscost=None):
    """[(what, measured, goal, met)]: the issues' targets, measured
    (round 1's issue 6, then issue 21's)."""
    med = {n: c['median'] for n, c in res.items()}

    def get(case, tool, key):
        return med.get(case, {}).get(tool, {}).get(key)

    def vs(case, key, tool='fio', base=None, fn=_ratio):
        """iobench's key over tool's (or over iobench's in case base),
        paired by round (_paired)."""
        return _paired(res, (case, 'iobench'),
                       (base, 'iobench') if base else (case, tool), key, fn)

    rows = []
    for c in ('null-qd1', 'null-qd32'):
        rows.append(('%s IOPS iobench/fio' % c, vs(c, 'iops'), '>=', 2.5))
    for c in ('uring-shm', 'uring-loop'):
        rows.append(('%s IOPS iobench/fio' % c, vs(c, 'iops'), '>=', 1.1))
        rows.append(('%s IOPS iobench/ceiling' % c, vs(c, 'iops', 'ceiling'),
                     '>=', 0.95))
    rows += [('psync-shm IOPS iobench/fio', vs('psync-shm', 'iops'), '>=', 1.05),
             ('null numjobs=2/numjobs=1 IOPS (iobench)',
              vs('null-nj2', 'iops', base='null-nj1'), '>=', 1.8),
             ('verify-crc32c IOPS iobench/fio', vs('verify-crc32c', 'iops'),
              '>=', 0.9)]
    for c in ('null-nj8', 'uring-nj8'):
        rows.append(('%s peak RSS iobench/fio' % c, vs(c, 'rss_mib'), '<=', 0.5))
    for c in ('uring-shm', 'aio-shm', 'psync-shm', 'uring-loop'):
        rows.append(('%s 1st I/O ms iobench/fio' % c, vs(c, 'first_io_ms'),
                     '<', 1.0))
    # issue 21
    for c in ('uring-shm', 'uring-loop'):
        rows += [('21: %s IOPS iobench/fio' % c, vs(c, 'iops'), '>=', 1.25),
                 ('21: %s sys ns/I/O iobench/fio' % c, vs(c, 'sys_ns'),
                  '<=', 0.9),
                 ('21: %s usr ns/I/O iobench' % c,
                  get(c, 'iobench', 'usr_ns'), '<=', 100),
                 ('21: %s usr ns/I/O less syscall billing' % c,
                  _net_usr(get(c, 'iobench', 'usr_ns'),
                           get(c, 'iobench', 'syscalls_io'), syscost),
                  '<=', 100)]
    for c in ('uring-shm', 'uring-loop'):
        # the 100 ns was set where the ceiling loop billed 40-57 ns:
        # iobench at most 43 ns above the leanest loop, both billed alike
        rows.append(('21: %s usr ns/I/O above the ceiling\'s' % c,
                     vs(c, 'usr_ns', 'ceiling', fn=_diff), '<=', 43))
    rows += [('21: null numjobs=2/numjobs=1 IOPS (iobench)',
              vs('null-nj2', 'iops', base='null-nj1'), '>=', 1.9),
             ('21: machine: null nj=1 x2 at once / nj=1',
              _paired(res, ('null-nj2', 'pair'), ('null-nj1', 'iobench'),
                      'iops'), None, None),
             ('21: null numjobs=2 / nj=1 x2 at once',
              vs('null-nj2', 'iops', 'pair'), '>=', 0.95),
             ('21: uring-nj8-4t peak RSS iobench/fio',
              vs('uring-nj8-4t', 'rss_mib'), '<=', 0.25)]
    if startup:
        rows += startup_rows(startup)
    return [{'target': what, 'measured': val,
             'goal': '-' if op is None else
                     '%s %s' % (op, '%.2f' % goal if goal < 10 else goal),
             'met': None if val is None or op is None else OPS[op](val, goal)}
            for what, val, op, goal in rows]


def startup_rows(st):
    """Issue 21's start-up target for job processes and for threads, and
    the machine's floors: the same number of bare forks or threads."""
    n = st['jobs']
    rows = [('21: numjobs=%d first I/O ms (processes)' % n,
             st['processes'].get('ms'), '<=', 1000),
            ('21: numjobs=%d first I/O ms (thread=1)' % n,
             st['threads'].get('ms'), '<=', 1000)]
    for mode, label in (('fork', 'processes'), ('thread', 'threads')):
        floor = st['floor'].get(mode)
        rows += [('21: machine: %d bare %ss ms' % (n, mode), floor, None, None),
                 ('21: numjobs=%d %s/bare %ss' % (n, label, mode),
                  _ratio(st[label].get('ms'), floor), None, None)]
    return rows


def _diff(a, b):
    return a - b if a is not None and b is not None else None


def _paired(res, a, b, key, fn=_ratio):
    """The median over the rounds of fn(a's key, b's key), a and b being
    (case, tool): each round's runs are neighbours in time, so a drift of
    the machine between rounds (the development VM's host moves IOPS by
    +-15% from one minute to the next) does not land on one side only."""
    def runs(case, tool):
        return res.get(case, {}).get('runs', {}).get(tool, [])
    vals = [fn(x.get(key), y.get(key)) for x, y in zip(runs(*a), runs(*b))]
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def _net_usr(usr_ns, calls_io, syscost):
    """User ns per I/O less what the machine bills to user mode for the
    run's system calls (calls/io x syscost's usr_ns per empty call)."""
    if usr_ns is None or calls_io is None or not syscost:
        return None
    return usr_ns - calls_io * syscost['usr_ns']


def _fmt(v, spec):
    return '-' if v is None else format(v, spec)


def _fmtx(v):
    return '-' if v is None else '%.2fx' % v


# the columns of the ib/fio and ib/base rows, in table order
RATIO_KEYS = ('iops', 'usr_ns', 'sys_ns', 'rss_mib', 'pss_mib', 'first_io_ms',
              'syscalls_io')


def print_table(res, tgts, f):
    cols = ('%-11s %-8s %12s %9s %9s %8s %8s %9s %8s %7s %5s\n')
    f.write(cols % ('case', 'tool', 'IOPS', 'usr ns/io', 'sys ns/io',
                    'RSS MiB', 'PSS MiB', '1stIO ms', 'calls/io', 'others',
                    'runs'))
    for name, c in res.items():
        if c.get('skipped'):
            f.write('%-11s skipped: %s\n' % (name, c['skipped']))
            continue
        med = c['median']
        first = True
        for tool in TOOLS:
            m = med.get(tool)
            if not m:
                if c['runs'].get(tool):
                    f.write('%-11s %-8s failed (see stderr)\n' % (
                        name if first else '', tool))
                    first = False
                continue
            f.write(cols % (name if first else '', tool,
                            _fmt(m['iops'], ',.0f'), _fmt(m['usr_ns'], '.0f'),
                            _fmt(m['sys_ns'], '.0f'),
                            _fmt(m['rss_mib'], '.1f'),
                            _fmt(m['pss_mib'], '.1f'),
                            _fmt(m['first_io_ms'], '.1f'),
                            _fmt(m['syscalls_io'], '.2f'),
                            _fmt(m['foreign_cpus'], '.2f'), m['ok_runs']))
            first = False
        ib = med.get('iobench')
        for label, other in (('ib/fio', med.get('fio')),
                             ('ib/base', med.get('baseline'))):
            if ib and other:
                f.write(cols % ('', label, *(
                    _fmtx(_ratio(ib[k], other[k])) for k in RATIO_KEYS),
                    '', ''))
        if ib and med.get('pair'):
            f.write(cols % ('', 'ib/pair', _fmtx(_ratio(
                ib['iops'], med['pair']['iops'])), *([''] * 8)))
        if ib and med.get('ceiling'):
            f.write(cols % ('', 'ib/ceil', _fmtx(_ratio(
                ib['iops'], med['ceiling']['iops'])),
                '', '', '', '', '', _fmtx(_ratio(
                    ib['syscalls_io'], med['ceiling']['syscalls_io'])),
                '', ''))
    f.write('\n%-44s %9s %8s %s\n' % ('target', 'measured', 'goal', 'met'))
    for t in tgts:
        met = {None: '-', True: 'yes', False: 'NO'}[t['met']]
        f.write('%-44s %9s %8s %s\n' % (t['target'],
                                        _fmt(t['measured'], '.2f'),
                                        t['goal'], met))


def machine():
    cpu = ''
    try:
        with open('/proc/cpuinfo') as f:
            cpu = next((ln.split(':', 1)[1].strip() for ln in f
                        if ln.startswith('model name')), '')
    except OSError:
        pass
    mem = os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES')
    return {'kernel': platform.release(), 'cpu': cpu,
            'cpus': os.cpu_count(), 'mem_gib': round(mem / (1 << 30), 1),
            'loadavg_start': os.getloadavg()}


def tool_version(argv):
    try:
        r = subprocess.run(argv + ['--version'], capture_output=True,
                           text=True, timeout=10)
        return r.stdout.strip().splitlines()[0] if r.stdout.strip() else '?'
    except (OSError, subprocess.SubprocessError, IndexError):
        return '?'


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_IOBENCH = os.path.join(ROOT, 'build', 'src', 'iobench')


def build_tool(iobench, name):
    """tools/NAME of the build iobench belongs to."""
    return os.path.join(os.path.dirname(os.path.dirname(iobench)), 'tools',
                        name)


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description='iobench vs fio, alternating, medians over rounds')
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--runtime', type=float, default=3.0,
                    help='seconds per run (default 3)')
    ap.add_argument('--cases', default='',
                    help='comma-separated subset of: ' +
                    ','.join(c.name for c in CASES))
    ap.add_argument('--json', metavar='FILE',
                    help='write machine-readable results (- = stdout)')
    ap.add_argument('--smoke', action='store_true',
                    help='quick shape check: 1 round of 0.5 s')
    ap.add_argument('--iobench', default=DEFAULT_IOBENCH)
    ap.add_argument('--fio', default=shutil.which('fio') or 'fio')
    ap.add_argument('--iobench-wrapper', default='', metavar='CMD',
                    help='run iobench under this command (tests: valgrind '
                    'in the test suite); the numbers then measure the '
                    'wrapper too')
    ap.add_argument('--baseline', default=None, metavar='PATH',
                    help='another iobench build, run alternately with the '
                    'same options (before/after a change)')
    ap.add_argument('--ceiling', default=None,
                    help='default: tools/ceiling next to the iobench build')
    ap.add_argument('--idle-wait', type=float, default=None,
                    help='before each run wait up to this many seconds for '
                    'other processes to use < 0.25 CPU (default 5; '
                    '0 with --smoke)')
    ap.add_argument('--nice', type=int, default=0,
                    help='run both tools at this nice value (default 0, what '
                    'a user runs them at; -20 on a shared machine gives the '
                    'tools, not the neighbours, the CPUs, both sides alike)')
    ap.add_argument('--iobench-opt', action='append', default=[],
                    metavar='OPT', help='extra option for iobench only '
                    '(experiments: the jobs are then no longer identical)')
    ap.add_argument('--fio-opt', action='append', default=[], metavar='OPT',
                    help='extra option for fio only (experiments)')
    ap.add_argument('--perf', action='store_true',
                    help='instead of the table: one run of iobench per '
                    'case under perf record -g, print its top symbols')
    ap.add_argument('--perf-top', type=int, default=15, metavar='N',
                    help='symbols shown per case with --perf (default 15)')
    ap.add_argument('--no-strace', dest='strace', action='store_false',
                    help='skip the time-to-first-I/O runs')
    ap.add_argument('--no-syscalls', dest='syscalls', action='store_false',
                    help='skip the system-call counting runs (calls/io)')
    ap.add_argument('--syscost', default=None, metavar='PATH',
                    help='tools/syscost (default: next to the ceiling)')
    ap.add_argument('--startup-jobs', type=int, default=4096, metavar='N',
                    help='issue 21: time from launch to the first I/O of a '
                    'numjobs=N job, under perf (default 4096; 0: skip)')
    opts = ap.parse_args(argv)
    opts.extra = {'iobench': opts.iobench_opt, 'fio': opts.fio_opt,
                  'baseline': opts.iobench_opt}
    if opts.smoke:
        opts.rounds, opts.runtime = 1, 0.5
        if opts.startup_jobs == 4096:
            opts.startup_jobs = 64   # the shape only
    if opts.idle_wait is None:
        opts.idle_wait = 0.0 if opts.smoke else 5.0
    if opts.rounds < 1 or opts.runtime <= 0:
        ap.error('--rounds and --runtime must be positive')
    opts.iobench = os.path.abspath(opts.iobench)
    opts.cmd = {'iobench': shlex.split(opts.iobench_wrapper) + [opts.iobench],
                'fio': [opts.fio]}
    if opts.baseline:
        opts.baseline = os.path.abspath(opts.baseline)
        if not os.access(opts.baseline, os.X_OK):
            ap.error('--baseline: not an executable: %s' % opts.baseline)
        opts.cmd['baseline'] = shlex.split(opts.iobench_wrapper) + \
            [opts.baseline]
    if opts.ceiling is None:
        opts.ceiling = build_tool(opts.iobench, 'ceiling')
    if not os.access(opts.ceiling, os.X_OK):
        sys.stderr.write('bench: no ceiling program at %s; ceiling rows '
                         'skipped\n' % opts.ceiling)
        opts.ceiling = None
    if opts.strace and not shutil.which('strace'):
        sys.stderr.write('bench: no strace; 1st I/O column skipped\n')
        opts.strace = False
    if opts.syscalls and not shutil.which('perf'):
        sys.stderr.write('bench: no perf; calls/io column skipped\n')
        opts.syscalls = False
    opts.forkfloor = build_tool(opts.iobench, 'forkfloor')
    if opts.syscost is None:
        opts.syscost = build_tool(opts.iobench, 'syscost')
    names = [n for n in opts.cases.split(',') if n]
    known = {c.name for c in CASES}
    bad = [n for n in names if n not in known]
    if bad:
        ap.error('unknown case(s) %s; known: %s' % (
            ','.join(bad), ','.join(c.name for c in CASES)))
    opts.case_list = [c for c in CASES if not names or c.name in names]
    for tool in ('iobench', 'fio'):
        if not shutil.which(getattr(opts, tool)):
            ap.error('%s not found: %s' % (tool, getattr(opts, tool)))
    return opts


def in_own_session(argv, nice):
    """Run this script again in a session of its own at nice, and wait.

    The sampler (memory, fio's autogroups) must keep running while the tools
    run at nice -20: in the caller's autogroup at nice 0 it would starve.
    Signals are passed on as SIGTERM so the child still cleans up."""
    env = dict(os.environ, IOBENCH_BENCH_SESSION=str(os.getpid()))
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__)] + argv,
                         env=env, **session(nice))

    def forward(sig, frame):
        try:
            p.send_signal(signal.SIGTERM)
        except OSError:
            pass
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, forward)
    rc = p.wait()
    return 128 - rc if rc < 0 else rc


def main(argv):
    if argv[:1] == ['lateness']:    # tools/bench_lateness.py
        import bench_lateness
        return bench_lateness.main(argv[1:])
    if argv[:1] == ['instructions']:    # tools/bench_instr.py
        import bench_instr
        return bench_instr.main(argv[1:])
    if argv[:1] == ['anchors']:     # tools/bench_anchors.py
        import bench_anchors
        return bench_anchors.main(argv[1:])
    if argv[:1] == ['threads']:    # tools/bench_threads.py
        import bench_threads
        return bench_threads.main(argv[1:])
    opts = parse_args(argv)
    if os.environ.get('IOBENCH_BENCH_SESSION') is None:
        return in_own_session(argv, opts.nice)
    # SIGTERM/SIGHUP: run the atexit cleanup (loop device, files) too.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda s, f: sys.exit(128 + s))
    try:
        os.setpriority(os.PRIO_PROCESS, 0, opts.nice)
    except OSError as e:
        sys.stderr.write('bench: nice %d: %s; running at nice %d\n' % (
            opts.nice, e.strerror, os.getpriority(os.PRIO_PROCESS, 0)))
    env = Env()
    res = {c.name: {'desc': c.desc, 'args': c.args, 'target': c.target,
                    'runs': {t: [] for t in TOOLS}}
           for c in opts.case_list}
    if opts.perf:
        if not shutil.which('perf'):
            sys.stderr.write('bench: --perf needs perf (linux-perf)\n')
            return 1
        profile(opts, opts.case_list, env)
        return 0
    mach = machine()
    mach['nice'] = os.getpriority(os.PRIO_PROCESS, 0)
    mach['syscall'] = syscall_cost(opts.syscost)
    run_rounds(opts, opts.case_list, env, res)
    summarize(res)
    startup = measure_startup(opts, env) if opts.startup_jobs > 0 else None
    tgts = targets(res, startup, mach['syscall'])
    mach['loadavg_end'] = os.getloadavg()
    out = sys.stdout
    out.write('iobench %s vs %s; %d round(s) x %gs; kernel %s, %s, %d CPUs, '
              '%.0f GiB; nice %d; loadavg %.2f -> %.2f; loop dio=%s\n\n' % (
                  tool_version(opts.cmd['iobench']), tool_version([opts.fio]),
                  opts.rounds, opts.runtime, mach['kernel'], mach['cpu'],
                  mach['cpus'], mach['mem_gib'], mach['nice'],
                  mach['loadavg_start'][0],
                  mach['loadavg_end'][0], env.loop_dio))
    for tool, extra in opts.extra.items():
        if extra and tool != 'baseline':
            out.write('NOT IDENTICAL JOBS: %s also got %s\n\n' % (
                tool, ' '.join(extra)))
    print_table(res, tgts, out)
    sc = mach['syscall']
    out.write('\nempty syscall: %s\n' % (
        'wall %.0f ns, billed usr %.0f ns + sys %.0f ns (tools/syscost)' % (
            sc['wall_ns'], sc['usr_ns'], sc['sys_ns']) if sc else
        'not measured (no tools/syscost)'))
    out.flush()
    env.cleanup()
    if opts.json:
        doc = {'machine': mach, 'rounds': opts.rounds,
               'runtime_s': opts.runtime, 'loop_dio': env.loop_dio,
               'scratch_dir': env.dir, 'extra_opts': opts.extra,
               'iobench': tool_version(opts.cmd['iobench']),
               'fio': tool_version([opts.fio]), 'cases': res,
               'startup': startup, 'targets': tgts}
        if opts.json == '-':
            json.dump(doc, sys.stdout, indent=1)
            sys.stdout.write('\n')
        else:
            with open(opts.json, 'w') as f:
                json.dump(doc, f, indent=1)
    failed = any(not c.get('skipped') and not c['median'].get(t)
                 for c in res.values() for t in ('iobench', 'fio'))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
