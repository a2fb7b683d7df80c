#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""--fio-version=3.33|3.42 (and fio-version= in a job file's [global]):
which fio's report format iobench prints; 3.42's by default. The 3.33
format is checked byte for byte by the golden tests; here: the setting
itself, its precedence and its errors, and each line of the normal
report that differs between the two on real runs (tmpfs file, loop
device)."""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

t = ibtest.Test()
NULL = ('--name=n', '--ioengine=null', '--size=1m')


def json_in(out):
    """The JSON document of a run printing json and terse or normal."""
    start = out.index('{\n')
    return json.loads(out[start:out.index('\n}\n', start) + 2])


def json_of(r):
    return json_in(r.out)


def versions(r):
    """(JSON "fio version", terse field 2) of a json,terse run."""
    doc = json_of(r)
    terse = [ln for ln in r.out.splitlines() if ln.startswith('3;')]
    return doc['fio version'], terse[0].split(';')[1] if terse else None


def setting():
    """Default 3.42, --fio-version, [global]'s fio-version=, the command
    line over the job file."""
    fmt = '--output-format=json,terse'
    r = t.run(*NULL, fmt)
    if t.ok(r, 'default'):
        t.eq(versions(r), ('fio-3.42', 'fio-3.42'), 'default: fio 3.42\'s format')
    for v in ('3.33', 'fio-3.33'):
        r = t.run('--fio-version=' + v, *NULL, fmt)
        if t.ok(r, '--fio-version=' + v):
            t.eq(versions(r), ('fio-3.33', 'fio-3.33'), '--fio-version=' + v)
    job = t.path('v.fio')
    for key in ('fio-version', 'fio_version'):
        with open(job, 'w') as f:
            f.write('[global]\n%s=3.33\nioengine=null\nsize=1m\n[n]\n' % key)
        r = t.run(job, fmt)
        if t.ok(r, '[global] ' + key):
            t.eq(versions(r), ('fio-3.33', 'fio-3.33'), '[global] %s=3.33' % key)
            doc = json_of(r)
            t.check(key not in doc.get('global options', {}),
                    '%s is no job option in the report' % key, doc.get('global options'))
    r = t.run('--fio-version=3.42', job, fmt)
    if t.ok(r, 'command line and job file'):
        t.eq(versions(r), ('fio-3.42', 'fio-3.42'), 'the command line wins')


def both(*args):
    """The run in 3.42's format (default) and 3.33's, or None on failure."""
    out = []
    for v in ((), ('--fio-version=3.33',)):
        r = t.run(*(v + args))
        if not t.ok(r, ' '.join(v + args[:4])):
            return None
        out.append(r.out)
    return out


def text_lines():
    """The sync heading, the zone resets suffix, the latency line and a
    bare option in the JSON, as each fio prints them."""
    f = t.shm_file('w', size=1 << 20)
    runs = both('--name=w', '--ioengine=psync', '--filename=' + f, '--size=1m',
                '--rw=write', '--fsync=64')
    if runs:
        new, old = runs
        t.eq(['fsync/fdatasync/sync_file_range/syncfs:' in new, 'zone resets' in new],
             [True, False], '3.42: syncfs in the sync heading, no zone resets', new)
        t.check('\n  fsync/fdatasync/sync_file_range:\n' in old and
                re.search(r'^  write: .*msec\); 0 zone resets$', old, re.M),
                '3.33: its sync heading, "; 0 zone resets"', old)
        t.check('latency   : target=0.00ns, window=0.00ns, percentile=100.00%, depth=1\n'
                in new and 'latency   : target=0, window=0, percentile=100.00%, depth=1\n'
                in old, 'no latency target: 0.00ns (3.42), 0 (3.33)', runs)
    runs = both('--name=n', '--ioengine=null', '--size=1m', '--latency_target=1500us',
                '--latency_window=2s', '--latency_percentile=50')
    if runs:
        t.eq([re.search(r'latency   : (.*), percentile', o).group(1) for o in runs],
             ['target=1500.00us, window=2.00s', 'target=1500000, window=2000000'],
             'latency_target=1500us, latency_window=2s')
    runs = both(*NULL, '--time_based', '--runtime=50ms', '--output-format=json')
    if runs:
        opts = [json.loads(o)['jobs'][0]['job options'] for o in runs]
        t.eq([o.get('time_based') for o in opts], ['', None],
             'a bare option in JSON: "" (3.42), left out (3.33)')
    job = t.path('bare.fio')
    with open(job, 'w') as f:
        f.write('[global]\nioengine=null\nsize=1m\ntime_based\nruntime=50ms\n[n]\nthread\n')
    runs = both(job, '--output-format=json')
    if runs:
        docs = [json.loads(o) for o in runs]
        t.eq([(d['global options'].get('time_based'), d['jobs'][0]['job options'].get('thread'))
              for d in docs], [('', ''), (None, None)],
             'bare options of a job file in JSON: "" (3.42), left out (3.33)')


def disk_line():
    """The disk line's sectors= (3.42) equals the same run's JSON sectors."""
    dev = t.loop_device(4 << 20)
    if dev is None:
        t.skip('no loop devices: the disk line')
        return
    name = os.path.basename(dev)
    runs = both('--name=d', '--ioengine=psync', '--filename=' + dev, '--size=1m',
                '--direct=1', '--rw=write', '--output-format=json,normal')
    if not runs:
        return
    for out, v342 in zip(runs, (True, False)):
        doc = json_in(out)
        du = [d for d in doc.get('disk_util', []) if d['name'] == name]
        line = re.search(r'^  %s: ios=(\d+)/(\d+), (sectors=(\d+)/(\d+), )?merge=' % name,
                         out, re.M)
        if not (t.check(du and line, '%s: disk line and disk_util' % name, out)):
            continue
        if v342:
            t.eq([int(line.group(i)) for i in (1, 2, 4, 5)],
                 [du[0][k] for k in ('read_ios', 'write_ios', 'read_sectors',
                                     'write_sectors')], '3.42: ios= and sectors= as in JSON')
            t.check(du[0]['write_sectors'] >= 2048, '3.42: the 1 MiB written, in sectors',
                    du[0])
        else:
            t.eq((line.group(3), 'read_sectors' in du[0]), (None, False),
                 '3.33: no sectors in the line or the JSON')


def errors():
    """A wrong value or a job section's fio-version=: one line, exit 1."""
    r = t.run('--fio-version=3.40', *NULL)
    t.eq((r.rc, r.out, r.err), (1, '', "iobench: --fio-version: invalid value '3.40' "
         "(valid: 3.33, 3.42)\n"), '--fio-version=3.40: one line')
    job = t.path('bad.fio')
    with open(job, 'w') as f:
        f.write('[n]\nioengine=null\nsize=1m\nfio-version=3.33\n')
    r = t.run(job)
    t.check(r.rc == 1 and r.out == '' and len(r.err.splitlines()) == 1 and
            'fio-version: only in [global]' in r.err,
            'fio-version= in a job section: one line', r.err)
    r = t.run('--parse-only', '--fio-version=3.33', *NULL)
    t.eq((r.rc, r.err), (0, ''), '--parse-only accepts --fio-version=3.33')


def main():
    setting()
    text_lines()
    disk_line()
    errors()
    t.finish()


if __name__ == '__main__':
    main()
