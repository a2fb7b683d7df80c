#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A report that cannot be written is an error, never a success: on a full
filesystem (a small tmpfs), on /dev/full and into a closed pipe iobench
exits non-zero with one line on stderr naming the file and the reason, and
leaves no half document behind (a report file it could not finish is
removed). write_iolog on a full filesystem fails its job the same way.
"""
import errno
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

ENOSPC = os.strerror(errno.ENOSPC)
EPIPE = os.strerror(errno.EPIPE)


def fill(mnt, leave=0):
    """Fill the filesystem at mnt, then give `leave` bytes back."""
    filler = os.path.join(mnt, 'filler')
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        while os.write(fd, b'\0' * 4096) > 0:
            pass
    except OSError:
        pass
    os.close(fd)
    if leave:
        os.truncate(filler, max(os.path.getsize(filler) - leave, 0))


def job(target, *extra):
    return ['--name=rep', '--filename=' + target, '--size=256k', '--bs=4k',
            '--rw=randread'] + list(extra)


def one_line(t, r, want, what):
    lines = r.err.splitlines()
    t.eq(lines, [want], '%s: exactly one stderr line' % what, r)


def full_fs(t, target):
    mnt = t.small_tmpfs('full', '64k')
    if not mnt:
        return
    fill(mnt)
    out = os.path.join(mnt, 'report.json')
    r = t.run(*job(target, '--output-format=json+', '--output=' + out))
    t.eq(r.rc, 1, '--output on a full fs: exit 1', r)
    one_line(t, r, 'iobench: cannot write report to %s: %s' % (out, ENOSPC),
             '--output on a full fs')
    t.check(not os.path.exists(out), '--output on a full fs: no half file left', r)
    # room for the normal report on stdout, not for the JSON file
    os.unlink(os.path.join(mnt, 'filler'))
    fill(mnt, leave=4096)
    js = os.path.join(mnt, 'out.json')
    r = t.run(*job(target, '--rw=randrw', '--output-format=normal,json+',
                   '--json-output=' + js))
    t.eq(r.rc, 1, '--json-output on a nearly full fs: exit 1', r)
    one_line(t, r, 'iobench: cannot write report to %s: %s' % (js, ENOSPC),
             '--json-output on a nearly full fs')
    t.check(not os.path.exists(js), '--json-output: no half JSON left', r)
    t.check('Run status group 0' in r.out, 'the normal report on stdout is whole', r)


def iolog_full(t, target):
    mnt = t.small_tmpfs('iolog', '64k')
    if not mnt:
        return
    fill(mnt)
    log = os.path.join(mnt, 'io.log')
    r = t.run(*job(target, '--write_iolog=' + log))
    t.eq(r.rc, 1, 'write_iolog on a full fs: exit 1', r)
    lines = r.err.splitlines()
    want = "failed: write_iolog: %s: %s (removed, incomplete)" % (log, ENOSPC)
    t.check(len(lines) == 1 and lines[0].startswith("iobench: job 'rep' (pid ") and
            lines[0].endswith(want), 'write_iolog on a full fs: one line naming it', r)
    t.check('err= 5 (write_iolog: %s: %s (removed, incomplete))' % (log, ENOSPC)
            in r.out, 'write_iolog error shown as the job error (EIO)', r)
    t.check(not os.path.exists(log), 'write_iolog cut short: removed', r)
    # with room, the log is whole: 64 reads between add/open and close
    os.unlink(os.path.join(mnt, 'filler'))
    r = t.run(*job(target, '--write_iolog=' + log))
    if t.ok(r, 'write_iolog with room'):
        io = ibtest.parse_iolog(log)
        t.eq((io.version, len(io.ios), io.bad), (ibtest.IOLOG_VERSION, 64, []),
             'write_iolog with room: the default version, 64 I/O lines, nothing else')
        t.eq([a for _, a in io.actions], ['add', 'open', 'close'],
             'write_iolog with room: add, open, close')


def to_fd(t, args, fd):
    """Run iobench with stdout on fd; Result-like (rc, err)."""
    p = subprocess.run(t.argv(*args), stdout=fd, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, text=True, cwd=t.dir,
                       timeout=t.scaled(120))
    t.check_logs('stdout on fd')
    return ibtest.Result(p.args, p.returncode, '', p.stderr)


def dev_full(t, target):
    for fmt in ('normal', 'json', 'json+', 'terse'):
        with open('/dev/full', 'w') as f:
            r = to_fd(t, job(target, '--output-format=' + fmt), f.fileno())
        t.eq(r.rc, 1, '> /dev/full (%s): exit 1' % fmt, r)
        one_line(t, r, 'iobench: cannot write report to stdout: %s' % ENOSPC,
                 '> /dev/full (%s)' % fmt)


def closed_pipe(t, target):
    for fmt in ('json', 'terse', 'normal'):
        rd, wr = os.pipe()
        os.close(rd)    # the reader has gone before anything is written
        try:
            r = to_fd(t, job(target, '--output-format=' + fmt), wr)
        finally:
            os.close(wr)
        if fmt == 'normal':
            # the header is written before the run: SIGPIPE ends it at once
            t.check(r.rc != 0, 'closed pipe (normal): not exit 0', r)
            continue
        t.eq(r.rc, 1, 'closed pipe (%s): exit 1' % fmt, r)
        one_line(t, r, 'iobench: cannot write report to stdout: %s' % EPIPE,
                 'closed pipe (%s)' % fmt)


def main():
    t = ibtest.Test()
    target = t.shm_file('target', size=256 * 1024)
    full_fs(t, target)
    dev_full(t, target)
    closed_pipe(t, target)
    iolog_full(t, target)
    t.finish()


if __name__ == '__main__':
    main()
