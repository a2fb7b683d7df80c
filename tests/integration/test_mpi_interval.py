#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""--interval-json and --status-interval under iobench-mpi (doc/mpi.md),
and the "never started" count of the "All clients" block with rates.
mpirun with two oversubscribed ranks, each running two null jobs, a
reader at 2000 IOPS and a writer at 1000, 2 s, intervals of 500 ms.

--interval-json=FILE: rank 0 writes every rank's lines to FILE, rank
after rank, each line's first fields "hostname" and "rank"; a rank's
lines of a job sum to that job's entry in the report's client_stats
exactly (I/Os, bytes, latency samples, merged bins = the final histogram),
one "final" line each, the last. --interval-json=- goes to stdout with
the report in a file, and is refused (one line, nothing written) when
the report goes to stdout too. --status-interval is refused with one
line naming it (iobench-mpi prints no report before the end).

Never started: rate_iops=N rates both directions; the direction a job
does not do counts none, and the "All clients" count of a direction is
the sum of the hosts' (normal and JSON reports). Skips (77) only
without Open MPI (mpirun)."""
import json
import os
import re
import shutil
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

MPIRUN = shutil.which('mpirun')
JOBS = ('--ioengine=null', '--bs=4k', '--size=1g', '--time_based', '--runtime=2',
        '--interval=500ms', '--name=a', '--rate_iops=2000',
        '--name=b', '--rw=write', '--rate_iops=1000')
DIRS = ('read', 'write')
DOES = {'a': 'read', 'b': 'write'}
NEVER = re.compile(r'^(<\S+:\d+> )?\s*late starts: .*never started=(\d+)$')


def mpirun(t, *args, timeout=120):
    return t.run('--allow-run-as-root', '--oversubscribe', '-np', '2',
                 *t.argv(*args), prog=MPIRUN, env=ibtest.mpi_env(), timeout=t.scaled(timeout))


def read_lines(t, path):
    try:
        with open(path) as f:
            return [json.loads(ln) for ln in f]
    except (OSError, ValueError) as e:
        t.check(False, '%s: one JSON object per line' % path, e)
        return []


def merged_bins(lines, d):
    out = {}
    for ln in lines:
        for k, v in ln.get(d, {}).get('lat_ns', {}).get('bins', {}).items():
            out[k] = out.get(k, 0) + v
    return out


def check_job(t, lines, entry, what):
    """A rank's lines of one job against its client_stats entry."""
    finals = [i for i, ln in enumerate(lines) if ln['final']]
    t.eq(finals, [len(lines) - 1], '%s: one final line, the last' % what)
    t.check(all(ln['time_ms'] % 500 == 0 for ln in lines[:-1]),
            '%s: the intervals on the 500 ms grid' % what, [ln['time_ms'] for ln in lines])
    for d in DIRS:
        fin = entry[d]
        got = (sum(ln.get(d, {}).get('ios', 0) for ln in lines),
               sum(ln.get(d, {}).get('bytes', 0) for ln in lines),
               sum(ln.get(d, {}).get('lat_ns', {}).get('n', 0) for ln in lines))
        t.eq(got, (fin['total_ios'], fin['io_bytes'], fin['clat_ns']['N']),
             '%s %s: interval sums = final I/Os, bytes, latency samples' % (what, d))
        want = {k: v for k, v in fin['clat_ns'].get('bins', {}).items() if v}
        t.eq(merged_bins(lines, d), want, '%s %s: merged bins = final histogram' % (what, d))
    t.check(entry[DOES[entry['jobname']]]['total_ios'] > 0, '%s: the job did I/O' % what)


def check_stream(t, lines, doc):
    host = socket.gethostname()
    t.check(lines, 'stream lines written')
    t.check(all(list(ln)[:3] == ['hostname', 'rank', 'type'] for ln in lines),
            'every line starts with hostname, rank', lines[:1])
    t.eq(sorted({(ln['hostname'], ln['rank']) for ln in lines}), [(host, 0), (host, 1)],
         'lines of both ranks, named by host')
    ranks = [ln['rank'] for ln in lines]
    t.eq(ranks, sorted(ranks), 'rank 0\'s lines, then rank 1\'s')
    hosts = [e for e in doc.get('client_stats', []) if e.get('rank', -1) >= 0]
    t.eq(len(hosts), 4, 'client_stats: two jobs per rank')
    for e in hosts:
        mine = [ln for ln in lines if ln['rank'] == e['rank'] and
                ln['type'] == 'job' and ln['jobname'] == e['jobname']]
        if t.check(mine, 'rank %d job %s: lines' % (e['rank'], e['jobname'])):
            check_job(t, mine, e, 'rank %d job %s' % (e['rank'], e['jobname']))


def check_never(t, text, doc):
    """Never started: none in a direction a job does not do, All clients = sum."""
    ents = doc.get('client_stats', [])
    hosts = [e for e in ents if e.get('rank', -1) >= 0]
    alls = [e for e in ents if e.get('jobname') == 'All clients']
    if not t.eq(len(alls), 1, 'one All clients entry (one group)'):
        return
    for e in hosts:
        other = 'write' if DOES[e['jobname']] == 'read' else 'read'
        t.eq(e[other]['late']['unstarted'], 0,
             'rank %d job %s: never started in %s, a direction it does not do'
             % (e['rank'], e['jobname'], other))
    sums = [sum(e[d]['late']['unstarted'] for e in hosts) for d in DIRS]
    t.eq([alls[0][d]['late']['unstarted'] for d in DIRS], sums,
         'JSON All clients: never started = the hosts\' sum, per direction')
    host_vals, all_vals = [], []
    for ln in text.splitlines():
        m = NEVER.match(ln)
        if m:
            (host_vals if m.group(1) else all_vals).append(int(m.group(2)))
    # each host: job a's read line, job b's write line; All clients: read, write
    t.eq(len(host_vals), 4, 'normal: a never started count per job per host', text[-3000:])
    t.eq(all_vals, [sum(host_vals[0::2]), sum(host_vals[1::2])],
         'normal All clients: never started = the hosts\' sum, per direction', text[-3000:])
    t.eq(all_vals, sums, 'normal and JSON All clients agree')


def test_plain(t):
    """The plain binary (next to iobench-mpi): the same per-job facts."""
    exe = os.path.join(os.path.dirname(t.bin), 'iobench')
    if not os.access(exe, os.X_OK):
        return
    r = t.run(*JOBS[:-5], '--runtime=1', '--output-format=json', '--name=a',
              '--rate_iops=2000', '--name=b', '--rw=write', '--rate_iops=1000', exe=exe)
    if not t.ok(r, 'iobench, the same jobs'):
        return
    for j in json.loads(r.out)['jobs']:
        other = 'write' if DOES[j['jobname']] == 'read' else 'read'
        t.eq(j[other]['late']['unstarted'], 0,
             'iobench job %s: never started in %s, a direction it does not do'
             % (j['jobname'], other))


def test_file(t):
    out, js, st = t.path('r.txt'), t.path('r.json'), t.path('s.ndjson')
    r = mpirun(t, *JOBS, '--output-format=normal,json+', '--output=' + out,
               '--json-output=' + js, '--interval-json=' + st)
    if not t.ok(r, '--interval-json=FILE'):
        return
    doc = t.load_json(js)
    check_stream(t, read_lines(t, st), doc)
    with open(out) as f:
        check_never(t, f.read(), doc)


def test_stdout(t):
    js = t.path('o.json')
    r = mpirun(t, *JOBS[:-3], '--runtime=1', '--output-format=json',
               '--output=' + js, '--interval-json=-')
    if not t.ok(r, '--interval-json=- with the report in a file'):
        return
    try:
        lines = [json.loads(ln) for ln in r.out.splitlines() if ln.startswith('{')]
    except ValueError as e:
        t.check(False, 'stdout: JSON lines', e)
        return
    t.eq(sorted({ln['rank'] for ln in lines}), [0, 1], 'stdout: both ranks\' lines', r.out[:500])
    t.eq(len(lines), len(r.out.splitlines()), 'stdout: nothing but the lines', r.out[:500])
    doc = t.load_json(js)
    for e in doc.get('client_stats', [])[:2]:
        t.eq(sum(ln['read']['ios'] for ln in lines if ln['rank'] == e['rank']),
             e['read']['total_ios'], 'stdout: rank %d\'s lines sum to its reads' % e['rank'])


def refused(t, r, opt, what):
    if not t.fails(r, what):
        return
    mine = [ln for ln in r.err.splitlines() if ln.startswith('iobench-mpi')]
    t.eq(len(mine), 1, '%s: one line from iobench-mpi' % what, r.err)
    t.check(mine and opt in mine[0] and 'iobench-mpi' in mine[0],
            '%s: the line names %s' % (what, opt), r.err)
    t.check('All clients' not in r.out, '%s: no report' % what, r.out)


def test_refusals(t):
    st = t.path('never.ndjson')
    r = mpirun(t, *JOBS, '--interval-json=-')
    refused(t, r, '--interval-json', '--interval-json=- with the report on stdout')
    r = mpirun(t, *JOBS, '--status-interval=1s', '--interval-json=' + st)
    refused(t, r, '--status-interval', '--status-interval')
    t.check(not os.path.exists(st), '--status-interval refused: no stream file left')


def main():
    t = ibtest.mpi_test(MPIRUN)
    test_file(t)
    test_plain(t)
    test_stdout(t)
    test_refusals(t)
    t.finish()


if __name__ == '__main__':
    main()
