#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The validity checks about the machine rather than the target, provoked
on purpose on a real job (a tmpfs file read with psync) through envshim,
an LD_PRELOAD library (tests/helpers/envshim.c), and shown clean without
the cause:

  clock-cost  every clock_gettime() made 400 ns slower, with
              clocksource=clock_gettime (calibration measures it)
  hist-range  CLOCK_MONOTONIC moved 4 hours ahead during one pread(): that
              read's latency is beyond the histogram's last bucket (~2.4 h)
  governor    a fake cpufreq directory whose policies say powersave, on an
              iodepth=1 job (performance, or iodepth=4: nothing said)

Each firing report read back (tests/tools/reprint) has the same checks.
Usage: test_checks_env.py IOBENCH ENVSHIM.so [REPRINT]
"""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MiB = ibtest.MiB
JUMP_S = 4 * 3600
HIST_LIMIT_NS = 127 * (1 << 36) + (1 << 35)   # the last bucket's value
SANITIZED = bool(os.environ.get('ASAN_OPTIONS') or os.environ.get('UBSAN_OPTIONS'))
TOOL_COST = {'tool-bound', 'cpu-bound', 'clock-cost'}


class Env:
    shim = None
    reprint = None


def shim_env(**kw):
    env = dict(os.environ)
    env['LD_PRELOAD'] = Env.shim
    # an ASan build must see its runtime first; the shim only forwards
    env['ASAN_OPTIONS'] = env.get('ASAN_OPTIONS', '') + ':verify_asan_link_order=0'
    for k, v in kw.items():
        env['IBTEST_' + k] = str(v)
    return env


def job(t, target, *extra):
    return ['--name=j', '--filename=' + target, '--size=1m', '--bs=4k',
            '--rw=read', '--ioengine=psync', '--clocksource=clock_gettime'] + \
        list(extra)


def run(t, what, args, env):
    """(doc, {check id: entry}, [text check lines]) or (None, {}, [])."""
    jpath = t.path('out.json')
    r = t.run('--json-output=' + jpath, '--output-format=normal', *args,
              env=env, timeout=60)
    if not t.ok(r, what):
        return None, {}, []
    with open(jpath) as f:
        doc = json.load(f)
    checks = {c['id']: c for c in doc['jobs'][0].get('iobench checks', [])}
    if checks and Env.reprint:
        p = subprocess.run([Env.reprint, 'json', jpath], capture_output=True,
                           text=True)
        if t.eq(p.returncode, 0, '%s: read back' % what, p.stderr):
            again = json.loads(p.stdout)['jobs'][0].get('iobench checks')
            t.eq(again, doc['jobs'][0].get('iobench checks'),
                 '%s: read back, the same checks' % what)
    os.unlink(jpath)
    lines = [ln for ln in r.out.splitlines()
             if re.match(r'  (warning|info) \[[a-z-]+\]: ', ln)]
    return doc, checks, lines


def fires(t, what, args, env, check):
    doc, checks, lines = run(t, what, args, env)
    if doc is None:
        return None, None
    t.check(check in checks, '%s: %s fires (got %s)' % (what, check, list(checks)))
    t.check(any('[%s]' % check in ln for ln in lines),
            '%s: a "%s" line under the job' % (what, check), lines)
    return doc, checks.get(check)


def clean(t, what, args, env):
    doc, checks, lines = run(t, what, args, env)
    if doc is None:
        return None
    ids = [c for c in checks if not ((SANITIZED or t.wrapper) and c in TOOL_COST)]
    t.eq(ids, [], '%s: no check fires' % what)
    lines = [ln for ln in lines if not any('[%s]' % c in ln for c in TOOL_COST)] \
        if (SANITIZED or t.wrapper) else lines
    t.eq(lines, [], '%s: no check line' % what)
    return doc


def test_clock(t, target):
    doc, c = fires(t, 'slow clock', job(t, target), shim_env(CLOCK_SPIN_NS=400),
                   'clock-cost')
    if c:
        t.eq(c['severity'], 'warning', 'clock-cost: a warning')
        t.check(c['evidence']['clock_ns'] >= 400,
                'clock-cost: measured >= 400 ns (%s)' % c['evidence'], c)
        t.check(re.match(r'reading the clock costs \d+ ns', c['message']),
                'clock-cost: the message', c['message'])
    clean(t, 'the clock as it is', job(t, target), shim_env())


def test_hist_range(t, target):
    env = shim_env(CLOCK_JUMP_S=JUMP_S, CLOCK_JUMP_OFFSET=64 << 10)
    doc, c = fires(t, 'a 4-hour read', job(t, target),
                   env, 'hist-range')
    if c:
        ev = c['evidence']
        t.check(JUMP_S * 10**9 <= ev['max_ns'] < (JUMP_S + 60) * 10**9,
                'hist-range: max_ns is the 4-hour read (%s)' % ev['max_ns'])
        t.eq(ev['limit_ns'], HIST_LIMIT_NS, 'hist-range: the histogram\'s limit')
    if doc:
        clat = doc['jobs'][0]['read']['clat_ns']
        t.check(clat['max'] >= JUMP_S * 10**9, 'hist-range: clat max %s' % clat['max'])
        t.eq(doc['jobs'][0]['read']['total_ios'], 256, 'hist-range: 1m/4k reads')
    clean(t, 'no jump', job(t, target),
          shim_env(CLOCK_JUMP_S=JUMP_S, CLOCK_JUMP_OFFSET=1))


def fake_cpufreq(t, name, governors):
    d = t.mkdir(name)
    for i, g in enumerate(governors):
        os.makedirs(os.path.join(d, 'policy%d' % i))
        with open(os.path.join(d, 'policy%d' % i, 'scaling_governor'), 'w') as f:
            f.write(g + '\n')
    return d


def governor_of(doc):
    """cpu_governor wherever the environment object holds it."""
    stack = [doc.get('environment')]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            if 'cpu_governor' in o:
                return o['cpu_governor']
            stack.extend(o.values())
    return None


def test_governor(t, target):
    slow = fake_cpufreq(t, 'cpufreq-powersave', ['powersave', 'powersave'])
    doc, c = fires(t, 'powersave, iodepth=1', job(t, target),
                   shim_env(CPUFREQ_DIR=slow), 'governor')
    if c:
        t.eq(c['severity'], 'info', 'governor: info')
        t.check('governor is powersave, not performance' in c['message'],
                'governor: names it', c['message'])
    if doc:
        t.eq(governor_of(doc), 'powersave', 'governor: the environment says so')
    fast = fake_cpufreq(t, 'cpufreq-performance', ['performance', 'performance'])
    doc = clean(t, 'performance, iodepth=1', job(t, target), shim_env(CPUFREQ_DIR=fast))
    if doc:
        t.eq(governor_of(doc), 'performance', 'governor: performance in the environment')
    doc, checks, _ = run(t, 'powersave, iodepth=4',
                         job(t, target, '--ioengine=io_uring', '--iodepth=4'),
                         shim_env(CPUFREQ_DIR=slow))
    if doc:
        t.check('governor' not in checks,
                'powersave at iodepth=4: no governor check (%s)' % list(checks))


def main():
    t = ibtest.Test()
    if len(sys.argv) < 3:
        t.skip('no envshim library given')
        t.finish()
    Env.shim = os.path.abspath(sys.argv[2])
    if len(sys.argv) > 3:
        Env.reprint = os.path.abspath(sys.argv[3])
    target = t.shm_file('data', data=ibtest.pattern(MiB))
    test_clock(t, target)
    test_hist_range(t, target)
    test_governor(t, target)
    t.finish()


if __name__ == '__main__':
    main()
