#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The harness's own parsers (ibtest.parse_report, parse_iolog) against
fixed fio-format text, so a parser bug cannot hide a binary bug. Takes the
binary's path like every integration test, and does not run it.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

REPORT = """\
t: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=io_uring, iodepth=32
fio-3.33
Starting 2 processes

t: (groupid=0, jobs=1): err= 0: pid=4359: Fri Nov 20 23:08:31 2026
  read: IOPS=395k, BW=1543MiB/s (1618MB/s)(3088MiB/2001msec)
    slat (nsec): min=591, max=8850.9k, avg=1079.40, stdev=11171.63
  write: IOPS=132k, BW=516MiB/s (541MB/s)(1032MiB/2001msec); 0 zone resets
     issued rwts: total=790580,264246,0,3 short=1,2,0,0 dropped=0,0,0,0
     latency   : target=0, window=0, percentile=100.00%, depth=32
bad job: (groupid=1, jobs=4): err=22 (file:io_u.c:1876, func=io_u error, error=Invalid argument): pid=77: Fri Nov 20 23:08:31 2026
  read: IOPS=9142, BW=35.7MiB/s (37.4MB/s)(71.4MiB/2000msec)
     issued rwts: total=18284,0,0,0 short=0,0,0,0 dropped=0,0,0,5
w: (groupid=2, jobs=1): err= 5 (write offset=1048576, buflen=65536, file=/dev/loop3: Input/output error (EIO)): pid=78: Fri Nov 20 23:08:32 2026
  write: IOPS=6400, BW=200MiB/s (210MB/s)(1024KiB/5msec); 0 zone resets
     issued rwts: total=0,32,0,0 short=0,0,0,0 dropped=0,0,0,0
     errors    : total=16, first_error=5/<Input/output error>

Run status group 0 (all jobs):
   READ: bw=1543MiB/s (1618MB/s), 1543MiB/s-1543MiB/s (1618MB/s-1618MB/s), io=3088MiB (3238MB), run=2001-2001msec
"""

IOLOG_V2 = """\
fio version 2 iolog
/dev/shm/f add
/dev/shm/f open
/dev/shm/f read 0 4096
/dev/shm/f write 8192 16384
/dev/shm/f sync 0 0
/dev/shm/f close
"""

IOLOG_V3 = """\
fio version 3 iolog
21 /dev/shm/f add
123 /dev/shm/f open
126 /dev/shm/f read 4096 4096
fio version 3 iolog
176 /dev/shm/f close
garbage line
"""


def main():
    t = ibtest.Test()
    jobs = ibtest.parse_report(REPORT)
    t.eq(len(jobs), 3, 'report: job blocks')
    a, b, c = jobs
    t.eq((a.name, a.groupid, a.jobs, a.err, a.pid, a.err_text),
         ('t', 0, 1, 0, 4359, ''), 'report: first header')
    t.eq((b.name, b.groupid, b.jobs, b.err, b.pid),
         ('bad job', 1, 4, 22, 77), 'report: header with an error detail')
    t.eq(b.err_text, 'file:io_u.c:1876, func=io_u error, error=Invalid argument',
         'report: fio error text with colons')
    t.eq((c.name, c.err, c.pid, c.err_text),
         ('w', 5, 78, 'write offset=1048576, buflen=65536, file=/dev/loop3: '
          'Input/output error (EIO)'),
         'report: iobench error text with colons and parentheses')
    t.eq((c.dirs['write']['io'], c.issued), ('1024KiB', (0, 32, 0, 0)),
         'report: the lines of a block with an error')
    t.eq(a.dirs.get('read'), {'iops': '395k', 'bw': '1543MiB/s',
                              'bw_alt': '1618MB/s', 'io': '3088MiB',
                              'runtime_ms': 2001}, 'report: read line')
    t.eq(a.dirs.get('write', {}).get('io'), '1032MiB', 'report: write line')
    t.eq((a.issued, a.short, a.dropped),
         ((790580, 264246, 0, 3), (1, 2, 0, 0), (0, 0, 0, 0)),
         'report: issued rwts line')
    t.eq(b.dropped, (0, 0, 0, 5), 'report: second issued line')
    t.eq(ibtest.issued_total(jobs), (808864, 264278, 0, 3), 'issued_total')

    p2 = t.shm_file('v2', data=IOLOG_V2.encode())
    il = ibtest.parse_iolog(p2)
    t.eq((il.version, il.files, il.bad), (2, ['/dev/shm/f'], []), 'iolog v2')
    t.eq(il.ios, [('/dev/shm/f', 'read', 0, 4096),
                  ('/dev/shm/f', 'write', 8192, 16384),
                  ('/dev/shm/f', 'sync', 0, 0)], 'iolog v2: I/O lines')
    t.eq(il.offsets(), [0, 8192], 'iolog v2: data offsets')
    t.eq([a[1] for a in il.actions], ['add', 'open', 'close'],
         'iolog v2: file actions')

    p3 = t.shm_file('v3', data=IOLOG_V3.encode())
    il = ibtest.parse_iolog(p3)
    t.eq((il.version, il.offsets('read'), il.bad),
         (3, [4096], ['garbage line']), 'iolog v3 with a repeated header')

    t.shm_file('v2.1', data=IOLOG_V2.encode())
    t.eq(ibtest.iolog_paths(p2), [p2, p2 + '.1'], 'iolog_paths: FILE, FILE.N')
    merged = ibtest.parse_iologs(p2)
    t.eq(len(merged.data()), 4, 'parse_iologs: merged data lines')
    t.check(ibtest.parse_iologs(t.path('none')) is None,
            'parse_iologs: None when there is no log')

    # run(): a sanitizer report fails even an expected error exit
    print('(expected: the "inner" FAIL lines below are the harness failing '
          'on purpose)')
    inner = ibtest.Test(['inner', '/bin/sh'])
    r = inner.run('-c', 'echo "==7==ERROR: AddressSanitizer: x" >&2; exit 1',
                  prog='/bin/sh')
    inner.fails(r, 'inner')
    t.eq((inner.passed, inner.failed), (1, 1),
         'run(): a sanitizer report counts as a failure')
    r = inner.run('-c', 'exit 3', prog='/bin/sh')
    t.eq((r.rc, inner.fails(r, 'inner')), (3, True), 'fails(): exit 3')
    r = inner.run('-c', 'kill -SEGV $$', prog='/bin/sh')
    t.eq(inner.fails(r, 'inner'), False, 'fails(): a crash is not an error exit')
    r = inner.run('-c', 'sleep 5', prog='/bin/sh', timeout=0.2)
    t.eq(r.rc, 'timeout(0.2s)', 'run(): timeout')
    inner.cleanup()

    # IBTEST_WRAPPER: every run of the binary under it; whatever it leaves
    # in {logdir} (here: one report, one empty file) fails the run once
    print('(expected: the "sh: report" FAIL line below is the harness '
          'failing on purpose)')
    wrapper = ("sh -c 'echo ==1== Invalid read >{logdir}/r.$$; "
               ": >{logdir}/empty.$$; exec \"$@\"' sh")
    w = ibtest.Test(['inner', '/bin/echo'], wrapper=wrapper)
    t.eq(w.argv('x')[:2] + w.argv('x')[-2:], ['sh', '-c', '/bin/echo', 'x'],
         'wrapper: argv() puts it before the binary')
    t.check('{logdir}' not in ' '.join(w.argv()) and w.logdir and
            os.path.isdir(w.logdir), 'wrapper: {logdir} is a directory',
            w.argv())
    r = w.run('hi', timeout=0.5)
    t.eq((r.rc, r.out, w.passed, w.failed), (0, 'hi\n', 0, 1),
         'wrapper: a report in its log fails an otherwise good run', r)
    t.eq(os.listdir(w.logdir), [], 'wrapper: the logs are removed once seen')
    t.eq(w.scaled(3), 3 * float(os.environ.get('IBTEST_SLOWDOWN') or 10),
         'wrapper: times scaled (by 10 unless IBTEST_SLOWDOWN says)')
    w.run('-c', 'exit 0', prog='/bin/sh')
    t.eq(w.failed, 1, 'wrapper: a prog run is not wrapped')
    w.cleanup()
    t.eq(os.path.isdir(w.logdir), False, 'wrapper: cleanup removes {logdir}')
    t.finish()


if __name__ == '__main__':
    main()
