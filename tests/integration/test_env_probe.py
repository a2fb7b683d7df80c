#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The environment capture and the evidence probes on real targets, through
the test tool env_dump (argv[2]), checked field by field against what the
machine's own tools say: uname, /proc/cpuinfo, nproc, free, lsblk, losetup,
zramctl, findmnt, fincore, stat. Targets: a loop device with 4 KiB sectors
and direct I/O, a zram device (hot_add), a file on an ext4 image on a loop
device, a file in /dev/shm. Every device made is removed (finally blocks,
and ibtest's cleanup for the loop devices).
"""
import json
import mmap
import os
import signal
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB
MiB = ibtest.MiB


def dump(t, *args, what=None):
    """Run env_dump; its JSON output as a dict, or None (a failure)."""
    r = t.run(*args, prog=DUMP)
    if not t.ok(r, what or 'env_dump %s' % ' '.join(str(a) for a in args)):
        return None
    try:
        return json.loads(r.out)
    except ValueError as e:
        t.check(False, 'env_dump %s: JSON: %s' % (args[0], e), r)
        return None


def env_of(t, *paths):
    d = dump(t, 'env', *paths)
    return d['environment'] if d else None


def sh(*argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError('%s: %s' % (' '.join(argv), p.stderr.strip()))
    return p.stdout


def sysfs(path):
    with open(path) as f:
        return f.read().strip()


def lsblk(dev):
    out = sh('lsblk', '-J', '-b', '-d', '-o',
             'NAME,LOG-SEC,PHY-SEC,ROTA,SCHED,MODEL,VENDOR,REV,RQ-SIZE', dev)
    return json.loads(out)['blockdevices'][0]


def rota(v):
    """lsblk's ROTA: true/false (2.38) or "1"/"0" (older)."""
    return 1 if v in (True, '1', 1) else 0


def check_disk(t, tg, dev, what):
    """The target's disk fields against lsblk and the queue's sysfs files."""
    name = os.path.basename(os.path.realpath(dev))
    lb = lsblk(dev)
    q = '/sys/block/%s/queue/' % name
    t.eq(tg.get('disk'), name, '%s: disk' % what)
    t.eq(tg.get('logical_block_size'), lb['log-sec'], '%s: logical block' % what)
    t.eq(tg.get('physical_block_size'), lb['phy-sec'], '%s: physical block' % what)
    t.eq(tg.get('rotational'), rota(lb['rota']), '%s: rotational' % what)
    t.eq(tg.get('scheduler'), lb['sched'] or None, '%s: scheduler' % what)
    t.eq(tg.get('model'), (lb['model'] or '').strip() or None, '%s: model' % what)
    t.eq(tg.get('vendor'), (lb['vendor'] or '').strip() or None, '%s: vendor' % what)
    t.eq(tg.get('firmware'), (lb['rev'] or '').strip() or None, '%s: firmware' % what)
    t.eq(tg.get('nr_requests'), lb['rq-size'], '%s: nr_requests' % what)
    t.eq(tg.get('max_sectors_kb'), int(sysfs(q + 'max_sectors_kb')),
         '%s: max_sectors_kb' % what)
    t.eq(tg.get('write_cache'), sysfs(q + 'write_cache'), '%s: write cache' % what)


def test_host(t):
    e = env_of(t, '/')
    if not e:
        return
    u = os.uname()
    t.eq(e.get('hostname'), u.nodename, 'hostname = uname -n')
    t.eq(e.get('kernel_release'), u.release, 'kernel_release = uname -r')
    t.eq(e.get('kernel_version'), u.version, 'kernel_version = uname -v')
    t.eq(e.get('arch'), u.machine, 'arch = uname -m')
    with open('/proc/cpuinfo') as f:
        info = f.read()
    models = [ln.split(':', 1)[1].strip() for ln in info.splitlines()
              if ln.startswith('model name')]
    if models:
        t.eq(e.get('cpu_model'), models[0], 'cpu_model = cpuinfo model name')
    t.eq(e.get('cpus_online'), int(sh('getconf', '_NPROCESSORS_ONLN')),
         'cpus_online = getconf _NPROCESSORS_ONLN')
    online = int(sh('getconf', '_NPROCESSORS_ONLN'))
    if len(os.sched_getaffinity(0)) == online:   # nproc counts the affinity
        env = dict(os.environ)
        env.pop('OMP_NUM_THREADS', None)
        n = subprocess.run(['nproc'], capture_output=True, text=True, env=env)
        t.eq(e.get('cpus_online'), int(n.stdout), 'cpus_online = nproc')
    mem = [ln.split() for ln in sh('free', '-b').splitlines()
           if ln.startswith('Mem:')][0]
    t.eq(e.get('mem_total'), int(mem[1]), 'mem_total = free -b total')
    t.eq(e.get('clocksource'), sysfs(
        '/sys/devices/system/clocksource/clocksource0/current_clocksource'),
        'clocksource')
    pol = '/sys/devices/system/cpu/cpufreq'
    govs = sorted({sysfs(os.path.join(pol, p, 'scaling_governor'))
                   for p in (os.listdir(pol) if os.path.isdir(pol) else [])
                   if p.startswith('policy')})
    want = 'none' if not govs else govs[0] if len(govs) == 1 else 'mixed'
    t.eq(e.get('cpu_governor'), want, 'cpu_governor')
    v = e.get('virtualization', {})
    flags = [ln for ln in info.splitlines() if ln.startswith('flags')]
    t.eq(v.get('hypervisor_flag'), int(bool(flags) and 'hypervisor' in
                                       flags[0].split(':', 1)[1].split()),
         'hypervisor flag = cpuinfo flags')
    for key in ('sys_vendor', 'product_name', 'product_version'):
        p = '/sys/class/dmi/id/' + key
        t.eq(v.get(key), sysfs(p) if os.path.exists(p) else None, 'DMI ' + key)
    p = '/sys/hypervisor/type'
    t.eq(v.get('hypervisor_type'), sysfs(p) if os.path.exists(p) else None,
         '/sys/hypervisor/type')
    # the disk under / (a real one: model, scheduler as lsblk has them)
    tg = e['targets'][0]
    t.eq(tg.get('filesystem'), findmnt('/'), '/: mount = findmnt -T')
    if tg.get('disk') and os.path.exists('/dev/' + tg['disk']):
        check_disk(t, tg, '/dev/' + tg['disk'], '/')
    d = dump(t, 'checks', '/')
    if d:
        t.eq(d['governor_performance'],
             -1 if want == 'none' else int(want == 'performance'),
             'governor accessor')


def block_stat(name):
    with open('/sys/block/%s/stat' % name) as f:
        v = [int(x) for x in f.read().split()]
    return {'reads': v[0], 'read_merges': v[1], 'read_sectors': v[2],
            'writes': v[4], 'write_merges': v[5], 'write_sectors': v[6],
            'io_ticks': v[9]}


def direct_io(dev, off, count, write=False, data=None):
    """count 4 KiB O_DIRECT reads or writes at off (one at a time)."""
    buf = mmap.mmap(-1, 4096)
    if data is not None:
        buf.write(data)
    fd = os.open(dev, (os.O_RDWR if write else os.O_RDONLY) | os.O_DIRECT)
    try:
        for i in range(count):
            if write:
                os.pwritev(fd, [buf], off + i * 4096)
            else:
                os.preadv(fd, [buf], off + i * 4096)
    finally:
        os.close(fd)
        buf.close()


def test_loop(t):
    """losetup -b 4096 --direct-io=on: env, counters, holes of the backing."""
    dev = t.loop_device(16 * MiB, name='envloop.img', sector_size=4096)
    if not dev:
        t.skip('no loop devices')
        return
    name = os.path.basename(dev)
    backing = t.loop_backing[dev]
    e = env_of(t, dev)
    if not e:
        return
    tg = e['targets'][0]
    t.eq((tg['path'], tg['kind'], tg.get('dev')), (dev, 'block', name),
         'loop: path, kind, dev')
    check_disk(t, tg, dev, 'loop')
    t.eq(tg.get('logical_block_size'), 4096, 'loop: losetup -b 4096')
    lo = json.loads(sh('losetup', '-J', '-l', '-O', 'NAME,BACK-FILE,DIO,OFFSET',
                       dev))['loopdevices'][0]
    t.eq(tg.get('loop'), {'backing_file': lo['back-file'],
                          'offset': int(lo['offset']),
                          'dio': rota(lo['dio'])},
         'loop: backing file, offset, dio = losetup -l')
    t.eq(tg.get('loop', {}).get('dio'), 1, 'loop: --direct-io=on')
    for key in ('zram', 'filesystem', 'slaves', 'dm_name'):
        t.check(key not in tg, 'loop: no %s key' % key, tg)
    d = dump(t, 'checks', dev)
    if d:
        t.eq(d['write_cache_on'], {'write back': 1, 'write through': 0}.get(
            tg.get('write_cache'), -1), 'loop: write cache accessor')

    # text: the target's two lines
    r = t.run('text', dev, prog=DUMP)
    if t.ok(r, 'env_dump text'):
        want = ('             %s: loop of %s (dio on), rotational %s, blocks '
                '4096/4096, scheduler %s, nr_requests %d, max_sectors_kb %d, '
                'write cache %s' % (
                    name, backing, 'yes' if tg['rotational'] else 'no',
                    tg.get('scheduler', '?'), tg['nr_requests'],
                    tg['max_sectors_kb'], tg['write_cache']))
        t.eq(r.out.splitlines()[-2:],
             ['  target   : %s (block)' % dev, want], 'text: target lines')

    # (a) counters: equal to the file, and 8 direct reads = 8 reads, 64 sectors
    before = dump(t, 'stat', name)
    t.eq(before, block_stat(name), 'stat probe = /sys/block/%s/stat' % name)
    direct_io(dev, 1 * MiB, 8)
    after = dump(t, 'stat', name)
    if before and after:
        t.eq((after['reads'] - before['reads'],
              after['read_sectors'] - before['read_sectors'],
              after['writes'] - before['writes']),
             (8, 64, 0), 'counters: 8 direct 4k reads')

    # (b) the page cache of the device node itself (direct=0 on a device)
    fd = os.open(dev, os.O_RDONLY)
    try:
        os.pread(fd, 64 * KiB, 2 * MiB)
        t.eq(dump(t, 'resident', dev, 2 * MiB, 64 * KiB),
             {'page_size': 4096, 'pages': 16, 'resident': 16},
             'resident: a device range read buffered')
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        t.eq(dump(t, 'resident', dev, 2 * MiB, 64 * KiB),
             {'page_size': 4096, 'pages': 16, 'resident': 0},
             'resident: the device range dropped')
        t.eq(dump(t, 'resident', dev)['pages'], 16 * MiB // 4096,
             'resident: the whole device (BLKGETSIZE64)')
    finally:
        os.close(fd)

    # (c) the backing file of a fresh loop device is all hole
    a = dump(t, 'loopalloc', name)
    t.eq(a, {'size': 16 * MiB, 'data': 0, 'blocks': 0},
         'loopalloc: fresh device reads never-written blocks')
    direct_io(dev, 1 * MiB, 8, write=True, data=ibtest.pattern(4096))
    a = dump(t, 'loopalloc', name)
    st = os.stat(backing)
    t.eq(a, {'size': 16 * MiB, 'data': 32 * KiB, 'blocks': st.st_blocks * 512},
         'loopalloc: 8 blocks written')
    t.eq(dump(t, 'loopalloc', name, 1 * MiB - 4096, 8192),
         {'size': 8192, 'data': 4096, 'blocks': st.st_blocks * 512},
         'loopalloc: range across the written edge')


def zramctl(dev):
    out = sh('zramctl', '--bytes', '--noheadings', '--raw', '-o',
             'ALGORITHM,DISKSIZE,DATA,COMPR,ZERO-PAGES', dev).split()
    return {'algorithm': out[0], 'disksize': int(out[1]), 'data': int(out[2]),
            'compr': int(out[3]), 'zero': int(out[4])}


def test_zram(t):
    if not os.path.exists('/sys/class/zram-control/hot_add') or os.geteuid():
        t.skip('no zram-control')
        return
    try:
        n, dev = ibtest.zram_add(32 * MiB)
    except OSError as e:
        t.skip('zram hot_add: %s' % e)
        return
    try:
        zram_checks(t, n, dev)
    finally:
        ibtest.zram_remove(n)
    t.check(not os.path.exists('/sys/block/zram%d' % n), 'zram%d removed' % n)


def zram_checks(t, n, dev):
    e = env_of(t, dev)
    if not e:
        return
    tg = e['targets'][0]
    z = zramctl(dev)
    t.eq(tg.get('zram'), {'comp_algorithm': z['algorithm'],
                          'disksize': z['disksize']},
         'zram: algorithm, disksize = zramctl')
    t.eq(z['disksize'], 32 * MiB, 'zram: disksize set')
    check_disk(t, tg, dev, 'zram')
    t.check('loop' not in tg, 'zram: no loop key', tg)

    p = dump(t, 'zram', 'zram%d' % n)
    t.eq(p, {'disksize': 32 * MiB, 'orig_data_size': 0, 'compr_data_size': 0,
             'mem_used_total': p and p['mem_used_total'], 'same_pages': 0,
             'huge_pages': 0}, 'zram: fresh device stores nothing')
    direct_io(dev, 0, 12, write=True, data=bytes(4096))
    direct_io(dev, 1 * MiB, 3, write=True, data=os.urandom(4096))
    p = dump(t, 'zram', 'zram%d' % n)
    z = zramctl(dev)
    if p:
        t.eq((p['same_pages'], p['orig_data_size']), (12, 15 * 4096),
             'zram: 12 zero blocks are same pages, 15 blocks stored')
        t.eq((p['orig_data_size'], p['compr_data_size'], p['same_pages']),
             (z['data'], z['compr'], z['zero']), 'zram probe = zramctl')
        t.eq(p['huge_pages'], 3, 'zram: random blocks stored uncompressed')


def findmnt(path):
    out = sh('findmnt', '-J', '-o', 'TARGET,SOURCE,FSTYPE,OPTIONS', '-T', path)
    fs = json.loads(out)['filesystems'][-1]     # the top one
    return {'type': fs['fstype'], 'mount_point': fs['target'],
            'source': fs['source'], 'options': fs['options']}


def fincore(path):
    out = sh('fincore', '--bytes', '--noheadings', '--raw', '-o', 'PAGES',
             path).split()
    return int(out[0])


def test_ext4_file(t):
    if not ibtest.loop_available() or not os.path.exists('/sbin/mkfs.ext4') \
            and not os.path.exists('/usr/sbin/mkfs.ext4'):
        t.skip('no loop devices or mkfs.ext4')
        return
    dev = t.loop_device(64 * MiB, name='ext4.img')
    if not dev:
        return
    mnt = t.mkdir('mnt')
    sh('mkfs.ext4', '-q', '-F', dev)
    sh('mount', dev, mnt)
    try:
        ext4_checks(t, dev, mnt)
    finally:
        subprocess.run(['umount', mnt], capture_output=True)


def ext4_checks(t, dev, mnt):
    name = os.path.basename(dev)
    f = os.path.join(mnt, 'data')
    fd = os.open(f, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        os.write(fd, ibtest.pattern(MiB))
        e = env_of(t, f, os.path.join(mnt, 'not-yet'))
        if e:
            tg = e['targets'][0]
            t.eq((tg['kind'], tg.get('dev'), tg.get('disk')), ('file', name, name),
                 'ext4 file: kind, dev, disk')
            t.eq(tg.get('filesystem'), findmnt(f), 'ext4 file: mount = findmnt -T')
            t.eq(tg.get('filesystem', {}).get('type'), 'ext4', 'ext4 file: type')
            check_disk(t, tg, dev, 'ext4 file')
            t.eq(tg.get('loop', {}).get('backing_file'), t.loop_backing[dev],
                 'ext4 file: the loop device under it')
            t.eq(e['targets'][1].get('filesystem'), findmnt(f),
                 'ext4 file not created yet: its directory\'s mount')
        # (b) page cache: written buffered = resident; dropped = not
        r = dump(t, 'resident', f)
        t.eq(r, {'page_size': 4096, 'pages': 256, 'resident': 256},
             'resident: a file just written')
        t.eq(fincore(f), 256, 'fincore agrees: 256 pages')
        t.eq(dump(t, 'resident', f, 4096 + 1, 4096),
             {'page_size': 4096, 'pages': 2, 'resident': 2},
             'resident: a range widened to pages')
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        r = dump(t, 'resident', f)
        t.eq(r, {'page_size': 4096, 'pages': 256, 'resident': 0},
             'resident: after fsync + POSIX_FADV_DONTNEED')
        t.eq(fincore(f), 0, 'fincore agrees: 0 pages')
        os.pread(fd, 64 * KiB, 0)
        t.eq(dump(t, 'resident', f, 0, 64 * KiB)['resident'], 16,
             'resident: 64 KiB read back buffered')
    finally:
        os.close(fd)
    sparse_checks(t, mnt, 'ext4')


def sparse_checks(t, d, what):
    """(c) a truncate'd file is all hole, a written one all data."""
    f = os.path.join(d, 'sparse')
    with open(f, 'wb') as fh:
        fh.truncate(4 * MiB)
    t.eq(dump(t, 'alloc', f), {'size': 4 * MiB, 'data': 0, 'blocks': 0},
         '%s: truncate\'d file is all hole' % what)
    with open(f, 'r+b') as fh:
        fh.write(ibtest.pattern(4 * MiB))
        fh.flush()
        os.fsync(fh.fileno())
    st = os.stat(f)
    a = dump(t, 'alloc', f)
    t.eq(a, {'size': 4 * MiB, 'data': 4 * MiB, 'blocks': st.st_blocks * 512},
         '%s: written file is all data' % what)
    t.check(a and a['blocks'] >= 4 * MiB, '%s: blocks allocated' % what, a)
    os.unlink(f)


def test_shm_file(t):
    f = t.shm_file('envfile', data=ibtest.pattern(64 * KiB))
    e = env_of(t, f)
    if not e:
        return
    tg = e['targets'][0]
    t.eq(tg.get('filesystem'), findmnt(f), '/dev/shm file: mount = findmnt -T')
    t.eq(tg.get('filesystem', {}).get('type'), 'tmpfs', '/dev/shm file: tmpfs')
    for key in ('dev', 'disk', 'scheduler', 'rotational', 'loop', 'zram'):
        t.check(key not in tg, '/dev/shm file: no %s key' % key, tg)
    t.eq(dump(t, 'resident', f), {'page_size': 4096, 'pages': 16, 'resident': 16},
         '/dev/shm file: tmpfs pages are resident')
    sparse_checks(t, t.dir, 'tmpfs')


def test_cpu(t):
    """(e) a stopped busy process: the probe equals /proc/PID/stat."""
    p = subprocess.Popen(['sh', '-c', 'while :; do :; done'])
    tick = 1000000000 // os.sysconf('SC_CLK_TCK')

    def stat():
        with open('/proc/%d/stat' % p.pid) as f:
            return f.read().rsplit(')', 1)[1].split()
    try:
        # until it has used 100 ms of CPU (half a second on an idle
        # machine; on a loaded one its share of the CPU is less)
        end = time.monotonic() + 60
        while ((int(stat()[11]) + int(stat()[12])) * tick < 100000000 and
               time.monotonic() < end):
            time.sleep(0.05)
        os.kill(p.pid, signal.SIGSTOP)
        time.sleep(0.1)
        fields = stat()
        c = dump(t, 'cpu', p.pid)
        t.eq(c, {'user_ns': int(fields[11]) * tick, 'sys_ns': int(fields[12]) * tick,
                 'threads': int(fields[17]), 'state': 'T'},
             'cpu probe = /proc/PID/stat')
        t.check(c and c['user_ns'] + c['sys_ns'] >= 100000000,
                'cpu: a busy loop used CPU time', c)
    finally:
        p.kill()
        p.wait()


def compress_ratio(data):
    """zlib level 1 per 4 KiB block, a block that grows counted as stored."""
    total = 0
    for i in range(0, len(data), 4096):
        b = data[i:i + 4096]
        total += min(len(zlib.compress(b, 1)), len(b))
    return total / len(data)


def test_compress(t):
    cases = [('zero', bytes(16 * KiB)), ('random', os.urandom(16 * KiB)),
             ('pattern', bytes(range(256)) * 64),
             ('half', (os.urandom(2048) + bytes(2048)) * 4)]
    for what, data in cases:
        f = t.shm_file('compress.' + what, data=data)
        c = dump(t, 'compress', f)
        if not c:
            continue
        t.eq(c['bytes'], len(data), 'compress %s: sample size' % what)
        t.eq(round(c['ratio'], 6), round(compress_ratio(data), 6),
             'compress %s: ratio = python zlib level 1' % what)
    c = dump(t, 'compress', t.shm_file('compress.random2', data=os.urandom(8192)))
    t.eq(c and c['ratio'], 1.0, 'compress: random data does not shrink')


def main():
    global DUMP
    if len(sys.argv) < 3:
        sys.stderr.write('usage: %s IOBENCH ENV_DUMP\n' % sys.argv[0])
        sys.exit(2)
    DUMP = os.path.abspath(sys.argv[2])
    t = ibtest.Test(sys.argv[:2])
    for fn in (test_host, test_loop, test_zram, test_ext4_file, test_shm_file,
               test_cpu, test_compress):
        try:
            fn(t)
        except (RuntimeError, OSError, KeyError, TypeError, IndexError) as e:
            t.check(False, '%s: %s: %s' % (fn.__name__, type(e).__name__, e))
    t.finish()


DUMP = None
if __name__ == '__main__':
    main()
