#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""bench.py anchors' ratios and verdicts (tools/bench_anchors.py): from
each case's runs per row, the medians, the per-round ratios (median over
the rounds of each round's own ratio) and the PASS/FAIL verdicts its
docstring lists. Standard library only."""
import math
import statistics

# the rows that are fio ("best fio" is the best of them in a round), the
# fixed batching rows of iobench (--batch), the QD1 added-latency cases
FIO_ROWS = ('fio', 'fio-best', 'fio342')
IB_BATCH = {'ib-s1c1': ('1', '1'), 'ib-s1cN': ('1', 'N'),
            'ib-sNc1': ('N', '1'), 'ib-sNcN': ('N', 'N')}
LAT_CASES = ('psync-zram', 'null-qd1')
# the confidence of the interval each verdict's measured median gets: a
# verdict whose interval lies on one side of its goal is decided
CI_LEVEL = 0.90


# -- ratios and verdicts -------------------------------------------------------------
def _val(m, key):
    return None if not m or 'error' in m else m.get(key)


def round_vals(c, fn):
    """fn(round's {row: run}) for each round, the Nones left out."""
    n = max((len(v) for v in c['runs'].values()), default=0)
    vals = []
    for i in range(n):
        rnd = {r: v[i] for r, v in c['runs'].items() if i < len(v)}
        x = fn(rnd)
        if x is not None:
            vals.append(x)
    return vals


def per_round(c, fn):
    """The median over the rounds of fn(round's {row: run}), None-free."""
    vals = round_vals(c, fn)
    return statistics.median(vals) if vals else None


def median_ci(vals, conf=CI_LEVEL):
    """A distribution-free interval for the median of vals: the k-th
    smallest and k-th largest value, k the largest for which the interval
    still covers the median with probability >= conf (binomial(n, 1/2)
    order statistics). None below 3 values: no such interval exists."""
    n = len(vals)
    if n < 3:
        return None
    xs = sorted(vals)
    tail, k = 0.0, 0
    # P(fewer than k+1 of n values below the median) = sum of C(n,i)/2^n
    while k < n // 2:
        tail += math.comb(n, k) / 2.0 ** n
        if 1.0 - 2.0 * tail < conf:
            break
        k += 1
    if k == 0:
        return None
    return (xs[k - 1], xs[n - k])


def ratio(a, b):
    return a / b if a is not None and b else None


def best_of(rnd, rows, key='iops'):
    vals = [_val(rnd.get(r), key) for r in rows]
    vals = [v for v in vals if v is not None]
    return max(vals) if vals else None


def best_row(med, rows):
    """Of rows (configurations), the one with the highest median IOPS:
    "the best fio" and "the best fixed batching" are the best setting,
    chosen once per case. The highest of several rows in each round
    instead would be biased up by the noise alone: with runs that differ
    by +-10% from one to the next, the most of four is about 10% above
    any one setting's typical run, and no setting reaches it."""
    have = [(med[r]['iops'], r) for r in rows
            if r in med and med[r]['iops'] is not None]
    return max(have)[1] if have else None


def _over_vals(c, num, row):
    """Each round's num IOPS over row's ([] when either row is None)."""
    if not num or not row:
        return []
    return round_vals(c, lambda r: ratio(_val(r.get(num), 'iops'),
                                         _val(r.get(row), 'iops')))


def _over(c, num, row):
    """The median over the rounds of num's IOPS over row's (None when
    either row is None)."""
    vals = _over_vals(c, num, row)
    return statistics.median(vals) if vals else None


def _med_ci(vals):
    """(median, interval) of vals; (None, None) when empty."""
    if not vals:
        return None, None
    return statistics.median(vals), median_ci(vals)


def summarize(res):
    for c in res.values():
        if c.get('skipped'):
            continue
        med = {}
        for row, runs in c['runs'].items():
            ok = [m for m in runs if 'error' not in m]
            med[row] = {k: (statistics.median([m[k] for m in ok
                                               if m.get(k) is not None])
                            if any(m.get(k) is not None for m in ok)
                            else None)
                        for k in ('iops', 'cpu_ns', 'p50_ns', 'others')}
            med[row]['ok_runs'] = len(ok)
        c['median'] = med
        c['ib_over'], c['ib_over_ci'] = {}, {}
        for row in c['runs']:
            if row != 'iobench':
                c['ib_over'][row], c['ib_over_ci'][row] = _med_ci(
                    _over_vals(c, 'iobench', row))
        c['best_fio'] = best_row(med, FIO_ROWS)
        c['best_fixed'] = best_row(med, IB_BATCH)
        c['ib_over_best_fio'] = c['ib_over'].get(c['best_fio'])
        c['best_fio_over_ceiling'] = _over(c, c['best_fio'], 'ceiling')
        c['ib_over_best_fixed'] = c['ib_over'].get(c['best_fixed'])
        # the biased view, for comparison: the most of the rows each round
        c['ib_over_round_max_fio'] = per_round(c, lambda r: ratio(
            _val(r.get('iobench'), 'iops'), best_of(r, FIO_ROWS)))
        c['ib_over_round_max_fixed'] = per_round(c, lambda r: ratio(
            _val(r.get('iobench'), 'iops'), best_of(r, IB_BATCH)))
        c['cpu_ib_over_fio_best'], c['cpu_ci'] = _med_ci(round_vals(
            c, lambda r: ratio(_val(r.get('iobench'), 'cpu_ns'),
                               _val(r.get('fio-best') or r.get('fio'),
                                    'cpu_ns'))))
        for row in ('iobench', 'fio'):
            med_p, ci_p = _med_ci(round_vals(
                c, lambda r, row=row: _diff(_val(r.get(row), 'p50_ns'),
                                            _val(r.get('ceiling'), 'p50_ns'))))
            c.setdefault('added_p50', {})[row] = med_p
            c.setdefault('added_p50_ci', {})[row] = ci_p


def _diff(a, b):
    return a - b if a is not None and b is not None else None


def _verdict(name, what, measured, goal, met, ci=None, bound=None):
    """A goal's verdict: met on the median (the goal as the issue states
    it), and decided when the median's interval ci lies on one side of
    bound (at least: goal '>= bound'; else at most)."""
    decided = None
    if ci is not None and bound is not None and met is not None:
        lo, hi = ci
        if goal.startswith('>='):
            decided = lo >= bound or hi < bound
        else:
            decided = hi <= bound or lo > bound
    return {'case': name, 'target': what, 'measured': measured,
            'goal': goal, 'met': met, 'ci': ci, 'decided': decided}


def verdict_word(t):
    """PASS or FAIL; with a '?' when the interval straddles the goal (the
    rounds did not decide it: more rounds, --until-decided)."""
    word = {None: '-', True: 'PASS', False: 'FAIL'}[t['met']]
    return word + '?' if t.get('decided') is False else word


def case_targets(name, c):
    out = []
    if c.get('skipped') or 'median' not in c:
        return out
    ci = c['ib_over_ci']
    if c['runs'].get('iobench') and not name.startswith('seed-'):
        r, fc = c['ib_over_best_fio'], c['best_fio_over_ceiling']
        ceil = c['ib_over'].get('ceiling')
        near = fc is not None and fc >= 0.95
        if near:
            out.append(_verdict(name, 'ib/ceiling (best fio >= 0.95x it)',
                                ceil, '>= 0.98', _ge(ceil, 0.98),
                                ci.get('ceiling'), 0.98))
        else:
            out.append(_verdict(name, 'ib/best fio (%s)' % c['best_fio'],
                                r, '>= 1.05', _ge(r, 1.05),
                                ci.get(c['best_fio']), 1.05))
        if 't/io_uring' in c['runs']:
            t = c['ib_over'].get('t/io_uring')
            out.append(_verdict(name, 'ib/t-io_uring', t, '>= 1.00',
                                _ge(t, 1.0), ci.get('t/io_uring'), 1.0))
    if any(row in c['runs'] for row in IB_BATCH):
        r = c['ib_over_best_fixed']
        out.append(_verdict(name, 'ib/best fixed (%s)' % c['best_fixed'],
                            r, '>= 0.97', _ge(r, 0.97),
                            ci.get(c['best_fixed']), 0.97))
    if name in LAT_CASES:
        ib, fio = c['added_p50']['iobench'], c['added_p50']['fio']
        out.append(_verdict(name, 'QD1 p50 - ceiling p50, ns (fio: %s)' % (
            'n/a' if fio is None else '%.0f' % fio), ib, '<= 100, < fio',
            None if ib is None or fio is None else ib <= 100 and ib < fio,
            c['added_p50_ci']['iobench'], 100))
    if name.startswith('seed-'):
        r = c['ib_over'].get('fio-best')
        out.append(_verdict(name, 'IOPS ib/fio-best', r, '>= 1.30',
                            _ge(r, 1.3), ci.get('fio-best'), 1.3))
        cp = c['cpu_ib_over_fio_best']
        out.append(_verdict(name, 'CPU/io ib/fio-best', cp, '<= 0.70',
                            None if cp is None else cp <= 0.7,
                            c['cpu_ci'], 0.7))
    return out


def _ge(v, goal):
    return None if v is None else v >= goal


def targets(res):
    return [t for name, c in res.items() for t in case_targets(name, c)]
