#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Random offsets and block sizes as fio 3.42 draws them, by default (the
run's --fio-version, 3.42): the I/O sequences fio 3.42 issued, recorded in
tests/data/fio342/seeds.txt (fio 3.42 is not installed in CI), issued again
I/O for I/O; and with --fio-version=3.33 the default case's sequence is
another (fio 3.33 seeded randrepeat's offsets otherwise)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342', 'seeds.txt')
CASES = {
    'default': ['--rw=randread'],
    'randseed': ['--rw=randread', '--randseed=99'],
    'bsrange': ['--rw=randwrite', '--bsrange=4k-64k'],
    'bssplit_nomap': ['--rw=randread', '--bssplit=4k/10:8k/20:16k/30:32k/40',
                      '--norandommap'],
}


def recorded():
    with open(DATA) as f:
        return {ln.split()[0]: ln.split()[1:] for ln in f.read().splitlines()
                if ln and not ln.startswith('#')}


def sequence(t, opts):
    """iobench's I/Os of one case, as recorded: F@OFFSET_KIB+LEN_KIB."""
    target = t.shm_file('F', size=256 * 1024)
    log = t.path('seeds.iolog')
    r = t.run('--name=s', '--filename=' + target, '--size=256k',
              '--ioengine=psync', '--write_iolog=' + log, *opts)
    if not t.ok(r, ' '.join(opts)):
        return None
    return ['F@%d+%d' % (io[2] // 1024, io[3] // 1024)
            for io in ibtest.parse_iolog(log).ios if io[1] in ('read', 'write')]


def main():
    t = ibtest.Test()
    want = recorded()
    t.eq(sorted(want), sorted(CASES), 'the recorded cases')
    for name, opts in CASES.items():
        got = sequence(t, opts)
        if got is not None and name in want:
            t.eq(got, want[name], '%s: fio 3.42\'s I/Os' % name)
    old = sequence(t, ['--rw=randread', '--fio-version=3.33'])
    if old is not None:
        t.check(old != want['default'] and sorted(old) == sorted(want['default']),
                '--fio-version=3.33: the same blocks in fio 3.33\'s order', old)
    t.finish()


if __name__ == '__main__':
    main()
