#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Statistics and reports end to end (doc/fio-compat.md §1-§4, §6 logs):

* JSON (and json+) is one valid document; its percentiles match the exact
  latencies of the job's own clat log within the histogram's bucket error,
  and json+ bins add up to N;
* write_lat_log / write_bw_log / write_iops_log files have fio's names and
  line format, one line per I/O;
* group_reporting sums the jobs (jobs=N, io and ios add up);
* terse v2..v5 have fio's field counts on a tmpfs target (no disk);
* Disk stats: present for a loop device target, absent for tmpfs;
* the live status line on a pseudo-terminal.
"""
import json
import os
import pty
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402


def exact_percentile(vals, p):
    """fio's rank rule on exact values: first v with count(<= v) >= p% of N."""
    need = p / 100.0 * len(vals)
    for i, v in enumerate(vals):
        if i + 1 >= need:
            return v
    return vals[-1]


def read_log(path):
    rows = []
    with open(path) as f:
        for line in f:
            rows.append([int(x) for x in line.split(',')])
    return rows


def test_percentiles_vs_lat_log(t):
    prefix = t.path('lat')
    fn = t.shm_file('pct.dat', 8 << 20)
    r = t.run('--name=p', '--filename=' + fn, '--size=8m', '--rw=randrw',
              '--ioengine=psync', '--write_lat_log=' + prefix,
              '--write_bw_log=' + prefix, '--write_iops_log=' + prefix,
              '--output-format=json+')
    if not t.ok(r, 'json+ run with lat logs'):
        return
    try:
        doc = json.loads(r.out)
    except ValueError as e:
        t.check(False, 'stdout is one JSON document', str(e))
        return
    t.check('iobench version' in doc and doc.get('fio version') == 'fio-3.42',
            'both version keys (fio 3.42\'s format by default)')
    job = doc['jobs'][0]
    clat = read_log(prefix + '_clat.1.log')
    t.eq(len(clat), job['read']['total_ios'] + job['write']['total_ios'],
         'one clat log line per I/O')
    t.check(all(len(row) == 5 for row in clat), 'clat lines: msec, value, ddir, bs, prio')
    t.check(all(row[3] == 4096 and row[4] == 0 for row in clat), 'bs and prio columns')
    t.eq(os.path.getsize(prefix + '_slat.1.log'), 0, 'psync: empty slat log')
    for name in ('lat', 'bw', 'iops'):
        t.eq(len(read_log('%s_%s.1.log' % (prefix, name))), len(clat),
             '%s log: one line per I/O' % name)
    for d, key in ((0, 'read'), (1, 'write')):
        vals = sorted(row[1] for row in clat if row[2] == d)
        obj = job[key]['clat_ns']
        t.eq(obj['N'], len(vals), '%s clat N = log lines' % key)
        t.eq(obj['min'], vals[0], '%s clat min' % key)
        t.eq(obj['max'], vals[-1], '%s clat max' % key)
        t.check(abs(obj['mean'] - sum(vals) / len(vals)) < 1e-3 * obj['mean'] + 1,
                '%s clat mean' % key)
        t.eq(sum(obj['bins'].values()), len(vals), '%s bins add up to N' % key)
        for p, got in obj['percentile'].items():
            want = exact_percentile(vals, float(p))
            t.check(abs(got - want) <= want / 128.0 + 1,
                    '%s p%s: %d vs exact %d' % (key, p, got, want))


def test_group_reporting(t):
    fn = t.shm_file('grp.dat', 4 << 20)
    r = t.run('--name=g', '--filename=' + fn, '--size=4m', '--rw=read',
              '--ioengine=psync', '--numjobs=3', '--group_reporting')
    if not t.ok(r, 'group_reporting run'):
        return
    jobs = ibtest.parse_report(r.out)
    t.eq(len(jobs), 1, 'one merged block')
    t.check('(groupid=0, jobs=3)' in r.out, 'jobs=3 in the header', r)
    t.check('issued rwts: total=3072,0,0,0' in r.out, 'issued ios summed', r)
    t.check('io=12.0MiB (12.6MB)' in r.out, 'io summed in Run status', r)
    r = t.run('--name=g', '--filename=' + fn, '--size=4m', '--rw=read',
              '--ioengine=psync', '--numjobs=3', '--group_reporting',
              '--output-format=json')
    if t.ok(r, 'group_reporting json'):
        doc = json.loads(r.out)
        t.eq(len(doc['jobs']), 1, 'one merged JSON entry')
        t.eq(doc['jobs'][0]['read']['io_bytes'], 12 << 20, 'io_bytes summed')
        t.eq(doc['jobs'][0]['read']['clat_ns']['N'], 3072, 'clat N summed')


def test_terse_counts(t):
    fn = t.shm_file('terse.dat', 1 << 20)
    for ver, n in ((2, 161), (3, 121), (4, 162), (5, 180)):
        r = t.run('--name=t', '--filename=' + fn, '--size=1m', '--ioengine=psync',
                  '--output-format=terse', '--terse-version=%d' % ver)
        if t.ok(r, 'terse v%d' % ver):
            line = [ln for ln in r.out.splitlines() if ln.startswith('%d;' % ver)]
            t.eq(len(line), 1, 'one terse line (v%d)' % ver, r)
            if line:
                t.eq(len(line[0].split(';')), n, 'v%d field count' % ver)


def test_disk_stats(t):
    fn = t.shm_file('tmpfs.dat', 1 << 20)
    r = t.run('--name=d', '--filename=' + fn, '--size=1m', '--ioengine=psync')
    if t.ok(r, 'tmpfs run'):
        t.check('Disk stats' not in r.out, 'no Disk stats for tmpfs', r)
    dev = t.loop_device(8 << 20)
    if not dev:
        t.skip('no loop devices')
        return
    name = os.path.basename(dev)
    r = t.run('--name=d', '--filename=' + dev, '--size=4m', '--ioengine=psync',
              '--direct=1', '--rw=read')
    if t.ok(r, 'loop device run'):
        t.check('\nDisk stats (read/write):\n  %s: ios=' % name in r.out,
                'Disk stats line for %s' % name, r)
    r = t.run('--name=d', '--filename=' + dev, '--size=4m', '--ioengine=psync',
              '--direct=1', '--rw=read', '--output-format=json')
    if t.ok(r, 'loop device json'):
        du = json.loads(r.out).get('disk_util', [])
        t.eq([d['name'] for d in du], [name], 'disk_util names the loop device')
        if du:
            t.check(du[0]['read_ios'] >= 1024, 'at least 1024 reads counted', du)


def test_status_line(t):
    fn = t.shm_file('eta.dat', 16 << 20)
    master, slave = pty.openpty()
    p = subprocess.Popen(t.argv('--name=e', '--filename=' + fn, '--size=16m',
                                '--ioengine=psync', '--rw=randread',
                                '--time_based', '--runtime=5',
                                '--eta-interval=500ms'),
                         stdout=slave, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b''
    end = time.time() + t.scaled(60)
    while time.time() < end:
        rd, _, _ = select.select([master], [], [], 1)
        if rd:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    p.wait()
    os.close(master)
    text = out.decode(errors='replace')
    t.check_logs('the run on a pty', text[-2000:])
    t.eq(p.returncode, 0, 'run on a pty')
    t.check('Jobs: 1 (f=1)\r' in text, 'early status line without ETA', text[:400])
    first = text.find('Jobs: ')
    t.check(first >= 0 and not text.startswith('Jobs: 0', first),
            'no "Jobs: 0 (f=0)" line before the job starts', text[:400])
    t.check(' IOPS][eta 00m:04s]' in text or ' IOPS][eta 00m:03s]' in text,
            'rates shown from the first seconds of a 5 s job', text[:800])
    t.check(': [r(1)][' in text and '% IOPS]' not in text and ' IOPS][eta 00m:0' in text,
            'status line with state, progress, rates and eta', text[:800])


def test_json_shape_vs_fio(t):
    """The same jobs through fio 3.33 and iobench: same JSON keys, order and types."""
    golden = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                          'golden', 'json_compare.py')
    fn = t.shm_file('shape.dat', 4 << 20)
    cases = [
        ['--name=a', '--filename=' + fn, '--size=4m', '--rw=randrw', '--ioengine=psync',
         '--output-format=json+'],
        ['--name=b', '--filename=' + fn, '--size=4m', '--rw=write', '--ioengine=psync',
         '--fsync=16', '--lat_percentiles=1', '--output-format=json+'],
        ['--ioengine=psync', '--name=c', '--filename=' + fn, '--size=4m', '--rw=read',
         '--numjobs=2', '--group_reporting', '--gtod_reduce=1', '--output-format=json'],
    ]
    for args in cases:
        f = t.fio(*args)
        if f is None:
            t.skip('fio not installed')
            return
        r = t.run('--fio-version=3.33', *args)
        if not (t.ok(f, 'fio ' + args[0]) and t.ok(r, 'iobench ' + args[0])):
            continue
        ours, theirs = t.path('ours.json'), t.path('fio.json')
        with open(ours, 'w') as o:
            o.write(r.out)
        with open(theirs, 'w') as o:
            o.write(f.out)
        p = subprocess.run([sys.executable, golden, '--shape', ours, theirs],
                           capture_output=True, text=True)
        t.check(p.returncode == 0, 'JSON shape as fio for %s' % ' '.join(args), p.stdout)


def main():
    t = ibtest.Test()
    test_percentiles_vs_lat_log(t)
    test_group_reporting(t)
    test_terse_counts(t)
    test_disk_stats(t)
    test_status_line(t)
    test_json_shape_vs_fio(t)
    t.finish()


if __name__ == '__main__':
    main()
