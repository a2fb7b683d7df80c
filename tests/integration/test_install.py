#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""`meson install` into a DESTDIR: exactly the binary, the man page, the
bash completion, README.md and COPYING, at the configured paths and with
the right modes; the installed binary runs, the installed man page is the
generated one, and the installed completion completes options and values
from the option table in bash.

usage: test_install.py IOBENCH BUILD_ROOT SOURCE_ROOT
"""
import json
import os
import shutil
import stat
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402


def meson_cmd():
    m = shutil.which('meson')
    return [m] if m else [sys.executable, '-m', 'mesonbuild.mesonmain']


def build_options(build):
    p = subprocess.run(meson_cmd() + ['introspect', '--buildoptions', build],
                       capture_output=True, text=True)
    if p.returncode:
        return None
    return {o['name']: o['value'] for o in json.loads(p.stdout)}


def tree(root):
    """{path relative to root: mode} of every file and symlink under root."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            out[os.path.relpath(p, root)] = os.lstat(p).st_mode
    return out


def under(prefix, sub, name):
    """prefix/sub/name relative to / (sub may be absolute, as meson allows)."""
    path = sub if os.path.isabs(sub) else os.path.join(prefix, sub)
    return os.path.join(path, name).lstrip('/')


def expected_files(opts):
    prefix = opts['prefix']
    datadir = opts['datadir']
    return {
        under(prefix, opts['bindir'], 'iobench'): 0o755,
        under(prefix, opts['mandir'], 'man1/iobench.1'): 0o644,
        under(prefix, datadir, 'bash-completion/completions/iobench'): 0o644,
        under(prefix, datadir, 'doc/iobench/README.md'): 0o644,
        under(prefix, datadir, 'doc/iobench/COPYING'): 0o644,
    }


def install(t, build, destdir, how):
    """meson install with DESTDIR from the environment or --destdir."""
    env = dict(os.environ)
    argv = meson_cmd() + ['install', '-C', build, '--no-rebuild', '--quiet']
    if how == 'env':
        env['DESTDIR'] = destdir
    else:
        argv += ['--destdir', destdir]
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    return t.eq(p.returncode, 0, 'meson install (DESTDIR via %s)' % how,
                p.stdout + p.stderr)


def check_tree(t, destdir, want, how):
    got = tree(destdir)
    t.eq(sorted(got), sorted(want), 'installed files (DESTDIR via %s)' % how)
    for rel, mode in want.items():
        if rel in got:
            t.eq(oct(stat.S_IMODE(got[rel])), oct(mode), '%s: mode' % rel)
            t.check(stat.S_ISREG(got[rel]), '%s: a regular file' % rel)


def same_bytes(a, b):
    with open(a, 'rb') as fa, open(b, 'rb') as fb:
        return fa.read() == fb.read()


def check_contents(t, destdir, want, build, src):
    by_name = {os.path.basename(r) + ':' + r.split('/')[-2]: os.path.join(destdir, r)
               for r in want}
    exe = by_name['iobench:bin']
    r = t.run('--version', exe=exe)
    if t.ok(r, 'installed iobench --version'):
        t.check(r.out.startswith('iobench-'), 'installed --version output', r)
    t.check(same_bytes(by_name['iobench.1:man1'], os.path.join(build, 'man', 'iobench.1')),
            'installed man page is the generated one')
    t.check(same_bytes(by_name['README.md:iobench'], os.path.join(src, 'README.md')),
            'installed README.md')
    t.check(same_bytes(by_name['COPYING:iobench'], os.path.join(src, 'COPYING')),
            'installed COPYING')
    return by_name['iobench:completions']


def complete(t, script, lines, wordbreaks):
    p, words = ibtest.bash_complete(script, lines, wordbreaks)
    t.eq(p.returncode, 0, 'completion script runs in bash', p.stderr)
    return words


def check_completion(t, script):
    if not shutil.which('bash'):
        t.skip('bash not installed')
        return
    engines = sorted(l.split()[0] for l in
                     t.run('--enghelp').out.splitlines()[1:] if l.strip())
    cases = [
        ('iobench --rw=rand', ['randread', 'randrw', 'randtrim',
                               'randtrimwrite', 'randwrite']),
        ('iobench --iodepth_l', ['--iodepth_low=']),
        ('iobench --ioengine=', engines),
        ('iobench -direct=', ['0', '1']),
        ('iobench --rw ', ['randread', 'randrw', 'randtrim', 'randtrimwrite',
                           'randwrite', 'read', 'readwrite', 'rw', 'trim',
                           'trimwrite', 'write']),
        ('iobench --output-format=js', ['json', 'json+']),
        ('iobench --continue_on_error=w', ['write']),
        ('iobench --cmdhelp=iodepth_batch_c', ['iodepth_batch_complete_max',
                                               'iodepth_batch_complete_min']),
        ('iobench --enghelp=ps', ['psync']),
        ('iobench --minim', ['--minimal']),
        ('iobench --group_rep', ['--group_reporting']),
    ]
    lines = [c[0] for c in cases]
    for wb in (' \t\n"\'><=;|&(:', ' \t\n"\'><;|&('):
        got = complete(t, script, lines, wb)
        for (line, want), g in zip(cases, got):
            if '=' not in wb and '=' in line.split()[-1]:
                prefix = line.split()[-1].split('=')[0] + '='
                want = [prefix + w for w in want]
            t.eq(g, sorted(want), 'completion of %r (= %s a word break)'
                 % (line, 'is' if '=' in wb else 'is not'))
    # files for --filename= and for job files
    jf = t.path('cloud.fio')
    open(jf, 'w').close()
    got = complete(t, script, ['iobench --filename=' + jf[:-4],
                               'iobench ' + jf[:-4]], ' \t\n"\'><=;|&(:')
    t.eq(got, [[jf], [jf]], 'completion of file names')


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    t = ibtest.Test(sys.argv[:2])
    build, src = sys.argv[2], sys.argv[3]
    opts = build_options(build)
    if not t.check(opts is not None, 'meson introspect --buildoptions'):
        t.finish()
    want = expected_files(opts)
    if os.path.exists(os.path.join(build, 'src', 'iobench-mpi')):
        # built when an MPI implementation was found (meson -Dmpi=auto)
        want[under(opts['prefix'], opts['bindir'], 'iobench-mpi')] = 0o755
    script = None
    for how in ('env', 'option'):
        destdir = t.mkdir('dest-' + how)
        if install(t, build, destdir, how):
            check_tree(t, destdir, want, how)
            script = check_contents(t, destdir, want, build, src)
    if script:
        check_completion(t, script)
    t.finish()


if __name__ == '__main__':
    main()
