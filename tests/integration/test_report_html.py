#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench plot and report on real runs: the SVG files are valid XML with
their axes, labels and one path per series, drawn at the data (the CDF of
a json+ report against its bins; fio's own bw/iops/lat logs point by point;
a fio histogram log's CDF against its rows); `iobench report` writes one
self-contained HTML page (summary tables, every chart inline, the
comparison of the second run with the first, the JSON's sections beyond
fio's as written; a real run's environment and validity findings as
tables) that headless chromium renders
with no console message and every chart at full size (exit 77 only where no
browser is installed). The page's screenshot is kept in
$IBTEST_REPORT_KEEP when set. Usage: test_report_html.py IOBENCH
"""
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402
import test_plots as tp  # noqa: E402


def run_job(t, name, out, *extra):
    f = t.path('data')
    if not os.path.exists(f):
        t.shm_file('data', 16 << 20)
    r = t.run('--name=' + name, '--filename=' + f, '--size=16m', '--rw=randrw',
              '--bs=4k', '--ioengine=psync', '--output-format=json+',
              '--output=' + t.path(out), *extra)
    t.ok(r, 'run ' + out)
    return t.path(out)


def bins_of(path, ddir):
    """{bucket index: count} of a json+ report's clat bins."""
    with open(path) as f:
        bins = json.load(f)['jobs'][0][ddir]['clat_ns']['bins']
    c = {}
    for v, n in bins.items():
        i = tp.hist_index(int(v))
        c[i] = c.get(i, 0) + n
    return c


def values_of(c):
    return [tp.hist_value(i) for i, n in sorted(c.items()) for _ in range(n)]


def plot_json(t, a):
    svg = t.path('cdf.svg')
    r = t.run('plot', '-o', svg, a)
    t.ok(r, 'plot -o cdf.svg a.json')
    tp.check_cdf(t, svg, [('j read', bins_of(a, 'read')),
                          ('j write', bins_of(a, 'write'))])
    ch = tp.Chart(t, svg)
    t.eq((ch.x.scale, ch.y.scale, ch.texts.get('title')),
         ('nines', 'log', 'Completion latency CDF'),
         'cdf.svg: percentile on the nines scale, log latency, title')


def fio_logs(t):
    """fio 3.33's own logs of a short randrw run, per I/O (no averaging)."""
    pre = t.path('fl')
    r = t.fio('--name=fl', '--filename=' + t.path('data'), '--size=4m',
              '--rw=randrw', '--bs=4k', '--ioengine=psync', '--rate_iops=1500',
              '--runtime=1', '--time_based', '--write_bw_log=' + pre,
              '--write_iops_log=' + pre, '--write_lat_log=' + pre,
              '--write_hist_log=' + pre, '--log_hist_msec=10',
              '--output=' + t.path('fl.txt'))
    if r is None:
        t.skip('no fio: plots of fio logs not checked')
        return None
    t.ok(r, 'fio with logs')
    return pre


def plot_fio_logs(t, pre):
    # psync has no submission latency: fio's slat log is empty
    r = t.run('plot', '-o', t.path('slat.svg'), '%s_slat.1.log' % pre)
    t.eq((r.rc, r.err), (1, 'iobench: plot: nothing to plot in the files given\n'),
         'an empty log: nothing to plot, exit 1')
    for kind in ('bw', 'iops', 'clat', 'lat'):
        log = '%s_%s.1.log' % (pre, kind)
        svg = t.path('fio_%s.svg' % kind)
        r = t.run('plot', '-o', svg, log)
        if not t.ok(r, 'plot %s log' % kind):
            continue
        recs = tp.read_fio_log(log)
        ch = tp.Chart(t, svg)
        dirs = sorted({d for _, _, d in recs})
        t.eq([s.get('data-name') for s in ch.series],
             ['%s %s' % (os.path.basename(log), ('read', 'write')[d]) for d in dirs],
             '%s: one series per direction in the log' % kind)
        for s, d in zip(ch.series, dirs):
            pts = [(ms / 1000.0, v) for ms, v, dd in recs if dd == d]
            tp.check_line(t, ch, s, [p[0] for p in pts], [p[1] for p in pts],
                          '%s %s' % (kind, d), gaps=True)
    hist = '%s_clat_hist.1.log' % pre
    svg = t.path('fio_hist.svg')
    r = t.run('plot', '-o', svg, hist)
    if t.ok(r, 'plot histogram log'):
        rows = tp.read_hist_log(hist)
        series = []
        for d, name in ((0, 'read'), (1, 'write')):
            c = {}
            for _, dd, bins in rows:
                if dd == d:
                    for i, n in bins.items():
                        c[i] = c.get(i, 0) + n
            if c:
                series.append((name, c))
        tp.check_cdf(t, svg, series)
    page = t.path('fio.html')
    logs = ['%s_%s.1.log' % (pre, k) for k in ('bw', 'iops', 'clat', 'slat', 'lat')]
    r = t.run('plot', '-o', page, *(logs + [hist]))
    if t.ok(r, 'plot -o fio.html every log'):
        with open(page, encoding='utf-8') as f:
            text = f.read()
        # lat, clat, bw, iops lines (slat: empty); the histogram log's CDF, p99
        t.eq(text.count('<svg'), 6, 'fio.html: a chart per log kind + 2 for the histogram log')


def check_page(t, page, a):
    with open(page, encoding='utf-8') as f:
        text = f.read()
    p = tp.Page()
    p.feed(text)
    # per run: a histogram per direction + the CDF (2 x 3); the comparison:
    # iops, bw and p99 bars + a CDF per direction (5)
    t.eq((p.tags.get('svg'), p.tags.get('figure')), (11, 11), 'report: 11 charts inline')
    t.eq(p.cells[:12], ['job', 'dir', 'rw', 'bs', 'iodepth', 'IOPS', 'bw KiB/s',
                        'lat mean', 'p50', 'p90', 'p99', 'p99.9'],
         'report: summary table header')
    t.eq(p.cells[12:17], ['j', 'read', 'randrw', '4k', '1'], 'report: summary row')
    pct = tp.percentiles(bins_of(a, 'read'), tp.PCT)
    t.eq(p.cells[20:24], [fmt_ns(v) for v in pct], 'report: percentiles of the bins')
    t.check('<td>within noise</td>' in text or '<td>faster</td>' in text or
            '<td>slower</td>' in text, 'report: the comparison table')
    # every chart scales to the page's width: its viewBox its own drawing
    # size, shown 100% wide (height: auto keeps its proportions)
    heads = re.findall(r'<svg [^>]*>', text)
    t.eq([h for h in heads if not re.search(
        r'width="(\d+)" height="(\d+)" viewBox="0 0 \1 \2"', h)], [],
         'report: every svg has a viewBox of its width and height')
    t.eq(sorted({re.search(r'width="(\d+)"', h).group(1) for h in heads}),
         ['1340'], 'report: every chart drawn 1340 px wide')
    t.check(re.search(r'figure svg\{display:block;width:100%;[^}]*height:auto',
                      text),
            'report: the page shows each figure\'s svg at 100% width')
    t.eq(len(re.findall(r'<figure>\s*<svg ', text)), len(heads),
         'report: every svg in a figure')
    t.eq(re.findall(r'url\(|@import|<script|<link|<iframe|<img', text), [],
         'report: no external reference or script')
    urls = set(re.findall(r'[a-z]+://[^"\s<]*', text))
    t.eq(urls, {'http://www.w3.org/2000/svg'}, 'report: the only URL is the SVG namespace')
    # the first chart is run a's read histogram, drawn at the bins
    svg = text[text.index('<svg'):text.index('</svg>') + 6]
    one = t.path('first.svg')
    with open(one, 'w', encoding='utf-8') as f:
        f.write(svg)
    tp.check_hist(t, one, values_of(bins_of(a, 'read')))


def fmt_ns(v):
    """ib_chart_fmt_ns: three significant digits, trailing zeros dropped."""
    for unit, div in (('s', 1e9), ('ms', 1e6), ('us', 1e3)):
        if v >= div:
            x = v / div
            break
    else:
        unit, x = 'ns', float(v)
    s = ('%.3g' % x)
    if 'e' in s:
        s = '%d' % round(x)
    return s + unit


def browser(t, page):
    d = os.path.dirname(page)
    shot = os.path.join(d, 'report.png')
    r = tp.chromium(t, '--window-size=1000,6000', '--screenshot=' + shot,
                    'file://' + page)
    if r is None:
        t.skip('no chromium: the report is not rendered')
        return
    t.ok(r, 'chromium --screenshot')
    t.eq(tp.console(r), [], 'report: no console message')
    w, h, bpp, rows = tp.png_pixels(shot)
    white = sum(1 for row in rows for i in range(0, len(row), bpp)
                if row[i:i + 3] == b'\xff\xff\xff')
    t.check(white < 0.97 * w * h, 'screenshot not blank (%d%% white)' % (
        100 * white // (w * h)))
    if os.path.exists(os.path.join(d, 'report.html')):
        os.unlink(os.path.join(d, 'report.html'))
    shutil.copy(page, os.path.join(d, 'report.html'))
    tp.measure(t, d, os.path.join(d, 'report.html'), 11)
    keep = os.environ.get('IBTEST_REPORT_KEEP')
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(shot, os.path.join(keep, 'report.png'))
        shutil.copy(page, os.path.join(keep, 'report.html'))


def read_log_bs(path):
    """[(t_ms, ddir, bs)] of a fio log."""
    out = []
    with open(path) as f:
        for line in f:
            if line.strip():
                v = [int(x) for x in line.split(',')]
                out.append((v[0], v[2], v[3]))
    return out


def window_rates(recs, per, win=100):
    """Per window of win ms: the sum of per(bs) over its length (s)."""
    xs, ys = [], []
    if not recs:
        return xs, ys
    cur, acc = recs[0][0] // win, 0.0
    for ms, bs in recs:
        while cur < ms // win:
            xs.append((cur + 1) * win / 1000.0)
            ys.append(acc / (win / 1000.0))
            acc, cur = 0.0, cur + 1
        acc += per(bs)
    xs.append((cur + 1) * win / 1000.0)
    ys.append(acc / (win / 1000.0))
    return xs, ys


def run_options(t):
    """--plot, --report and --hist on a normal run."""
    svg, page, js = t.path('run.svg'), t.path('run.html'), t.path('run.json')
    f = t.path('data')
    base = ['--name=r', '--filename=' + f, '--size=8m', '--rw=randrw', '--bs=4k',
            '--ioengine=psync', '--eta=never']
    env = dict(os.environ, LC_ALL='C')
    r = t.run(*base, '--plot=' + svg, '--report=' + page, '--hist',
              '--output-format=normal,json+', '--json-output=' + js, env=env)
    if not t.ok(r, 'run --plot --report --hist'):
        return
    tp.check_cdf(t, svg, [('r read', bins_of(js, 'read')),
                          ('r write', bins_of(js, 'write'))])
    with open(page, encoding='utf-8') as fh:
        text = fh.read()
    t.eq(text.count('<svg'), 3, 'run --report: two histograms and the CDF')
    t.check('<h2>this run</h2>' in text, 'run --report: the run named')
    t.check('<h3>Validity findings</h3>' in text and '<caption>Host</caption>' in text,
            'run --report: the findings and the environment')
    lines = r.out.splitlines()
    heads = [i for i, x in enumerate(lines) if re.match(r'^r: (read|write) latency, \d+ samples$', x)]
    t.eq(len(heads), 2, '--hist: a histogram per direction')
    tail = lines[heads[0]:]
    t.eq([x for x in tail if len(x) > 80], [], '--hist: 80 columns')
    t.check(all(ord(ch) < 128 for x in tail for ch in x), '--hist: ASCII in the C locale')
    t.check(any('#' in x for x in tail), '--hist: ASCII bars')
    t.check(any(x.startswith('p50 ') for x in tail), '--hist: the percentiles line')
    env = dict(os.environ, LC_ALL='C.UTF-8')
    r = t.run(*base, '--hist', env=env)
    if t.ok(r, 'run --hist (UTF-8)'):
        lines = r.out.splitlines()
        heads = [i for i, x in enumerate(lines) if x.startswith('r: read latency')]
        tail = lines[heads[0]:] if heads else []
        t.check(any('\u2588' in x for x in tail), '--hist: block elements in UTF-8')
        t.eq([x for x in tail if len(x) > 80], [], '--hist UTF-8: 80 columns')
    # the logs the run wrote are charted on its page (per-I/O: 100 ms means)
    pre, page2 = t.path('rl'), t.path('run_logs.html')
    r = t.run(*base, '--runtime=1', '--time_based', '--write_bw_log=' + pre,
              '--write_lat_log=' + pre, '--write_iops_log=' + pre,
              '--report=' + page2)
    if t.ok(r, 'run with logs --report'):
        with open(page2, encoding='utf-8') as fh:
            text = fh.read()
        titles = re.findall(r'<text [^>]*class="title"[^>]*>([^<]*)</text>', text)
        t.eq(titles[3:], ['Latency over time', 'Completion latency over time',
                          'Bandwidth over time', 'IOPS over time'],
             'run --report: a chart per log kind written (slat: empty for psync)')
        caps = re.findall(r'<figcaption>([^<]*)</figcaption>', text)
        t.eq([c for c in caps if c in titles], [],
             'run --report: no caption repeats its chart\'s title')
        at = text.index('>Bandwidth over time<')
        bw = text[text.rindex('<svg', 0, at):text.index('</svg>', at)]
        t.eq(re.findall(r'<g class="series" data-name="([^"]*)"', bw),
             ['rl_bw.1.log read', 'rl_bw.1.log write'],
             'run --report: the bw chart has a line per direction')
        # per-I/O iops and bw logs: the rate of each 100 ms window
        for kind, title, per in (('iops', 'IOPS over time', lambda bs: 1.0),
                                 ('bw', 'Bandwidth over time', lambda bs: bs / 1024.0)):
            at = text.index('>%s<' % title)
            one = t.path('run_%s.svg' % kind)
            with open(one, 'w', encoding='utf-8') as fh:
                fh.write(text[text.rindex('<svg', 0, at):text.index('</svg>', at) + 6])
            ch = tp.Chart(t, one)
            recs = read_log_bs('%s_%s.1.log' % (pre, kind))
            for s_, dd in zip(ch.series, (0, 1)):
                xs, ys = window_rates([(ms, bs) for ms, d_, bs in recs if d_ == dd], per)
                tp.check_line(t, ch, s_, xs, ys, 'run %s %s: 100 ms rates' % (kind, dd),
                              gaps=True)
    r = t.run(*base, '--plot=' + t.path('x.png'))
    t.eq((r.rc, r.err), (1, "iobench: --plot: '%s' must end in .svg or .html\n" %
                         t.path('x.png')), '--plot=x.png refused')
    r = t.run(*base, '--report=' + t.path('x.svg'))
    t.eq(r.rc, 1, '--report=x.svg refused', r)


def extras(t, a):
    """Sections of the JSON beyond fio's (an environment, findings) are in
    the report as written."""
    with open(a) as f:
        d = json.load(f)
    d['environment'] = {'kernel': '6.1 <x>', 'cpu': {'model': 'Xeon', 'count': 2}}
    d['findings'] = ['runtime under 5 s', 'cpu <busy>']
    env = t.path('env.json')
    with open(env, 'w') as f:
        json.dump(d, f)
    page = t.path('env.html')
    r = t.run('report', '-o', page, env)
    if not t.ok(r, 'report of a JSON with an environment and findings'):
        return
    with open(page, encoding='utf-8') as f:
        text = f.read()
    t.check('<h2>environment</h2>\n<pre>kernel: 6.1 &lt;x&gt;\ncpu.model: Xeon\n'
            'cpu.count: 2\n</pre>\n' in text, 'report: the environment, escaped')
    t.check('<h2>findings</h2>\n<ul>\n<li>runtime under 5 s</li>\n'
            '<li>cpu &lt;busy&gt;</li>\n</ul>\n' in text, 'report: the findings as a list')
    t.eq(text.count('<h2>'), 3, 'report: the run, environment, findings headings')
    r = t.run('report', env)
    t.ok(r, 'report without -o')
    t.eq(r.out, text, 'report without -o: the same page on stdout')


def esc(s):
    return (s.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')
            .replace('"', '&quot;').replace("'", '&#39;'))


def env_findings(t, a):
    """A real run's environment and validity findings, drawn as tables: the
    verdict, a row per check that fired (as the JSON lists them), the
    replay table, the host facts and a row per target; not as raw text."""
    with open(a) as f:
        d = json.load(f)
    page = t.path('real.html')
    r = t.run('report', '-o', page, a)
    if not t.ok(r, 'report of a real run'):
        return
    with open(page, encoding='utf-8') as f:
        text = f.read()
    hits = [(h['severity'], j['jobname'], h['id']) for j in d['jobs']
            for h in j.get('iobench checks', [])]
    warn = sum(1 for h in hits if h[0] == 'warning')
    cls = 'warning' if warn else 'info' if hits else 'ok'
    t.check('<h3>Validity findings</h3>\n<p class="verdict %s">' % cls in text,
            'report: the findings verdict (%s)' % cls)
    rows = re.findall(r'<tr class="(warning|info)"><td>([^<]*)</td><td>[^<]*</td>'
                      r'<td>([^<]*)</td>', text)
    t.eq(rows, hits, 'report: a shaded row per check that fired')
    seed = d['jobs'][0]['random seed']['replay']
    t.check('<tr><td>j</td><td>%s</td>' % seed in text, 'report: the replay option')
    env = d['environment']
    t.check('<tr><td>host</td><td>%s</td></tr>' % esc(env['hostname']) in text,
            'report: the host fact')
    t.check('<tr><td>CPU</td><td>%d x %s</td></tr>' % (
        env['cpus_online'], esc(env['cpu_model'])) in text, 'report: the CPU fact')
    tg = env['targets'][0]
    t.check('<tr><td>%s</td><td>file</td>' % esc(tg['path']) in text,
            'report: the target row')
    t.check('<td>%s on %s, %s</td>' % (tg['filesystem']['type'],
                                       tg['filesystem']['mount_point'],
                                       tg['filesystem']['options']) in text,
            'report: the target\'s file system')
    t.eq(text.count('<h2>'), 1, 'report: the environment is no raw section')


def bad_args(t, a):
    for args, msg in ((['plot', a], 'needs -o FILE.svg or FILE.html'),
                      (['plot', '-o', t.path('x.png'), a], 'must end in .svg or .html'),
                      (['report', '-o', t.path('x.svg'), a], 'must end in .html'),
                      (['plot', '-o', t.path('x.svg')], 'needs at least one file'),
                      (['report', '-o', t.path('y.html'), t.path('none.json')],
                       'none.json')):
        r = t.run(*args)
        t.eq(r.rc, 1, ' '.join(args[:1]) + ': exit 1', r)
        t.check(msg in r.err, 'says %r' % msg, r)
    t.check(not os.path.exists(t.path('y.html')), 'no page left behind')


def check_cdf_from_pct(t, svg, plain):
    """The CDF of a plain JSON (percentile list 50:90:99, about 2000
    samples a direction, which would resolve 99.9): the x axis ends at the
    list's highest percentile; each direction a step up to each listed
    percentile's latency at the one before it, nothing beyond the list (the
    maximum not drawn), markers only up to 99; labels apart."""
    ch = tp.Chart(t, svg)
    t.eq([tk[0] for tk in ch.x.ticks], [0, 50, 90, 99],
         'plain CDF: nines ticks up to the list\'s highest, 99')
    with open(plain) as fh:
        job = json.load(fh)['jobs'][0]
    t.eq([g.get('data-name') for g in ch.series], ['p read', 'p write'],
         'plain CDF: a series per direction')
    for k, (s, dd) in enumerate(zip(ch.series, ('read', 'write'))):
        pct = sorted((float(p), v) for p, v in
                     job[dd]['clat_ns']['percentile'].items())
        t.eq([p for p, _ in pct], [50, 90, 99], 'plain %s: the list' % dd)
        want, prev = [], None
        for p, v in pct:
            y = ch.y.px(max(1, tp.hist_value(tp.hist_index(v))))
            if prev is not None:
                want.append(('L', prev, y))
            prev = ch.x.px(p)
            want.append(('L' if want else 'M', prev, y))
        ps = ch.paths(s)
        got = ch.points(ps[0]) if len(ps) == 1 else []
        t.eq(len(got), len(want), 'plain %s: 5 points (M, 2 steps)' % dd)
        t.eq([(w, g) for w, g in zip(want, got) if w[0] != g[0] or not
              (tp.close(w[1], g[1]) and tp.close(w[2], g[2]))], [],
             'plain %s: steps at the listed percentiles' % dd)
        t.eq([m.get('data-p') for m in s.iter(tp.NS + 'g')
              if m.get('class') == 'marker'], ['50', '90', '99'],
             'plain %s: markers within the list (p99.9 left out)' % dd)
        t.eq(ps[0].get('stroke-dasharray') if ps else '', '6 3' if k else None,
             'plain %s: %s' % (dd, 'dashed' if k else 'solid'))
    tp.check_labels_apart(t, ch)


def percentiles_only(t):
    """A plain JSON report (no bins): no histogram made up from its
    percentile list (it drew bars at exactly 10/20/30%), a note saying why,
    and the CDF captioned as drawn from the percentiles; json+ keeps its
    histograms."""
    f = t.path('data')
    plain = t.path('plain.json')
    r = t.run('--name=p', '--filename=' + f, '--size=16m', '--rw=randrw',
              '--bs=4k', '--ioengine=psync', '--output-format=json',
              '--percentile_list=90:50:99', '--output=' + plain)
    if not t.ok(r, 'plain JSON run'):
        return
    page = t.path('plain.html')
    r = t.run('report', '-o', page, plain)
    if not t.ok(r, 'report of a plain JSON file'):
        return
    with open(page) as fh:
        html = fh.read()
    t.eq((html.count('Latency histogram:'), html.count('No latency histogram'),
          html.count('CDF from the report&#39;s percentiles') +
          html.count("CDF from the report's percentiles")), (0, 1, 1),
         'plain JSON: no made-up histogram, the note, the CDF said to be of '
         'percentiles')
    cdf = t.path('plain_cdf.svg')
    with open(cdf, 'w') as fh:
        fh.write(html[html.rindex('<svg'):html.rindex('</svg>') + 6])
    check_cdf_from_pct(t, cdf, plain)
    page = t.path('plus.html')
    r = t.run('report', '-o', page, run_job(t, 'q', 'plus.json'))
    if t.ok(r, 'report of a json+ file'):
        with open(page) as fh:
            html = fh.read()
        t.eq((html.count('<title>Latency histogram:') > 0 or
              'Latency histogram: q read' in html,
              'No latency histogram' in html), (True, False),
             'json+: the histograms drawn, no note')


def main():
    t = ibtest.Test()
    a = run_job(t, 'j', 'a.json')
    b = run_job(t, 'j', 'b.json')
    plot_json(t, a)
    pre = fio_logs(t)
    if pre:
        plot_fio_logs(t, pre)
    page = t.path('report_ab.html')
    r = t.run('report', '-o', page, a, b)
    if t.ok(r, 'report -o report_ab.html a.json b.json'):
        check_page(t, page, a)
        browser(t, page)
    run_options(t)
    extras(t, a)
    env_findings(t, a)
    bad_args(t, a)
    percentiles_only(t)
    t.finish()


if __name__ == '__main__':
    main()
