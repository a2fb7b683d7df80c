#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Turn a real fio run (3.33 or 3.42; --output-format=normal,json+[,terse]
captured in one file) into a fixture for tests/unit/test_report.c: the
numbers fio measured (NAME.fix), the normal-format block fio printed for
them (NAME.txt), its terse line (NAME.terse) and, with --json, its json+
document (NAME.json). The test feeds the numbers to iobench's report and
expects fio's text. Usage: fio2fixture.py RUN NAME NR_JOBS [--json]"""
import calendar
import json
import re
import sys
import time


def split(text):
    start = text.index('\n{\n') + 1
    end = text.index('\n}\n', start) + 2
    js = json.loads(text[start:end])
    normal = text[end:]
    m = re.search(r'^\S+: \(groupid=', normal, re.M)
    return js, normal[m.start():]


def count(p, total):
    """The count fio printed as p%. A share under fio's floor (0.01% for
    latencies, 0.1% for depths) is printed as the floor: 1 I/O then."""
    c = round(p * total / 100.0)
    if c and p in (0.01, 0.1) and abs(c * 100.0 / total - p) > 5e-7:
        return 1
    return c


def counts(pct, total):
    return [count(p, total) for p in pct]


def empty_lat():
    return {'N': 0, 'min': 0, 'max': 0, 'mean': 0.0, 'stddev': 0.0}


def empty_dir():
    """A direction fio's JSON leaves out (unified_rw_reporting=mixed)."""
    o = {k: 0 for k in ('io_bytes', 'runtime', 'total_ios', 'short_ios', 'drop_ios',
                        'bw_samples', 'bw_min', 'bw_max', 'bw_mean', 'bw_dev',
                        'iops_samples', 'iops_min', 'iops_max', 'iops_mean',
                        'iops_stddev')}
    for k in ('slat_ns', 'clat_ns', 'lat_ns'):
        o[k] = empty_lat()
    return o


def main():
    src, name, nr_jobs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    js, normal = split(open(src).read())
    job = js['jobs'][0]
    out = []
    head = normal.splitlines()[0]
    m = re.match(r'(\S+): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+): pid=(\d+): (.*)$', head)
    start = calendar.timegm(time.strptime(m.group(6), '%a %b %d %H:%M:%S %Y'))
    iss = re.search(r'issued rwts: total=(\d+),(\d+),(\d+),(\d+)', normal)
    issued = [int(iss.group(i)) for i in range(1, 5)]
    opts = job['job options']
    out.append('job %s %s %s %d %d' % (m.group(1), m.group(2), job['latency_depth'],
                                      nr_jobs, 1 if nr_jobs > 1 else 0))
    out.append('pid %s %d' % (m.group(5), start))
    for k, v in opts.items():
        out.append('opt %s %s' % (k, v))
    for d, key in enumerate(['read', 'write', 'trim']):
        o = job.get(key) or empty_dir()
        if 'read' not in job and d == 0:  # unified_rw_reporting=mixed
            o = job['mixed']
        out.append('dir %d %d %d %d %d %d %d' % (d, o['io_bytes'], o['runtime'], o['total_ios'],
                                                 issued[d], o['short_ios'], o['drop_ios']))
        for k, lk in enumerate(['slat_ns', 'clat_ns', 'lat_ns']):
            lo = o[lk]
            out.append('lat %d %d %d %d %d %.6f %.6f' % (d, k, lo['N'], lo['min'], lo['max'],
                                                        lo['mean'], lo['stddev']))
            for v, c in lo.get('bins', {}).items():
                out.append('bin %d %d %s %d' % (d, k, v, c))
        out.append('samp %d 0 %d %d %d %.6f %.6f' % (d, o['bw_samples'], o['bw_min'], o['bw_max'],
                                                     o['bw_mean'], o['bw_dev']))
        out.append('samp %d 1 %d %d %d %.6f %.6f' % (d, o['iops_samples'], o['iops_min'],
                                                     o['iops_max'], o['iops_mean'],
                                                     o['iops_stddev']))
    s = job.get('sync') or {'total_ios': 0, 'lat_ns': empty_lat()}
    lo = s['lat_ns']
    out.append('sync %d %d %d %d %.6f %.6f' % (s['total_ios'], lo['N'], lo['min'], lo['max'],
                                              lo['mean'], lo['stddev']))
    for v, c in lo.get('bins', {}).items():
        out.append('syncbin %s %d' % (v, c))
    total = sum(issued[:3])
    for key, tag in (('latency_ns', 'latn'), ('latency_us', 'latu'), ('latency_ms', 'latm'),
                     ('iodepth_level', 'depth')):
        out.append(tag + ' ' + ' '.join(str(c) for c in counts(job[key].values(), total)))
    for key, tag in (('iodepth_submit', 'submit'), ('iodepth_complete', 'complete')):
        out.append(tag + ' ' + ' '.join(str(c) for c in counts(job[key].values(), 1000000)))
    rt = job['job_runtime']
    out.append('cpu %d %d %d %d %d %d' % (round(job['usr_cpu'] * rt * 10),
                                          round(job['sys_cpu'] * rt * 10), job['ctx'],
                                          job['majf'], job['minf'], rt))
    for du in js.get('disk_util', []):
        line = 'disk %s %d %d %d %d %d %d %d %.6f' % (
            du['name'], du['read_ios'], du['write_ios'], du['read_merges'],
            du['write_merges'], du['read_ticks'], du['write_ticks'], du['in_queue'],
            du['util'])
        if 'read_sectors' in du:  # fio 3.42
            line += ' %d %d' % (du['read_sectors'], du['write_sectors'])
        out.append(line)
    terse = re.search(r'^([2-5]);.*$', open(src).read(), re.M)
    if terse:
        out.append('terse %s' % terse.group(1))
        open(name + '.terse', 'w').write(terse.group(0) + '\n')
    open(name + '.fix', 'w').write('\n'.join(out) + '\n')
    open(name + '.txt', 'w').write('\n' + normal)
    if '--json' in sys.argv[4:]:
        text = open(src).read()
        start = text.index('\n{\n') + 1
        open(name + '.json', 'w').write(text[start:text.index('\n}\n', start) + 3])


if __name__ == '__main__':
    main()
