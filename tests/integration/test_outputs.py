#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One run, two destinations: --json-output=FILE writes the JSON report to
FILE (json+ with --output-format=json+) while the human report stays on
stdout; the JSON file is one valid document with the exact I/O count, and
nothing else (no message) is ever inside it.
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
    t.finish()


if __name__ == '__main__':
    main()
