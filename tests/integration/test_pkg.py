#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Packaging, end to end (meson suite 'pkg', run once by tools/test.sh):

* tools/build-deb.sh builds iobench_VERSION_ARCH.deb with lintian clean of
  errors; its Depends are the real shared libraries (shlibs expanded), its
  file list exact;
* as root, `apt-get install ./iobench_*.deb` installs it, `iobench
  --version` runs from /usr/bin, and it removes cleanly (only when iobench
  is not already installed on this machine);
* `meson dist` makes a tarball without .git that configures, builds and
  passes its own tests with `git` failing and, as root, without network.

  Its own tests are the unit suite and a few integration tests
  (DIST_TESTS), not the whole suite again. What can go wrong in a tarball
  and not in the checkout is a file left out of it, or a step that needs
  git or the network: the code is the same, and tools/test.sh has just run
  every test on it in the checkout. The unit suite runs whole (under a
  minute): it reads the test data the tarball must carry (tests/data/plots
  and golden, the fuzz seeds and regress inputs). From the integration
  suite, the tests that read or install the tarball's other data:
    man       man/iobench.1 equal to the page tools/gen-docs.c generates
              from the option table; its examples and job files parse
    install   `meson install`: the binary, the man page, the bash
              completion, README.md and COPYING, at their paths and modes
    cmdline   plain job runs, and --version equal to the tarball's
              meson.build version (it must come without git)
    jobfiles  job files end to end (include FILE, ${VAR}, several files)
    outputs   the JSON report written to a file beside the human one
  The release-tarball check then takes about two and a half minutes, its
  build included, where the whole suite again took about ten.

usage: test_pkg.py IOBENCH SOURCE_ROOT
"""
import glob
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
def build_deb(t, src, version):
    out = t.mkdir('deb')
    r = sh([os.path.join(src, 'tools', 'build-deb.sh'), '-o', out], timeout=900)
    if not t.ok(r, 'tools/build-deb.sh'):
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


# the tarball's integration tests: why these, in the docstring above
DIST_TESTS = ['man', 'install', 'cmdline', 'jobfiles', 'outputs']


def check_dist(t, tarball, version):
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
    srcdir = os.path.join(x, top)
    b = os.path.join(x, 'build')
    env = no_git_env(t)
    mtest = meson_cmd() + ['test', '-C', b, '--print-errorlogs']
    for argv, what in ((meson_cmd() + ['setup', b, srcdir], 'configure'),
                       (['ninja', '-C', b], 'build'),
                       (mtest + ['--suite', 'unit'], 'unit tests'),
                       (mtest + DIST_TESTS, 'tests ' + ' '.join(DIST_TESTS))):
        argv, isolated = offline(argv)
        r = sh(argv, env=env, timeout=900)
        if not t.ok(r, 'release tarball: %s without git%s'
                    % (what, ', offline' if isolated else '')):
            return


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    t = ibtest.Test(sys.argv[:2])
    src = os.path.abspath(sys.argv[2])
    version = project_version(src)
    t.check(version, 'version in meson.build')
    deb = build_deb(t, src, version)
    if deb:
        check_deb(t, deb, version)
        apt_install(t, deb)
    if shutil.which('git') and os.path.exists(os.path.join(src, '.git')):
        tarball = make_dist(t, src)
        if tarball:
            check_dist(t, tarball, version)
    else:
        t.skip('meson dist: the source is not a git checkout')
    t.finish()


if __name__ == '__main__':
    main()
