#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""iobench-mpi under mpirun on one machine, ranks oversubscribed, each
rank on its own tmpfs file: exact sums in the "All clients" block, its
histogram the sum of the per-rank json+ bins, its percentiles those of the
union of the per-rank clat logs (within one bucket), the per-host lines,
a killed job or rank, a bad target and a mismatch of options refused
before any I/O. argv[1]: the iobench-mpi binary. Skips (77) only without
mpirun."""
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import ibtest

MPIRUN = shutil.which('mpirun')


def mpirun_args(np):
    """mpirun's options for np ranks on this one machine."""
    ver = subprocess.run([MPIRUN, '--version'], capture_output=True,
                         text=True).stdout + ''
    if 'Open MPI' in ver or 'OpenRTE' in ver:
        return ['--allow-run-as-root', '--oversubscribe', '-np', str(np)]
    return ['-np', str(np)]  # MPICH's hydra oversubscribes as it is


def mpi(t, np, *args, timeout=120):
    return t.run(*(mpirun_args(np) + [t.bin] + list(args)), prog=MPIRUN,
                 env=ibtest.mpi_env(), timeout=timeout)


def hist_index(v):
    """ib_hist_index (hist.h): fio's log-linear bucket of v ns."""
    if v < 128:
        return v
    msb = v.bit_length() - 1
    e = msb - 6
    return min((e + 1) * 64 + ((v >> e) & 63), 38 * 64 - 1)


def clat_log(path):
    """{ddir: [clat ns]} of a per-I/O log."""
    vals = {0: [], 1: []}
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(',')]
            vals[int(parts[2])].append(int(parts[1]))
    return vals


def check_sums(t, entries, agg):
    for d in ('read', 'write'):
        for k in ('total_ios', 'io_bytes', 'short_ios'):
            t.eq(agg[d][k], sum(e[d][k] for e in entries),
                 'All clients %s %s is the sum of the ranks\'' % (d, k))
        t.eq(agg[d]['clat_ns']['N'], sum(e[d]['clat_ns']['N'] for e in entries),
             'All clients %s clat N' % d)
        binsum = {}
        for e in entries:
            for b, n in e[d]['clat_ns']['bins'].items():
                binsum[b] = binsum.get(b, 0) + n
        t.eq(agg[d]['clat_ns']['bins'], binsum,
             'All clients %s clat bins = sum of the ranks\' bins' % d)


def check_percentiles(t, agg, logs):
    for di, d in enumerate(('read', 'write')):
        vals = sorted(v for lg in logs for v in lg[di])
        t.eq(len(vals), agg[d]['clat_ns']['N'], '%s: one log entry per I/O' % d)
        if not vals:
            continue
        for p, got in agg[d]['clat_ns']['percentile'].items():
            k = max(1, math.ceil(float(p) / 100.0 * len(vals)))
            want = vals[k - 1]
            t.check(abs(hist_index(want) - hist_index(got)) <= 1,
                    '%s p%s: %d from the union of the logs, %d reported: '
                    'not within one bucket' % (d, p, want, got))


def test_plain_binary(t):
    """The plain iobench next to it never links MPI."""
    plain = os.path.join(os.path.dirname(t.bin), 'iobench')
    if not os.path.exists(plain):
        t.skip('%s not built' % plain)
        return
    p = subprocess.run(['ldd', plain], capture_output=True, text=True)
    if t.eq(p.returncode, 0, 'ldd iobench', p.stderr):
        t.check('libmpi' not in p.stdout, 'iobench does not link MPI', p.stdout)


def test_merge(t, np=4):
    """Exact sums, bins, percentiles, per-host lines, one file per rank."""
    jpath = t.path('merge.json')
    r = mpi(t, np, '--name=j', '--filename=' + t.path('m.$rank'), '--size=2M',
            '--rw=randrw', '--bs=4k', '--ioengine=psync', '--randseed=7',
            '--write_lat_log=' + t.path('lat.$rank'),
            '--output-format=normal,json+', '--json-output=' + jpath)
    if not t.ok(r, 'mpirun -np %d' % np):
        return
    for k in range(np):
        t.eq(ibtest.size_of(t.path('m.%d' % k)), 2 << 20, 'rank %d file' % k)
    with open(jpath) as f:
        doc = json.load(f)
    t.check('jobs' not in doc, 'client mode: no "jobs" array')
    cs = doc['client_stats']
    per = [e for e in cs if e['jobname'] == 'j']
    agg = [e for e in cs if e['jobname'] == 'All clients']
    t.eq(sorted(e['rank'] for e in per), list(range(np)), 'one entry per rank')
    t.eq(len(agg), 1, 'one All clients entry')
    t.eq([h['rank'] for h in doc['hosts']], list(range(np)), 'hosts section')
    t.eq(doc['hosts'][0]['clock_offset_ns'], 0, 'rank 0 is the clock reference')
    t.check(all(h['clock_rtt_ns'] > 0 for h in doc['hosts'][1:]),
            'round trips measured', doc['hosts'])
    t.eq(sum(e['read']['io_bytes'] + e['write']['io_bytes'] for e in per),
         np * (2 << 20), 'every rank did its 2 MiB')
    if len(agg) != 1:
        return
    check_sums(t, per, agg[0])
    logs = [clat_log(t.path('lat.%d_clat.1.log' % k)) for k in range(np)]
    check_percentiles(t, agg[0], logs)
    host = doc['hosts'][0]['hostname']
    for k in range(np):
        t.check(re.search(r'^<%s:%d> j: \(groupid=0, jobs=1\): err= 0' %
                          (re.escape(host), k), r.out, re.M),
                'per-host line of rank %d' % k, r)
    t.check(re.search(r'^All clients: \(groupid=0, jobs=%d\): err= 0' % np,
                      r.out, re.M), 'All clients block', r)
    first_block = r.out.find('> j: (groupid=0')
    for k in range(np):
        hdr = r.out.find('<%s:%d> Starting 1 process\n' % (host, k))
        t.check(0 <= hdr < first_block, 'header of rank %d before the reports' % k, r)
    t.check(re.search(r'^   READ: bw=.*io=4\d{3}KiB', r.out, re.M),
            'All clients group line sums the reads', r)
    for k in range(np):
        t.check(re.search(r'^  <%s:%d> offset=%d ns, rtt=%d ns, start=[+-]\d+\.\d{3} ms$' %
                          (re.escape(host), k, doc['hosts'][k]['clock_offset_ns'],
                           doc['hosts'][k]['clock_rtt_ns']), r.out, re.M),
                'clock line of rank %d' % k, r)


def test_split(t):
    """--mpi-split deals the clones out: numjobs=5 on 2 ranks is 3 + 2;
    fewer jobs than ranks is refused once, by rank 0."""
    r = mpi(t, 2, '--mpi-split', '--name=j', '--filename=' + t.path('s.$rank'),
            '--size=1M', '--rw=randread', '--bs=4k', '--ioengine=psync',
            '--numjobs=5', '--output-format=json')
    if not t.ok(r, '--mpi-split'):
        return
    cs = json.loads(r.out)['client_stats']
    t.eq([e['rank'] for e in cs], [0, 0, 0, 1, 1, -1], 'clones per rank')
    t.eq([e['read']['total_ios'] for e in cs], [256] * 5 + [5 * 256],
         'each clone read its 1 MiB once; All clients the sum')
    r = mpi(t, 3, '--mpi-split', '--name=j', '--filename=' + t.path('s.$rank'),
            '--size=1M', '--numjobs=2')
    t.eq(r.rc, 1, 'fewer jobs than ranks: exit status', r)
    t.eq(r.err.count('--mpi-split: 2 jobs for 3 ranks'), 1, 'said once', r)


def procs():
    """{pid: (ppid, comm)} of every process."""
    out = {}
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % p) as f:
                s = f.read()
        except OSError:
            continue
        comm = s[s.index('(') + 1:s.rindex(')')]
        out[int(p)] = (int(s[s.rindex(')') + 2:].split()[1]), comm)
    return out


def holders(path):
    """Pids with path open."""
    pids = []
    for p in os.listdir('/proc'):
        if not p.isdigit():
            continue
        try:
            fds = os.listdir('/proc/%s/fd' % p)
            if any(os.readlink('/proc/%s/fd/%s' % (p, fd)) == path for fd in fds):
                pids.append(int(p))
        except OSError:
            continue
    return pids


def start_bg(t, np, *args):
    argv = [MPIRUN] + mpirun_args(np) + [t.bin] + list(args)
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=ibtest.mpi_env(), cwd=t.dir,
                            start_new_session=True)


def wait_for(fn, secs):
    end = time.time() + secs
    while time.time() < end:
        v = fn()
        if v:
            return v
        time.sleep(0.1)
    return None


def job_pid(path):
    """The job process doing I/O on path: a holder two forks below the
    rank (rank -> job runner helper -> job), all three the same program.
    The helper holds the file too while it lays it out and probes it, and
    may be the only holder then: it is not the job."""
    ps = procs()

    def comm(p):
        return ps.get(p, (0, None))[1]

    def parent(p):
        return ps.get(p, (0,))[0]

    jobs = [p for p in holders(path)
            if comm(parent(p)) == comm(p) and comm(parent(parent(p))) == comm(p)]
    return jobs[0] if len(jobs) == 1 else None


def test_killed_job(t, np=3):
    """A job process of rank 1 killed: named by host and rank, the other
    ranks stop early (runtime=60 does not run out), exit status 1."""
    p = start_bg(t, np, '--name=j', '--filename=' + t.path('k.$rank'),
                 '--size=1M', '--rw=randread', '--bs=4k', '--ioengine=psync',
                 '--time_based', '--runtime=60', '--output-format=json')
    t0 = time.time()
    victim = wait_for(lambda: job_pid(t.path('k.1')), 30)
    if not t.check(victim, 'job process of rank 1 found'):
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return
    time.sleep(0.5)
    os.kill(victim, signal.SIGKILL)
    out, err = p.communicate(timeout=60)
    r = ibtest.Result(p.args, p.returncode, out, err)
    t.eq(p.returncode, 1, 'exit status after a killed job', r)
    t.check(time.time() - t0 < 30, 'the other ranks stopped early', r)
    t.check(re.search(r"host \S+ rank 1: job 'j' \(pid %d\) failed: job process "
                      r"%d killed by signal 9" % (victim, victim), err),
            'the killed job named by host and rank', r)
    t.check('1 of %d ranks failed; the others were stopped' % np in err,
            'summary line', r)
    try:
        cs = json.loads(out)['client_stats']
    except (ValueError, KeyError):
        t.check(False, 'report still printed', r)
        return
    by_rank = {e['rank']: e for e in cs}
    t.check(by_rank[1]['error'] != 0, 'rank 1 entry has the error', r)
    for k in (0, 2):
        t.check(by_rank[k]['error'] == 0 and by_rank[k]['read']['total_ios'] > 0,
                'rank %d ran and stopped cleanly' % k, r)


def rank_pid(rank):
    """The iobench-mpi process of that rank (not its helper or jobs)."""
    ps = procs()
    for pid, (ppid, comm) in ps.items():
        if comm != 'iobench-mpi' or ps.get(ppid, (0, ''))[1] == 'iobench-mpi':
            continue
        try:
            with open('/proc/%d/environ' % pid, 'rb') as f:
                e = f.read().split(b'\0')
        except OSError:
            continue
        for key in (b'OMPI_COMM_WORLD_RANK=', b'PMI_RANK='):
            if key + str(rank).encode() in e:
                return pid
    return None


def test_interrupt(t, np=3):
    """SIGUSR1 to mpirun (forwarded to every rank), then SIGTERM to one rank
    process: every rank stops early together, the report is whole, 130."""
    for how in ('mpirun', 'rank'):
        p = start_bg(t, np, '--name=j', '--filename=' + t.path('i.$rank'),
                     '--size=1M', '--rw=randread', '--bs=4k', '--ioengine=psync',
                     '--time_based', '--runtime=60', '--output-format=json')
        if not t.check(wait_for(lambda: job_pid(t.path('i.%d' % (np - 1))), 30),
                       'running (%s)' % how):
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            continue
        time.sleep(1)
        os.kill(p.pid if how == 'mpirun' else rank_pid(1),
                signal.SIGUSR1 if how == 'mpirun' else signal.SIGTERM)
        out, err = p.communicate(timeout=60)
        r = ibtest.Result(p.args, p.returncode, out, err)
        t.eq(p.returncode, 130, 'interrupted via %s: exit status' % how, r)
        t.check('iobench-mpi: interrupted: the report covers' in err,
                'interrupted via %s: said' % how, r)
        try:
            cs = json.loads(out)['client_stats']
        except (ValueError, KeyError):
            t.check(False, 'interrupted via %s: whole JSON report' % how, r)
            continue
        t.eq(len(cs), np + 1, 'interrupted via %s: every rank reported' % how)
        t.check(all(0 < e['read']['runtime'] < 30000 and e['error'] == 0 for e in cs),
                'interrupted via %s: all stopped early, no error' % how, r)


def test_killed_rank(t, np=3):
    """A rank process killed outright: mpirun says which, exits non-zero,
    and no job process of that rank is left doing I/O."""
    p = start_bg(t, np, '--name=j', '--filename=' + t.path('x.$rank'),
                 '--size=1M', '--rw=randread', '--bs=4k', '--ioengine=psync',
                 '--time_based', '--runtime=60')
    ok = wait_for(lambda: job_pid(t.path('x.2')), 30)
    victim = rank_pid(2)
    if not t.check(ok and victim, 'rank 2 found running'):
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return
    os.kill(victim, signal.SIGKILL)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
    r = ibtest.Result(p.args, p.returncode, out, err)
    t.check(p.returncode != 0, 'mpirun fails when a rank is killed', r)
    t.check(re.search(r'rank 2', err, re.I), 'the killed rank is named', r)
    t.check(wait_for(lambda: not holders(t.path('x.2')), 10),
            'no process of the killed rank left on its file', r)


def test_refusals(t):
    """A bad target on one rank, or options that differ between ranks:
    refused before any I/O, named by host and rank."""
    os.mkdir(t.path('b.1'))
    r = mpi(t, 2, '--name=j', '--filename=' + t.path('b.$rank'), '--size=1M',
            '--rw=write', '--ioengine=psync')
    t.eq(r.rc, 1, 'bad target on rank 1: exit status', r)
    t.check(re.search(r'^iobench-mpi: host \S+ rank 1: .*b\.1', r.err, re.M),
            'bad target named by host and rank', r)
    t.check(not os.path.exists(t.path('b.0')), 'rank 0 wrote nothing', r)
    common = ['--name=j', '--filename=' + t.path('d.$rank'), '--rw=write',
              '--ioengine=psync']
    argv = (mpirun_args(1) + [t.bin] + common + ['--size=1M', ':'] +
            mpirun_args(1)[-2:] + [t.bin] + common + ['--size=2M'])
    r = t.run(*argv, prog=MPIRUN, env=ibtest.mpi_env())
    t.eq(r.rc, 1, 'options differ between ranks: exit status', r)
    t.check(re.search(r'rank 1: options or job files differ from rank 0', r.err),
            'mismatch named', r)
    t.check(not os.path.exists(t.path('d.0')) and not os.path.exists(t.path('d.1')),
            'mismatch: no file written', r)
    r = mpi(t, 2, '--name=j', '--filename=' + t.path('o.$rank'), '--size=1M',
            '--rw=write', '--ioengine=psync', '--output=' + t.path('no/such/dir/out'))
    t.eq(r.rc, 1, 'bad --output: exit status', r)
    t.check(re.search(r'^iobench-mpi: host \S+ rank 0: cannot write .*no/such/dir/out',
                      r.err, re.M), 'bad --output named', r)
    t.check(not os.path.exists(t.path('o.0')), 'bad --output: no file written', r)
    job = t.shm_file('p.fio', data=('[j]\nfilename=%s\nsize=1M\nrw=write\n'
                                    'ioengine=psync\n' % t.path('p.$rank')).encode())
    argv = (mpirun_args(1) + [t.bin, job, ':'] + mpirun_args(1)[-2:] +
            [t.bin, t.path('missing.fio')])
    r = t.run(*argv, prog=MPIRUN, env=ibtest.mpi_env())
    t.eq(r.rc, 1, 'a job file missing on rank 1: exit status', r)
    t.check(re.search(r'^iobench-mpi: host \S+ rank 1: .*missing\.fio', r.err, re.M),
            'parse error named by host and rank', r)
    t.check(not os.path.exists(t.path('p.0')), 'parse error: no file written', r)


def test_io_error(t):
    """Rank 1's file on a 1 MiB tmpfs: a file to read that cannot be laid
    out stops every rank before the run; ENOSPC while running (a sparse file made
    before) stops the others early. Both named by host and rank, status 1."""
    mnt = t.small_tmpfs('tiny', '1m')
    if not mnt:
        return
    os.symlink(os.path.join(mnt, 'lay'), t.path('lay.1'))
    r = mpi(t, 2, '--name=j', '--filename=' + t.path('lay.$rank'), '--size=4M',
            '--rw=read', '--bs=64k', '--ioengine=psync')
    t.eq(r.rc, 1, 'layout fails on rank 1: exit status', r)
    t.check(re.search(r"^iobench-mpi: host \S+ rank 1: job 'j': .*No space left",
                      r.err, re.M), 'layout failure named by host and rank', r)
    t.check('All clients' not in r.out, 'no run, no report', r)
    with open(os.path.join(mnt, 'run'), 'wb') as f:
        f.truncate(4 << 20)     # sparse: laid out already, fills up on write
    os.symlink(os.path.join(mnt, 'run'), t.path('run.1'))
    r = mpi(t, 2, '--name=j', '--filename=' + t.path('run.$rank'), '--size=4M',
            '--rw=write', '--bs=64k', '--ioengine=psync', '--time_based',
            '--runtime=60', '--output-format=json')
    t.eq(r.rc, 1, 'ENOSPC on rank 1 while running: exit status', r)
    t.check(re.search(r"host \S+ rank 1: job 'j' \(pid \d+\) failed: .*No space left",
                      r.err), 'I/O error named by host and rank', r)
    try:
        cs = {e['rank']: e for e in json.loads(r.out)['client_stats']}
    except (ValueError, KeyError):
        t.check(False, 'report printed', r)
        return
    t.check(cs[1]['error'] != 0 and cs[0]['error'] == 0, 'error on rank 1 only', r)
    # stopped long before runtime=60 ran out; 0 ms when rank 1's first write
    # failed before rank 0's job had run a millisecond (seen under load)
    t.check(0 <= cs[0]['write']['runtime'] < 30000, 'rank 0 stopped early', r)
    t.check('1 of 2 ranks failed; the others were stopped' in r.err,
            'the others stopped, said', r)


def test_default_names(t):
    """Generated names carry host and rank (fio's unique_filename)."""
    d = t.mkdir('names')
    r = mpi(t, 2, '--name=g', '--directory=' + d, '--size=64k', '--rw=write',
            '--ioengine=psync', '--output-format=json')
    if not t.ok(r, 'generated names'):
        return
    host = json.loads(r.out)['hosts'][0]['hostname']
    t.eq(sorted(os.listdir(d)), ['%s.%d.g.0.0' % (host, k) for k in (0, 1)],
         'one file per rank')


class Netns:
    """Two network namespaces joined by a veth pair (10.77.N.1 and .2),
    deleted at the end; ok is False (a skip) when they cannot be made."""

    def __init__(self, t):
        tag = str(os.getpid() % 100000)
        self.ns = ['ibA' + tag, 'ibB' + tag]
        self.net = '10.77.%d' % (os.getpid() % 250)
        self.ip = [self.net + '.1', self.net + '.2']
        dev = ['ibva' + tag, 'ibvb' + tag]
        cmds = [['ip', 'netns', 'add', self.ns[0]], ['ip', 'netns', 'add', self.ns[1]],
                ['ip', 'link', 'add', dev[0], 'type', 'veth', 'peer', 'name', dev[1]]]
        for k in (0, 1):
            cmds += [['ip', 'link', 'set', dev[k], 'netns', self.ns[k]],
                     ['ip', '-n', self.ns[k], 'addr', 'add', self.ip[k] + '/24',
                      'dev', dev[k]],
                     ['ip', '-n', self.ns[k], 'link', 'set', dev[k], 'up'],
                     ['ip', '-n', self.ns[k], 'link', 'set', 'lo', 'up']]
        self.why = None
        for c in cmds:
            p = subprocess.run(c, capture_output=True, text=True)
            if p.returncode:
                self.why = '%s: %s' % (' '.join(c), p.stderr.strip())
                break

    def close(self):
        for n in self.ns:
            subprocess.run(['ip', 'netns', 'del', n], capture_output=True)


def test_two_netns(t):
    """Two ranks in two network namespaces (hosts hA and hB, each with its
    own hostname), Open MPI's TCP transport over the veth pair only, the
    remote "host" reached by a stand-in for ssh: nothing assumes one host."""
    ver = subprocess.run([MPIRUN, '--version'], capture_output=True, text=True).stdout
    if not shutil.which('ip') or not shutil.which('unshare') or 'Open MPI' not in ver:
        t.skip('two network namespaces: needs ip, unshare and Open MPI')
        return
    ns = Netns(t)
    try:
        if ns.why:
            t.skip('network namespaces: ' + ns.why)
            return
        agent = t.path('netns-ssh.sh')
        with open(agent, 'w') as f:
            f.write('#!/bin/sh\n# "ssh HOST CMD": HOST is the second namespace\n'
                    'shift\nexec ip netns exec %s unshare --uts sh -c '
                    '"hostname hB; $*"\n' % ns.ns[1])
        os.chmod(agent, 0o755)
        hosts = t.shm_file('hosts', data=('%s slots=1\n%s slots=1\n' % tuple(ns.ip)).encode())
        job = ' '.join([t.bin, '--name=j', "--filename='%s'" % t.path('n.$hostname.$rank'),
                        '--size=1M', '--rw=randread', '--bs=4k', '--ioengine=psync',
                        '--output-format=json'])
        cmd = ('hostname hA; exec %s --allow-run-as-root --hostfile %s '
               '--mca plm_rsh_agent %s --mca btl self,tcp '
               '--mca btl_tcp_if_include %s.0/24 --mca oob_tcp_if_include %s.0/24 '
               '-np 2 %s' % (MPIRUN, hosts, agent, ns.net, ns.net, job))
        r = t.run('netns', 'exec', ns.ns[0], 'unshare', '--uts', 'sh', '-c', cmd,
                  prog='ip', env=ibtest.mpi_env())
        if not t.ok(r, 'two ranks in two network namespaces'):
            return
        doc = json.loads(r.out)
        t.eq([(h['hostname'], h['rank']) for h in doc['hosts']],
             [('hA', 0), ('hB', 1)], 'one host per namespace')
        t.check(doc['hosts'][1]['clock_rtt_ns'] > 0, 'round trip over the veth pair')
        t.eq([(e['hostname'], e['read']['total_ios']) for e in doc['client_stats']],
             [('hA', 256), ('hB', 256), ('All clients', 512)], 'per host and all')
        for f in ('n.hA.0', 'n.hB.1'):
            t.eq(ibtest.size_of(t.path(f)), 1 << 20, '%s: named by host and rank' % f)
    finally:
        ns.close()


def main():
    t = ibtest.mpi_test(MPIRUN)
    test_plain_binary(t)
    test_merge(t)
    test_refusals(t)
    test_io_error(t)
    test_default_names(t)
    test_split(t)
    test_killed_job(t)
    test_interrupt(t)
    test_killed_rank(t)
    test_two_netns(t)
    t.finish()


if __name__ == '__main__':
    sys.exit(main())
