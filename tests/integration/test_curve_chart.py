#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The latency-vs-load curve drawn, end to end: a short real `iobench curve`
on a /dev/shm file with --plot=FILE.svg and --report=FILE.html (its JSON on
stdout). The SVG is valid XML with a linear IOPS axis and a log latency
axis, one path per percentile (p50, p99, p99.9) through a point per step at
(achieved IOPS, latency) as the JSON says (hollow when the step fell
short of 95% of its target), the SLO and the unpaced maximum
as reference lines and the knee at the highest step within the SLO (none
when no step met it). `iobench plot` of the saved JSON draws the same SVG
byte for byte; the HTML pages (the run's, `iobench report` of the JSON,
alone and next to a run's report) hold the steps' table and the chart, and
headless chromium renders them with no console message and the chart at
full size (exit 77 only where no browser is installed). A chart that
cannot be written or a broken curve document exits 1.
Usage: test_curve_chart.py IOBENCH
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402
import test_plots as tp  # noqa: E402

STEPS = 4
SLO_NS = 50 * 1000 * 1000
NAMES = ('p50', 'p99', 'p99.9')


def run_curve(t, data):
    svg, page = t.path('curve.svg'), t.path('curve.html')
    r = t.run('curve', '--steps=%d' % STEPS, '--slo=50ms', '--name=c',
              '--filename=' + data, '--size=16m', '--rw=randread', '--bs=4k',
              '--ioengine=psync', '--runtime=1', '--time_based',
              '--output-format=json', '--plot=' + svg, '--report=' + page,
              timeout=180)
    if not t.ok(r, 'curve --plot --report'):
        return None
    js = t.path('curve.json')
    with open(js, 'w') as f:
        f.write(r.out)
    c = json.loads(r.out)['curve']
    t.eq(len(c['points']), STEPS, 'curve: a point per step')
    return c, js, svg, page


def sustained(p):
    return p['achieved_iops'] * 100 >= p['target_iops'] * 95


def answer(c):
    """The highest step sustained (95% of its target) with p99 < SLO."""
    best = None
    for p in c['points']:
        if (p['target_iops'] and p['total_ios'] and
                sustained(p) and
                p['colat_ns']['p99'] < c['slo_p99_ns']):
            best = p
    return best


def groups(ch, cls):
    return [g for g in ch.root.iter(tp.NS + 'g') if g.get('class') == cls]


def p99_apart_px(ch, c):
    """How much of the p99 line (red) the p99.9 line (green), drawn after
    it, leaves uncovered: the lengths in the chart's px of the segments
    whose two ends are more than 4 px apart from p99.9's (the lines are 2
    px wide). Where the run's p99 and p99.9 meet (a saturated step: both
    the longest waits), green is drawn over red."""
    pts = [p for p in c['points']
           if p['colat_ns']['p99'] > 0 and p['colat_ns']['p99.9'] > 0]
    xy = [(ch.x.px(p['achieved_iops']), ch.y.px(p['colat_ns']['p99']),
           ch.y.px(p['colat_ns']['p99.9'])) for p in pts]
    apart = [abs(y99 - y999) > 4 for _, y99, y999 in xy]
    return sum(max(abs(a[0] - b[0]), abs(a[1] - b[1]))
               for a, b, sa, sb in zip(xy, xy[1:], apart, apart[1:])
               if sa and sb)


def check_svg(t, c, svg):
    """The SVG's checks; returns p99_apart_px of its chart."""
    ch = tp.Chart(t, svg)
    t.eq((ch.x.scale, ch.y.scale), ('lin', 'log'), 'curve.svg: lin IOPS, log latency')
    t.eq(ch.x.ticks[0][0], 0, 'curve.svg: the IOPS axis starts at 0')
    t.eq((ch.texts.get('title'), ch.texts.get('xlabel'), ch.texts.get('ylabel')),
         ('Latency versus load: c', 'achieved IOPS', 'co-free latency'),
         'curve.svg: title and axis labels')
    t.eq([s.get('data-name') for s in ch.series], list(NAMES),
         'curve.svg: a series per percentile')
    t.eq(ch.legend(), list(NAMES), 'curve.svg: the legend')
    for s, k in zip(ch.series, NAMES):
        pts = [p for p in c['points'] if p['colat_ns'][k] > 0]
        tp.check_line(t, ch, s, [p['achieved_iops'] for p in pts],
                      [p['colat_ns'][k] for p in pts], 'curve.svg ' + k)
        t.eq([e.get('class') for e in s.iter(tp.NS + 'circle')],
             ['point' if sustained(p) else 'point hollow' for p in pts],
             'curve.svg %s: a dot per step, hollow if short of its target' % k)
    slo = groups(ch, 'ref slo')
    if t.eq(len(slo), 1, 'curve.svg: the SLO line'):
        ln = slo[0].find(tp.NS + 'line')
        t.eq(float(slo[0].get('data-v')), float(SLO_NS), 'curve.svg: SLO value')
        t.check(tp.close(float(ln.get('y1')), ch.y.px(SLO_NS)) and
                ln.get('y1') == ln.get('y2'), 'curve.svg: SLO line at 50ms', ln.attrib)
    mx = groups(ch, 'ref max')
    if t.eq(len(mx), 1, 'curve.svg: the unpaced maximum line'):
        ln = mx[0].find(tp.NS + 'line')
        t.check(tp.close(float(ln.get('x1')), ch.x.px(c['max']['achieved_iops'])),
                'curve.svg: the maximum line at the unpaced IOPS', ln.attrib)
    best, knee = answer(c), groups(ch, 'knee')
    t.eq(len(knee), 1 if best else 0, 'curve.svg: a knee iff a step met the SLO')
    if best and knee:
        ring = knee[0].find(tp.NS + 'circle')
        t.check(tp.close(float(ring.get('cx')), ch.x.px(best['achieved_iops'])) and
                tp.close(float(ring.get('cy')), ch.y.px(best['colat_ns']['p99'])),
                'curve.svg: the knee rings the answer step\'s p99', ring.attrib)
        t.eq(int(knee[0].get('data-y')), best['colat_ns']['p99'], 'knee data-y')
    return p99_apart_px(ch, c)


def check_table(t, c, page, nsvg):
    with open(page, encoding='utf-8') as f:
        text = f.read()
    p = tp.Page()
    p.feed(text)
    t.eq((p.tags.get('svg'), p.tags.get('figure')), (nsvg, nsvg),
         '%s: the charts inline' % os.path.basename(page))
    head = ['step', 'target IOPS', 'achieved IOPS', 'p50', 'p99', 'p99.9',
            'late I/Os', 'meets SLO']
    at = p.cells.index('step') if 'step' in p.cells else 0
    t.eq(p.cells[at:at + 8], head, 'curve table header')
    rows = [p.cells[at + 8 * (i + 1):at + 8 * (i + 2)] for i in range(STEPS)]
    t.eq([(r[0], r[1], r[2], r[6]) for r in rows],
         [('%d%%' % q['pct'], str(q['target_iops']), '%.1f' % q['achieved_iops'],
           str(q['late_ios'])) for q in c['points']], 'curve table rows')
    t.eq([r[7] for r in rows],
         ['yes' if answer({'points': [q], 'slo_p99_ns': SLO_NS}) else 'no'
          for q in c['points']], 'curve table: meets SLO')
    t.eq(re.findall(r'<script|<link|<img|url\(', text), [], 'no script or link')
    return text


def browser(t, page, nsvg, apart):
    """Rendered by chromium; apart: the px of the p99 line that the p99.9
    line leaves uncovered (p99_apart_px), which says what the screenshot
    must show of it."""
    d = t.mkdir('shot-' + os.path.basename(page).split('.')[0])
    shot = os.path.join(d, 'page.png')
    r = tp.chromium(t, '--window-size=1400,3000', '--screenshot=' + shot,
                    'file://' + page)
    if r is None:
        t.skip('no chromium: the curve page is not rendered')
        return
    t.ok(r, 'chromium --screenshot')
    t.eq(tp.console(r), [], '%s: no console message' % os.path.basename(page))
    w, h, bpp, rows = tp.png_pixels(shot)
    red = sum(1 for row in rows for i in range(0, len(row), bpp)
              if row[i:i + 3] == b'\xd6\x27\x28')
    green = sum(1 for row in rows for i in range(0, len(row), bpp)
                if row[i:i + 3] == b'\x2c\xa0\x2c')
    if apart >= 200:
        t.check(red > 100, 'screenshot: the p99 line drawn (%d px; %.0f px '
                'of it apart from p99.9\'s)' % (red, apart))
    else:
        t.check(red + green > 100, 'screenshot: the p99 and p99.9 lines '
                'drawn, p99.9 over p99 where they meet (%d + %d px; %.0f px '
                'apart)' % (red, green, apart))
    tp.measure(t, d, page, nsvg)
    keep = os.environ.get('IBTEST_REPORT_KEEP')
    if keep:
        os.makedirs(keep, exist_ok=True)
        os.replace(shot, os.path.join(keep, os.path.basename(page) + '.png'))


def main():
    t = ibtest.Test()
    data = t.shm_file('data', 16 << 20)
    got = run_curve(t, data)
    if got:
        c, js, svg, page = got
        apart = check_svg(t, c, svg)
        check_table(t, c, page, 1)
        browser(t, page, 1, apart)
        r = t.run('plot', '-o', t.path('again.svg'), js)
        if t.ok(r, 'plot -o again.svg curve.json'):
            with open(svg) as a, open(t.path('again.svg')) as b:
                t.eq(b.read(), a.read(), 'plot of the JSON: the same SVG as --plot')
        run = t.path('run.json')
        r = t.run('--name=j', '--filename=' + data, '--size=16m', '--rw=randread',
                  '--bs=4k', '--ioengine=psync', '--output-format=json',
                  '--output=' + run)
        t.ok(r, 'a run for the mixed report')
        mixed = t.path('mixed.html')
        r = t.run('report', '-o', mixed, run, js)
        if t.ok(r, 'report run.json curve.json'):
            # a plain JSON run: no histogram made up from its percentiles,
            # the CDF and the curve
            text = check_table(t, c, mixed, 2)
            t.check('<h2>%s: latency versus load of job c</h2>' % js in text,
                    'mixed report: the curve\'s section named after its file')
            browser(t, mixed, 2, apart)
    bad = t.path('nodir/c.svg')
    r = t.run('curve', '--steps=1', '--name=c', '--filename=' + data, '--size=16m',
              '--rw=randread', '--bs=4k', '--ioengine=psync', '--runtime=1',
              '--time_based', '--plot=' + bad, timeout=120)
    t.eq((r.rc, r.out, r.err), (1, '', 'iobench: --plot: cannot write %s: No such '
                                'file or directory\n' % bad),
         'curve --plot into a missing directory: refused before the run')
    r = t.run('plot', '-o', t.path('bad.svg'), t.shm_file('bad.json',
              data=b'{"curve": {"job": "x"}}'))
    t.eq((r.rc, r.err), (1, 'iobench: plot: %s: curve: job, steps, slo_p99_ns or '
                         'points missing or bad\n' % t.path('bad.json')),
         'a broken curve document refused')
    t.finish()


if __name__ == '__main__':
    main()
