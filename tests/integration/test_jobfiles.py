#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Job files end to end through the real binary: [global] sections (several,
any name starting with "global"), bare flags, inline ';' and '#' comments,
include FILE relative to the including file, ${VAR} and $ncpus arithmetic,
several job files (the 2nd starts a new group: implicit stonewall),
command-line options before the first --name as defaults that the file's own
values override, --section, and file:line errors. What ran is asserted from
the JSON report (job names, groups, options, exact I/O counts) and from
write_iolog (files, offsets, lengths).
"""
import json
import shlex
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

KiB = ibtest.KiB


def write(t, name, text):
    p = t.path(name)
    with open(p, 'w') as f:
        f.write(text)
    return p


def jobs_of(t, r, what):
    if not t.ok(r, what):
        return {}
    try:
        doc = json.loads(r.out)
    except ValueError as e:
        t.check(False, '%s: JSON parses' % what, e)
        return {}
    return {j['jobname']: j for j in doc['jobs']}


def main():
    t = ibtest.Test()
    d = t.mkdir('jf')
    write(t, 'jf/common.inc', 'bs=8k   ; block size from the include\n'
          'ioengine=psync\n')
    target = t.path('jf/target')
    main_fio = write(t, 'jf/main.fio', """\
; a comment line
# another
[global]
include common.inc
filename=%s
size=${JF_SIZE}
rw=randread          # inline comment
norandommap

[first]
write_iolog=%s

[global-two]
iodepth=(2*$ncpus)/$ncpus

[second]
rw=write
bs=16k ; the section's own value beats the include
""" % (target, t.path('jf/first.iolog')))
    other = write(t, 'jf/other.fio', '[third]\nfilename=%s\nsize=64k\nrw=read\n'
                  'bs=4k\nioengine=null\n' % target)
    env = dict(os.environ, JF_SIZE='128k')

    # --size before --name: a default the files' own size= values beat
    r = t.run('--size=1m', '--output-format=json', main_fio, other, env=env)
    jobs = jobs_of(t, r, 'two job files')
    t.eq(sorted(jobs), ['first', 'second', 'third'], 'job names are the sections')
    if jobs:
        f, s, th = jobs['first'], jobs['second'], jobs['third']
        t.eq(f['read']['total_ios'], 128 * KiB // (8 * KiB), 'first: 128k/8k reads')
        t.eq(f['read']['io_bytes'], 128 * KiB, 'first: ${JF_SIZE} bytes')
        t.eq(s['write']['total_ios'], 128 * KiB // (16 * KiB), 'second: bs=16k writes')
        t.eq(th['read']['total_ios'], 16, 'third: 64k/4k from the second file')
        t.eq((f['groupid'], s['groupid'], th['groupid']), (0, 0, 1),
             'second job file starts a new group')
        t.eq(s['job options'].get('bs'), '16k', 'second: its own bs recorded')
    il = ibtest.parse_iolog(t.path('jf/first.iolog'))
    t.eq(il.bad, [], 'first: iolog parses')
    ios = il.data()
    t.eq(len(ios), 16, 'first: 16 I/Os in the iolog')
    t.check(all(l == 8 * KiB and o % (8 * KiB) == 0 and o + l <= 128 * KiB
                for _, _, o, l in ios), 'first: 8k aligned I/Os within 128k')

    # --section runs only that section (with its globals)
    r = t.run('--section=second', '--output-format=json', main_fio, env=env)
    t.eq(sorted(jobs_of(t, r, '--section=second')), ['second'],
         '--section=second: only that job')

    # an error names the file and the line
    bad = write(t, 'jf/bad.fio', '[x]\nsize=1m\nbs=4q\n')
    r = t.run('--parse-only', bad)
    t.fails(r, 'bad bs in a job file')
    t.eq(r.err.strip(), 'iobench: %s:3: bs: invalid size \'4q\'' % bad,
         'error names file:line and the option')
    t.eq(os.path.exists(t.path('jf/x.0.0')), False, 'bad job file: nothing created')

    # an unset ${VAR} expands to nothing (as in fio): the refusal names it
    unset = write(t, 'jf/unset.fio', '[u]\nfilename=${IB_NO_SUCH_TARGET}\n'
                  'size=64k\nrw=read\n')
    env_unset = dict(os.environ)
    env_unset.pop('IB_NO_SUCH_TARGET', None)
    r = t.run(unset, env=env_unset)
    t.eq((r.rc, r.out, r.err), (1, '', 'iobench: %s:2: filename: needs a value '
         '(${IB_NO_SUCH_TARGET} is not set in the environment)\n' % unset),
         'unset ${VAR}: the message names the variable')
    r = t.run('--name=u', '--filename=${IB_NO_SUCH_TARGET}', '--size=64k',
              env=env_unset)
    t.eq((r.rc, r.out, r.err), (1, '', 'iobench: filename: needs a value '
         '(${IB_NO_SUCH_TARGET} is not set in the environment)\n'),
         'unset ${VAR} on the command line: the message names it')

    # --showcmd: the printed command line runs the same jobs
    r = t.run('--showcmd', main_fio, env=env)
    if t.ok(r, '--showcmd'):
        argv = shlex.split(r.out)
        t.check(argv and argv[0].endswith('iobench'), '--showcmd starts with iobench', r)
        r2 = t.run('--output-format=json', *argv[1:], env=env)
        jobs2 = jobs_of(t, r2, 'showcmd command line runs')
        t.eq(sorted(jobs2), ['first', 'second'], 'showcmd: same jobs')
        if jobs2:
            t.eq(jobs2['second']['write']['total_ios'], 8, 'showcmd: same I/O count')
    t.finish()


if __name__ == '__main__':
    main()
