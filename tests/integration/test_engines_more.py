#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The engines fio has on every Linux build that iobench adds (issue 13,
second part): mmap (data written through the mapping reads back, reads
return the file's bytes; a tmpfs file and a loop device), falloc (writes
allocate, reads allocate keeping the size, trims punch holes: st_blocks
and st_size), ftruncate (each write sets the file's size to its offset;
reads refused), splice (through a pipe), posixaio (queue depth 8 on a loop device), filecreate, filestat and filedelete (one timed call per
file; the files made, seen, removed). I/O counts side by side with fio
3.33. io_uring's force_async=N: every Nth request is queued to the
kernel's async workers with IOSQE_ASYNC, counted in the kernel's own
io_uring_queue_async_work events (tracefs), side by side with fio.
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB


def run(t, *args, fio=False):
    a = ['--output-format=json'] + list(args)
    r = t.fio(*a) if fio else t.run(*a)
    if r is None:
        return None
    if not t.ok(r, ' '.join(args[:3]) + (' (fio 3.33)' if fio else '')):
        return None
    j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
    return tuple((j[d]['total_ios'], j[d]['io_bytes'])
                 for d in ('read', 'write', 'trim'))


def test_mmap(t):
    f = t.path('mm')
    for fio in (False, True):
        if os.path.exists(f):
            os.unlink(f)
        c = run(t, '--name=mm', '--filename=' + f, '--ioengine=mmap',
                '--rw=randwrite', '--bs=8k', '--size=1m', '--direct=0',
                '--buffer_pattern=0x3c', fio=fio)
        if c is None:
            continue
        who = 'fio 3.33' if fio else 'iobench'
        t.eq(c, ((0, 0), (128, 1 * MiB), (0, 0)), 'mmap write %s: counts' % who)
        t.check(ibtest.file_bytes(f) == b'\x3c' * MiB,
                'mmap write %s: every byte written through the mapping' % who)
    data = ibtest.pattern(1 * MiB, seed=5)
    f = t.shm_file('mmr', data=data)
    log = t.path('mmr.iolog')
    c = run(t, '--name=mmr', '--filename=' + f, '--ioengine=mmap',
            '--rw=read', '--bs=64k', '--direct=0', '--write_iolog=' + log)
    if c:
        t.eq(c, ((16, 1 * MiB), (0, 0), (0, 0)), 'mmap read: counts')
    dev = t.loop_device(2 * MiB)
    if dev is None:
        t.skip('no loop devices: mmap on a device')
        return
    c = run(t, '--name=md', '--filename=' + dev, '--ioengine=mmap',
            '--rw=write', '--bs=128k', '--offset=512k', '--size=1m',
            '--direct=0', '--buffer_pattern="dev!"', '--allow_data_loss=1')
    if c:
        t.eq(c, ((0, 0), (8, 1 * MiB), (0, 0)), 'mmap device write: counts')
        with open(dev, 'rb') as fh:
            d = fh.read()
        t.check(d[512 * KiB:1536 * KiB] == b'dev!' * (MiB // 4) and
                d[:512 * KiB] == bytes(512 * KiB),
                'mmap device write: the region holds the pattern, the rest not')


def blocks(path):
    return os.stat(path).st_blocks * 512


def test_falloc(t):
    f = t.path('fa')
    for fio in (False, True):
        with open(f, 'wb') as fh:
            fh.truncate(1 * MiB)
        who = 'fio 3.33' if fio else 'iobench'
        c = run(t, '--name=fa', '--filename=' + f, '--ioengine=falloc',
                '--rw=write', '--bs=64k', '--size=512k', '--direct=0', fio=fio)
        if c is None:
            continue
        t.eq(c, ((0, 0), (8, 512 * KiB), (0, 0)), 'falloc write %s: counts' % who)
        t.eq(blocks(f), 512 * KiB, 'falloc write %s: 512 KiB allocated' % who)
        t.eq(os.path.getsize(f), 1 * MiB, 'falloc write %s: size kept' % who)
    c = run(t, '--name=fr', '--filename=' + f, '--ioengine=falloc',
            '--rw=read', '--bs=64k', '--offset=512k', '--size=512k',
            '--direct=0')
    if c:
        t.eq(c, ((8, 512 * KiB), (0, 0), (0, 0)), 'falloc read: counts')
        t.eq(blocks(f), 1 * MiB, 'falloc read: the rest allocated too')
        t.eq(os.path.getsize(f), 1 * MiB, 'falloc read: size kept')
    c = run(t, '--name=ft', '--filename=' + f, '--ioengine=falloc',
            '--rw=trim', '--bs=128k', '--size=256k', '--direct=0')
    if c:
        t.eq(c, ((0, 0), (0, 0), (2, 256 * KiB)), 'falloc trim: counts')
        t.eq(blocks(f), 768 * KiB, 'falloc trim: 256 KiB punched')


def test_ftruncate(t):
    f = t.path('tr')
    for fio in (False, True):
        with open(f, 'wb') as fh:
            fh.truncate(1 * MiB)
        who = 'fio 3.33' if fio else 'iobench'
        c = run(t, '--name=tr', '--filename=' + f, '--ioengine=ftruncate',
                '--rw=write', '--bs=4k', '--size=64k', '--direct=0', fio=fio)
        if c is None:
            continue
        t.eq(c, ((0, 0), (16, 64 * KiB), (0, 0)), 'ftruncate %s: counts' % who)
        t.eq(os.path.getsize(f), 60 * KiB, 'ftruncate %s: size = the last '
             "write's offset" % who)
    r = t.run('--parse-only', '--name=tr', '--filename=' + f,
              '--ioengine=ftruncate', '--rw=read', '--size=64k')
    t.fails(r, 'ftruncate read')
    t.eq(r.err.strip(), 'iobench: ioengine=ftruncate does writes only '
         '(rw=write or randwrite), not rw=read', 'ftruncate read: message', r)


def test_metadata_engines(t):
    """filecreate makes the files, filestat stats them, filedelete removes
    them: one I/O per 4 KiB file, each timed, as fio 3.33 counts them."""
    for fio in (False, True):
        d = t.mkdir('meta%d' % fio)
        who = 'fio 3.33' if fio else 'iobench'
        for eng, left in (('filecreate', 10), ('filestat', 10),
                          ('filedelete', 0)):
            a = ['--output-format=json', '--name=m', '--directory=' + d,
                 '--ioengine=' + eng, '--nrfiles=10', '--filesize=4k',
                 '--bs=4k', '--rw=read', '--direct=0']
            r = t.fio(*a) if fio else t.run(*a)
            if r is None:
                break
            if not t.ok(r, '%s %s' % (eng, who)):
                continue
            j = json.loads(r.out[r.out.index('{'):])['jobs'][0]
            t.eq((j['read']['total_ios'], j['read']['io_bytes'],
                  j['read']['clat_ns']['N']), (10, 40960, 10),
                 '%s %s: ios, bytes, timed' % (eng, who))
            t.eq(len(os.listdir(d)), left, '%s %s: files left' % (eng, who))
            if eng == 'filecreate' and not fio:
                t.eq(sorted(os.path.getsize(os.path.join(d, n))
                            for n in os.listdir(d)), [0] * 10,
                     'filecreate: empty files made')
    dev = t.loop_device(1 * MiB)
    if dev:
        r = t.run('--name=fd', '--filename=' + dev, '--ioengine=filedelete',
                  '--size=4k', '--bs=4k', '--rw=read')
        t.fails(r, 'filedelete on a device')
        t.check(os.path.exists(dev) and 'is not a regular file' in r.out + r.err,
                'filedelete on a device: refused, the node stays', r)


def test_posixaio(t):
    dev = t.loop_device(4 * MiB)
    if dev is None:
        t.skip('no loop devices: posixaio')
        return
    for fio in (False, True):
        who = 'fio 3.33' if fio else 'iobench'
        a = ['--name=pa', '--filename=' + dev, '--ioengine=posixaio',
             '--iodepth=8', '--direct=1', '--bs=16k', '--size=4m',
             '--rw=randwrite', '--buffer_pattern=0xa5c3']
        c = run(t, *(a if fio else a + ['--allow_data_loss=1']), fio=fio)
        if c is None:
            continue
        t.eq(c, ((0, 0), (256, 4 * MiB), (0, 0)), 'posixaio write %s' % who)
        with open(dev, 'rb') as fh:
            t.check(fh.read() == bytes.fromhex('a5c3') * (2 * MiB),
                    'posixaio write %s: every block written' % who)
        c = run(t, '--name=pr', '--filename=' + dev, '--ioengine=posixaio',
                '--iodepth=8', '--direct=1', '--bs=4k', '--size=4m',
                '--rw=randread', fio=fio)
        if c:
            t.eq(c, ((1024, 4 * MiB), (0, 0), (0, 0)), 'posixaio read %s' % who)


def test_splice(t):
    f = t.path('sp')
    for fio in (False, True):
        if os.path.exists(f):
            os.unlink(f)
        who = 'fio 3.33' if fio else 'iobench'
        c = run(t, '--name=sp', '--filename=' + f, '--ioengine=splice',
                '--rw=write', '--bs=64k', '--size=2m', '--direct=0',
                '--buffer_pattern="splice"', fio=fio)
        if c is None:
            continue
        t.eq(c, ((0, 0), (32, 2 * MiB), (0, 0)), 'splice write %s' % who)
        want = (b'splice' * (65536 // 6 + 1))[:65536] * 32
        t.check(ibtest.file_bytes(f) == want,
                'splice write %s: the pattern in every block' % who)
        c = run(t, '--name=sr', '--filename=' + f, '--ioengine=splice',
                '--rw=randread', '--bs=16k', '--size=2m', '--direct=0', fio=fio)
        if c:
            t.eq(c, ((128, 2 * MiB), (0, 0), (0, 0)), 'splice read %s' % who)


TRACEFS = '/sys/kernel/tracing'
REQ_F_FORCE_ASYNC = 0x10    # the request flag IOSQE_ASYNC sets (bit 4)


def forced_async(trace, pid):
    """io_uring_queue_async_work events of pid: (all, with IOSQE_ASYNC)."""
    every = forced = 0
    for line in trace.splitlines():
        m = re.match(r'\s*\S+-(\d+)\s.*io_uring_queue_async_work:.* flags (0x[0-9a-f]+)',
                     line)
        if m and int(m.group(1)) == pid:
            every += 1
            forced += bool(int(m.group(2), 16) & REQ_F_FORCE_ASYNC)
    return every, forced


def test_force_async(t):
    ev = os.path.join(TRACEFS, 'events/io_uring/io_uring_queue_async_work')
    if not os.path.isdir(ev):
        t.skip('force_async: no io_uring tracepoints in tracefs')
        return
    inst = os.path.join(TRACEFS, 'instances', 'ibtest_fa_%d' % os.getpid())
    os.mkdir(inst)
    f = t.shm_file('fa', data=os.urandom(4 * MiB))
    try:
        # only this test's process tree (event-fork: the iobench and fio it
        # starts): the machine's other io_uring users filled the buffer
        # and fio's 1024 events were lost (0 found, under the flake hunt)
        for name, val in (('options/event-fork', '1'),
                          ('set_event_pid', str(os.getpid())),
                          ('buffer_size_kb', '4096')):
            with open(os.path.join(inst, name), 'w') as e:
                e.write(val)
        with open(os.path.join(inst, 'events/io_uring/io_uring_queue_async_work/enable'), 'w') as e:
            e.write('1')
        for fio in (False, True):
            for n, want in ((0, 0), (1, 1024), (4, 256), (3, 341)):
                with open(os.path.join(inst, 'trace'), 'w') as tr:
                    tr.write('')
                a = ['--name=fa', '--filename=' + f, '--ioengine=io_uring',
                     '--rw=randread', '--bs=4k', '--size=4m', '--iodepth=8',
                     '--force_async=%d' % n]
                r = t.fio(*a) if fio else t.run(*a)
                if r is None:
                    break
                who = '%s force_async=%d' % ('fio 3.33' if fio else 'iobench', n)
                m = re.search(r'err=\s*\d+: pid=(\d+)', r.out)
                if not t.check(r.rc == 0 and m, who + ': ran', r):
                    continue
                with open(os.path.join(inst, 'trace')) as tr:
                    every, forced = forced_async(tr.read(), int(m.group(1)))
                t.eq(forced, want, who + ': requests sent with IOSQE_ASYNC')
    finally:
        with open(os.path.join(inst, 'events/io_uring/io_uring_queue_async_work/enable'), 'w') as e:
            e.write('0')
        os.rmdir(inst)


def main():
    t = ibtest.Test()
    test_mmap(t)
    test_falloc(t)
    test_ftruncate(t)
    test_metadata_engines(t)
    test_posixaio(t)
    test_splice(t)
    test_force_async(t)
    t.finish()


if __name__ == '__main__':
    main()
