#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""fio 3.42's verify_pattern_interval: the pattern starts again every N
bytes of a block, its %o the offset of that copy. The files iobench
writes are compared byte for byte (sha256) with what fio 3.42 wrote for
the same jobs (tests/data/fio342/verify_pattern_interval.txt; fio 3.42 is
not installed in CI); the verify pass reads them back; a flipped byte is
reported as fio 3.42 reports it."""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data',
                    'fio342', 'verify_pattern_interval.txt')
t = ibtest.Test()
COMMON = ['--ioengine=psync', '--size=32k', '--bs=16k', '--rw=write',
          '--verify=pattern']


def recorded():
    with open(DATA) as f:
        return dict(line.split() for line in f.read().splitlines()
                    if not line.startswith('#'))


def sha(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def write(name, pattern, interval):
    target = t.shm_file('vpi_%s.dat' % name)
    opts = ['--verify_pattern_interval=' + interval] if interval != 'none' else []
    r = t.run('--name=v', '--filename=' + target, *COMMON,
              '--verify_pattern=' + pattern, *opts)
    ok = t.ok(r, 'verify_pattern=%s interval %s: written and verified'
              % (pattern, interval))
    return target if ok else None


def same_bytes(want):
    for key, digest in sorted(want.items()):
        pattern, interval = ('0x41', key.split(':')[1]) if ':' in key else \
            ('%o"ab"', key)
        target = write(key.replace(':', '_'), pattern, interval)
        if target:
            t.eq(sha(target), digest, '%s interval %s: the bytes fio 3.42 wrote'
                 % (pattern, interval))


def flipped():
    """Byte 1003 of the second block (the second copy's %o, 0x00) flipped:
    verify_only fails with fio 3.42's two lines."""
    target = write('flip', '%o"ab"', '1000')
    if not target:
        return
    ibtest.flip(target, 16384 + 1003)
    r = t.run('--name=v', '--filename=' + target, *COMMON,
              '--verify_pattern=%o"ab"', '--verify_pattern_interval=1000',
              '--verify_only=1')
    t.eq(r.rc, 1, 'flipped byte: exit 1')
    t.check("iobench: got pattern '5a', wanted '00'. Bad bits 4\n"
            "iobench: bad pattern block offset 3\n" in r.err,
            'flipped byte: where fio 3.42 says, in the copy', r.err)


def bad_values():
    target = t.path('bad.dat')
    for opts, head in (
            (['--verify_pattern_interval=4k'],
             'iobench: verify_pattern_interval: needs verify_pattern\n'),
            (['--verify_pattern=%o', '--verify_pattern_interval=-1'], None),
            (['--verify_pattern=%o', '--verify_pattern_interval=abc'], None),
            (['--verify_pattern=%o', '--verify_pattern_interval=8g'],
             'iobench: verify_pattern_interval: 8589934592 is above 4 GiB\n')):
        r = t.run('--name=x', '--filename=' + target, '--size=16k', *opts)
        t.check(r.rc == 1 and r.out == '' and r.err.count('\n') == 1 and
                (r.err == head if head else
                 r.err.startswith('iobench: verify_pattern_interval')),
                '%s: one line naming the option' % ' '.join(opts), r)
        t.check(not os.path.exists(target), '%s: nothing written' % ' '.join(opts))
    r = t.run('--parse-only', '--name=a', '--filename=x', '--verify=crc32c',
              '--verify_pattern=%o', '--verify_pattern_interval=512')
    t.eq((r.rc, r.out, r.err), (0, '', ''), '--parse-only verify_pattern_interval')


def main():
    bad_values()
    same_bytes(recorded())
    flipped()
    t.finish()


if __name__ == '__main__':
    main()
