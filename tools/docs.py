#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The user documentation's shape (meson test 'docs').

README.md's first screen is the title, a one-paragraph pitch and the two
commands for a fresh Debian machine (.ci/run and tools/test.sh rely on
them); every relative link of README.md and doc/*.md names a file that
exists and, after '#', a heading of that file; the user pages (README.md
and doc/*.md but doc/development.md) carry no issue numbers and no table
row of a target marked "NO". Each problem is one line FILE:LINE: what;
the exit status is 1 if there is any.

Usage: docs.py [ROOT]    (ROOT: the source tree, default the parent of tools/)
       docs.py --selftest  the checks on planted pages: each problem found
"""
import os
import re
import sys
import tempfile

FIRST_SCREEN = 24  # lines a terminal shows
COMMANDS = ['tools/setup.sh && build/src/iobench ', 'tools/test.sh']
DEV_PAGE = 'doc/development.md'
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
ISSUE = re.compile(r'\b[Ii]ssue #?\d+\b|(?<![\w&/])#\d+\b')
NO_ROW = re.compile(r'\bNO\s*\|?\s*$')


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation but - and _
    dropped, spaces as dashes."""
    text = heading.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def headings(path):
    found = set()
    fence = False
    with open(path, encoding='utf-8') as f:
        for line in f:
            if line.startswith('```'):
                fence = not fence
            elif not fence and line.startswith('#'):
                found.add(anchor(line.lstrip('#')))
    return found


def first_screen(root):
    """The title, one paragraph, then the two commands, in the first screen."""
    path = os.path.join(root, 'README.md')
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')[:FIRST_SCREEN]
    bad = []
    if not lines or lines[0] != '# iobench':
        bad.append('README.md:1: the first line is not the title "# iobench"')
    blocks = '\n'.join(lines[1:]).strip('\n').split('\n\n')
    if len(blocks) < 3 or blocks[0].startswith(('#', '    ')):
        bad.append('README.md: no pitch paragraph after the title')
        return bad
    cmds = [c.strip() for c in blocks[2].split('\n')]
    if (len(cmds) != len(COMMANDS) or
            not all(c.startswith(w) for c, w in zip(cmds, COMMANDS))):
        bad.append('README.md: the two commands (%s ...; %s) are not the '
                   'indented block of the first screen after the pitch and '
                   'its lead-in line' % tuple(COMMANDS))
    if not os.path.exists(os.path.join(root, 'tools', 'setup.sh')):
        bad.append('README.md: tools/setup.sh does not exist')
    return bad


def links(root, rel):
    bad = []
    path = os.path.join(root, rel)
    fence = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.startswith('```'):
                fence = not fence
            if fence:
                continue
            for target in LINK.findall(line):
                if re.match(r'[a-z]+:', target):
                    continue
                file_part, _, frag = target.partition('#')
                dest = (os.path.normpath(os.path.join(os.path.dirname(path),
                                                      file_part))
                        if file_part else path)
                if not os.path.isfile(dest):
                    bad.append('%s:%d: link to %s: no such file' %
                               (rel, n, target))
                elif frag and dest.endswith('.md') and \
                        frag not in headings(dest):
                    bad.append('%s:%d: link to %s: no such heading' %
                               (rel, n, target))
    return bad


def user_text(root, rel):
    bad = []
    with open(os.path.join(root, rel), encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if ISSUE.search(line):
                bad.append('%s:%d: an issue number in user documentation' %
                           (rel, n))
            if NO_ROW.search(line.rstrip('\n')):
                bad.append('%s:%d: a target row marked NO in user '
                           'documentation' % (rel, n))
    return bad


def check(root):
    pages = ['README.md']
    docdir = os.path.join(root, 'doc')
    if os.path.isdir(docdir):
        pages += sorted('doc/' + p for p in os.listdir(docdir)
                        if p.endswith('.md'))
    bad = first_screen(root)
    for rel in pages:
        bad += links(root, rel)
        if rel != DEV_PAGE:
            bad += user_text(root, rel)
    return bad


def selftest():
    good_readme = ('# iobench\n\nA pitch.\n\nOn a fresh machine:\n\n'
                   '    tools/setup.sh && build/src/iobench --name=q\n'
                   '    tools/test.sh\n\n## Options\n\nSee [the page]'
                   '(doc/options.md#rates) and [x](doc/options.md).\n')
    cases = [
        ('good', good_readme, '## Rates\n\nfine.\n', []),
        ('title', good_readme.replace('# iobench', '# x'), '## Rates\n',
         ['the first line is not the title']),
        ('commands', good_readme.replace('tools/test.sh', 'make'),
         '## Rates\n', ['the two commands']),
        ('anchor', good_readme, '## Rate limits\n', ['no such heading']),
        ('file', good_readme.replace('(doc/options.md)', '(doc/none.md)'),
         '## Rates\n', ['no such file']),
        ('issue', good_readme, '## Rates\n\nas issue 21 asked\n',
         ['an issue number']),
        ('row', good_readme, '## Rates\n\n| a | 1 | <= 2 NO\n',
         ['a target row marked NO']),
    ]
    failed = 0
    for name, readme, page, want in cases:
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, 'doc'))
            os.makedirs(os.path.join(root, 'tools'))
            open(os.path.join(root, 'tools', 'setup.sh'), 'w').close()
            with open(os.path.join(root, 'README.md'), 'w') as f:
                f.write(readme)
            with open(os.path.join(root, 'doc', 'options.md'), 'w') as f:
                f.write('# Options\n\n' + page)
            got = check(root)
        ok = len(got) == len(want) and all(
            w in g for w, g in zip(want, got))
        if not ok:
            print('selftest %s: want %s, got %s' % (name, want, got))
            failed += 1
    print('selftest: %d of %d cases right' % (len(cases) - failed, len(cases)))
    return 1 if failed else 0


def main(argv):
    if argv[1:] == ['--selftest']:
        return selftest()
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..')
    bad = check(root)
    for line in bad:
        print(line)
    print('docs: %d problem(s)' % len(bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
