# SPDX-License-Identifier: GPL-2.0-only
"""Shared helpers for iobench's integration tests (python3 stdlib only).

Each tests/integration/test_*.py does:

    import ibtest
    t = ibtest.Test()                      # binary = sys.argv[1]
    r = t.run('--name=j', '--size=1m', ...) # Result: rc, out, err
    t.check(r.rc == 0, 'job ran', r)
    t.finish()                             # "N passed, N failed"; exit 1/0/77

Every temporary file lives under one directory in /dev/shm, and every loop
device is detached, whatever happens (atexit, also on SIGTERM from meson's
timeout).

Under a wrapper (tools/test.d/valgrind.sh runs the suite so: meson's
`vgintegration` suite, tests/meson.build):

    IBTEST_WRAPPER='valgrind --quiet ... --log-file={logdir}/vg.%p.log'

every iobench run is run under that command: run() without prog, and every
other way a test starts the binary (t.argv(...): a pty, a background run,
under strace or prlimit, tools/bench.py). {logdir} stands for a directory of
this test's own: after each run a file left there with anything in it (a
memcheck report of the process or of any job process it forked) fails the
test, printed whole, whatever the exit status was. Per-run timeouts and the
time bounds a test asserts are multiplied by t.slow (IBTEST_SLOWDOWN, 10 by
default under a wrapper, else 1). t.reduced (under a wrapper, unless
IBTEST_FULL=1): the test may leave out the cases that tools/vg-coverage.py
showed to reach no line the others do not.
"""
import atexit
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77
# iobench writes fio's iolog version 3 as fio 3.x does (write_iolog_version=2
# for the old one); IBTEST_FIO=1 runs the suite against fio itself to check
# the tests' own expectations.
IOLOG_VERSION = 3
SHM = '/dev/shm'



def mpi_test(mpirun):
    """A Test for iobench-mpi (sys.argv[1]): skipped (exit 77) where Open
    MPI is not installed, failed where mpirun is but the binary was not
    built."""
    t = Test()
    if not mpirun:
        t.skip('Open MPI is not installed (no mpirun)')
        t.finish()
    if not t.check(os.access(t.bin, os.X_OK),
                   '%s built (mpirun is here: is the MPI dev package?)' % t.bin):
        t.finish()
    return t

def mpi_env():
    """The environment for mpirun as root: Open MPI's permission, and in a
    sanitizer build no LeakSanitizer, which reports Open MPI's own
    allocations at exit (libmpi and its dlopen'ed components: no way to
    suppress them by name) and turns the status into 1; address and UB
    errors still count. iobench's shared code has its leak checks in the
    other tests."""
    e = dict(os.environ)
    e.update(OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1')
    e['ASAN_OPTIONS'] = e.get('ASAN_OPTIONS', '') + ':detect_leaks=0'
    return e


class Result:
    """What one run of a program left behind."""

    def __init__(self, argv, rc, out, err):
        self.argv = argv
        self.rc = rc
        self.out = out
        self.err = err
        self.pid = None

    def __str__(self):
        cmd = ' '.join(self.argv)
        return 'cmd: %s\nrc=%s\n--- stdout\n%s--- stderr\n%s' % (
            cmd, self.rc, _tail(self.out), _tail(self.err))


_SANITIZER_RE = re.compile(r'^==\d+==ERROR: |: runtime error: |'
                           r'^SUMMARY: (Address|Leak|Undefined)', re.M)


def _short(v, n=300):
    s = repr(v)
    return s if len(s) <= n else s[:n] + '...(%d chars)' % len(s)


def _tail(s, n=40):
    lines = s.splitlines(True)
    if len(lines) > n:
        lines = ['[... %d lines ...]\n' % (len(lines) - n)] + lines[-n:]
    return ''.join(lines)


class Test:
    def __init__(self, argv=None, wrapper=None):
        """wrapper: the IBTEST_WRAPPER string (default: the environment's)."""
        argv = sys.argv if argv is None else argv
        if len(argv) < 2:
            sys.stderr.write('usage: %s PATH/TO/iobench\n' % argv[0])
            sys.exit(2)
        self.bin = os.path.abspath(argv[1])
        self.name = os.path.basename(argv[0])
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.loops = []
        self.mounts = []            # tmpfs mounts made by small_tmpfs()
        self.loop_backing = {}      # /dev/loopN -> its tmpfs backing file
        self.dir = tempfile.mkdtemp(prefix='ibtest.', dir=SHM)
        self.logdir = None
        if wrapper is None:
            wrapper = os.environ.get('IBTEST_WRAPPER', '')
        self.wrapper = shlex.split(wrapper)
        if any('{logdir}' in w for w in self.wrapper):
            self.logdir = tempfile.mkdtemp(prefix='ibtest-logs.', dir=SHM)
            self.wrapper = [w.replace('{logdir}', self.logdir)
                            for w in self.wrapper]
        self.slow = float(os.environ.get('IBTEST_SLOWDOWN') or
                          (10 if self.wrapper else 1))
        # Under a wrapper a test may leave out cases whose runs of iobench
        # reach no line of src/ that the runs it keeps and the other tests'
        # do not (gcov: tools/vg-coverage.py); IBTEST_FULL=1 keeps them all
        # (how the tool measures what they reach).
        self.reduced = bool(self.wrapper) and not os.environ.get('IBTEST_FULL')
        atexit.register(self.cleanup)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + 15))

    # -- running ---------------------------------------------------------
    def argv(self, *args, exe=None):
        """The command that runs iobench (or exe, another copy of it) with
        args: under the wrapper, if any. For every way of starting iobench
        but run() (which uses it); check_logs() after each such run."""
        return self.wrapper + [exe or self.bin] + [str(a) for a in args]

    def scaled(self, seconds):
        """A timeout or an asserted time bound for a run of iobench: longer
        under a wrapper (times t.slow)."""
        return seconds * self.slow

    def check_logs(self, what, detail=None):
        """Fail for each non-empty file in the wrapper's {logdir} (printed
        whole), then empty the directory. True if there was none."""
        if not self.logdir:
            return True
        clean = True
        for n in sorted(os.listdir(self.logdir)):
            p = os.path.join(self.logdir, n)
            try:
                with open(p, errors='replace') as f:
                    text = f.read()
                os.unlink(p)
            except OSError:
                continue
            if text.strip():
                clean = False
                self.check(False, '%s: report in %s from %s:\n%s' % (
                    self.wrapper[0], n, what, text.rstrip()), detail)
        return clean

    def run(self, *args, timeout=120, cwd=None, env=None, prog=None,
            exe=None):
        """Run iobench (or exe, another copy of it, or prog) with args;
        never raises on failure. The Result carries the child's pid (r.pid).
        iobench runs under the wrapper, with the timeout scaled(); a prog
        is run as it is (pass it t.argv(...) to run iobench under it, and a
        scaled() timeout)."""
        if not prog:
            argv = self.argv(*args, exe=exe)
            timeout = self.scaled(timeout)
        else:
            argv = [prog] + [str(a) for a in args]
            # a wrapper (strace, ...) may run iobench under ptrace, where
            # LeakSanitizer cannot work: leave leak checks to direct runs
            env = dict(os.environ if env is None else env)
            env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':detect_leaks=0'
        try:
            p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE,
                                 stdin=subprocess.DEVNULL, text=True,
                                 errors='replace', cwd=cwd or self.dir,
                                 env=env)
        except OSError as e:
            return Result(argv, 'exec failed: %s' % e, '', '')
        try:
            out, err = p.communicate(timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            rc = 'timeout(%ss)' % timeout
        r = Result(argv, rc, out, err)
        r.pid = p.pid
        if _SANITIZER_RE.search(err):
            # under ASan/UBSan a report is a failure even when the exit
            # status is what the test expects (both exit 1)
            self.check(False, 'sanitizer report from %s' % os.path.basename(
                argv[0]), r)
        self.check_logs('this run', r)
        return r

    def run_json(self, args, **kw):
        """run() with --output-format=json: (Result, the first job's JSON
        object or None)."""
        r = self.run(*args, '--output-format=json', **kw)
        try:
            return r, json.loads(r.out)['jobs'][0]
        except (ValueError, KeyError, IndexError):
            return r, None

    def fio(self, *args, **kw):
        """Run the installed fio (for side-by-side semantics), or None."""
        path = shutil.which('fio')
        if not path:
            return None
        return self.run(*args, prog=path, **kw)

    def fio_like(self):
        """iobench's arguments for the installed fio's random offsets:
        ['--fio-version=3.33'] for fio 3.34 and older (fio 3.35 changed
        randrepeat's offset seed; iobench follows --fio-version, 3.42 by
        default), else []."""
        if not hasattr(self, '_fio_like'):
            self._fio_like = []
            path = shutil.which('fio')
            try:
                out = subprocess.run([path, '--version'], capture_output=True,
                                     text=True, timeout=30).stdout if path else ''
            except (OSError, subprocess.SubprocessError):
                out = ''
            m = re.match(r'fio-3\.(\d+)', out.strip())
            if m and int(m.group(1)) <= 34:
                self._fio_like = ['--fio-version=3.33']
        return list(self._fio_like)

    # -- checking --------------------------------------------------------
    def check(self, cond, what, detail=None):
        """Record one assertion; on failure print what and the detail."""
        if cond:
            self.passed += 1
            return True
        self.failed += 1
        print('FAIL: %s' % what)
        if detail is not None:
            print('  ' + str(detail).replace('\n', '\n  '))
        return False

    def eq(self, got, want, what, detail=None):
        """check(got == want) with both values in the message."""
        msg = '%s: got %s, want %s' % (what, _short(got), _short(want))
        return self.check(got == want, msg, detail if got != want else None)

    def load_json(self, path, what='JSON results readable'):
        """The JSON document in path, or {} with a failed check."""
        try:
            with open(path) as f:
                return json.load(f)
        except (OSError, ValueError) as e:
            self.check(False, what, e)
            return {}

    def ok(self, r, what):
        """The run exited 0; on failure print its output. Returns the bool."""
        return self.check(r.rc == 0, '%s: exit status 0' % what, r)

    def fails(self, r, what):
        """The run exited non-zero (not a timeout, not a crash by signal)."""
        return self.check(isinstance(r.rc, int) and r.rc > 0,
                          '%s: non-zero exit' % what, r)

    def skip(self, what):
        self.skipped += 1
        print('SKIP: %s' % what)

    def finish(self):
        """Print the summary line and exit 1 (failure), 77 (all skipped) or 0."""
        self.cleanup()
        line = '%s: %d passed, %d failed' % (self.name, self.passed, self.failed)
        if self.skipped:
            line += ', %d skipped' % self.skipped
        print(line)
        sys.stdout.flush()
        if self.failed:
            sys.exit(1)
        if self.skipped and not self.passed:
            sys.exit(SKIP)
        sys.exit(0)

    # -- targets ---------------------------------------------------------
    def path(self, name):
        """A path inside this test's private /dev/shm directory."""
        return os.path.join(self.dir, name)

    def mkdir(self, name):
        p = self.path(name)
        os.makedirs(p, exist_ok=True)
        return p

    def small_tmpfs(self, name, size='1m'):
        """A tmpfs of `size` mounted at the private dir's `name` (unmounted
        at cleanup), for real ENOSPC; None (a skip) if it cannot be made."""
        mnt = self.mkdir(name)
        p = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=' + size,
                            'tmpfs', mnt], capture_output=True, text=True)
        if p.returncode != 0:
            self.skip('mount -t tmpfs: %s' % p.stderr.strip())
            return None
        self.mounts.append(mnt)
        return mnt

    def shm_file(self, name, size=0, data=None):
        """Create a file in the private dir: data, or size zero bytes."""
        p = self.path(name)
        with open(p, 'wb') as f:
            if data is not None:
                f.write(data)
            elif size:
                f.truncate(size)
        return p

    def loop_device(self, size, name=None, sector_size=None, read_only=False):
        """A loop device (direct I/O on) over a tmpfs file of `size` bytes,
        with logical blocks of sector_size bytes (default 512); read_only:
        opens succeed but every write fails with EPERM.

        Returns the /dev/loopN path, or None when this machine has no loop
        support (the caller records a skip). Detached at cleanup.
        """
        if not loop_available():
            return None
        backing = self.shm_file(name or 'loop%d.img' % len(self.loops), size)
        ss = ['--sector-size', str(sector_size)] if sector_size else []
        if read_only:
            ss.append('--read-only')
        p = subprocess.run(['losetup', '--direct-io=on'] + ss +
                           ['--find', '--show', backing],
                           capture_output=True, text=True)
        if p.returncode != 0:
            self.check(False, 'losetup %s' % backing, p.stderr)
            return None
        dev = p.stdout.strip()
        self.loops.append(dev)
        self.loop_backing[dev] = backing
        return dev

    def release(self):
        """Detach the loop devices, then unmount the mounts under them."""
        while self.loops:
            dev = self.loops.pop()
            subprocess.run(['losetup', '-d', dev], capture_output=True)
        while self.mounts:
            subprocess.run(['umount', self.mounts.pop()], capture_output=True)

    def cleanup(self):
        self.release()
        if self.dir and os.path.isdir(self.dir):
            shutil.rmtree(self.dir, ignore_errors=True)
        if self.logdir and os.path.isdir(self.logdir):
            self.check_logs('a run (found at cleanup)')
            shutil.rmtree(self.logdir, ignore_errors=True)


ZRAM_CTL = '/sys/class/zram-control'


def zram_add(size):
    """A new zram device of size bytes, its node there: (n, '/dev/zramN').
    OSError when zram-control refuses (no module, not root)."""
    with open(ZRAM_CTL + '/hot_add') as f:
        n = int(f.read().strip())
    with open('/sys/block/zram%d/disksize' % n, 'w') as f:
        f.write(str(size))
    dev = '/dev/zram%d' % n
    for _ in range(50):     # the node appears through devtmpfs
        if os.path.exists(dev):
            break
        time.sleep(0.1)
    return n, dev


def zram_remove(n):
    """Reset and hot_remove zram n: None, or the errno that refused it."""
    try:
        with open('/sys/block/zram%d/reset' % n, 'w') as f:
            f.write('1')
    except OSError:
        pass
    try:
        with open(ZRAM_CTL + '/hot_remove', 'w') as f:
            f.write(str(n))
    except OSError as e:
        return e.errno
    return None


def loop_available():
    """True if loop devices can be made here (root, /dev/loop-control)."""
    return (os.path.exists('/dev/loop-control') and os.geteuid() == 0
            and shutil.which('losetup') is not None)


def _mounted_in(devno):
    """PIDs whose mount namespace still mounts the filesystem on devno."""
    want = '%d:%d' % (os.major(devno), os.minor(devno))
    pids = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open('/proc/%s/mountinfo' % pid) as f:
                if any(l.split()[2] == want for l in f if l.strip()):
                    pids.append(int(pid))
        except (OSError, IndexError):
            continue
    return pids


def umount_everywhere(mnt, limit=120.0):
    """umount mnt, then wait until no mount namespace holds its filesystem,
    and sync. A process in a namespace of its own (`ip netns exec` of a test
    running beside this one, `unshare -m`) keeps a copy of every mount that
    existed when it started; the filesystem stays alive until the last such
    process exits, and its real unmount writes the superblock then. A digest
    of the device taken before that moment is not its final content.
    Returns None, or what still holds it after `limit` seconds (a bound on
    waiting, not on a speed: the other process's own end)."""
    devno = os.stat(mnt).st_dev
    p = subprocess.run(['umount', mnt], capture_output=True, text=True)
    if p.returncode != 0:
        return 'umount %s: %s' % (mnt, p.stderr.strip())
    end = time.monotonic() + limit
    while True:
        pids = _mounted_in(devno)
        if not pids:
            os.sync()
            return None
        if time.monotonic() > end:
            return '%s still mounted in the namespace of PIDs %s' % (mnt, pids)
        time.sleep(0.2)


def block_stat(dev):
    """/sys/block/NAME/stat as a list of ints ([15]: flush requests done)."""
    name = os.path.basename(os.path.realpath(dev))
    with open('/sys/block/%s/stat' % name) as f:
        return [int(x) for x in f.read().split()]


def flushes(dev):
    """Flush requests the block device has completed so far."""
    return block_stat(dev)[15]


# -- iolog -------------------------------------------------------------
class IoLog:
    """A parsed write_iolog file (fio iolog version 2, or 3 with times).

    files:   file names in `add` order
    actions: [(file, action)] for add/open/close lines, in order
    ios:     [(file, ddir, offset, length)] for read/write/trim/sync...
    """

    def __init__(self, version, files, actions, ios, bad):
        self.version = version
        self.files = files
        self.actions = actions
        self.ios = ios
        self.bad = bad          # lines that did not parse

    def data(self, ddir=None):
        """(file, ddir, offset, length) for read/write (or just ddir)."""
        want = (ddir,) if ddir else ('read', 'write')
        return [io for io in self.ios if io[1] in want]

    def offsets(self, ddir=None, file=None):
        return [io[2] for io in self.data(ddir)
                if file is None or io[0] == file]


_FILE_ACTIONS = ('add', 'open', 'close')
_IO_ACTIONS = ('read', 'write', 'trim', 'sync', 'datasync', 'wait')


def parse_iolog(path):
    with open(path, errors='replace') as f:
        lines = f.read().splitlines()
    version = None
    files, actions, ios, bad = [], [], [], []
    if lines:
        m = re.fullmatch(r'fio version (\d+) iolog', lines[0])
        if m:
            version = int(m.group(1))
    for line in lines[1:]:
        if re.fullmatch(r'fio version \d+ iolog', line):
            continue                    # another clone's header (appended)
        parts = line.split()
        if version == 3 and parts and parts[0].isdigit():
            parts = parts[1:]           # v3: leading timestamp
        if len(parts) == 2 and parts[1] in _FILE_ACTIONS:
            actions.append((parts[0], parts[1]))
            if parts[1] == 'add':
                files.append(parts[0])
        elif len(parts) == 4 and parts[1] in _IO_ACTIONS \
                and parts[2].isdigit() and parts[3].isdigit():
            ios.append((parts[0], parts[1], int(parts[2]), int(parts[3])))
        else:
            bad.append(line)
    return IoLog(version, files, actions, ios, bad)


def iolog_paths(path):
    """PATH and PATH.N: fio appends every clone to PATH; iobench writes one
    file per clone (PATH.CLONE) when numjobs > 1. Existing ones, in order."""
    d, base = os.path.split(path)
    found = [path] if os.path.exists(path) else []
    clones = []
    for n in os.listdir(d or '.'):
        rest = n[len(base) + 1:]
        if n.startswith(base + '.') and rest.isdigit():
            clones.append((int(rest), os.path.join(d, n)))
    return found + [p for _, p in sorted(clones)]


def parse_iologs(path):
    """All iolog files of a job (see iolog_paths) merged into one IoLog,
    or None if there is none."""
    paths = iolog_paths(path)
    if not paths:
        return None
    logs = [parse_iolog(p) for p in paths]
    versions = sorted({lg.version for lg in logs}, key=str)
    return IoLog(versions[0] if len(versions) == 1 else versions,
                 sum((lg.files for lg in logs), []),
                 sum((lg.actions for lg in logs), []),
                 sum((lg.ios for lg in logs), []),
                 sum((lg.bad for lg in logs), []))


# -- normal report -----------------------------------------------------
class JobReport:
    """One `NAME: (groupid=G, jobs=N): err= E (TEXT): pid=P: ...` block."""

    def __init__(self, name, groupid, jobs, err, pid, err_text=''):
        self.name = name
        self.groupid = groupid
        self.jobs = jobs
        self.err = err
        self.err_text = err_text    # what is inside err=E (...), or ''
        self.pid = pid
        self.dirs = {}          # 'read'/'write'/'trim' -> dict
        self.issued = None      # (r, w, t, sync)
        self.short = None
        self.dropped = None


# The error text may hold ':', '(' and ')' (fio: "file:io_u.c:1876, ...";
# iobench: "read offset=0, ..., file=/x: Input/output error (EIO)"): it
# ends at the last "): pid=N: " of the line, before the date.
_JOB_RE = re.compile(r'^(\S.*?): \(groupid=(\d+), jobs=(\d+)\): '
                     r'err=\s*(-?\d+)(?: \((.*)\))?: pid=(\d+): ')
_DIR_RE = re.compile(r'^\s+(read|write|trim|mixed): IOPS=([^,]+), '
                     r'BW=(\S+) \(([^)]+)\)\(([^/]+)/(\d+)msec\)')
_ISSUED_RE = re.compile(r'issued rwts: total=(\d+),(\d+),(\d+),(\d+) '
                        r'short=(\d+),(\d+),(\d+),(\d+) '
                        r'dropped=(\d+),(\d+),(\d+),(\d+)')


def parse_report(text):
    """All job blocks in a normal-format report, in order."""
    jobs = []
    cur = None
    for line in text.splitlines():
        m = _JOB_RE.match(line)
        if m:
            cur = JobReport(m.group(1), int(m.group(2)), int(m.group(3)),
                            int(m.group(4)), int(m.group(6)),
                            m.group(5) or '')
            jobs.append(cur)
            continue
        if cur is None:
            continue
        m = _DIR_RE.match(line)
        if m:
            cur.dirs[m.group(1)] = {'iops': m.group(2), 'bw': m.group(3),
                                    'bw_alt': m.group(4), 'io': m.group(5),
                                    'runtime_ms': int(m.group(6))}
            continue
        m = _ISSUED_RE.search(line)
        if m:
            v = [int(x) for x in m.groups()]
            cur.issued = tuple(v[0:4])
            cur.short = tuple(v[4:8])
            cur.dropped = tuple(v[8:12])
    return jobs


def issued_total(jobs):
    """Sum of the issued (r, w, t, sync) tuples of several job blocks."""
    tot = [0, 0, 0, 0]
    for j in jobs:
        if j.issued:
            tot = [a + b for a, b in zip(tot, j.issued)]
    return tuple(tot)


# -- size helpers --------------------------------------------------------
KiB = 1024
MiB = 1024 * 1024
GiB = 1024 * MiB


def _io_bytes(pid):
    """The bytes pid's read and write calls moved so far (/proc/PID/io), or
    0. Bytes, not calls: a job's first read call is the start barrier's
    pipe, before its set-up, and it moves none."""
    try:
        with open('/proc/%d/io' % pid) as f:
            return sum(int(l.split()[1]) for l in f
                       if l.startswith(('rchar:', 'wchar:')))
    except (OSError, ValueError):
        return 0


def children(pid):
    """The pids of pid's children (/proc/PID/task/PID/children), [] once
    it is gone."""
    try:
        with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def wait_job_io(pid, timeout):
    """Wait until a job process of iobench pid moved data with a read or
    write call (psync jobs: past their set-up, handlers in place, I/O done),
    instead of sleeping a guessed time before a signal. True if one did."""
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if any(_io_bytes(k) > 0 for k in children(pid)):
            return True
        time.sleep(0.02)
    return False


def size_of(path):
    """The file's size, or None if it does not exist."""
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def file_bytes(path):
    with open(path, 'rb') as f:
        return f.read()


def flip(path, pos, mask=0x5a):
    """XOR the byte at pos of path with mask, behind any tool's back."""
    with open(path, 'r+b') as f:
        f.seek(pos)
        b = f.read(1)
        f.seek(pos)
        f.write(bytes([b[0] ^ mask]))


def pattern(size, seed=1):
    """Deterministic non-zero bytes (a recognisable pattern)."""
    block = bytes(((i * 131 + seed * 17) % 251) + 1 for i in range(4096))
    return (block * (size // 4096 + 1))[:size]


# bash_complete's driver: COMP_LINE ends where the cursor is; each line's
# completions on one line of output, sorted.
_COMPLETE = r'''
source "$1"; shift
for line in "$@"; do
	COMP_LINE="$line"; COMP_POINT=${#line}
	read -ra COMP_WORDS <<<"$line"
	COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
	[[ $line == *" " ]] && COMP_CWORD=${#COMP_WORDS[@]}
	COMPREPLY=()
	_iobench
	printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' '
	echo
done
'''


def bash_complete(script, lines, wordbreaks, cwd=None):
    """Run the bash completion SCRIPT's _iobench on each command LINE with
    COMP_WORDBREAKS as given (bash's own by default in the callers): the
    CompletedProcess, and per line its completions (a list of words)."""
    env = dict(os.environ, COMP_WORDBREAKS=wordbreaks)
    prelude = 'COMP_WORDBREAKS=%s\n' % shlex.quote(wordbreaks)
    p = subprocess.run(['bash', '-c', prelude + _COMPLETE, 'complete', script]
                       + list(lines), capture_output=True, text=True, env=env,
                       cwd=cwd)
    return p, [ln.split() for ln in p.stdout.splitlines()]
