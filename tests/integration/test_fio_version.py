#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""--fio-version=3.33|3.42 (and fio-version= in a job file's [global]):
which fio's report format iobench prints; 3.42's by default. The 3.33
format is checked byte for byte by the golden tests; here: the setting
itself, its precedence and its errors."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

t = ibtest.Test()
NULL = ('--name=n', '--ioengine=null', '--size=1m')


def json_of(r):
    """The JSON document of a run printing json and terse."""
    start = r.out.index('{\n')
    return json.loads(r.out[start:r.out.rindex('\n}') + 2])


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
    errors()
    t.finish()


if __name__ == '__main__':
    main()
