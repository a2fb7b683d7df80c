#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Which lines of iobench each memcheck integration test reaches (gcov), and
the cheapest set of tests that reaches them all: how tests/meson.build's
vgintegration suite (tools/test.d/valgrind.sh) was chosen.

    tools/vg-coverage.py run [--build build-cov] [--out DIR] [-j 2] [--full]
                             [--skip TEST] [TEST...]
    tools/vg-coverage.py pick [--out DIR] [--costs TESTLOG.json] [--keep T,...]
    tools/vg-coverage.py runs [--out DIR] TEST
    tools/vg-coverage.py check --full DIR [--out DIR] [--build build]
    tools/vg-coverage.py unit [--build build-cov] [--lines FILE]

run: sets up BUILD (-Db_coverage=true, -O0) if it is not one yet, then runs
each test of the `vgintegration` suite (or the TESTs named) as meson would
(its command and environment, two at a time but for the is_parallel: false
ones, which run alone and first), but with IBTEST_WRAPPER set to a wrapper
that gives every run of iobench a gcov directory of its own (GCOV_PREFIX):
exactly the runs memcheck wraps, under the same t.wrapper and t.slow, so a
test's reduced cases under the wrapper (test_faults' 16 jobs) are what is
measured, and the helper programs a test runs itself (reprint, trace_dump)
count for nothing, as under memcheck. The job processes iobench forks end
in _exit(), which writes no gcov data: BUILD links every program with
-Wl,--wrap=_exit and a __wrap__exit that calls __gcov_dump() first. Each
run's lines (src/ and include/, count > 0) go to OUT/TEST.json with its
argv, the test's exit status and seconds. --full: IBTEST_FULL=1, every
case of every test (t.reduced false), what the choice starts from.

unit: the lines of src/ and include/ the unit suite reaches (every unit
test and fuzz replay, in BUILD, the gcov counts of the whole suite), into
FILE (default BUILD/unit-lines.json): the lines memcheck reaches already
through `meson test --setup=valgrind --suite unit`.

pick: the union of every measured test's lines, each test's lines that no
other test reaches, then a greedy weighted set cover: again and again the
test with the most lines not yet covered per second of memcheck (the
durations of a valgrind testlog, meson-logs/valgrind-integration.json, or
--cost NAME=SECONDS; an is_parallel: false test counts twice, it holds both
CPUs), until the union is covered; then drops any chosen test whose lines
the other chosen ones cover. --keep: tests chosen whatever they cost (say,
one that could not be measured). --base FILE (unit's output): those lines
count as covered before any test is chosen, so the set is what reaches the
lines the unit tests do not (the gate's vg_gate). Prints the set and the
tests left out.

runs: the lines of TEST that no other measured test reaches, and the fewest
of TEST's runs of iobench that reach them all (greedy), with their argv:
the cases a test must keep under the wrapper (t.wrapper), where it may
leave out the others.

check: what valgrind.sh runs (the vgintegration suite of BUILD but its
vg_covered tests, as measured in OUT, with the reduced cases) against all
that --full measured (every case of every test in DIR): the lines lost.

Redo the choice: `run --full --out F`, `pick --out F`, `runs --out F TEST`
for each test worth reducing; after a change, `run --out R` and
`check --full F --out R`.

Never run test_dataopts here on a machine with loop devices of others
(it detaches loop devices): name the tests, or --skip dataopts.
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The job processes end in _exit(); gcov writes its data at exit() only.
EXIT_WRAP = r'''
extern void __gcov_dump(void);
extern void __real__exit(int) __attribute__((noreturn));
void __wrap__exit(int status);
void __wrap__exit(int status)
{
	__gcov_dump();
	__real__exit(status);
}
'''

# IBTEST_WRAPPER: sh -c SCRIPT BASE IOBENCH ARGS...: a fresh directory per
# run under BASE, its argv in it, iobench exec'd with GCOV_PREFIX there.
RUN_WRAP = ('d=$(mktemp -d "$0/run.XXXXXX") && printf "%s\\0" "$@" >"$d.argv"'
            ' && GCOV_PREFIX=$d exec "$@"')


def setup(build):
    if os.path.exists(os.path.join(build, 'meson-private', 'coredata.dat')):
        return
    os.makedirs(build, exist_ok=True)
    src = os.path.join(build, 'gcov_exit.c')
    obj = os.path.abspath(os.path.join(build, 'gcov_exit.o'))
    with open(src, 'w') as f:
        f.write(EXIT_WRAP)
    subprocess.run(['cc', '-fPIC', '-O2', '-c', '-o', obj, src], check=True)
    subprocess.run(['meson', 'setup', build, '-Db_coverage=true',
                    '-Dbuildtype=debug',
                    '-Dc_link_args=--coverage -Wl,--wrap=_exit ' + obj],
                   check=True, cwd=TOP)


def vg_tests(build):
    out = subprocess.run(['meson', 'introspect', '--tests', build],
                         check=True, capture_output=True, text=True).stdout
    return [t for t in json.loads(out)
            if any(s.endswith(':vgintegration') for s in t['suite'])]


def gcov_lines(build, rundir):
    """The (file, line) pairs with a count in one run's gcov directory."""
    gcdas = []
    for root, _, files in os.walk(rundir):
        for n in files:
            if not n.endswith('.gcda'):
                continue
            p = os.path.join(root, n)
            rel = os.path.relpath(p, rundir + os.path.abspath(build))
            gcno = os.path.join(os.path.abspath(build), rel[:-5] + '.gcno')
            if os.path.exists(gcno):
                os.symlink(gcno, p[:-5] + '.gcno')
                gcdas.append(p)
    lines = set()
    if not gcdas:
        return lines
    out = subprocess.run(['gcov', '-j', '-t'] + gcdas, capture_output=True,
                         text=True, cwd=rundir).stdout
    for doc in out.splitlines():
        if not doc.strip():
            continue
        for f in json.loads(doc)['files']:
            name = os.path.relpath(os.path.normpath(os.path.join(
                os.path.abspath(build), f['file'])), TOP)
            if not (name.startswith('src/') or name.startswith('include/')):
                continue
            for ln in f['lines']:
                if ln['count'] > 0:
                    lines.add('%s:%d' % (name, ln['line_number']))
    return lines


def run_one(t, build, out, full):
    base = tempfile.mkdtemp(prefix='vgcov.%s.' % t['name'])
    env = dict(os.environ)
    env.update(t['env'])
    env['IBTEST_WRAPPER'] = ' '.join(['sh', '-c', "'%s'" % RUN_WRAP, base])
    env['IBTEST_SLOWDOWN'] = '10'       # as under memcheck
    if full:
        env['IBTEST_FULL'] = '1'
    t0 = time.monotonic()
    p = subprocess.run(t['cmd'], env=env, cwd=t['workdir'] or build,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors='replace', timeout=t['timeout'] * 3)
    secs = time.monotonic() - t0
    runs = []
    for n in sorted(os.listdir(base)):
        if not n.endswith('.argv'):
            continue
        with open(os.path.join(base, n), 'rb') as f:
            argv = [a.decode(errors='replace') for a in f.read().split(b'\0')
                    if a]
        lines = gcov_lines(build, os.path.join(base, n[:-5]))
        runs.append({'argv': argv[1:], 'lines': sorted(lines)})
    shutil.rmtree(base, ignore_errors=True)
    with open(os.path.join(out, t['name'] + '.json'), 'w') as f:
        json.dump({'name': t['name'], 'rc': p.returncode, 'seconds': secs,
                   'is_parallel': t['is_parallel'], 'runs': runs}, f)
    with open(os.path.join(out, t['name'] + '.log'), 'w') as f:
        f.write(p.stdout)
    n = len(set().union(*[r['lines'] for r in runs])) if runs else 0
    print('%-18s rc=%s %4.0fs %4d runs %6d lines' %
          (t['name'], p.returncode, secs, len(runs), n), flush=True)


def cmd_run(a):
    setup(a.build)
    subprocess.run(['ninja', '-C', a.build], check=True,
                   stdout=subprocess.DEVNULL)
    os.makedirs(a.out, exist_ok=True)
    tests = [t for t in vg_tests(a.build)
             if (not a.tests or t['name'] in a.tests)
             and t['name'] not in a.skip]
    for t in [t for t in tests if not t['is_parallel']]:
        run_one(t, a.build, a.out, a.full)
    rest = sorted([t for t in tests if t['is_parallel']],
                  key=lambda t: -t['priority'])
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for f in [ex.submit(run_one, t, a.build, a.out, a.full)
                  for t in rest]:
            f.result()


def load(out):
    tests = {}
    for n in sorted(os.listdir(out)):
        if n.endswith('.json'):
            with open(os.path.join(out, n)) as f:
                d = json.load(f)
            d['all'] = set().union(*[set(r['lines']) for r in d['runs']])
            tests[d['name']] = d
    return tests


def costs_from(path):
    costs = {}
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            costs[d['name'].split('/')[-1].strip()] = d['duration']
    return costs


def cmd_pick(a):
    tests = load(a.out)
    costs = costs_from(a.costs) if a.costs else {}
    for c in a.cost:
        n, s = c.split('=')
        costs[n] = float(s)
    for n, d in tests.items():
        if d['rc'] not in (0, 77):
            print('warning: %s exited %s under coverage' % (n, d['rc']))
    union = set().union(*[d['all'] for d in tests.values()])

    def cost(n):
        c = costs.get(n, tests[n]['seconds'])
        return c * (1 if tests[n]['is_parallel'] else 2)
    print('%d lines of src/ and include/ reached by %d tests' %
          (len(union), len(tests)))
    print('%-18s %7s %6s %6s' % ('test', 'cost', 'lines', 'unique'))
    for n in sorted(tests, key=lambda n: -cost(n)):
        others = set().union(*[d['all'] for m, d in tests.items() if m != n])
        print('%-18s %7.0f %6d %6d' % (n, cost(n), len(tests[n]['all']),
                                        len(tests[n]['all'] - others)))
    keep = [k for k in a.keep.split(',') if k in tests]
    chosen = list(keep)
    base = set()
    if a.base:
        with open(a.base) as f:
            base = set(json.load(f)) & union
        print('%d of them reached by the unit tests (%s), %d not' %
              (len(base), a.base, len(union - base)))
    covered = base.union(*[tests[n]['all'] for n in chosen])
    while covered != union:
        n = max((m for m in tests if m not in chosen),
                key=lambda m: len(tests[m]['all'] - covered) / cost(m))
        chosen.append(n)
        covered |= tests[n]['all']
    for n in sorted(chosen, key=lambda n: -cost(n)):
        if n in keep:
            continue
        rest = base.union(*[tests[m]['all'] for m in chosen if m != n])
        if tests[n]['all'] <= rest:
            chosen.remove(n)
    left = sorted(set(tests) - set(chosen), key=lambda n: -cost(n))
    print('chosen (%.0f s): %s' % (sum(cost(n) for n in chosen),
                                   ' '.join(sorted(chosen))))
    print('left out (%.0f s): %s' % (sum(cost(n) for n in left),
                                     ' '.join(left)))


def cmd_unit(a):
    setup(a.build)
    subprocess.run(['ninja', '-C', a.build], check=True,
                   stdout=subprocess.DEVNULL)
    build = os.path.abspath(a.build)
    for root, _, files in os.walk(build):
        for n in files:
            if n.endswith('.gcda'):
                os.unlink(os.path.join(root, n))
    p = subprocess.run(['meson', 'test', '-C', build, '--suite', 'unit'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode:
        print(p.stdout[-3000:])
        print('warning: the unit suite exited %d' % p.returncode)
    # gcov_lines reads a GCOV_PREFIX tree: the counts copied into one
    tmp = tempfile.mkdtemp(prefix='vgcov.unit.')
    for root, _, files in os.walk(build):
        for n in files:
            if n.endswith('.gcda'):
                dst = tmp + root
                os.makedirs(dst, exist_ok=True)
                shutil.copy(os.path.join(root, n), dst)
    lines = gcov_lines(a.build, tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    out = a.lines or os.path.join(a.build, 'unit-lines.json')
    with open(out, 'w') as f:
        json.dump(sorted(lines), f)
    print('unit suite: %d lines of src/ and include/ -> %s' % (len(lines), out))


def cmd_runs(a):
    tests = load(a.out)
    others = set().union(*[d['all'] for m, d in tests.items()
                           if m != a.test])
    runs = tests[a.test]['runs']
    need = tests[a.test]['all'] - others
    print('%s: %d runs, %d lines, %d of them reached by no other test' %
          (a.test, len(runs), len(tests[a.test]['all']), len(need)))
    covered = set()
    while need - covered:
        i = max(range(len(runs)),
                key=lambda i: len(need.intersection(runs[i]['lines']) -
                                  covered))
        new = need.intersection(runs[i]['lines']) - covered
        covered |= new
        print('%5d new: %s' % (len(new), ' '.join(runs[i]['argv'])))


def cmd_check(a):
    full, red = load(a.full), load(a.out)
    union = set().union(*[d['all'] for d in full.values()])
    kept = [t['name'] for t in vg_tests(a.build)
            if not any(s.endswith(':vg_covered') for s in t['suite'])]
    missing = [n for n in kept if n not in red]
    reached = set().union(*[d['all'] for n, d in red.items() if n in kept])
    lost = sorted(union - reached)
    print('%d lines reached by every case of %d tests; %d by what the suite'
          ' runs (%d tests%s); lost: %d' %
          (len(union), len(full), len(reached), len(kept) - len(missing),
           ', not measured: ' + ' '.join(missing) if missing else '',
           len(lost)))
    for ln in lost:
        print('  ' + ln)
    return 1 if lost else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run')
    r.add_argument('--build', default='build-cov')
    r.add_argument('--out', default='build-cov/vgcov')
    r.add_argument('-j', '--jobs', type=int, default=2)
    r.add_argument('--skip', action='append', default=[])
    r.add_argument('--full', action='store_true')
    r.add_argument('tests', nargs='*')
    p = sub.add_parser('pick')
    p.add_argument('--out', default='build-cov/vgcov')
    p.add_argument('--costs')
    p.add_argument('--cost', action='append', default=[])
    p.add_argument('--keep', default='')
    p.add_argument('--base')
    u = sub.add_parser('unit')
    u.add_argument('--build', default='build-cov')
    u.add_argument('--lines')
    c = sub.add_parser('check')
    c.add_argument('--full', required=True)
    c.add_argument('--out', default='build-cov/vgcov')
    c.add_argument('--build', default='build')
    r = sub.add_parser('runs')
    r.add_argument('--out', default='build-cov/vgcov')
    r.add_argument('test')
    a = ap.parse_args()
    os.chdir(TOP)
    return {'run': cmd_run, 'pick': cmd_pick, 'runs': cmd_runs,
            'check': cmd_check, 'unit': cmd_unit}[a.cmd](a)


if __name__ == '__main__':
    sys.exit(main())
