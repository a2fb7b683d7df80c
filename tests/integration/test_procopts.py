#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Job placement, priorities and job control (issue 13): cpus_allowed,
cpumask, cpus_allowed_policy=split and numa_cpu_nodes seen in
/proc/PID/status Cpus_allowed_list; numa_mem_policy in numa_maps; nice in /proc/PID/stat; prio and
prioclass through `ionice -p`; ioscheduler on a loop device before, during
and after the run, also after one and two SIGINTs; exitall with each
exit_what, exitall_on_error (ENOSPC on a small tmpfs); --max-jobs.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB


def job_pids(pid, want, timeout=10):
    """The pids/tids of the running jobs of iobench `pid`: its children
    (process jobs) or its threads but the first (thread jobs)."""
    end = time.time() + timeout
    while time.time() < end:
        kids = []
        try:
            for tid in os.listdir('/proc/%d/task' % pid):
                with open('/proc/%d/task/%s/children' % (pid, tid)) as f:
                    kids += [int(x) for x in f.read().split()]
            tids = sorted(int(x) for x in os.listdir('/proc/%d/task' % pid)
                          if int(x) != pid)
        except OSError:
            return []
        got = sorted(kids) if kids else tids
        if len(got) >= want:
            return got
        time.sleep(0.05)
    return []


def status_field(pid, name):
    with open('/proc/%d/status' % pid) as f:
        for ln in f:
            if ln.startswith(name + ':'):
                return ln.split(':', 1)[1].strip()
    return None


def stat_nice(pid):
    with open('/proc/%d/stat' % pid) as f:
        return int(f.read().rsplit(')', 1)[1].split()[16])


def running(t, args, want_jobs, probe):
    """Start iobench with args (a 3 s time_based job), call probe(pids)
    once the jobs run, then wait for it. Returns (probe result, Result)."""
    p = subprocess.Popen(t.argv(*args), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=t.dir)
    pids = job_pids(p.pid, want_jobs)
    time.sleep(0.3)
    got = probe(pids) if len(pids) == want_jobs else None
    out, err = p.communicate(timeout=t.scaled(60))
    return got, ibtest.Result(args, p.returncode, out, err)


def base(t):
    f = t.shm_file('cpu.dat', size=1 << 20)
    return ['--filename=' + f, '--ioengine=psync', '--direct=0',
            '--time_based', '--runtime=3', '--bs=4k']


def test_cpus(t):
    ncpu = os.cpu_count()
    cases = [(['--cpus_allowed=0'], 1, ['0']),
             (['--cpumask=1'], 1, ['0'])]
    if ncpu >= 2:
        cases += [(['--cpus_allowed=1'], 1, ['1']),
                  (['--cpumask=0x3'], 1, ['0-1']),
                  (['--cpus_allowed=0-1', '--cpus_allowed_policy=split',
                    '--numjobs=2'], 2, ['0', '1']),
                  (['--cpus_allowed=0-1', '--numjobs=2', '--thread'], 2,
                   ['0-1', '0-1'])]
    if os.path.exists('/sys/devices/system/node/node0/cpulist'):
        with open('/sys/devices/system/node/node0/cpulist') as f:
            node0 = f.read().strip()
        cases.append((['--numa_cpu_nodes=0'], 1, [node0]))
    for extra, n, want in cases:
        got, r = running(t, ['--name=c'] + base(t) + extra, n,
                         lambda pids: [status_field(p, 'Cpus_allowed_list')
                                       for p in pids])
        t.ok(r, ' '.join(extra))
        t.eq(got, want, '%s: Cpus_allowed_list of the jobs' % ' '.join(extra))
    r = t.run('--name=c', *base(t), '--numa_cpu_nodes=63')
    t.fails(r, 'numa_cpu_nodes=63')
    t.check('numa_cpu_nodes: node 63 does not exist' in r.out + r.err,
            'numa_cpu_nodes=63: says so', r)


def test_nice_prio(t):
    if not shutil.which('ionice'):
        t.skip('ionice not installed')
        return
    cases = [(['--nice=5', '--prio=6'], (5, 'best-effort: prio 6')),
             (['--nice=-3', '--prioclass=3'], (-3, 'idle')),
             (['--prio=2', '--prioclass=1'], (0, 'realtime: prio 2')),
             (['--thread', '--nice=7', '--prio=1'], (7, 'best-effort: prio 1'))]
    for extra, want in cases:
        def probe(pids):
            p = subprocess.run(['ionice', '-p', str(pids[0])],
                               capture_output=True, text=True)
            return (stat_nice(pids[0]), p.stdout.strip())
        got, r = running(t, ['--name=n'] + base(t) + extra, 1, probe)
        t.ok(r, ' '.join(extra))
        t.eq(got, want, '%s: nice, ionice -p' % ' '.join(extra))


def scheduler(dev):
    with open('/sys/block/%s/queue/scheduler' % os.path.basename(dev)) as f:
        return f.read().split('[')[1].split(']')[0]


def test_ioscheduler(t):
    dev = t.loop_device(4 << 20, name='sched.img')
    if not dev:
        t.skip('no loop devices: ioscheduler')
        return
    with open('/sys/block/%s/queue/scheduler' % os.path.basename(dev)) as f:
        avail = f.read().replace('[', '').replace(']', '').split()
    other = [s for s in avail if s != scheduler(dev)]
    if not other:
        t.skip('one I/O scheduler only')
        return
    before, want = scheduler(dev), other[-1]
    args = ['--name=s', '--filename=' + dev, '--ioengine=psync', '--direct=0',
            '--ioscheduler=' + want]
    r = t.run(*args, '--size=64k')
    t.ok(r, 'ioscheduler size-based')
    t.eq(scheduler(dev), before, 'ioscheduler: restored after the run')
    for sigs in (1, 2):
        p = subprocess.Popen(t.argv(*args, '--time_based', '--runtime=30'),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, cwd=t.dir)
        job_pids(p.pid, 1)
        time.sleep(0.5)
        t.eq(scheduler(dev), want, 'ioscheduler: during the run')
        for _ in range(sigs):
            p.send_signal(signal.SIGINT)
            time.sleep(0.1)
        out, err = p.communicate(timeout=t.scaled(30))
        t.eq(p.returncode != 0, True, '%d SIGINT: non-zero exit' % sigs)
        t.eq(scheduler(dev), before,
             'ioscheduler: restored after %d SIGINT' % sigs)
    r = t.run(*args[:-1], '--ioscheduler=nosuch', '--size=64k')
    t.fails(r, 'ioscheduler=nosuch')
    t.check('ioscheduler=nosuch: not available for %s' % dev in r.err,
            'ioscheduler=nosuch: message', r)
    f = t.shm_file('tmpfs.dat', size=64 * KiB)
    r = t.run('--name=s', '--filename=' + f, '--ioscheduler=' + want,
              '--size=64k')
    t.fails(r, 'ioscheduler on tmpfs')
    t.eq(r.err.strip(), 'iobench: ioscheduler: %s is not on a block device '
         'with an I/O scheduler' % f, 'ioscheduler on tmpfs: message', r)


def test_exitall(t):
    f = t.shm_file('ex.dat', size=1 << 20)
    job = ('[global]\nfilename=%s\nioengine=psync\ndirect=0\n'
           '[a]\nsize=64k\nexitall=1\nexit_what=%s\n'
           '[b]\ntime_based\nruntime=30\n'
           '[c]\nstonewall\nsize=64k\n')
    for what, c_ios in (('group', 16), ('stonewall', 16), ('all', 0)):
        for thread in ('0', '1'):
            jf = t.path('ex.fio')
            with open(jf, 'w') as fh:
                fh.write(job % (f, what))
            start = time.time()
            r = t.run('--output-format=json', '--thread=' + thread, jf)
            took = time.time() - start
            if not t.ok(r, 'exitall exit_what=%s thread=%s' % (what, thread)):
                continue
            jobs = json.loads(r.out)['jobs']
            t.eq([(j['jobname'], j['error']) for j in jobs],
                 [('a', 0), ('b', 0), ('c', 0)], 'exitall %s: jobs' % what)
            t.eq((jobs[0]['read']['total_ios'], jobs[2]['read']['total_ios']),
                 (16, c_ios), 'exitall %s thread=%s: a and c reads'
                 % (what, thread))
            t.check(took < t.scaled(10), 'exitall %s: b ended early (%.1fs)'
                    % (what, took))
    # a failing job (ENOSPC) ends the time-based one
    mnt = t.small_tmpfs('enospc', size='1m')
    if not mnt:
        return
    job = ('[bad]\nfilename=%s/full\nrw=write\nsize=4m\nfallocate=none\n'
           'ioengine=psync\nexitall_on_error=1\n'
           '[b]\nfilename=%s\nioengine=psync\ntime_based\nruntime=30\n'
           % (mnt, f))
    jf = t.path('eoe.fio')
    with open(jf, 'w') as fh:
        fh.write(job)
    start = time.time()
    r = t.run('--output-format=json', jf)
    took = time.time() - start
    t.fails(r, 'exitall_on_error: the failing job fails the run')
    try:
        jobs = json.loads(r.out)['jobs']
        t.eq([(j['jobname'], j['error']) for j in jobs],
             [('bad', 28), ('b', 0)], 'exitall_on_error: errors')
    except ValueError:
        t.check(False, 'exitall_on_error: JSON report', r)
    t.check(took < t.scaled(10), 'exitall_on_error: b ended early (%.1fs)'
            % took)


def test_max_jobs(t):
    f = t.shm_file('mj.dat', size=64 * KiB)
    r = t.run('--max-jobs', '2', '--name=m', '--filename=' + f,
              '--size=64k', '--numjobs=3')
    t.fails(r, '--max-jobs 2 with 3 jobs')
    t.eq(r.err.strip(), 'iobench: --max-jobs=2: the run has 3 jobs',
         '--max-jobs: message', r)
    r = t.run('--max-jobs', '3', '--name=m', '--filename=' + f,
              '--size=64k', '--numjobs=3', '--output-format=json')
    if t.ok(r, '--max-jobs 3 with 3 jobs'):
        t.eq(len(json.loads(r.out)['jobs']), 3, '--max-jobs 3: jobs run')


def test_mem_policy(t):
    """numa_mem_policy: the job's memory policy, which its exec_prerun
    command inherits and shows in /proc/self/numa_maps, as fio 3.33's;
    a node this machine lacks is refused before anything is written."""
    if not os.path.exists('/sys/devices/system/node/online'):
        t.skip('no NUMA nodes in sysfs: numa_mem_policy')
        return
    with open('/sys/devices/system/node/online') as f:
        online = f.read().strip()
    target = t.shm_file('mp.dat', size=64 * KiB)
    for pol, want in (('default', 'default'), ('local', 'local'),
                      ('prefer:0', 'prefer:0'), ('bind:0', 'bind:0'),
                      ('interleave:0', 'interleave:0'),
                      ('interleave:all', 'interleave:' + online)):
        for prog, run in (('iobench', t.run), ('fio', t.fio)):
            out = t.path('mp.prerun.txt')
            if os.path.exists(out):
                os.unlink(out)
            r = run('--name=mp', '--filename=' + target, '--size=64k',
                    '--numa_mem_policy=' + pol,
                    '--exec_prerun=head -1 /proc/self/numa_maps')
            if r is None or not t.ok(r, '%s numa_mem_policy=%s' % (prog, pol)):
                continue
            with open(out) as f:
                fields = f.read().split()
            t.eq(fields[1:2], [want],
                 '%s numa_mem_policy=%s: the policy in numa_maps' % (prog, pol))
    r = t.run('--name=mp', '--filename=' + target, '--size=64k',
              '--numa_mem_policy=bind:63')
    t.fails(r, 'numa_mem_policy=bind:63')
    t.eq(r.err.strip(), 'iobench: numa_mem_policy: node 63 does not exist',
         'numa_mem_policy=bind:63: one line', r)


def main():
    t = ibtest.Test()
    if os.geteuid() != 0:
        t.skip('needs root (negative nice, realtime prio, loop devices)')
        t.finish()
    test_cpus(t)
    test_nice_prio(t)
    test_ioscheduler(t)
    test_exitall(t)
    test_max_jobs(t)
    test_mem_policy(t)
    t.finish()


if __name__ == '__main__':
    main()
