#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench suite, the plain suites (cloud, desktop) on loop devices with
4 KiB sectors: --list; --print-jobs of every suite accepted by fio 3.33 and
3.42 (--parse-only); the printed cloud file run through fio and through
iobench gives the same I/O count per test as the suite's own run (JSON: one
entry per test, the summary); desktop's four-row table; --expect verdicts
and exit status; compare on two suite results; the HTML report (summary
first, no script); bad input refused with one line and nothing written; a
device holding a filesystem refused for the write tests exactly as a write
job is, its bytes unchanged, --readonly and the usual override.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = 1 << 20
SUITES = ['cloud', 'desktop', 'pts-iops', 'pts-throughput', 'pts-latency']
FIOS = ['/usr/bin/fio', '/work/fio342/fio']
# the cloud run below: 2 MiB per job, numjobs=2 but lat-4k (QD1, 1 job)
CLOUD_IOS = {'lat-4k': 512, 'randread-4k': 1024, 'seqread-1m': 4,
             'randrw-4k': 1024, 'randwrite-4k': 1024, 'seqwrite-1m': 4}
TINY = ['--size=2m', '--runtime=0', '--ramp=0', '--numjobs=2', '--iodepth=4',
        '--no-calibrate']


def digest(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def ios_of(doc):
    """{job name: read + write total_ios} of a JSON report."""
    return {j['jobname']: j['read']['total_ios'] + j['write']['total_ios']
            for j in doc.get('jobs', [])}


def test_list_and_jobs(t, dev):
    r = t.run('suite', '--list')
    if t.ok(r, 'suite --list'):
        for s in SUITES:
            t.check(any(line.startswith(s + ' ') for line in r.out.splitlines()),
                    '--list names %s' % s, r.out)
    paths = []
    for s in SUITES:
        path = t.path('%s.fio' % s)
        r = t.run('suite', s, dev, '--print-jobs', '--capacity=4m',
                  '--io-size=1m', '--runtime=0')
        if not t.ok(r, '%s --print-jobs' % s):
            continue
        with open(path, 'w') as f:
            f.write(r.out)
        t.check('[global]' in r.out and 'filename=%s' % dev in r.out,
                '%s --print-jobs: [global] and the target' % s, r.out)
        t.eq('precondition' in r.out, s.startswith('pts-'),
             '%s: a preconditioning section for PTS only' % s)
        paths.append(path)
    for fio in FIOS:    # every file at once: one start of fio each
        if not os.access(fio, os.X_OK):
            t.skip('%s not found' % fio)
            continue
        p = subprocess.run([fio, '--parse-only'] + paths, capture_output=True,
                           text=True)
        t.eq(p.returncode, 0, '%s --parse-only of %s' % (fio, ', '.join(SUITES)),
             p.stderr)


def test_cloud_counts(t, dev):
    """The suite's run, the printed file through fio and through iobench:
    the same I/Os per test."""
    js = t.path('cloud.json')
    r = t.run('suite', 'cloud', dev, *TINY, '--json-output=' + js,
              '--report=' + t.path('cloud.html'))
    if not t.ok(r, 'cloud, tiny'):
        return None
    doc = t.load_json(js)
    t.eq(ios_of(doc), CLOUD_IOS, 'cloud JSON: one entry per test, its I/Os')
    s = doc.get('iobench suite', {})
    t.eq([(x['test'], x['ios']) for x in s.get('summary', [])],
         list(CLOUD_IOS.items()), 'cloud summary: tests in order, I/Os')
    t.eq(s.get('verdicts'), [], 'cloud without --expect: no verdicts')
    lines = r.out.splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith('test ')]
    t.check(head and all(lines[head[0] + 1 + k].startswith(n)
                         for k, n in enumerate(CLOUD_IOS)),
            'cloud text: the summary table, a line per test', r.out)
    t.check(head and lines[head[0]].split() ==
            ['test', 'IOPS', 'bandwidth', 'p50', 'p99', 'p99.9', 'steady'],
            'cloud text: the columns', r.out)
    jobs = t.path('cloud-tiny.fio')
    r = t.run('suite', 'cloud', dev, *TINY, '--print-jobs')
    with open(jobs, 'w') as f:
        f.write(r.out)
    plain = t.path('cloud-plain.json')
    r = t.run(jobs, '--json-output=' + plain, '--no-calibrate')
    if t.ok(r, 'iobench on the printed file'):
        t.eq(ios_of(t.load_json(plain)), CLOUD_IOS, 'iobench on the printed file: I/Os')
    r = t.fio(jobs, '--output-format=json')
    if r is None:
        t.skip('no fio')
    elif t.ok(r, 'fio 3.33 on the printed file'):
        t.eq(ios_of(json.loads(r.out)), CLOUD_IOS, 'fio on the printed file: I/Os')
    return js


def test_report(t):
    with open(t.path('cloud.html')) as f:
        page = f.read()
    first = page.find('<table')
    t.check(0 < page.find('Summary: one line per test') < first + 200 and
            page.find('lat-4k') > first, 'HTML: the summary table first', page[:600])
    t.check('<script' not in page, 'HTML: no script')


def test_desktop(t, dev):
    js = t.path('desktop.json')
    r = t.run('suite', 'desktop', dev, '--size=1m', '--runtime=0', '--pause=0',
              '--no-calibrate', '--output-format=json', '--json-output=' + js)
    if not t.ok(r, 'desktop, tiny'):
        return
    doc = json.loads(r.out)
    t.eq(ios_of(doc), {'seq1m-q8t1-read': 1, 'seq1m-q1t1-read': 1,
                       'rnd4k-q32t1-read': 256, 'rnd4k-q1t1-read': 256,
                       'seq1m-q8t1-write': 1, 'seq1m-q1t1-write': 1,
                       'rnd4k-q32t1-write': 256, 'rnd4k-q1t1-write': 256},
         'desktop: reads first, one entry per test, its I/Os')
    t.eq(ios_of(t.load_json(js)), ios_of(doc), 'desktop: --json-output, the same')
    r = t.run('suite', 'desktop', dev, '--size=1m', '--runtime=0', '--pause=0',
              '--no-calibrate')
    rows = [l.split()[:2] for l in r.out.splitlines()
            if l.startswith(('SEQ1M', 'RND4K'))]
    t.eq(rows, [['SEQ1M', 'Q8T1'], ['SEQ1M', 'Q1T1'], ['RND4K', 'Q32T1'],
                ['RND4K', 'Q1T1']], 'desktop: the four-row table', r.out)
    t.check('read' in r.out and 'write' in r.out, 'desktop: read and write columns', r.out)


def test_expect(t, dev):
    base = ['suite', 'cloud', dev, '--readonly', '--only=lat-4k,randread-4k,seqread-1m',
            '--size=1m', '--runtime=0', '--ramp=0', '--no-calibrate',
            '--output-format=json']
    r = t.run(*base, '--expect=iops=1,bw=1/s,lat=1h')
    if t.ok(r, '--expect far below: met'):
        v = json.loads(r.out)['iobench suite']['verdicts']
        t.eq([(x['test'], x['metric'], x['met']) for x in v],
             [('lat-4k', 'lat', 1), ('randread-4k', 'iops', 1), ('seqread-1m', 'bw', 1)],
             '--expect: a verdict per judged test')
        t.check(all(x['margin_pct'] > 0 for x in v), '--expect met: margins above 0', v)
    r = t.run(*base, '--expect=iops=1000000000')
    t.eq(r.rc, 2, '--expect out of reach: exit status 2')
    try:
        v = json.loads(r.out)['iobench suite']['verdicts']
        t.eq([(x['test'], x['met']) for x in v], [('randread-4k', 0)],
             '--expect iops only: one verdict, not met')
        t.check(v[0]['margin_pct'] < 0 and v[0]['measured'] < v[0]['limit'],
                'not met: margin below 0', v)
    except (ValueError, KeyError, IndexError) as e:
        t.check(False, '--expect not met: JSON', e)
    r = t.run(*base[:-1], '--expect=lat=1us')
    t.eq(r.rc, 2, '--expect lat=1us: exit status 2')
    t.check('NOT met' in r.out, '--expect: the text says NOT met', r.out)


def test_compare(t, js):
    """The suite's results against the printed file's run."""
    r = t.run('compare', js, t.path('cloud-plain.json'))
    if t.ok(r, 'compare two cloud results'):
        for name in CLOUD_IOS:
            t.check("job '%s'" % name in r.out, 'compare lists %s' % name, r.out)


def test_bad_input(t, dev):
    before = digest(dev)
    for args, word in ((['nosuch', dev], 'nosuch'), (['cloud'], 'target'),
                       (['cloud', dev, '--expect=bw=3'], 'bw=3'),
                       (['cloud', dev, '--set=zz:bs=4k'], '--set=zz'),
                       (['cloud', dev, '--only=zz'], 'zz'),
                       (['cloud', dev, '--runtime=x'], '--runtime'),
                       (['cloud', dev, '--bs=4q'], 'bs'),
                       (['cloud', dev, '--rounds=26'], '--rounds')):
        r = t.run('suite', *args)
        what = 'suite %s' % ' '.join(args[1:] if args[0] == 'cloud' else args)
        t.eq(r.rc, 1, '%s: exit status 1' % what)
        t.check(len(r.err.splitlines()) == 1 and word in r.err and not r.out,
                '%s: one stderr line naming it, nothing on stdout' % what, r)
    t.eq(digest(dev), before, 'bad input: the device unchanged')


def test_refusal(t, dev):
    if not shutil.which('mkfs.ext4'):
        t.skip('no mkfs.ext4')
        return
    p = subprocess.run(['mkfs.ext4', '-q', '-F', dev], capture_output=True, text=True)
    if not t.eq(p.returncode, 0, 'mkfs.ext4', p.stderr):
        return
    before = digest(dev)
    for s in ('cloud', 'desktop', 'pts-iops'):
        r = t.run('suite', s, dev, '--size=1m', '--capacity=1m', '--runtime=0',
                  '--pause=0', '--no-calibrate')
        t.eq(r.rc, 1, '%s on ext4: refused' % s)
        t.check('filesystem signature (ext4)' in r.err and 'allow_data_loss' in r.err,
                '%s on ext4: the write job\'s refusal line' % s, r)
        t.eq(digest(dev), before, '%s on ext4: the device unchanged' % s)
    r = t.run('suite', 'cloud', dev, '--readonly', '--size=1m', '--runtime=0',
              '--no-calibrate')
    t.ok(r, 'cloud --readonly on ext4: the read tests run')
    t.eq(digest(dev), before, 'cloud --readonly: the device unchanged')
    r = t.run('suite', 'cloud', dev, '--only=randwrite-4k', '--size=64k',
              '--runtime=0', '--numjobs=1', '--no-calibrate', '--allow_data_loss=1')
    t.ok(r, 'cloud --allow_data_loss=1: the usual override')


def main():
    t = ibtest.Test()
    if not ibtest.loop_available():
        t.skip('no loop devices')
        t.finish()
    dev = t.loop_device(16 * MiB, sector_size=4096)
    t.dev = dev
    if dev:
        test_list_and_jobs(t, dev)
        js = test_cloud_counts(t, dev)
        if js:
            test_report(t)
            test_compare(t, js)
        test_desktop(t, dev)
        test_expect(t, dev)
        test_bad_input(t, dev)
        test_refusal(t, t.loop_device(16 * MiB, sector_size=4096))
    t.finish()


if __name__ == '__main__':
    main()
