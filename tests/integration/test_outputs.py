#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One run, two destinations: --json-output=FILE writes the JSON report to
FILE (json+ with --output-format=json+) while the human report stays on
stdout; the JSON file is one valid document with the exact I/O count, and
nothing else (no message) is ever inside it. The charts' paths (--plot,
--report, on a run and on iobench curve) are checked before anything runs:
one line naming the option, status 1, no target made, an existing chart
file left as it was.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402


def load(t, path, what):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        t.check(False, '%s: %s is one valid JSON document' % (what, path), e)
        return None


def main():
    t = ibtest.Test()
    target = t.path('out-target')
    js = t.path('out.json')
    r = t.run('--name=o', '--filename=' + target, '--size=256k', '--bs=4k',
              '--rw=randread', '--json-output=' + js)
    if t.ok(r, '--json-output alone'):
        t.check('Run status group 0' in r.out, 'human report on stdout', r)
        t.check('Laying out IO file' in r.out, 'layout message with the human report', r)
        d = load(t, js, '--json-output alone')
        if d:
            t.eq(d['jobs'][0]['read']['total_ios'], 64, 'JSON file: 256k/4k reads')
            t.check('bins' not in d['jobs'][0]['read']['clat_ns'], 'plain JSON: no bins')
    os.unlink(js)
    r = t.run('--name=o', '--filename=' + target, '--size=256k', '--bs=4k',
              '--rw=randread', '--output-format=normal,json+', '--json-output=' + js)
    if t.ok(r, 'normal,json+ with --json-output'):
        t.check(not r.out.lstrip().startswith('{'), 'stdout carries no JSON', r)
        d = load(t, js, 'json+ file')
        if d:
            t.check('bins' in d['jobs'][0]['read']['clat_ns'], 'json+ file has bins')
    charts_checked_first(t)
    t.finish()


def charts_checked_first(t):
    """An unwritable --plot=/--report= failed after the whole run."""
    target = t.path('chart-target')
    job = ['--name=c', '--filename=' + target, '--size=256k', '--rw=read']
    bad = t.path('no-such-dir/chart.html')
    for opt in ('--plot', '--report'):
        for cmd in ([], ['curve']):
            args = cmd + job + (['--runtime=1'] if cmd else []) + \
                [opt + '=' + bad]
            r = t.run(*args)
            what = ' '.join(cmd + [opt])
            t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s: cannot write %s: '
                 'No such file or directory\n' % (opt, bad)),
                 '%s to a missing directory: refused first' % what)
            t.eq(os.path.exists(target), False, '%s: no target made' % what)
    # a writable path: the probe leaves nothing behind it, the run writes it
    keep = t.path('kept.svg')
    with open(keep, 'w') as f:
        f.write('old')
    r = t.run('--name=w', '--filename=' + target, '--size=256k', '--rw=write',
              '--readonly', '--plot=' + keep)
    t.eq(r.rc, 1, 'a write job under --readonly, --plot to an existing file')
    with open(keep) as f:
        t.eq(f.read(), 'old', 'refused run: the existing chart file untouched')
    fresh = t.path('fresh.svg')
    r = t.run(*job, '--plot=' + fresh)
    if t.ok(r, '--plot to a new file'):
        with open(fresh) as f:
            t.check(f.read().startswith('<svg'), 'the chart written after the run')


if __name__ == '__main__':
    main()
