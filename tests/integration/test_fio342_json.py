#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench's JSON in fio 3.42's format (the default) against fio 3.42's
own output of the same jobs, recorded in tests/data/fio342 (fio 3.42 is not
installed in CI): the same keys, order and types (json_compare.py --shape),
"fio version", job_start on the clock job_start_clock_id names, and the
3.42-only latency keys."""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, '..', 'data', 'fio342')
COMPARE = os.path.join(HERE, '..', 'data', 'golden', 'json_compare.py')
t = ibtest.Test()


def shape(args, recorded):
    """The run's JSON against fio 3.42's recorded one; returns the doc."""
    r = t.run(*args)
    if not t.ok(r, ' '.join(args)):
        return None
    ours = t.path('ours.json')
    with open(ours, 'w') as f:
        f.write(r.out)
    p = subprocess.run([sys.executable, COMPARE, '--shape', ours,
                        os.path.join(DATA, recorded)], capture_output=True, text=True)
    t.check(p.returncode == 0, 'keys, order and types as fio 3.42\'s ' + recorded, p.stdout)
    return json.loads(r.out)


def fixed(doc, what):
    """The fields 3.42 fixes: the version, the latency target's twins."""
    job = doc['jobs'][0]
    t.eq(doc['fio version'], 'fio-3.42', what + ': fio version')
    t.eq((job['latency_target_ns'], job['latency_window_us']),
         (job['latency_target'], job['latency_window']),
         what + ': latency_target_ns and latency_window_us as 3.42 doubles them')
    # job_start: the job's start in epoch ms, before the report's own time
    # and no earlier than the run's elapsed seconds (+1 for rounding) allow
    t.check(doc['timestamp_ms'] - (job['elapsed'] + 1) * 1000 <= job['job_start']
            <= doc['timestamp_ms'], what + ': job_start within the run',
            (job['job_start'], doc['timestamp_ms'], job['elapsed']))


def main():
    doc = shape(('--name=n', '--ioengine=null', '--size=1m', '--output-format=json'),
                'null.json')
    if doc:
        fixed(doc, 'null')
    fn = t.shm_file('p.dat', 1 << 20)
    doc = shape(('--name=p', '--ioengine=psync', '--filename=' + fn, '--size=1m',
                 '--rw=randrw', '--output-format=json+'), 'psync_randrw.jsonplus')
    if doc:
        fixed(doc, 'psync json+')
    # job_start_clock_id=1 (CLOCK_MONOTONIC): job_start on that clock
    before = time.clock_gettime(time.CLOCK_MONOTONIC) * 1000
    r = t.run('--name=n', '--ioengine=null', '--size=1m', '--job_start_clock_id=1',
              '--output-format=json')
    after = time.clock_gettime(time.CLOCK_MONOTONIC) * 1000
    if t.ok(r, 'job_start_clock_id=1'):
        js = json.loads(r.out)['jobs'][0]['job_start']
        t.check(int(before) <= js <= after, 'job_start_clock_id=1: CLOCK_MONOTONIC ms',
                (before, js, after))
    r = t.run('--fio-version=3.33', '--name=n', '--ioengine=null', '--size=1m',
              '--output-format=json')
    if t.ok(r, '--fio-version=3.33'):
        job = json.loads(r.out)['jobs'][0]
        t.check(not {'job_start', 'latency_target_ns', 'latency_window_us'} & set(job),
                '--fio-version=3.33: none of 3.42\'s keys', sorted(job))
    r = t.run('--parse-only', '--name=n', '--job_start_clock_id=99')
    t.check(r.rc == 1 and len(r.err.splitlines()) == 1 and
            'job_start_clock_id: 99' in r.err, 'job_start_clock_id=99: one line', r.err)
    t.finish()


if __name__ == '__main__':
    main()
