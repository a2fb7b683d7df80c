#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The SVG charts, the HTML page and the fio log reader, end to end.

argv: iobench plot_demo. plot_demo (tests/tools/plot_demo.c) renders every
chart type from known data (the formulas below are the same) and from fio
3.33's own lat/bw/iops and histogram logs, written here by a real fio run
on a /dev/shm file. Each SVG is parsed (xml.etree); the axes' ticks give the value ->
pixel mapping, through which every bar, path point and marker drawn must
land on the data. The HTML page must reference nothing outside itself and
render in headless chromium (screenshot not blank, the charts at full size,
no console message). IBTEST_PLOTS_KEEP=DIR keeps the outputs there.
"""
import html.parser
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

NS = '{http://www.w3.org/2000/svg}'
NR = 38 * 64
PCT = [50, 90, 99, 99.9]
TOL = 0.03      # px: coordinates are printed with two decimals


# -- iobench's histogram (include/iobench/hist.h), independently ----------
def hist_index(v):
    if v < 128:
        return v
    e = v.bit_length() - 1 - 6
    return min((e + 1) * 64 + ((v >> e) & 63), NR - 1)


def hist_value(i):
    if i < 128:
        return i
    e, k = (i >> 6) - 1, i & 63
    return (1 << (e + 6)) + (k << e) + (1 << (e - 1))


def bucket_lo(i):
    if i < 128:
        return i
    e, k = (i >> 6) - 1, i & 63
    return (1 << (e + 6)) + (k << e)


def buckets(values):
    c = {}
    for v in values:
        i = hist_index(v)
        c[i] = c.get(i, 0) + 1
    return c


def percentiles(c, pct):
    n, out, s = sum(c.values()), [], 0
    for i in sorted(c):
        s += c[i]
        while len(out) < len(pct) and s >= pct[len(out)] / 100.0 * n:
            out.append(hist_value(i))
    return out


def known_values(which):
    if which == 0:
        return [1000000 + i * 100 if i % 100 == 0 else
                20000 + (i * 7919) % 30000 for i in range(10000)]
    return [500000 + i * 50 if i % 50 == 0 else
            15000 + (i * 104729) % 60000 for i in range(10000)]


# -- reading the SVG back ---------------------------------------------------
UNIT = {'ns': 1, 'us': 1e3, 'ms': 1e6, 's': 1e9, '': 1, 'k': 1e3, 'M': 1e6,
        'G': 1e9}


def label_value(text):
    m = re.match(r'^(-?[\d.]+)(ns|us|ms|s|k|M|G|)$', text)
    return float(m.group(1)) * UNIT[m.group(2)] if m else None


class Axis:
    def __init__(self, t, g, coord, what):
        self.scale = g.get('data-scale')
        self.ticks = []
        for tick in g.findall(NS + 'g'):
            v = float(tick.get('data-v'))
            pos = float(tick.find(NS + 'line').get(coord))
            label = tick.find(NS + 'text').text or ''
            self.ticks.append((v, pos, label))
        t.check(len(self.ticks) >= 2, '%s: at least 2 ticks (%d)' % (
            what, len(self.ticks)))
        if len(self.ticks) < 2:
            self.ticks = [(1, 0, ''), (10, 1, '')]
        (v1, p1, _), (v2, p2, _) = self.ticks[0], self.ticks[-1]
        self.a, self.b = p1, (p2 - p1) / (self.f(v2) - self.f(v1))
        self.v1 = v1
        bad = [tk for tk in self.ticks if abs(self.px(tk[0]) - tk[1]) > TOL]
        t.eq(bad, [], '%s: ticks evenly spaced (%s)' % (what, self.scale))
        if self.scale != 'cat':
            bad = [tk for tk in self.ticks if label_value(tk[2]) is None or
                   abs(label_value(tk[2]) - tk[0]) > 1e-6 * max(1, tk[0])]
            t.eq(bad, [], '%s: tick labels say the tick values' % what)

    def f(self, v):
        if self.scale == 'log':
            return math.log10(max(v, 1e-300))
        if self.scale == 'nines':   # percentiles: 0, 50, 90, 99, 99.9 ...
            top = self.ticks[-1][0] if self.ticks else 99.0
            return -math.log10(1 - min(v, top) / 100.0)
        return v

    def px(self, v):
        return self.a + self.b * (self.f(v) - self.f(self.v1))


class Chart:
    def __init__(self, t, path):
        self.name = os.path.basename(path)
        self.root = ET.parse(path).getroot()
        t.eq(self.root.tag, NS + 'svg', '%s: root element' % self.name)
        for g in self.root.iter(NS + 'g'):
            if g.get('class') == 'axis x':
                self.x = Axis(t, g, 'x1', self.name + ' x axis')
            elif g.get('class') == 'axis y':
                self.y = Axis(t, g, 'y1', self.name + ' y axis')
        self.series = [g for g in self.root.iter(NS + 'g')
                       if g.get('class') == 'series']
        self.texts = {e.get('class'): e.text for e in self.root.iter(NS + 'text')
                      if e.get('class')}
        self.y0 = self.y.px(0) if self.y.scale == 'lin' else None
        t.check('title' in self.texts, '%s: has a title' % self.name)

    def paths(self, s):
        return [p for p in s.iter(NS + 'path') if p.get('class') == 'line']

    def points(self, path):
        return [(c, float(x), float(y)) for c, x, y in
                re.findall(r'([ML])(-?[\d.]+),(-?[\d.]+)', path.get('d'))]

    def legend(self):
        return [e.text for g in self.root.iter(NS + 'g')
                if g.get('class') == 'legend' for e in g.iter(NS + 'text')]


def close(a, b):
    return abs(a - b) <= TOL


def check_reduced(t, ch, pts, xs, ys, span, what):
    """More points than 2 a pixel column: at most 4 drawn per column, and in
    each column the lowest and highest datum drawn (the envelope)."""
    t.check(len(pts) <= 4 * (span + 3), '%s: %d points for %d data, at most 4 '
            'a pixel column (%.0f px)' % (what, len(pts), len(xs), span))
    drawn = {}
    for _, px, py in pts:
        drawn.setdefault(round(px - 0.5), []).append(py)
    cols = {}
    for x, y in zip(xs, ys):
        cols.setdefault(math.floor(ch.x.px(x)), []).append(ch.y.px(y))
    bad = [c for c, v in cols.items()
           if c not in drawn or not (any(close(min(v), d) for d in drawn[c]) and
                                     any(close(max(v), d) for d in drawn[c]))]
    t.eq(bad[:3], [], '%s: each column\'s lowest and highest datum drawn' % what)


def check_line(t, ch, s, xs, ys, what, gaps=False):
    """The series has one path whose points are (xs[i], ys[i])."""
    ps = ch.paths(s)
    if not t.eq(len(ps), 1, '%s: one path' % what):
        return
    pts = ch.points(ps[0])
    lo_px = ch.x.px(min(xs)) if xs else 0
    span = (ch.x.px(max(xs)) - lo_px) if xs else 0
    if len(xs) > 2 * (span + 2) and len(pts) < len(xs):
        check_reduced(t, ch, pts, xs, ys, span, what)
        return
    t.eq(len(pts), len(xs), '%s: one point per datum' % what)
    bad = [(i, p) for i, (p, x, y) in enumerate(zip(pts, xs, ys))
           if not (close(p[1], ch.x.px(x)) and close(p[2], ch.y.px(y)))]
    t.eq(bad[:3], [], '%s: points drawn at the data' % what)
    # a stretch with no point for more than 8 median steps (and 2 pixels)
    # is a gap: the line breaks there (a new M), never a ramp across it
    steps = sorted(b - a for a, b in zip(xs, xs[1:]) if b > a)
    med = (steps[len(steps) // 2] if len(steps) % 2 else
           (steps[len(steps) // 2 - 1] + steps[len(steps) // 2]) / 2) \
        if steps else float('inf')
    if not gaps:    # a CDF or a curve: one stroke
        med = float('inf')
    want = 'M' + ''.join(
        'M' if b - a > 8 * med and ch.x.px(b) - ch.x.px(a) > 2 else 'L'
        for a, b in zip(xs, xs[1:])) if len(xs) > 2 else \
        'M' + 'L' * (len(pts) - 1)
    t.eq(''.join(p[0] for p in pts), want[:len(pts)],
         '%s: one stroke, broken only at gaps' % what)


def check_hist(t, path, values):
    """Bars of 8 buckets at their edges, height = % of samples; markers."""
    ch = Chart(t, path)
    t.eq(ch.x.scale, 'log', '%s: log latency axis' % ch.name)
    t.eq(len(ch.series), 1, '%s: one series' % ch.name)
    c, n = buckets(values), len(values)
    bins = {}
    for i, k in c.items():
        bins[i // 8] = bins.get(i // 8, 0) + k
    want = []
    for b in sorted(bins):
        x = ch.x.px(max(1, bucket_lo(b * 8)))
        w = ch.x.px(bucket_lo(b * 8 + 8)) - x
        h = ch.y0 - ch.y.px(100.0 * bins[b] / n)
        want.append((x, w, h))
    rects = [r for r in ch.series[0].iter(NS + 'rect') if r.get('class') == 'bar']
    got = [(float(r.get('x')), float(r.get('width')), float(r.get('height')))
           for r in rects]
    t.eq(len(got), len(want), '%s: one bar per non-empty bin' % ch.name)
    bad = [(g, w) for g, w in zip(got, want)
           if not all(abs(a - b) <= 2 * TOL for a, b in zip(g, w))]
    t.eq(bad[:3], [], '%s: bars at the data' % ch.name)
    check_markers(t, ch, ch.root, percentiles(c, PCT), 'x1')
    return ch


def check_markers(t, ch, parent, want, attr):
    ms = [g for g in parent.iter(NS + 'g') if g.get('class') == 'marker']
    t.eq([(float(m.get('data-p')), int(m.get('data-v'))) for m in ms],
         list(zip(PCT, want)), '%s: percentile markers' % ch.name)
    for m, v in zip(ms, want):
        el = m.find(NS + ('line' if attr == 'x1' else 'circle'))
        if attr == 'x1':
            at = close(float(el.get('x1')), ch.x.px(v))
        else:   # the CDF: at (percentile, latency)
            at = (close(float(el.get('cx')), ch.x.px(float(m.get('data-p'))))
                  and close(float(el.get('cy')), ch.y.px(max(1, v))))
        t.check(at, '%s: p%s marker at %d ns' % (ch.name, m.get('data-p'), v))
        label = m.find(NS + 'text')
        if label is not None:
            t.check(label.text.startswith('p%g ' % float(m.get('data-p'))),
                    '%s: marker label %r' % (ch.name, label.text))


def label_boxes(ch):
    """The percentile labels' boxes (x0, x1, y0, y1): 6.5 px a character,
    13 px high, anchored at their start or end."""
    out = []
    for g in ch.root.iter(NS + 'g'):
        if g.get('class') != 'marker':
            continue
        for e in g.iter(NS + 'text'):
            x, y, w = float(e.get('x')), float(e.get('y')), 6.5 * len(e.text)
            x0 = x - w if e.get('text-anchor') == 'end' else x
            out.append((x0, x0 + w, y - 10, y + 3, e.text))
    return out


def check_labels_apart(t, ch):
    bs = label_boxes(ch)
    bad = [(a[4], b[4]) for i, a in enumerate(bs) for b in bs[i + 1:]
           if a[0] < b[1] - 0.01 and b[0] < a[1] - 0.01 and
           a[2] < b[3] - 0.01 and b[2] < a[3] - 0.01]
    t.eq(bad[:3], [], '%s: no two percentile labels overlap (%d labels)'
         % (ch.name, len(bs)))


def check_labels_sides(t, ch):
    """Read and write labelled on either side of their lines: at each
    percentile where they differ, the higher one's label above its marker,
    the lower one's below (markers 2 lines clear of the frame's edges,
    where the placer may have to turn a label round)."""
    fr = [e for e in ch.root.iter(NS + 'rect') if e.get('class') == 'frame']
    top = float(fr[0].get('y')) if fr else 0
    bottom = top + float(fr[0].get('height')) if fr else 0
    marks = [{m.get('data-p'): m for m in s.iter(NS + 'g')
              if m.get('class') == 'marker'} for s in ch.series[:2]]
    bad, n = [], 0
    for p in set(marks[0]) & set(marks[1]):
        v = [int(m[p].get('data-v')) for m in marks]
        if v[0] == v[1]:
            continue
        for k in range(2):
            c, e = marks[k][p].find(NS + 'circle'), marks[k][p].find(NS + 'text')
            if e is None:
                continue
            cy, y = float(c.get('cy')), float(e.get('y'))
            if not (top + 26 < cy < bottom - 26):
                continue
            n += 1
            above = v[k] > v[1 - k]
            if (above and y + 3 > cy) or (not above and y - 10 < cy):
                bad.append((p, k, v[k], cy, y))
    t.eq(bad, [], '%s: the higher series labelled above, the lower below '
         '(%d labels)' % (ch.name, n))


def check_cdf(t, path, series):
    """The CDF as HdrHistogram draws it: latency (y, log) by percentile
    (x, on the nines scale: 0, 50, 90, 99, 99.9 ... as far as the samples
    resolve), every series labelled (up to two), no label over another."""
    ch = Chart(t, path)
    t.eq((ch.x.scale, ch.y.scale), ('nines', 'log'),
         '%s: percentile on the nines scale, latency log' % ch.name)
    most = max(sum(c.values()) for _, c in series)
    nines = 2
    while nines < 7 and most > 10 ** nines:
        nines += 1
    t.eq([tk[0] for tk in ch.x.ticks],
         [0, 50] + [100 * (1 - 10 ** -k) for k in range(1, nines + 1)],
         '%s: nines ticks up to %d nines (%d samples)' % (ch.name, nines, most))
    t.eq(len(ch.series), len(series), '%s: one group per series' % ch.name)
    if len(series) > 1:
        t.eq(ch.legend(), [n for n, _ in series], '%s: legend' % ch.name)
    for k, (s, (name, c)) in enumerate(zip(ch.series, series)):
        n, cum, xs, ys = sum(c.values()), 0, [], []
        for i in sorted(c):
            cum += c[i]
            xs.append(100.0 * cum / n)
            ys.append(max(1, hist_value(i)))
        t.eq(s.get('data-name'), name, '%s: series name' % ch.name)
        check_line(t, ch, s, xs, ys, '%s %s' % (ch.name, name))
        check_markers(t, ch, s, percentiles(c, PCT), 'cx')
        if k < 2:
            t.eq(sum(1 for g in s.iter(NS + 'g') if g.get('class') == 'marker'
                     and g.find(NS + 'text') is not None), len(PCT),
                 '%s %s: every percentile labelled' % (ch.name, name))
            # in the series' colour: read's and write's labels read apart
            stroke = [p.get('stroke') for p in ch.paths(s)]
            t.eq({e.get('fill') for g in s.iter(NS + 'g')
                  if g.get('class') == 'marker' for e in g.iter(NS + 'text')},
                 set(stroke[:1]), '%s %s: labels in the series\' colour %s'
                 % (ch.name, name, stroke[:1]))
        dash = [p.get('stroke-dasharray') for p in ch.paths(s)]
        t.eq(dash, ['6 3' if k % 2 else None],
             '%s %s: %s' % (ch.name, name, 'dashed' if k % 2 else 'solid'))
    if len(series) > 1:
        t.eq(len({p.get('stroke') for s in ch.series[:2] for p in ch.paths(s)}),
             2, '%s: the first two series in two colours' % ch.name)
        sw = [e.get('stroke-dasharray') for g in ch.root.iter(NS + 'g')
              if g.get('class') == 'legend' for e in g.iter(NS + 'line')]
        t.eq(sw, ['6 3' if k % 2 else None for k in range(len(series))],
             '%s: the legend shows each series\' stroke' % ch.name)
    check_labels_apart(t, ch)
    if len(series) > 1:
        check_labels_sides(t, ch)


def check_known(t, d):
    a, b = known_values(0), known_values(1)
    ch = check_hist(t, os.path.join(d, 'hist.svg'), a)
    t.eq((ch.texts.get('xlabel'), ch.texts.get('ylabel')),
         ('latency', '% of samples'), 'hist.svg: axis titles')
    check_cdf(t, os.path.join(d, 'cdf.svg'), [('run A', buckets(a)),
                                              ('run B', buckets(b))])
    ts = list(range(60))
    ch = Chart(t, os.path.join(d, 'lines.svg'))
    t.eq(ch.legend(), ['read', 'write'], 'lines.svg: legend')
    t.eq((ch.texts.get('xlabel'), ch.texts.get('ylabel')), ('time (s)', 'KiB/s'),
         'lines.svg: axis titles')
    for s, ys in zip(ch.series, [[1000 + (i * 37) % 200 for i in ts],
                                 [500 + (i * 53) % 150 for i in ts]]):
        check_line(t, ch, s, ts, ys, 'lines.svg ' + s.get('data-name'),
                   gaps=True)
    ch = Chart(t, os.path.join(d, 'curve.svg'))
    load = [10000, 20000, 40000, 80000, 120000]
    for s, ys in zip(ch.series, [[80, 85, 95, 140, 400], [60, 62, 70, 90, 180]]):
        what = 'curve.svg ' + s.get('data-name')
        check_line(t, ch, s, load, ys, what)
        dots = [(float(c.get('cx')), float(c.get('cy'))) for c in s.iter(NS + 'circle')]
        t.check(len(dots) == 5 and all(close(p[0], ch.x.px(x)) and close(p[1], ch.y.px(y))
                                       for p, x, y in zip(dots, load, ys)),
                '%s: a marker on each point' % what)
    check_bars(t, os.path.join(d, 'bars.svg'))


def check_bars(t, path):
    ch = Chart(t, path)
    labels = ['randread', 'randwrite', 'read', 'write']
    vals = [1200, 1500, 800, 700, 3100, 3000, 2500, 2600]
    t.eq([tk[2] for tk in ch.x.ticks], labels, 'bars.svg: category labels')
    t.eq(ch.legend(), ['run A', 'run B'], 'bars.svg: legend')
    for j, s in enumerate(ch.series):
        rs = [r for r in s.iter(NS + 'rect') if r.get('class') == 'bar']
        t.eq(len(rs), 4, 'bars.svg: one bar per label in series %d' % j)
        for i, r in enumerate(rs):
            h = float(r.get('height'))
            t.check(close(ch.y0 - h, ch.y.px(vals[i * 2 + j])) and
                    close(float(r.get('y')), ch.y.px(vals[i * 2 + j])),
                    'bars.svg: bar %d/%d height = %d' % (i, j, vals[i * 2 + j]))
            mid = float(r.get('x')) + (float(r.get('width')) * (1 - 2 * j) if j == 0 else 0)
            t.check(ch.x.ticks[i][1] - 60 < mid < ch.x.ticks[i][1] + 60,
                    'bars.svg: bar %d/%d in its group' % (i, j))


# -- fio's own logs ----------------------------------------------------------
def read_fio_log(path):
    """[(t_ms, value, ddir)] of a fio lat/bw/iops log."""
    out = []
    with open(path) as f:
        for line in f:
            if line.strip():
                v = [int(x) for x in line.split(',')]
                out.append((v[0], v[1], v[2]))
    return out


def fio_logs(t):
    """Run fio 3.33 with lat/bw/iops logs; the logs' paths, or None."""
    target = t.shm_file('fio.dat', size=2 << 20)
    prefix = t.path('fio')
    r = t.fio('--name=plots', '--filename=' + target, '--size=2m',
              '--rw=randrw', '--bs=4k', '--ioengine=psync', '--rate_iops=2000',
              '--randrepeat=1', '--write_lat_log=' + prefix,
              '--write_bw_log=' + prefix, '--write_iops_log=' + prefix,
              '--write_hist_log=' + prefix, '--log_hist_msec=20',
              '--output=' + t.path('fio.out'))
    if r is None:
        t.skip('fio not installed: no fio logs')
        return None
    if not t.ok(r, 'fio with --write_lat_log'):
        return None
    logs = [prefix + '_%s.1.log' % k for k in ('clat', 'lat', 'bw', 'iops',
                                                'clat_hist')]
    t.check(all(os.path.getsize(p) > 0 for p in logs), 'fio wrote the logs')
    return logs


def read_hist_log(path):
    """[(t_ms, ddir, {bucket: count})] of a fio histogram log."""
    rows = []
    with open(path) as f:
        for line in f:
            if line.strip():
                v = [int(x) for x in line.split(',')]
                rows.append((v[0], v[1], {j: k for j, k in enumerate(v[3:]) if k}))
    return rows


def check_hist_log(t, d, path, clat):
    """fio's own histogram log: its buckets are ours (every count is at
    most what the clat log has in that bucket), the CDF per direction and
    the read rows' p50/p99 over time drawn at the data."""
    rows = read_hist_log(path)
    with open(path) as f:
        t.eq(len(f.readline().split(',')), 3 + 1856,
             'fio hist log: 1856 bins a row (coarseness 0)')
    merged, series = [{}, {}, {}], []
    for _, dd, c in rows:
        for j, k in c.items():
            merged[dd][j] = merged[dd].get(j, 0) + k
    for dd, name in enumerate(('read', 'write', 'trim')):
        if merged[dd]:
            series.append((name, merged[dd]))
            from_clat = buckets([v for _, v, x in clat if x == dd])
            over = {j: (k, from_clat.get(j, 0)) for j, k in merged[dd].items()
                    if k > from_clat.get(j, 0)}
            t.eq(over, {}, 'fio hist log %s: the clat log\'s buckets' % name)
    t.eq([n for n, _ in series], ['read', 'write'], 'fio hist log: directions')
    check_cdf(t, os.path.join(d, 'fio_histlog_cdf.svg'), series)
    ch = Chart(t, os.path.join(d, 'fio_histlog_pct.svg'))
    reads = [(tm / 1000.0, percentiles(c, [50, 99])) for tm, dd, c in rows
             if dd == 0 and c]
    t.check(len(reads) >= 2, 'fio hist log: %d read rows' % len(reads))
    for s, k in zip(ch.series, (0, 1)):
        check_line(t, ch, s, [r[0] for r in reads], [r[1][k] for r in reads],
                   'fio_histlog_pct.svg ' + s.get('data-name'), gaps=True)


def check_fio(t, d, logs):
    recs = [read_fio_log(p) for p in logs[:4]]
    check_hist_log(t, d, logs[4], recs[0])
    t.check(len(recs[0]) == 512, 'fio clat log: one line per I/O (%d)' % len(recs[0]))
    for svg, kind in (('fio_lat.svg', (0, 1)), ('fio_bw.svg', (2,)),
                      ('fio_iops.svg', (3,))):
        ch = Chart(t, os.path.join(d, svg))
        want = []
        for k in kind:
            for dd, name in enumerate(('read', 'write', 'trim')):
                pts = [(tm / 1000.0, v) for tm, v, x in recs[k] if x == dd]
                if pts:
                    want.append(('%s %s' % (os.path.basename(logs[k]), name), pts))
        t.eq([s.get('data-name') for s in ch.series], [w[0] for w in want],
             '%s: one series per log and direction' % svg)
        t.eq(ch.legend(), [w[0] for w in want], '%s: legend' % svg)
        for s, (name, pts) in zip(ch.series, want):
            check_line(t, ch, s, [p[0] for p in pts], [p[1] for p in pts],
                       '%s %s' % (svg, name), gaps=True)
    clat = [v for _, v, _ in recs[0]]
    check_hist(t, os.path.join(d, 'fio_hist.svg'), clat)
    check_cdf(t, os.path.join(d, 'fio_cdf.svg'), [('log 1', buckets(clat))])


# -- the HTML page -----------------------------------------------------------
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.cells = {}, [], []
        self._cell = None

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs += [(tag, k, v) for k, v in attrs]
        if tag in ('td', 'th'):
            self._cell = ''

    def handle_endtag(self, tag):
        if tag in ('td', 'th'):
            self.cells.append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data


def check_html(t, path, nfig):
    with open(path, encoding='utf-8') as f:
        text = f.read()
    p = Page()
    p.feed(text)
    t.eq((p.tags.get('svg'), p.tags.get('figure')), (nfig, nfig),
         'report.html: every chart inline')
    t.eq(p.cells[:5], ['job', 'rw', 'IOPS', 'bandwidth', 'p99 latency'],
         'report.html: summary table header')
    t.eq(p.cells[15], 'run <&> "quoted"', 'report.html: cells escaped')
    ext = [a for a in p.attrs if a[1] in ('src', 'href') or
           (a[1] == 'xmlns' and a[2] != 'http://www.w3.org/2000/svg')]
    t.eq(ext, [], 'report.html: no src/href attribute')
    t.eq(re.findall(r'url\(|@import|<script|<link|<iframe|<img', text), [],
         'report.html: no external reference or script')
    urls = set(re.findall(r'[a-z]+://[^"\s<]*', text))
    t.eq(urls, {'http://www.w3.org/2000/svg'},
         'report.html: the only URL is the SVG namespace')


# -- the page in a real browser ---------------------------------------------
def png_pixels(path):
    """(width, height, rows of RGB(A) bytes) of a non-interlaced 8-bit PNG."""
    with open(path, 'rb') as f:
        data = f.read()
    pos, idat, hdr = 8, b'', None
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            hdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    w, h, depth, ctype = hdr[:4]
    bpp = {2: 3, 6: 4}[ctype]
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (w * bpp + 1)], bytearray(
            raw[y * (w * bpp + 1) + 1:(y + 1) * (w * bpp + 1)])
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def chromium(t, *args):
    exe = next((shutil.which(n) for n in ('chromium', 'chromium-browser',
                                          'google-chrome') if shutil.which(n)), None)
    if not exe:
        return None
    ud = t.mkdir('chromium-profile-%d' % len(os.listdir(t.dir)))
    argv = [exe, '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
            '--no-first-run', '--disable-background-networking',
            '--disable-component-update', '--disable-sync',
            '--user-data-dir=' + ud, '--enable-logging=stderr', '--v=0'] + list(args)
    return t.run(*argv[1:], prog=argv[0], timeout=120)


def console(r):
    """The page's console messages; chromium's own pages (chrome://, e.g.
    its 'Slow network is detected' note when there is no network at all)
    are not the page's."""
    return [m for m in re.findall(r':CONSOLE[^\]]*\] (.*)', r.err)
            if 'source: chrome://' not in m]


def check_browser(t, d, nfig):
    page = os.path.join(d, 'report.html')
    shot = os.path.join(d, 'report.png')
    r = chromium(t, '--window-size=1400,6000', '--screenshot=' + shot,
                 'file://' + page)
    if r is None:
        t.skip('no chromium: the page is not rendered')
        return
    t.ok(r, 'chromium --screenshot')
    t.eq(console(r), [], 'report.html: no console message')
    w, h, bpp, rows = png_pixels(shot)
    t.eq((w, h), (1400, 6000), 'screenshot size')
    colours = {}
    for row in rows:
        for i in range(0, len(row), bpp):
            px = row[i:i + 3]
            colours[px] = colours.get(px, 0) + 1
    white = colours.get(b'\xff\xff\xff', 0)
    t.check(white < 0.97 * w * h, 'screenshot not blank (%d%% white)' % (
        100 * white // (w * h)))
    for c in ('1f77b4', 'd62728'):
        t.check(colours.get(bytes.fromhex(c), 0) > 500,
                'screenshot: chart colour #%s drawn (%d px)' % (
                    c, colours.get(bytes.fromhex(c), 0)))
    measure(t, d, page, nfig)


def measure(t, d, page, nfig):
    """The charts' rendered size: a copy of the page with a script that
    writes it into the DOM (the report itself has none)."""
    with open(page, encoding='utf-8') as f:
        text = f.read()
    js = ('<pre id="ibtest">' + '</pre><script>var o=[];'
          'document.querySelectorAll("svg").forEach(function(s){'
          'var r=s.getBoundingClientRect(),v=s.viewBox.baseVal,'
          'f=s.parentElement.getBoundingClientRect();'
          'o.push([r.width,r.height,f.width,v.width,v.height]);});'
          'document.getElementById("ibtest").textContent=JSON.stringify(o);'
          'console.log("ibtest-marker");</script>')
    copy = os.path.join(d, 'measure.html')
    with open(copy, 'w', encoding='utf-8') as f:
        f.write(text.replace('</body>', js + '</body>'))
    r = chromium(t, '--window-size=1400,6000', '--dump-dom', 'file://' + copy)
    t.ok(r, 'chromium --dump-dom')
    t.eq([m.split('"')[1] for m in console(r)], ['ibtest-marker'],
         'measure.html: the console is captured, nothing else in it')
    m = re.search(r'<pre id="ibtest">(.*?)</pre>', r.out)
    sizes = json.loads(m.group(1)) if m else []
    t.eq(len(sizes), nfig, 'rendered charts')
    # the page's full width (its figure's), the drawing's own proportions
    # (1 px border inside)
    t.eq([s for s in sizes if not (abs(s[0] - s[2]) <= 1 and
                                   abs(s[1] - 2 - (s[0] - 2) * s[4] / s[3]) <= 2)],
         [], 'every chart as wide as the page, in its own proportions')
    t.check(all(s[0] >= 1200 for s in sizes),
            'a 1400 px window: charts over 1200 px wide (%s)' %
            sorted({round(s[0]) for s in sizes}))


def main():
    t = ibtest.Test()
    demo = os.path.abspath(sys.argv[2])
    out = t.mkdir('out')
    logs = fio_logs(t) or []
    args = logs[:4] + ['--hist', logs[4]] if logs else []
    r = t.run('demo', out, *args, prog=demo)
    if t.ok(r, 'plot_demo demo'):
        check_known(t, out)
        if logs:
            check_fio(t, out, logs)
        nfig = 5 + (7 if logs else 0)
        check_html(t, os.path.join(out, 'report.html'), nfig)
        check_browser(t, out, nfig)
    # deterministic: a second run draws the same bytes
    out2 = t.mkdir('out2')
    if t.ok(t.run('demo', out2, prog=demo), 'plot_demo demo (again)'):
        for n in ('hist', 'cdf', 'lines', 'curve', 'bars'):
            with open(os.path.join(out, n + '.svg'), 'rb') as f1, \
                    open(os.path.join(out2, n + '.svg'), 'rb') as f2:
                t.check(f1.read() == f2.read(), '%s.svg: same bytes twice' % n)
    keep = os.environ.get('IBTEST_PLOTS_KEEP')
    if keep:
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(out, keep)
    t.finish()


if __name__ == '__main__':
    main()
