#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Differential sweep against fio: random size-based jobs, each run by fio
and by iobench on fresh tmpfs targets (or a loop device), comparing what
they issued. Not a test (fio's quirks are many, see doc/fio-compat.md): a
tool that finds where iobench issues other I/O than fio, whose cases then
become fixed tests (tests/integration/test_fio_parity.py and others).

Usage: tools/fio_diff.py [--space size|sync|zones|verify|files] [--seed N] [-n N]
                         [--fio PATH] [--iobench PATH] [--dev /dev/loopN]

  size    rw types, block sizes and ranges and splits,
          size/offset/io_size/number_ios/loops,
          numjobs, files and their service, holes, distributions, syncs:
          issued bytes and I/Os per job (reads and writes summed for mixes)
  sync    trims (with --dev), strided zones, verify, fsync/fdatasync,
          percentages, rw=randTYPE:N, async engines: the same, plus syncs
  zones   zonemode=strided jobs: the whole write_iolog sequence
  verify  write jobs with verify options: read and write counts
  files   several files: their service, sizes, openfiles, append,
          offsets: the whole write_iolog sequence

Each mismatch prints the job's options and both results; the last line is
"done N bad M". The job options are this tool's own draws, fio's facts only.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys


def pick_size(r):
    o = {'rw': r.choice(['read', 'write', 'randread', 'randwrite', 'rw', 'randrw'])}
    o['bs'] = r.choice(['512', '4k', '8k', '16k', '3k', '64k'])
    o['size'] = r.choice(['64k', '256k', '1m', '100k', '1000k'])
    for key, p, vals in (('offset', .3, ['4k', '64k', '8k']),
                         ('io_size', .2, ['128k', '512k', '2m']),
                         ('number_ios', .15, ['7', '33', '100']),
                         ('loops', .3, ['2', '3']),
                         ('numjobs', .3, ['2', '3']),
                         ('norandommap', .2, ['1']),
                         ('nrfiles', .2, ['2', '3']),
                         ('filesize', .15, ['128k', '512k']),
                         ('offset_increment', .1, ['64k', '128k']),
                         ('fsync', .1, ['1', '3'])):
        if r.random() < p:
            o[key] = r.choice(vals)
    if o['rw'] in ('rw', 'randrw'):
        o['rwmixread'] = r.choice(['0', '25', '50', '75', '100'])
    if 'nrfiles' in o and r.random() < .5:
        o['file_service_type'] = r.choice(['roundrobin', 'sequential', 'random'])
    if o['rw'] in ('read', 'write') and r.random() < .2:
        o['rw'] += ':' + r.choice(['4k', '8k', '12k'])
    if o['rw'].startswith('rand') and r.random() < .15:
        o['random_distribution'] = r.choice(['zipf:1.2', 'zoned:50/10:50/90'])
    if 'io_size' in o:
        o.pop('loops', None)
    if r.random() < .3:
        o.pop('bs')
        if r.random() < .5:
            o['bsrange'] = r.choice(['4k-16k', '4k-64k', '2k-10k', '512-8k'])
        else:
            o['bssplit'] = r.choice(['4k/50:8k/50', '4k/70:64k/30',
                                     '4k/10:8k/20:16k/30:32k/40', '16k/30:4k/70',
                                     '4k/50:8k/20'])
    o['ioengine'] = r.choice(['psync', 'sync', 'pvsync', 'vsync'])
    return o, False


def pick_sync(r, dev):
    on_dev = bool(dev) and r.random() < .35
    rws = ['read', 'write', 'randread', 'randwrite', 'rw', 'randrw']
    if on_dev:
        rws += ['trim', 'randtrim', 'trimwrite', 'randtrimwrite'] * 2
    o = {'rw': r.choice(rws), 'bs': r.choice(['4k', '8k', '16k', '64k'])}
    o['size'] = r.choice(['64k', '256k', '1m', '100k'] + (['50%', '25%'] if on_dev else []))
    if r.random() < .25:
        o['offset'] = r.choice(['4k', '64k'])
    if r.random() < .25:
        o['loops'] = r.choice(['2', '3'])
    if r.random() < .25:
        o['numjobs'] = r.choice(['2', '3'])
    if o['rw'] in ('rw', 'randrw') and r.random() < .7:
        o['rwmixread'] = r.choice(['25', '50', '75'])
    if o['rw'].startswith('rand') and r.random() < .15:
        o['rw'] += ':' + r.choice(['2', '4', '8'])
    if r.random() < .15:
        o.update(zonemode='strided', zonesize=r.choice(['16k', '32k', '64k']))
        if r.random() < .5:
            o['zoneskip'] = r.choice(['16k', '64k'])
    if o['rw'] in ('write', 'randwrite') and r.random() < .35:
        o['verify'] = r.choice(['crc32c', 'md5', 'xxhash'])
        o['verify_state_save'] = '0'
    if 'write' in o['rw'] and r.random() < .2:
        o['fsync'] = r.choice(['1', '3', '7'])
    e = r.choice(['psync', 'libaio', 'io_uring', 'pvsync2'])
    o['ioengine'] = e
    if e in ('libaio', 'io_uring'):
        o['iodepth'] = r.choice(['1', '4', '16'])
    return o, on_dev


def pick_zones(r):
    o = {'zonemode': 'strided',
         'rw': r.choice(['read', 'write', 'randread', 'randwrite']),
         'bs': r.choice(['4k', '8k', '16k']),
         'size': r.choice(['64k', '128k', '256k', '100k']),
         'zonesize': r.choice(['8k', '16k', '24k', '32k', '64k'])}
    for key, p, vals in (('zoneskip', .5, ['4k', '16k', '32k', '64k']),
                         ('zonerange', .5, ['16k', '32k', '48k', '64k']),
                         ('offset', .25, ['4k', '16k']),
                         ('filesize', .25, ['256k', '512k']),
                         ('loops', .2, ['2', '3'])):
        if r.random() < p:
            o[key] = r.choice(vals)
    o['ioengine'] = 'psync'
    return o, False


def pick_verify(r):
    o = {'rw': r.choice(['write', 'randwrite']), 'bs': r.choice(['4k', '8k', '16k']),
         'size': r.choice(['64k', '256k', '100k']),
         'verify': r.choice(['crc32c', 'md5', 'xxhash', 'sha256']),
         'verify_state_save': '0'}
    for key, p, vals in (('verify_interval', .3, ['512', '1k']),
                         ('verify_backlog', .3, ['1', '4', '16']),
                         ('do_verify', .2, ['0']),
                         ('loops', .25, ['2', '3']),
                         ('fsync', .2, ['1', '3'])):
        if r.random() < p:
            o[key] = r.choice(vals)
    return o, False


def pick_files(r):
    o = {'rw': r.choice(['read', 'write', 'randread', 'randwrite', 'rw', 'randrw']),
         'bs': r.choice(['4k', '8k', '16k']),
         'nrfiles': r.choice(['2', '3', '4']),
         'size': r.choice(['64k', '128k', '256k', '96k'])}
    o['file_service_type'] = r.choice(['roundrobin', 'sequential', 'random',
                                       'roundrobin:3', 'random:2', 'sequential'])
    for key, p, vals in (('filesize', .3, ['32k', '64k', '16k-64k', '32k-128k']),
                         ('openfiles', .2, ['1', '2']),
                         ('file_append', .15, ['1']),
                         ('offset', .2, ['4k', '16k']),
                         ('loops', .2, ['2']),
                         ('io_size', .15, ['96k', '512k']),
                         ('norandommap', .15, ['1'])):
        if r.random() < p:
            o[key] = r.choice(vals)
    if o['rw'] in ('rw', 'randrw'):
        o['rwmixread'] = r.choice(['25', '50', '75'])
    if 'io_size' in o:
        o.pop('loops', None)
    o['ioengine'] = 'psync'
    return o, False


def job_counts(out, mix):
    """Per job (sorted): issued bytes and I/Os per direction (summed for a
    mix, whose direction draws differ), and the syncs."""
    rep = json.JSONDecoder().raw_decode(out[out.index('{'):])[0]
    res = []
    for j in rep['jobs']:
        dirs = [(j[d]['io_bytes'], j[d]['total_ios']) for d in ('read', 'write', 'trim')]
        if mix:
            dirs = [(sum(x[0] for x in dirs), sum(x[1] for x in dirs))]
        res.append((tuple(dirs), j['error']))
    return sorted(res)


def iolog_seq(path):
    seq = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[-3] in ('read', 'write', 'trim'):
                seq.append((os.path.basename(p[-4]), p[-3], int(p[-2]), int(p[-1])))
    return seq


def files_key(opts, seq):
    """What the files space compares: the whole sequence where fio's
    draws are iobench's (offsets); with random file service the bytes per
    direction, with a mix's direction draws the bytes, with random file
    sizes nothing but success (streams of iobench's own)."""
    mix = opts['rw'] in ('rw', 'randrw')
    service = opts['file_service_type'].startswith('random')
    sizes = '-' in opts.get('filesize', '')
    rand = opts['rw'].startswith('rand')
    passes = 'loops' in opts or 'io_size' in opts
    if rand and 'norandommap' in opts and \
            opts['file_service_type'] == 'sequential':
        return sum(n for *_, n in seq)  # fio never leaves the first file
    if rand and passes and not (mix or service or sizes):
        return sorted(seq)  # fio restarts its stream on every pass
    if not (mix or service or sizes):
        return seq
    if sizes:
        return None
    if mix:     # iobench's own direction draws (doc/fio-compat.md)
        return sum(n for *_, n in seq)
    per = {}
    for f, d, _, n in seq:
        per[d] = per.get(d, 0) + n
    return sorted(per.items())


def fio_like(fio):
    """iobench's --fio-version for this fio's random offsets (fio 3.35
    changed their seed): 3.33 for fio 3.34 and older."""
    try:
        out = subprocess.run([fio, '--version'], capture_output=True,
                             text=True, timeout=30).stdout
    except OSError:
        return []
    m = re.match(r'fio-3\.(\d+)', out.strip())
    return ['--fio-version=3.33'] if m and int(m.group(1)) <= 34 else []


def run(prog, opts, work, dev, space, extra=()):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    target = ['--filename=' + dev] if dev else ['--directory=' + work]
    log = os.path.join(work, 'iolog')
    argv = [prog, '--name=j', '--output-format=json'] + target + \
        ['--%s=%s' % kv for kv in opts.items()] + list(extra)
    if space in ('zones', 'files'):
        argv.append('--write_iolog=' + log)
    p = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=work)
    if p.returncode:
        return p.returncode, (p.stderr.strip().splitlines() or [''])[-1]
    if space == 'zones':
        return 0, iolog_seq(log)
    if space == 'files':
        return 0, files_key(opts, iolog_seq(log))
    mix = opts['rw'].split(':')[0] in ('rw', 'randrw', 'trimwrite', 'randtrimwrite')
    varies = 'bsrange' in opts or 'bssplit' in opts
    if varies and (mix or 'loops' in opts or 'io_size' in opts):
        return 0, None  # fio restarts its streams each pass; mixes' draws
    return 0, job_counts(p.stdout, mix)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--space', choices=('size', 'sync', 'zones', 'verify', 'files'), default='size')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('-n', type=int, default=100)
    ap.add_argument('--fio', default='fio')
    ap.add_argument('--iobench', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'src', 'iobench'))
    ap.add_argument('--dev', help='a loop device for trims (sync space; it is written)')
    a = ap.parse_args()
    r = random.Random(a.seed)
    work = '/dev/shm/fio-diff-%d' % os.getpid()
    like = fio_like(a.fio)
    bad = 0
    for _ in range(a.n):
        if a.space == 'sync':
            opts, on_dev = pick_sync(r, a.dev)
        else:
            opts, on_dev = {'size': pick_size, 'zones': pick_zones,
                            'verify': pick_verify, 'files': pick_files}[a.space](r)
        dev = a.dev if on_dev else None
        got = [run(a.fio, opts, work, dev, a.space),
               run(a.iobench, opts, work, dev, a.space, like)]
        if got[0] != got[1]:
            bad += 1
            print('MISMATCH', ('on %s ' % dev) if dev else '',
                  ' '.join('--%s=%s' % kv for kv in opts.items()))
            print('   fio    ', got[0])
            print('   iobench', got[1], flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print('done', a.n, 'bad', bad)
    return 0


if __name__ == '__main__':
    sys.exit(main())
