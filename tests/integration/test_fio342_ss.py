#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio 3.42's steady-state additions: the lat and lat_slope criteria and
steadystate_check_interval (ss_interval), against the steadystate objects
and the normal output's line of real fio 3.42 runs recorded in
tests/data/fio342/steadystate_lat.json (fio 3.42 is not installed in CI).
The values are the run's own; the facts compared are the object's keys,
their order and types, the window's length (ss_dur / ss_interval samples),
the limit's text, and the means and criterion computed from the arrays."""
import json
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342', 'steadystate_lat.json')
t = ibtest.Test(sys.argv[:2])
REPRINT = sys.argv[2] if len(sys.argv) > 2 else None
COMMON = ['--name=ss', '--ioengine=null', '--size=1g', '--time_based',
          '--rate_iops=1000']


def shape(v):
    """Keys in order and value types, recursively (arrays: their type)."""
    if isinstance(v, dict):
        return [(k, shape(x)) for k, x in v.items()]
    return type(v).__name__


def run(rec):
    """The recorded job through iobench with JSON and normal output: the
    job's JSON and the normal output's steadystate line."""
    r = t.run(*COMMON, *rec['args'], '--output-format=json,normal')
    if not t.ok(r, ' '.join(rec['args'])):
        return None, None
    i = r.out.index('{')
    doc, end = json.JSONDecoder().raw_decode(r.out[i:])
    lines = [x for x in r.out[i + end:].splitlines()
             if x.startswith('  steadystate  :')]
    line = lines[0] if lines else ''
    read_back(rec['args'][0], doc, line)
    return doc['jobs'][0], line


def read_back(name, doc, line):
    """The results reader (tests/tools/reprint) gives the same object and
    the same line again: lat_ns and the window's length from its arrays."""
    if not REPRINT:
        return
    path = t.path('doc.json')
    with open(path, 'w') as f:
        json.dump(doc, f)
    for fmt in ('json', 'normal'):
        p = subprocess.run([REPRINT, fmt, path], capture_output=True, text=True)
        if not t.eq(p.returncode, 0, '%s: read back as %s' % (name, fmt), p.stderr):
            continue
        if fmt == 'json':
            t.eq(json.loads(p.stdout)['jobs'][0].get('steadystate'),
                 doc['jobs'][0].get('steadystate'), '%s: read back, the same object' % name)
        else:
            t.check(line and line in p.stdout.splitlines(),
                    '%s: read back, the same line' % name, line)


def check_window(name, rec, job):
    """The facts of one run against fio 3.42's object for the same job."""
    want, got = rec['steadystate'], job.get('steadystate', {})
    t.eq(shape(got), shape(want), '%s: keys, order and types as fio 3.42' % name)
    t.eq((got.get('ss'), got.get('duration')), (want['ss'], want['duration']),
         '%s: the limit\'s text and the duration' % name)
    data = got.get('data', {})
    lat, iops = data.get('lat_ns', []), data.get('iops', [])
    n = len(want['data']['lat_ns'])
    t.eq((len(lat), len(iops), len(data.get('bw', []))), (n, n, n),
         '%s: %d samples in the window (ss_dur / ss_interval)' % (name, n))
    if len(lat) != n or not n:
        return got
    t.eq(data['lat_mean'], sum(lat) // n, '%s: lat_mean, the integer mean' % name)
    clat = job['read']['clat_ns']
    t.check(all(clat['min'] <= v <= clat['max'] for v in lat),
            '%s: each sample within the run\'s clat min..max' % name,
            (lat, clat['min'], clat['max']))
    return got


def lat_slope(rec):
    """ss=lat_slope:50us ss_dur=4 ss_interval=2: two samples 2 s apart; the
    slope is per sample (lat_ns[1] - lat_ns[0]), the limit 50 (us read
    as fio reads it) compared with it in ns."""
    job, line = run(rec)
    if job is None:
        return
    got = check_window('lat_slope', rec, job)
    lat = got.get('data', {}).get('lat_ns', [])
    if len(lat) != 2:
        return
    slope = float(lat[1] - lat[0])
    t.eq((got['slope'], got['max_deviation'], got['criterion']),
         (slope, 0.0, '%f' % slope), 'lat_slope: slope per sample')
    t.eq(got['attained'], int(abs(slope) < 50),
         'lat_slope: attained iff |slope| < 50 ns')
    if not got['attained']:
        t.eq(job['job_runtime'] // 1000, rec['job_runtime'] // 1000,
             'lat_slope: not attained, the whole runtime as fio 3.42')
    def fields(x):
        return re.sub(r'-?\d+(\.\d+)?', 'N', x.replace('attained=yes', 'attained=no'))
    t.eq(fields(line), fields(rec['normal_line']),
         'lat_slope: the normal line\'s fields as fio 3.42\'s', line)
    t.check(('lat=%dnsec' % got['data']['lat_mean']) in line and
            ('lat slope=%.3f' % slope) in line,
            'lat_slope: the line shows lat_mean in nsec and the slope', line)


def lat_pct(rec):
    """ss=lat:0.001% ss_dur=2: the max deviation from the mean in % (fio
    prints the criterion at float precision)."""
    job, _ = run(rec)
    if job is None:
        return
    got = check_window('lat', rec, job)
    lat = got.get('data', {}).get('lat_ns', [])
    if len(lat) != 2:
        return
    dev = abs(lat[1] - lat[0]) / 2.0
    t.eq((got['max_deviation'], got['slope']), (dev, 0.0),
         'lat: max_deviation from the samples')
    crit = struct.unpack('f', struct.pack('f', 100.0 * dev / (sum(lat) / 2.0)))[0]
    t.eq(got['criterion'], '%f%%' % crit,
         'lat: criterion in % of the mean')


def bad_values():
    """One line naming the option, exit 1 (fio 3.42 refuses these too;
    1.5 s it accepts and samples each whole second, iobench refuses)."""
    cases = [
        (['--ss=lat:abc'], 'iobench: steadystate=lat:abc: '),
        (['--ss_interval=500ms'], 'iobench: steadystate_check_interval: '),
        (['--ss_interval=1.5'], 'iobench: steadystate_check_interval: '),
        (['--ss_interval=2', '--ss_dur=3'], 'iobench: steadystate_duration: '),
        (['--ss_interval=4', '--ss_dur=2'], 'iobench: steadystate_duration: '),
    ]
    for opts, head in cases:
        r = t.run('--parse-only', '--name=a', '--filename=x', '--ss_dur=2',
                  *opts)
        t.check(r.rc == 1 and r.out == '' and r.err.count('\n') == 1 and
                r.err.startswith(head), '%s: one line naming the option'
                % ' '.join(opts), r)
    for opts in (['--ss=lat:5%', '--ss_dur=4', '--ss_interval=2'],
                 ['--ss=lat_slope:2ms', '--steadystate_check_interval=1m',
                  '--ss_dur=10m']):
        r = t.run('--parse-only', '--name=a', '--filename=x', *opts)
        t.eq((r.rc, r.out, r.err), (0, '', ''), '--parse-only ' + ' '.join(opts))


def main():
    with open(DATA) as f:
        rec = json.load(f)
    bad_values()
    lat_slope(rec['lat_slope'])
    lat_pct(rec['lat'])
    t.finish()


if __name__ == '__main__':
    main()
