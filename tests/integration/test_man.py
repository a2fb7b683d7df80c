#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The man page: lint clean (mandoc -Tlint, groff -ww), the committed copy
equal to the one generated from the option table, and the same options as
the binary: `--cmdhelp=all` (job options, by category and in order, with
their aliases and defaults), `--help` (command-line options and commands)
and `--enghelp` (engines). Every example command and job file in the page is
accepted by `iobench --parse-only`.

usage: test_man.py IOBENCH GENERATED_MAN SOURCE_MAN
"""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ibtest  # noqa: E402


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def unroff(s):
    """The text of a roff fragment: font escapes dropped, \\- and \\e
    turned back into - and \\."""
    s = re.sub(r'\\f[BIRP]', '', s)
    s = s.replace('\\-', '-').replace('\\e', '\\').replace('\\&', '')
    return s


def sections(text):
    """{'.SH title': [lines]} of the roff source."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r'\.SH\s+"?([^"]*)"?$', line)
        if m:
            cur = m.group(1)
            out[cur] = []
        elif cur:
            out[cur].append(line)
    return out


def tp_tags(lines):
    """The tag line after each .TP at the top level (not inside .RS)."""
    tags, depth = [], 0
    for i, line in enumerate(lines):
        if line.startswith('.RS'):
            depth += 1
        elif line.startswith('.RE'):
            depth -= 1
        elif line == '.TP' and depth == 0 and i + 1 < len(lines):
            tags.append(lines[i + 1])
    return tags


# -- job options -----------------------------------------------------------
def man_job_options(text):
    """[(category, [(name, [aliases], default)])] from the generated block."""
    m = re.search(r'^\.\\" BEGIN GENERATED OPTIONS\n(.*?)^\.\\" END GENERATED OPTIONS',
                  text, re.S | re.M)
    if not m:
        return None
    cats = []
    for chunk in re.split(r'^\.SS ', m.group(1), flags=re.M)[1:]:
        title, _, body = chunk.partition('\n')
        opts = []
        depth = 0
        lines = body.splitlines()
        for i, line in enumerate(lines):
            if line.startswith('.RS'):
                depth += 1
            elif line.startswith('.RE'):
                depth -= 1
            elif line == '.TP' and depth == 0:
                name = unroff(lines[i + 1]).split('=')[0]
                para = []
                for nxt in lines[i + 2:]:
                    if nxt.startswith('.'):
                        break
                    para.append(unroff(nxt))
                para = ' '.join(para)
                aliases = re.findall(r'Also (?:called )?(\S+)\.', para)
                d = re.search(r'Default: (.*?)\.(?: |$)', para)
                opts.append((name, aliases, d.group(1) if d else None))
        cats.append((title.strip('"'), opts))
    return cats


def cmdhelp_all(t):
    """[(category, [name])] as `--cmdhelp=all` prints it."""
    r = t.run('--cmdhelp=all')
    if not t.ok(r, '--cmdhelp=all'):
        return None
    cats = []
    for line in r.out.splitlines():
        if line and not line.startswith(' ') and line.endswith(':'):
            cats.append((line[:-1], []))
        elif line.startswith('  ') and cats:
            cats[-1][1].append(line.split()[0])
    return cats


def cmdhelp_one(t, name):
    """(aliases, default) from `--cmdhelp=NAME`."""
    r = t.run('--cmdhelp=' + name)
    if r.rc != 0:
        return None
    al = re.search(r'^  alias: (.*)$', r.out, re.M)
    d = re.search(r'^  default: (.*)$', r.out, re.M)
    return (al.group(1).split(', ') if al else [], d.group(1) if d else None)


# Under a wrapper (memcheck: the vgintegration suite), --cmdhelp=NAME for
# these options only: their help reaches every line of src/ that all 193
# options' do (a choice, type, default, alias, range, engines; gcov:
# tools/vg-coverage.py runs man), and each is a run of its own (1.5 s or
# more under memcheck). The page is compared with every option's help in the
# other runs of the suite.
WRAPPED_HELP = ('rw', 'sqthread_poll_cpu', 'rate_cycle', 'bs', 'size')


def test_job_options(t, text):
    man = man_job_options(text)
    if not t.check(man, 'man page has the GENERATED OPTIONS block'):
        return
    bin_cats = cmdhelp_all(t)
    if bin_cats is None:
        return
    man_names = [(c, [o[0] for o in opts]) for c, opts in man]
    t.eq([c for c, _ in man_names], [c for c, _ in bin_cats],
         'job option categories: man page vs --cmdhelp=all')
    t.eq(man_names, bin_cats,
         'job options by category: man page vs --cmdhelp=all')
    nr = sum(len(o) for _, o in bin_cats)
    t.check(nr >= 50, 'at least 50 job options listed (%d)' % nr)
    for _, opts in man:
        for name, aliases, default in opts:
            if t.reduced and name not in WRAPPED_HELP:
                continue
            one = cmdhelp_one(t, name)
            if not t.check(one is not None, '--cmdhelp=%s works' % name):
                continue
            t.eq((aliases, default), one,
                 '%s: aliases and default, man page vs --cmdhelp' % name)


# -- command-line options --------------------------------------------------
def test_cli_options(t, text):
    r = t.run('--help')
    if not t.ok(r, '--help'):
        return
    opts_part = r.out.split('\nOptions:\n', 1)
    if not t.check(len(opts_part) == 2, '--help has an Options: list', r):
        return
    helped = re.findall(r'^  (--[a-z][a-z-]*)', opts_part[1], re.M)
    tags = tp_tags(sections(text).get('COMMAND-LINE OPTIONS', []))
    man = [re.match(r'(--[a-z][a-z-]*)', unroff(re.sub(r'^\.[A-Z]+ ', '', tg))).group(1)
           for tg in tags]
    t.check(len(helped) >= 10, 'at least 10 command-line options in --help (%d)'
            % len(helped))
    t.eq(sorted(man), sorted(helped),
         'command-line options: man page vs --help')


def test_commands(t, text):
    r = t.run('--help')
    if not t.ok(r, '--help'):
        return
    m = re.search(r'^Commands [^\n]*\n(?:[^\n]*\n)?((?:  \S[^\n]*\n)+)', r.out, re.M)
    if not t.check(m is not None, '--help has a Commands: list', r):
        return
    helped = re.findall(r'^  (\S+)', m.group(1), re.M)
    tags = tp_tags(sections(text).get('COMMANDS', []))
    man = [unroff(re.sub(r'^\.[A-Z]+ ', '', tg)).split()[0] for tg in tags]
    t.check(len(helped) >= 1, 'at least 1 command in --help (%d)' % len(helped))
    t.eq(man, helped, 'commands: man page vs --help')


def test_engines(t, text):
    r = t.run('--enghelp')
    if not t.ok(r, '--enghelp'):
        return
    engines = re.findall(r'^  (\S+)', r.out, re.M)
    tags = tp_tags(sections(text).get('I/O ENGINES', []))
    man = [unroff(tg).split()[-1] for tg in tags]
    t.check(len(engines) >= 3, 'at least 3 engines in --enghelp (%d)' % len(engines))
    for e in engines:
        t.check(e in man, 'engine %s (from --enghelp) is in the man page' % e)
    t.check(set(man) <= set(engines) | {'io_uring', 'libaio'},
            'the man page lists no engine iobench does not have: %s' % man)
    # every engine option named in the table is documented under its engine
    engsec = '\n'.join(sections(text).get('I/O ENGINES', []))
    t.check('.B io_uring\n' in engsec and 'The default (see' in engsec,
            'io_uring documented as the default engine')
    t.check("fio's default (and iobench's with\n.BR defaults=fio" in engsec,
            'psync documented as the default of defaults=fio')


# -- examples --------------------------------------------------------------
def nf_blocks(lines):
    out, cur = [], None
    for line in lines:
        if line == '.nf':
            cur = []
        elif line == '.fi' and cur is not None:
            out.append(cur)
            cur = None
        elif cur is not None:
            cur.append(unroff(line))
    return out


def test_examples(t, text):
    secs = sections(text)
    cmds, jobfiles = [], []
    for sec in ('EXAMPLES', 'JOB FILES'):
        for block in nf_blocks(secs.get(sec, [])):
            joined = '\n'.join(block).replace('\\\n', ' ')
            if any(l.startswith('[') for l in block):
                jobfiles.append('\n'.join(block) + '\n')
                continue
            cmds += [l for l in joined.splitlines() if l.startswith('iobench ')]
    t.check(len(cmds) >= 4, 'at least 4 example commands (%d)' % len(cmds))
    t.check(len(jobfiles) >= 2, 'at least 2 example job files (%d)' % len(jobfiles))
    words = ' '.join(cmds)
    for want in ('--rwmixread=75', '--rw=randread', '--rw=randwrite', '--bs=64k',
                 '--numjobs=8'):
        t.check(want in words, 'examples include %s' % want)
    names = []
    for i, jf in enumerate(jobfiles):
        path = t.path('example%d.fio' % i)
        with open(path, 'w') as f:
            f.write(jf)
        names.append(path)
        r = t.run('--parse-only', path)
        t.ok(r, 'example job file %d parses' % i)
    for c in cmds:
        argv = c.split()[1:]
        argv = [names[0] if a == 'cloud.fio' else a for a in argv]
        if '--output=result.json' in argv:
            argv = [a for a in argv if a != '--output=result.json']
            argv.append(names[-1])
        r = t.run('--parse-only', *argv)
        t.ok(r, 'example parses: %s' % c)


# -- lint and drift --------------------------------------------------------
def test_lint(t, page):
    mandoc = shutil.which('mandoc')
    if mandoc:
        p = subprocess.run([mandoc, '-Tlint', '-Wall', page],
                           capture_output=True, text=True)
        t.eq((p.returncode, p.stdout + p.stderr), (0, ''), 'mandoc -Tlint')
    else:
        t.skip('mandoc not installed (tools/install-deps.sh installs it)')
    groff = shutil.which('groff')
    if groff:
        p = subprocess.run([groff, '-ww', '-z', '-man', page],
                           capture_output=True, text=True)
        t.eq((p.returncode, p.stdout + p.stderr), (0, ''), 'groff -ww -z -man')
    else:
        t.skip('groff not installed')


def words(s):
    return set(re.findall(r'[A-Za-z0-9]+', s))


def test_rendered_words(t, page, text):
    """Every word of the page as groff renders it is a word of the source:
    an alternating-font macro (.BR, .IR, ...) given plain words joins them
    ("-o)withasummarytable,"), which neither lint sees. Hyphenation off and
    a wide line, so that no word is split."""
    groff = shutil.which('groff')
    if not groff:
        t.skip('groff not installed')
        return
    p = subprocess.run([groff, '-man', '-Tutf8', '-rHY=0', '-rLL=300n',
                        '-P-cbou', page], capture_output=True, text=True)
    src = re.sub(r'\\f(\(..|\[[^]]*\]|.)', ' ', text)
    src = re.sub(r'\\\(..', ' ', src)
    src = re.sub(r'\\[&%c:/,]', '', src).replace('\\-', '-')
    known = words(src)
    joined = sorted(w for w in words(p.stdout) if w not in known)
    t.eq((p.returncode, joined), (0, []),
         'words run together in the rendered page')


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        sys.exit(2)
    t = ibtest.Test(sys.argv[:2])
    gen, src = sys.argv[2], sys.argv[3]
    text = read(gen)
    t.check(read(src) == text,
            'man/iobench.1 is up to date with the option table '
            '(run: ninja -C BUILDDIR update-man)')
    test_lint(t, gen)
    test_rendered_words(t, gen, text)
    test_job_options(t, text)
    test_cli_options(t, text)
    test_commands(t, text)
    test_engines(t, text)
    test_examples(t, text)
    t.finish()


if __name__ == '__main__':
    main()
