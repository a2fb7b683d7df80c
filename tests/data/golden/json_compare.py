#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Compare iobench's JSON (argv[1]) with fio 3.33's JSON (argv[2]).

--shape: same keys (iobench may add "iobench version", a job's
"effective options", "random seed", "tool overhead", "iobench checks" and "iobench evidence",
and a top-level "environment"), same JSON types
(int vs float vs string vs object vs array), same key order.
--values: also the same numbers (relative 1e-4), except run-specific keys.
Exit 0 when they agree; prints the first differences otherwise."""
import json
import sys

SKIP_VALUES = {'timestamp', 'timestamp_ms', 'time', 'eta', 'elapsed',
               'fio version', 'iobench version'}
EXTRA_OK = {'iobench version', 'effective options', 'random seed',
            'tool overhead', 'iobench checks', 'iobench evidence',
            'environment'}


def kind(v):
    if isinstance(v, bool):
        return 'bool'
    if isinstance(v, int):
        return 'int'
    if isinstance(v, float):
        return 'float'
    return type(v).__name__


def cmp(ours, fio, path, values, errs):
    if kind(ours) != kind(fio):
        errs.append('%s: type %s != fio %s' % (path, kind(ours), kind(fio)))
        return
    if isinstance(fio, dict):
        if path.endswith('/bins') and not values:
            # different runs fill different buckets: keys are ns values
            bad = [k for k, v in ours.items() if not k.isdigit() or kind(v) != 'int']
            if bad:
                errs.append('%s: bad bins %s' % (path, bad[:5]))
            return
        ok = [k for k in ours if k not in EXTRA_OK]
        if ok != list(fio):
            errs.append('%s: keys %s != fio %s' % (path, ok, list(fio)))
        for k in fio:
            if k in ours:
                cmp(ours[k], fio[k], path + '/' + k, values and k not in SKIP_VALUES, errs)
    elif isinstance(fio, list):
        if len(ours) != len(fio):
            errs.append('%s: %d entries != fio %d' % (path, len(ours), len(fio)))
        for i, (a, b) in enumerate(zip(ours, fio)):
            cmp(a, b, '%s[%d]' % (path, i), values, errs)
    elif values and isinstance(fio, (int, float)):
        if abs(ours - fio) > max(1e-4 * abs(fio), 1e-3):
            errs.append('%s: %r != fio %r' % (path, ours, fio))
    elif values and ours != fio:
        errs.append('%s: %r != fio %r' % (path, ours, fio))


def main():
    mode = sys.argv[1]
    ours = json.load(open(sys.argv[2]))
    fio = json.load(open(sys.argv[3]))
    errs = []
    cmp(ours, fio, '', mode == '--values', errs)
    if 'iobench version' not in ours:
        errs.append('no "iobench version"')
    for e in errs[:20]:
        print(e)
    sys.exit(1 if errs else 0)


if __name__ == '__main__':
    main()
