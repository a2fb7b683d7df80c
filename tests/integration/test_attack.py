#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reliability under attack (issue 30): the ways an adversarial probe of
44dc0b2 destroyed data, each now refused with the protected target's bytes
unchanged (SHA-256 of its backing file before and after):
  race      a symlink swapped between a blank and a formatted loop device
            against repeated write runs: 0 writes reach the formatted one
  stacked   a loop device on top of a loop device (losetup -o 1M), with a
            mounted ext4 on one of them: refused through the stack, and
            allow_data_loss=1 never overrides the mount
  links     a link planted by another user in a sticky world-writable
            directory is not followed by any file iobench creates
  removal   a failed report removes only the regular file iobench opened
  numbers   offsets, sizes, trace records and times that wrap 64 bits
  signals   a signal to one job process interrupts the run (130); a reader
            gone gives one line and exit 1; SIGUSR1 ends nothing
  messages  control characters escaped; one line per error; no partial log
The loop devices sit on tmpfs files (ibtest.loop_device)."""
import atexit
import hashlib
import json
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
t = ibtest.Test()
mounts = []


def cleanup():
    for mnt in reversed(mounts):
        subprocess.run(['umount', mnt], capture_output=True)


atexit.register(cleanup)


def sh(*argv):
    p = subprocess.run(list(argv), capture_output=True, text=True)
    t.check(p.returncode == 0, ' '.join(argv), p.stdout + p.stderr)
    return p.stdout.strip() if p.returncode == 0 else None


def digest(path):
    os.sync()
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(4 * MiB), b''):
            h.update(chunk)
    return h.hexdigest()


def ext4(dev):
    return sh('mkfs.ext4', '-q', '-F', '-E',
              'lazy_itable_init=0,lazy_journal_init=0', dev) is not None


def mount(dev, name):
    mnt = t.mkdir(name)
    if sh('mount', dev, mnt) is None:
        return None
    mounts.append(mnt)
    os.sync()
    return mnt


def write_job(path, *extra, offset='8m'):
    return t.run('--name=x', '--rw=write', '--bs=4k', '--size=1m',
                 '--offset=%s' % offset, '--filename=%s' % path,
                 '--output-format=terse', *extra)


def test_symlink_race():
    """Finding 1: the link flips between a blank device and one carrying
    ext4 every few milliseconds while write runs start; each run writes
    the blank one, or is refused (by the check, or by the job finding a
    device other than the one checked); the ext4 device is never written."""
    blank = t.loop_device(64 * MiB, name='blank.img')
    fmt = t.loop_device(64 * MiB, name='fmt.img')
    if not blank or not fmt or not ext4(fmt):
        return
    before = digest(t.loop_backing[fmt])
    link = t.path('race')
    os.symlink(blank, link)
    stop = threading.Event()

    def flip():
        i = 0
        while not stop.is_set():
            tmp = link + '.n'
            os.symlink(fmt if i % 2 == 0 else blank, tmp)
            os.rename(tmp, link)
            i += 1
            time.sleep(0.003)

    th = threading.Thread(target=flip)
    th.start()
    outcomes = {'ran': 0, 'refused': 0}
    try:
        for _ in range(40):
            r = write_job(link, '--numjobs=2')
            if r.rc == 0:
                outcomes['ran'] += 1
                continue
            outcomes['refused'] += 1
            t.eq(r.rc, 1, 'race: a refused run exits 1', r)
            t.check(('refusing to write' in r.err or 'carries' in r.err),
                    'race: a failed run says why it refused', r)
    finally:
        stop.set()
        th.join()
    t.eq(digest(t.loop_backing[fmt]), before,
         'race: the ext4 device is byte-identical after 40 runs (%d ran, '
         '%d refused)' % (outcomes['ran'], outcomes['refused']))
    t.eq(outcomes['ran'] + outcomes['refused'], 40, 'race: 40 runs ended')


def losetup_on(dev, offset):
    out = sh('losetup', '--find', '--show', '-o', str(offset), dev)
    if out:
        t.loops.append(out)
    return out


def test_stacked_upper_mounted():
    """Finding 2: the lower device of a stack whose upper loop device holds
    a mounted ext4 (loop devices are not in holders/)."""
    lower = t.loop_device(64 * MiB, name='lower.img')
    if not lower:
        return
    upper = losetup_on(lower, MiB)
    if not upper or not ext4(upper) or not mount(upper, 'upper'):
        return
    before = digest(t.loop_backing[lower])
    for extra in ((), ('--allow_data_loss=1',)):
        r = write_job(lower, *extra)
        t.eq(r.rc, 1, 'stacked, upper mounted %s: exit 1' % (extra,), r)
        t.check(r.err.count('\n') == 1 and
                ("has %s stacked on it, mounted on" % os.path.basename(upper))
                in r.err and '--allow_mounted_write=1' in r.err,
                'stacked, upper mounted %s: one line naming the upper device '
                'and its mount' % (extra,), r)
        t.eq(digest(t.loop_backing[lower]), before,
             'stacked, upper mounted %s: lower device unchanged' % (extra,))
    t.eq(ibtest.umount_everywhere(mounts.pop()), None, 'stacked: unmounted')
    before = digest(t.loop_backing[lower])  # umount writes the superblock
    r = write_job(lower)
    t.eq(r.rc, 1, 'stacked, upper unmounted: still held by the loop device', r)
    t.check('held by %s (a loop device backed by it)' %
            os.path.basename(upper) in r.err, 'stacked: held by names it', r)
    t.eq(digest(t.loop_backing[lower]), before,
         'stacked, upper unmounted: lower device unchanged')


def test_stacked_lower_mounted():
    """The other way: a loop device whose backing device holds a mounted
    ext4 writes into that filesystem."""
    lower = t.loop_device(64 * MiB, name='lower2.img')
    if not lower or not ext4(lower) or not mount(lower, 'lower'):
        return
    upper = losetup_on(lower, MiB)
    if not upper:
        return
    before = digest(t.loop_backing[lower])
    for extra in ((), ('--allow_data_loss=1',)):
        r = write_job(upper, *extra, offset='4m')
        t.eq(r.rc, 1, 'stacked, lower mounted %s: exit 1' % (extra,), r)
        t.check(r.err.count('\n') == 1 and
                ('writes through to %s, which is mounted on' % lower) in r.err,
                'stacked, lower mounted %s: one line naming the lower device'
                % (extra,), r)
        t.eq(digest(t.loop_backing[lower]), before,
             'stacked, lower mounted %s: lower device unchanged' % (extra,))
    t.eq(ibtest.umount_everywhere(mounts.pop()), None, 'stacked: unmounted')
    before = digest(t.loop_backing[lower])
    r = write_job(upper, offset='4m')
    t.eq(r.rc, 1, 'stacked, lower unmounted: refused (its ext4)', r)
    t.check(('writes through to %s, which is carrying a filesystem signature'
             ' (ext4)' % lower) in r.err, 'stacked: the lower signature', r)
    t.eq(digest(t.loop_backing[lower]), before,
         'stacked, lower unmounted: lower device unchanged')


VICTIM = b'another user\'s file, mode 0600\n' * 64


def sticky_dir(name):
    """A world-writable sticky directory (as /tmp) holding a 0600 file of
    another user (uid 65533); plant() puts a third user's links there."""
    d = t.mkdir(name)
    os.chmod(d, 0o1777)
    victim = os.path.join(d, 'victim')
    with open(victim, 'wb') as f:
        f.write(VICTIM)
    os.chown(victim, 65533, 65533)
    os.chmod(victim, 0o600)
    return d, victim


def plant(d, name, target):
    link = os.path.join(d, name)
    os.symlink(target, link)
    os.lchown(link, 65534, 65534)
    return link


def test_planted_links():
    """Finding 4: every file iobench creates or truncates refuses a link
    that fs.protected_symlinks=1 would refuse, whatever the sysctl says;
    the victim file is byte-identical and the run exits 1 with one line."""
    d, victim = sticky_dir('sticky')
    cases = [
        ('filename', 'data', ['--filename=%s' % os.path.join(d, 'data')]),
        ('directory', 'x.0.0', ['--directory=%s' % d]),
        ('--output', 'out', ['--output=%s' % os.path.join(d, 'out')]),
        ('--json-output', 'js', ['--json-output=%s' % os.path.join(d, 'js')]),
        ('write_iolog', 'iolog', ['--filename=%s' % t.path('f1'),
                                  '--write_iolog=%s' % os.path.join(d, 'iolog')]),
        ('write_lat_log', 'lat_lat.1.log',
         ['--filename=%s' % t.path('f2'),
          '--write_lat_log=%s' % os.path.join(d, 'lat')]),
    ]
    for what, name, extra in cases:
        link = plant(d, name, victim)
        r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k', *extra)
        t.eq(r.rc, 1, 'planted link, %s: exit 1' % what, r)
        t.check(('%s: a symbolic link owned by uid 65534 in the sticky '
                 'world-writable directory %s; refusing to follow it'
                 % (link, d)) in r.err, 'planted link, %s: the line' % what, r)
        t.eq(ibtest.file_bytes(victim), VICTIM,
             'planted link, %s: the victim file byte-identical' % what)
        os.unlink(link)
    # a planted link anywhere on the path, not only its last component: a
    # directory link (sticky/dir -> the victim's directory) and a link to
    # a link; the victim byte-identical, nothing created beside it
    vdir = t.mkdir('vdir')
    vfile = os.path.join(vdir, 'vfile')
    with open(vfile, 'wb') as f:
        f.write(VICTIM)
    plant(d, 'dir', vdir)
    for what, path in (('a directory link', os.path.join(d, 'dir', 'vfile')),
                       ('a directory link, then ..',
                        os.path.join(d, 'dir', '..', 'vdir', 'new')),
                       ('--output under a directory link',
                        os.path.join(d, 'dir', 'out'))):
        opt = '--output=' if what.startswith('--output') else '--filename='
        extra = ['--filename=%s' % t.path('f0')] if opt == '--output=' else []
        r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k',
                  *extra, opt + path)
        t.eq(r.rc, 1, 'planted link on the path, %s: exit 1' % what, r)
        t.check(('%s: a symbolic link owned by uid 65534 in the sticky '
                 'world-writable directory %s; refusing to follow it'
                 % (os.path.join(d, 'dir'), d)) in r.err,
                'planted link on the path, %s: the line' % what, r)
        t.eq(len(r.err.splitlines()), 1, 'planted link on the path, %s: one '
             'line' % what, r)
        t.eq((ibtest.file_bytes(vfile), sorted(os.listdir(vdir))),
             (VICTIM, ['vfile']), 'planted link on the path, %s: the '
             'victim\'s directory unchanged' % what)
    os.unlink(os.path.join(d, 'dir'))
    # our own directory link in the sticky directory: followed
    os.symlink(t.mkdir('owndir'), os.path.join(d, 'owndir'))
    r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k',
              '--filename=%s' % os.path.join(d, 'owndir', 'f'),
              '--output-format=terse')
    t.ok(r, 'own directory link in a sticky directory: followed')
    t.eq(os.path.getsize(t.path('owndir/f')), 64 * 1024,
         'own directory link: the file laid out through it')
    mine = os.path.join(d, 'mine')
    os.symlink(t.path('target'), mine)  # our own link: followed, as the kernel
    r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k',
              '--filename=%s' % mine, '--output-format=terse')
    t.ok(r, 'own link in a sticky directory: followed')
    t.eq(os.path.getsize(t.path('target')), 64 * 1024,
         'own link: its target laid out')


def test_failed_report_keeps_nodes():
    """Finding 3: a report that cannot be written is removed only if it is
    the regular file iobench opened: a device node, and a symlink to a file
    on a full filesystem, stay."""
    node = t.path('full')
    os.mknod(node, 0o666 | 0o020000, os.makedev(1, 7))  # a /dev/full
    r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k',
              '--filename=%s' % t.path('f3'), '--output=%s' % node)
    t.eq(r.rc, 1, 'report onto a full char device: exit 1', r)
    t.check(os.path.exists(node), 'the device node is not removed', r)
    full = t.small_tmpfs('tiny', '64k')
    if not full:
        return
    with open(os.path.join(full, 'pad'), 'wb') as f:
        try:
            f.write(b'x' * (1 << 20))
        except OSError:
            pass
    link = t.path('so')
    os.symlink(os.path.join(full, 'report'), link)
    r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k',
              '--filename=%s' % t.path('f4'), '--output=%s' % link,
              '--output-format=json')
    t.eq(r.rc, 1, 'report through a link onto a full tmpfs: exit 1', r)
    t.check(os.path.islink(link), 'the symlink --output named is kept', r)
    r = t.run('--name=x', '--rw=write', '--bs=4k', '--size=64k',
              '--filename=%s' % t.path('f5'),
              '--output=%s' % os.path.join(full, 'plain'),
              '--output-format=json')
    t.eq((r.rc, os.path.exists(os.path.join(full, 'plain'))), (1, False),
         'a regular report file that could not be written is removed', r)


def blk_record(seq, ns, sector, nbytes):
    """One 48-byte blktrace queue record of a write (little endian)."""
    return struct.pack('<IIQQIIIIIHH', 0x65617407, seq, ns, sector, nbytes,
                       (1 << 17) | 1, 1, 7 << 20, 0, 0, 0)


def test_wrapping_numbers():
    """Finding 5: numbers that wrap are refused with one line naming the
    option or the record, and the target is byte-identical."""
    dev = t.loop_device(16 * MiB, name='wrap.img')
    if not dev:
        return
    before = digest(t.loop_backing[dev])
    cases = [
        ('offset=2^64-1 on a device', dev,
         ['--offset=18446744073709551615', '--size=16k'],
         "iobench: job 'x': offset=18446744073709551615 + size=16384 of %s "
         "is past the largest offset the kernel takes (2^63-1)\n" % dev),
        ('offset=2^64-1 on a file', t.path('wf'),
         ['--offset=18446744073709551615', '--size=16k'],
         "iobench: job 'x': offset=18446744073709551615 + size=16384 of %s "
         "is past the largest offset the kernel takes (2^63-1)\n" % t.path('wf')),
        ('size=2^63', t.path('wf'), ['--size=9223372036854775808'],
         "iobench: job 'x': offset=0 + size=9223372036854775808 of %s is "
         "past the largest offset the kernel takes (2^63-1)\n" % t.path('wf')),
        ('offset_increment wraps', t.path('wf'),
         ['--size=16k', '--numjobs=2',
          '--offset_increment=18446744073709547520', '--offset=4096'],
         "iobench: job 'x': offset=4096 + clone 1 x offset_increment="
         "18446744073709547520 overflows 64 bits\n"),
    ]
    for what, target, extra, line in cases:
        r = t.run('--name=x', '--rw=write', '--bs=4k', '--filename=%s' % target,
                  '--output-format=terse', *extra)
        t.eq((r.rc, r.out, r.err), (1, '', line), '%s: one line, exit 1' % what)
        t.eq(os.path.exists(t.path('wf')), False, '%s: no file made' % what)
    t.eq(digest(t.loop_backing[dev]), before, 'wrapping numbers: device unchanged')
    log = t.path('wrap.log')
    with open(log, 'w') as f:
        f.write('fio version 2 iolog\n%s add\n%s open\n'
                '%s write 18446744073709547520 8192\n%s close\n' %
                ((dev,) * 4))
    r = t.run('--name=r', '--read_iolog=%s' % log, '--output-format=terse')
    t.eq((r.rc, r.err), (1, 'iobench: %s: line 4: write at offset '
         '18446744073709547520 length 8192 ends beyond %s (16777216 bytes)\n'
         % (log, dev)), 'iolog record at 2^64-4096: the line names it', r)
    r = t.run('--name=r', '--read_iolog=%s' % log, '--replay_redirect=%s' %
              t.path('wf'), '--output-format=terse')
    t.eq((r.rc, r.err), (1, 'iobench: %s: line 4: write at offset '
         '18446744073709547520 length 8192 ends beyond the largest file offset'
         ' (9223372036854775807 bytes)\n' % log),
         'iolog record at 2^64-4096 onto a file: the line names it', r)
    bt = t.path('far.blktrace.0')
    for ns in (1 << 63, (1 << 64) - 1):
        with open(bt, 'wb') as f:
            f.write(blk_record(0, 1000, 0, 4096) +
                    blk_record(1, ns, 8, 4096))
        r = t.run('--name=r', '--read_iolog=%s' % bt, '--replay_redirect=%s'
                  % dev, '--output-format=terse', timeout=30)
        t.eq((r.rc, r.err), (1, "iobench: %s: record 2: time %d ns after the "
             "trace's start is beyond 1125899906842624 ns (13 days)\n"
             % (bt, ns - 1000)), 'blktrace time %d: refused by record' % ns, r)
    t.eq(digest(t.loop_backing[dev]), before, 'wrapping traces: device unchanged')


def wrote(pid):
    """Whether pid made a write call yet (its /proc io counters)."""
    try:
        with open('/proc/%d/io' % pid) as f:
            return any(l.startswith('syscw:') and int(l.split()[1]) > 0
                       for l in f)
    except OSError:
        return False


def writing_child(pid, timeout=60):
    """The job processes of pid once the first of them writes (past its
    set-up, its handlers in place: a psync job's pwrite calls count), or
    [] after timeout seconds."""
    end = time.monotonic() + t.scaled(timeout)
    while time.monotonic() < end:
        kids = ibtest.children(pid)
        if kids and wrote(kids[0]):
            return kids
        time.sleep(0.02)
    return []


def json_docs(text):
    """Every JSON document in text, in order (a status report per
    SIGUSR1, then the final one)."""
    dec, docs, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return docs
        try:
            doc, i = dec.raw_decode(text, i)
        except ValueError:
            return docs
        docs.append(doc)


def test_sigusr1():
    """SIGUSR1 (fio's interim statistics) to the run and to its job
    process does not end it: exit 0, the final report of the whole
    runtime last."""
    p = subprocess.Popen(t.argv('--name=u', '--rw=write', '--bs=4k',
                                '--ioengine=psync',
                                '--size=1m', '--filename=%s' % t.path('u.dat'),
                                '--time_based', '--runtime=2',
                                '--output-format=json'),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, cwd=t.dir)
    kids = writing_child(p.pid)
    for pid in [p.pid] + kids:
        os.kill(pid, signal.SIGUSR1)
    out, err = p.communicate(timeout=t.scaled(60))
    t.check(kids != [], 'SIGUSR1: the job process found')
    t.eq((p.returncode, [l for l in err.splitlines()
                         if not l.startswith('u: Laying out')]), (0, []),
         'SIGUSR1 to the run and its job: exit 0, no message')
    docs = json_docs(out)
    try:
        job = docs[-1]['jobs'][0]
    except (IndexError, KeyError):
        job = {}
    t.eq((job.get('error'), job.get('job_runtime', 0) >= 2000), (0, True),
         'SIGUSR1: the final report ran the whole runtime, no error', out[:400])


def test_signal_to_job():
    """Finding 6: SIGINT or SIGTERM sent to one job process (not to the
    run) marks that job and the run interrupted: exit 130, one line naming
    the signal; the report still printed."""
    target = t.path('sig.dat')
    for sig in (signal.SIGINT, signal.SIGTERM):
        p = subprocess.Popen(t.argv('--name=s', '--rw=write', '--bs=4k',
                                    '--ioengine=psync',
                                    '--size=1m', '--filename=%s' % target,
                                    '--time_based', '--runtime=20',
                                    '--output-format=json'),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=t.dir)
        kids = writing_child(p.pid)
        if kids:
            os.kill(kids[0], sig)
        out, err = p.communicate(timeout=t.scaled(60))
        what = 'signal %d to the job process' % sig
        t.check(kids != [], '%s: the job process found' % what)
        t.eq(p.returncode, 130, '%s: exit 130' % what, err)
        t.check(("iobench: job 's' (pid %d) failed: job process %d stopped by "
                 "signal %d (%s)\n" % (kids[0], kids[0], sig,
                                      signal.strsignal(sig))) in err and
                err.endswith('iobench: interrupted: the report covers the I/O '
                             'done until then\n'), '%s: the lines' % what, err)
        try:
            job = json.loads(out)['jobs'][0]
        except (ValueError, KeyError, IndexError):
            job = None
        t.eq(job and job['error'], 4, '%s: the job reports EINTR' % what)


def test_reader_gone():
    """Finding 6: a reader that goes away (| head -1) mid-run: one stderr
    line and exit 1, not a silent 141."""
    p = subprocess.Popen(t.argv('--name=h', '--rw=write', '--bs=4k',
                                '--size=1m', '--filename=%s' % t.path('h.dat'),
                                '--time_based', '--runtime=1', '--eta=always'),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=t.dir)
    p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=t.scaled(60))
    t.eq((p.returncode, err),
         (1, 'iobench: cannot write report to stdout: Broken pipe\n'),
         'reader gone mid-run: one line, exit 1')


def no_reader(argv):
    """argv run with stdout a pipe whose reader is already gone: every
    write is EPIPE. (rc, stderr)."""
    rd, wr = os.pipe()
    os.close(rd)
    p = subprocess.run(argv, stdout=wr, stderr=subprocess.PIPE, text=True,
                       cwd=t.dir, timeout=t.scaled(60))
    os.close(wr)
    return p.returncode, p.stderr


def test_reader_gone_cmds():
    """A reader gone before compare or report writes: one line, exit 1
    (not 141); a report to /dev/stdout, a link into /proc, still opens."""
    js = t.path('one.json')
    r = t.run('--name=j', '--ioengine=null', '--rw=read', '--bs=4k',
              '--size=1m', '--output-format=json', '--output=' + js)
    t.ok(r, 'a JSON report to compare')
    for cmd in (['compare', js, js], ['report', js]):
        t.eq(no_reader(t.argv(*cmd)), (1, 'iobench: %s: cannot write to '
             'stdout: Broken pipe\n' % cmd[0]),
             '%s, reader gone: one line, exit 1' % cmd[0])
    r = t.run('--name=j', '--ioengine=null', '--rw=read', '--bs=4k',
              '--size=1m', '--output-format=json', '--output=/dev/stdout')
    t.ok(r, '--output=/dev/stdout (a pipe, through /proc/self/fd/1)')
    t.eq(len(json.loads(r.out or '{}').get('jobs', [])), 1,
         '--output=/dev/stdout: the JSON on stdout', r)


def test_messages():
    """Finding 7: values with newlines or escapes stay on one line; compare
    says one line for one bad value; a latency log cut short by ENOSPC is
    removed like an incomplete report."""
    r = t.run('--name=x', '--rw=wr\nite\x1b[31m', '--size=1m')
    t.eq((r.rc, r.out, r.err), (1, '', "iobench: rw: invalid value "
         "'wr\\nite\\x1b[31m' (valid: read, write, randread, randwrite, rw, "
         "randrw, trim, randtrim, trimwrite, randtrimwrite)\n"),
         'a value with a newline and an escape: one escaped line')
    r = t.run('--name=a\nb', '--rw=write', '--bs=4k', '--size=1m',
              '--filename=%s' % t.path('none'), '--allow_file_create=0')
    t.eq((r.rc, r.err), (1, "iobench: job 'a\\nb': %s does not exist and "
         "allow_file_create=0\n" % t.path('none')),
         'a job name with a newline: one escaped line')
    t.check(not os.path.lexists(t.path('none')), 'refused: nothing created')
    r = t.run('compare', '--alpha=x', 'a.json', 'b.json')
    t.eq((r.rc, r.out, r.err), (1, '', "iobench: --alpha: invalid value 'x'\n"),
         'compare, one bad value: one line, no usage')
    full = t.small_tmpfs('logfull', '64k')
    if not full:
        return
    prefix = os.path.join(full, 'lat')
    r = t.run('--name=l', '--rw=write', '--bs=4k', '--size=16m',
              '--filename=%s' % t.path('l.dat'), '--write_lat_log=%s' % prefix,
              '--output-format=terse')
    t.eq(r.rc, 1, 'latency log on a full tmpfs: exit 1', r)
    t.check('log: No space left on device' in r.err, 'says ENOSPC', r)
    t.eq(sorted(n for n in os.listdir(full) if n.startswith('lat_')), [],
         'no partial latency log left', r)
    t.check(re.search(r"failed: (s|c|)lat log %s_(s|c|)lat\.1\.log: No space "
                      r"left on device \(removed, incomplete\)\n"
                      % re.escape(prefix), r.err) is not None,
            'latency log: the line names it and says it was removed', r)
    # write_iolog cut short the same way: removed, and said so
    ilog = os.path.join(full, 'io.log')
    r = t.run('--name=i', '--rw=write', '--bs=4k', '--size=16m',
              '--filename=%s' % t.path('i.dat'), '--write_iolog=%s' % ilog,
              '--output-format=terse')
    t.eq(r.rc, 1, 'write_iolog on a full tmpfs: exit 1', r)
    t.check(('write_iolog: %s: No space left on device (removed, incomplete)'
             % ilog) in r.err, 'write_iolog: the line says it was removed', r)
    t.eq(os.listdir(full), [], 'no partial write_iolog left', r)
    r = t.run('plot', '--avg-msec=x', '-o', t.path('p.svg'), t.path('none'))
    t.eq((r.rc, len(r.err.splitlines()), r.out), (1, 1, ''),
         'plot, one bad value: one line, no usage', r)


def main():
    if not ibtest.loop_available():
        t.skip('no loop devices (needs root and /dev/loop-control)')
        t.finish()
    test_symlink_race()
    test_stacked_upper_mounted()
    test_stacked_lower_mounted()
    test_planted_links()
    test_failed_report_keeps_nodes()
    test_wrapping_numbers()
    test_signal_to_job()
    test_sigusr1()
    test_reader_gone()
    test_reader_gone_cmds()
    test_messages()
    cleanup()
    t.finish()


if __name__ == '__main__':
    main()
