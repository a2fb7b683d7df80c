#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Packaging, end to end (meson suite 'pkg', run once by tools/test.sh):

* tools/build-deb.sh builds iobench_VERSION_ARCH.deb with lintian clean of
  errors; its Depends are the real shared libraries (shlibs expanded), its
  file list exact;
* as root, `apt-get install ./iobench_*.deb` installs it, `iobench
  --version` runs from /usr/bin, and it removes cleanly (only when iobench
  is not already installed on this machine);
* `meson dist --no-tests` makes a tarball without .git whose tree, unpacked,
  builds the package with `git` failing and, as root, without network, as
  a distribution builds it from a release tarball; its iobench runs:
  --version is the tarball's version, a 1 MiB write job issues exactly 256
  I/Os.

In the gate (tools/test.sh) that is all: the package is built without its
unit tests (DEB_BUILD_OPTIONS=nocheck) and with -O3 -Werror appended to
Debian's flags (DEB_CFLAGS_APPEND): the gate's gcc release build, which
tools/test.d/release-build.sh then leaves out. One build for the package,
the tarball and the release: the code is the same, and the gate has run
every test on it in the checkout; what can go wrong in a package or a
tarball and not in the checkout is a file left out, a step that needs git
or the network, a dependency or an install path, which these catch. About
two minutes of CPU.

IB_PKG_FULL=1 (tools/test.sh --deep) builds the package from the checkout
with its unit tests, and the tarball with meson at -O3 -Werror, its own
tests and `meson install` (the five files): the unit suite (it reads the
test data the tarball must carry: tests/data/plots and golden, the fuzz
seeds and regress inputs) and, from the integration suite, the tests that
read or install the tarball's other data (DIST_TESTS):
    man       man/iobench.1 equal to the page tools/gen-docs.c generates
              from the option table; its examples and job files parse
    install   `meson install`: the binary, the man page, the bash
              completion, README.md and COPYING, at their paths and modes
    cmdline   plain job runs, and --version equal to the tarball's
              meson.build version (it must come without git)
    jobfiles  job files end to end (include FILE, ${VAR}, several files)
    outputs   the JSON report written to a file beside the human one
About six to nine minutes.

usage: test_pkg.py IOBENCH SOURCE_ROOT
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402

DEB_FILES = [
    './usr/bin/iobench',
    './usr/share/bash-completion/completions/iobench',
    './usr/share/doc/iobench/README.md.gz',
    './usr/share/doc/iobench/changelog.gz',
    './usr/share/doc/iobench/copyright',
    './usr/share/man/man1/iobench.1.gz',
]


def sh(argv, timeout=600, **kw):
    try:
        p = subprocess.run(argv, capture_output=True, text=True,
                           timeout=timeout, **kw)
        return ibtest.Result(argv, p.returncode, p.stdout, p.stderr)
    except (OSError, subprocess.TimeoutExpired) as e:
        return ibtest.Result(argv, -1, '', str(e))


def project_version(src):
    with open(os.path.join(src, 'meson.build')) as f:
        m = re.search(r"version:\s*'([^']+)'", f.read())
    return m.group(1) if m else None


def meson_cmd():
    m = shutil.which('meson')
    return [m] if m else [sys.executable, '-m', 'mesonbuild.mesonmain']


# -- the Debian package ------------------------------------------------------
def build_deb(t, src, version, env=None, wrap=None, what='tools/build-deb.sh'):
    """tools/build-deb.sh of the tree src (env: its environment; wrap: argv
    prefix, e.g. offline); the .deb's path, or None."""
    out = t.mkdir('deb')
    env = dict(env or os.environ)
    if not FULL:
        opts = env.get('DEB_BUILD_OPTIONS', 'parallel=%d' % os.cpu_count())
        env['DEB_BUILD_OPTIONS'] = (opts + ' nocheck').strip()
    argv = (wrap or (lambda a: (a, False)))(
        [os.path.join(src, 'tools', 'build-deb.sh'), '-o', out])[0]
    r = sh(argv, timeout=900, env=env)
    if not t.ok(r, what):
        return None
    t.check('build-deb: lintian' in r.out, 'build-deb.sh ran lintian', r)
    errors = [l for l in (r.out + r.err).splitlines() if l.startswith('E: ')]
    t.eq(errors, [], 'lintian errors')
    arch = sh(['dpkg', '--print-architecture']).out.strip()
    debs = sorted(os.path.basename(p) for p in glob.glob(os.path.join(out, '*.deb')))
    want = 'iobench_%s_%s.deb' % (version, arch)
    t.eq(debs, [want], 'build-deb.sh output')
    return os.path.join(out, want) if want in debs else None


def check_deb(t, deb, version):
    f = sh(['dpkg-deb', '-f', deb, 'Package', 'Version', 'Depends']).out
    t.check('Package: iobench\n' in f, 'deb Package field', f)
    t.check('Version: %s\n' % version in f, 'deb Version field', f)
    dep = re.search(r'^Depends: (.*)$', f, re.M)
    dep = dep.group(1) if dep else ''
    names = {d.split()[0] for d in dep.split(', ') if d}
    t.check('$' not in dep, 'Depends has no unexpanded substitution: %s' % dep)
    for lib in ('libc6', 'liburing2', 'libaio1'):
        t.check(lib in names, 'Depends names %s: %s' % (lib, dep))
    listing = sh(['dpkg-deb', '-c', deb]).out.splitlines()
    files = sorted(l.split()[-1] for l in listing if not l.startswith('d'))
    t.eq(files, DEB_FILES, 'files in the package')
    for l in listing:
        if l.split()[-1] == './usr/bin/iobench':
            t.check(l.startswith('-rwxr-xr-x root/root'), 'binary mode and owner', l)


def installed(pkg):
    r = sh(['dpkg-query', '-W', '-f=${Status}', pkg])
    return r.rc == 0 and 'install ok installed' in r.out


def apt_install(t, deb):
    if os.geteuid() != 0:
        t.skip('apt-get install needs root')
        return
    if installed('iobench'):
        t.skip('iobench is already installed on this machine: not touching it')
        return
    env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
    try:
        r = sh(['apt-get', 'install', '-y', '--no-install-recommends',
                os.path.abspath(deb)], env=env)
        if not t.ok(r, 'apt-get install ./%s' % os.path.basename(deb)):
            return
        t.check(installed('iobench'), 'dpkg says iobench is installed')
        r = t.run('--version', prog='/usr/bin/iobench')
        if t.ok(r, '/usr/bin/iobench --version'):
            t.check(r.out.startswith('iobench-'), 'installed --version', r)
        for p in ('/usr/share/man/man1/iobench.1.gz',
                  '/usr/share/bash-completion/completions/iobench'):
            t.check(os.path.isfile(p), '%s installed' % p)
    finally:
        if installed('iobench'):
            r = sh(['apt-get', 'remove', '-y', '--purge', 'iobench'], env=env)
            t.ok(r, 'apt-get remove --purge iobench')
    t.check(not os.path.exists('/usr/bin/iobench'), '/usr/bin/iobench removed')


# -- the release tarball -----------------------------------------------------
def make_dist(t, src):
    b = t.path('dist-build')
    r = sh(meson_cmd() + ['setup', b, src])
    if not t.ok(r, 'meson setup (for dist)'):
        return None
    r = sh(meson_cmd() + ['dist', '-C', b, '--no-tests', '--allow-dirty',
                          '--formats', 'xztar'])
    if not t.ok(r, 'meson dist'):
        return None
    tars = glob.glob(os.path.join(b, 'meson-dist', '*.tar.xz'))
    t.eq(len(tars), 1, 'meson dist made one tarball')
    return tars[0] if tars else None


def no_git_env(t):
    """PATH with a `git` that always fails first."""
    d = t.mkdir('nogit')
    fake = os.path.join(d, 'git')
    with open(fake, 'w') as f:
        f.write('#!/bin/sh\necho "git must not be needed" >&2\nexit 1\n')
    os.chmod(fake, 0o755)
    return dict(os.environ, PATH=d + os.pathsep + os.environ.get('PATH', ''))


def offline(argv):
    """argv in a new network namespace (no network) when we can make one."""
    unshare = shutil.which('unshare')
    ip = shutil.which('ip')
    if os.geteuid() == 0 and unshare and sh([unshare, '-n', 'true']).rc == 0:
        if ip:  # loopback up (MPI's TCP, the tests' own servers): no network
            return [unshare, '-n', 'sh', '-c', '"$0" link set lo up && exec "$@"',
                    ip] + argv, True
        return [unshare, '-n'] + argv, True
    return argv, False


# the tarball's integration tests under IB_PKG_FULL=1: why these, in the
# docstring above
DIST_TESTS = ['man', 'install', 'cmdline', 'jobfiles', 'outputs']
FULL = os.environ.get('IB_PKG_FULL') == '1'
# what `meson install` puts under DESTDIR with --prefix=/usr
INSTALLED = ['usr/bin/iobench', 'usr/share/bash-completion/completions/iobench',
             'usr/share/doc/iobench/COPYING', 'usr/share/doc/iobench/README.md',
             'usr/share/man/man1/iobench.1']


def check_dist(t, tarball, version):
    """The tarball's contents; its unpacked source tree, or None."""
    with tarfile.open(tarball) as tf:
        names = tf.getnames()
        top = 'iobench-%s' % version
        t.check(all(n == top or n.startswith(top + '/') for n in names),
                'tarball unpacks into %s/' % top)
        t.check(not any('/.git/' in n or n.endswith('/.git') for n in names),
                'tarball has no .git')
        for want in ('meson.build', 'man/iobench.1', 'tools/gen-docs.c',
                     'tools/build-deb.sh', 'tools/debian/control', 'README.md',
                     'COPYING'):
            t.check('%s/%s' % (top, want) in names, 'tarball has %s' % want)
        x = t.mkdir('dist-src')
        tf.extractall(x)
    return os.path.join(x, top)


def build_dist(t, srcdir, version):
    """--deep: the tarball configured, built at -O3 with -Werror and tested
    (DIST_TESTS) offline without git, then smoke-run and installed."""
    b = os.path.join(os.path.dirname(srcdir), 'build')
    env = no_git_env(t)
    mtest = meson_cmd() + ['test', '-C', b, '--print-errorlogs']
    setup = meson_cmd() + ['setup', b, srcdir, '--prefix=/usr',
                           '-Dbuildtype=release', '-Dwerror=true']
    steps = [(setup, 'configure'),
             (['ninja', '-C', b], 'build (gcc -O3 -Werror)'),
             (mtest + ['--suite', 'unit'], 'unit tests'),
             (mtest + DIST_TESTS, 'tests ' + ' '.join(DIST_TESTS))]
    for argv, what in steps:
        argv, isolated = offline(argv)
        r = sh(argv, env=env, timeout=900)
        if not t.ok(r, 'release tarball: %s without git%s'
                    % (what, ', offline' if isolated else '')):
            return
    smoke_exe(t, os.path.join(b, 'src', 'iobench'), version)
    meson_install(t, b, env)


def deb_from_dist(t, srcdir, version):
    """The gate: the Debian package built from the tarball's tree, offline
    and without git, with -O3 -Werror appended to Debian's flags: the gate's
    gcc release build (tools/test.d/release-build.sh leaves its own to
    this one), and a package made as a distribution makes it, from the
    release tarball. Its binary, unpacked, is the smoke run's."""
    env = no_git_env(t)
    env['DEB_CFLAGS_APPEND'] = '-O3 -Werror'
    deb = build_deb(t, srcdir, version, env=env, wrap=offline,
                    what='release tarball: tools/build-deb.sh (gcc -O3 '
                    '-Werror) without git, offline')
    if deb:
        root = t.mkdir('deb-root')
        if t.ok(sh(['dpkg-deb', '-x', deb, root]), 'dpkg-deb -x'):
            smoke_exe(t, os.path.join(root, 'usr', 'bin', 'iobench'), version)
    return deb


def smoke_exe(t, exe, version):
    """The release build's iobench runs: its version and a job's exact
    count."""
    r = t.run('--version', prog=exe)
    t.eq(r.out.strip(), 'iobench-%s' % version, 'tarball iobench --version', r)
    f = t.shm_file('smoke', size=1 << 20)
    r = t.run('--name=smoke', '--filename=' + f, '--size=1m', '--bs=4k',
              '--rw=write', '--ioengine=psync', '--direct=0',
              '--output-format=json', prog=exe)
    if t.ok(r, 'tarball iobench: a 1 MiB write job'):
        try:
            ios = json.loads(r.out)['jobs'][0]['write']['total_ios']
        except (ValueError, KeyError, IndexError) as e:
            ios = 'unreadable JSON: %s' % e
        t.eq(ios, 256, 'tarball iobench: write total_ios of 1 MiB in 4 KiB')


def meson_install(t, b, env):
    """What `meson install` of the tarball's build installs (offline)."""
    exe = os.path.join(b, 'src', 'iobench')
    dest = t.mkdir('dist-destdir')
    argv, _ = offline(meson_cmd() + ['install', '-C', b, '--destdir', dest])
    if t.ok(sh(argv, env=env, timeout=300), 'tarball: meson install'):
        got = sorted(os.path.relpath(os.path.join(d, n), dest)
                     for d, _, ns in os.walk(dest) for n in ns)
        want = list(INSTALLED)
        if os.path.exists(exe + '-mpi'):
            # built when an MPI implementation was found (-Dmpi=auto)
            want = sorted(want + ['usr/bin/iobench-mpi'])
        t.eq(got, want, 'tarball: the files meson install installs')


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    t = ibtest.Test(sys.argv[:2])
    src = os.path.abspath(sys.argv[2])
    version = project_version(src)
    t.check(version, 'version in meson.build')
    srcdir = None
    if shutil.which('git') and os.path.exists(os.path.join(src, '.git')):
        tarball = make_dist(t, src)
        srcdir = check_dist(t, tarball, version) if tarball else None
    else:
        t.skip('meson dist: the source is not a git checkout')
    if FULL or not srcdir:
        deb = build_deb(t, src, version)
        if srcdir:
            build_dist(t, srcdir, version)
    else:
        deb = deb_from_dist(t, srcdir, version)
    if deb:
        check_deb(t, deb, version)
        apt_install(t, deb)
    t.finish()


if __name__ == '__main__':
    main()
