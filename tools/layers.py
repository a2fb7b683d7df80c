#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The folder layers of src/ and the check that keeps them (meson test 'layers').

A folder may include the headers of its own folder and of the folders below
it in LAYERS, never of one above: each line of src/ that does is printed as
FILE:LINE with the two folders, and the exit status is 1. A header in
include/iobench/ belongs to the folder that defines most of the functions it
declares (a header of types and macros only: the folder of the .c file of its
name, or HEADER_HOME below), and must declare no function that a folder
above it defines (a lower folder could call up through it; DECLARES_ABOVE
lists what is known and waiting). main.c is the top layer, "main".

Usage: layers.py [ROOT]    (ROOT: the source tree, default the parent of tools/)
       layers.py --graph ROOT   the folder include matrix (counts), no check
       layers.py --selftest     the check on a small tree with one upward
                                include of each kind: each is found, by line
"""
import collections
import os
import re
import sys

# The one place the order is written, lowest first: each folder may include
# only itself and what is to its left.
LAYERS = ["util", "job", "stats", "io", "front", "run", "report", "mpi", "cmd",
          "main"]

# Headers that declare no function defined in a .c file and have no .c file
# of their name: the folder that owns their types.
HEADER_HOME = {
    "compiler.h": "util",
    # the format of the option rows: types the job folder and every
    # folder above it reads (the option table itself is front's)
    "opt.h": "job",
    # the job loop's I/O source interface (types and inline calls)
    "source.h": "io",
}

# Functions a header declares that a folder above its owner defines, known
# and waiting (none now).
DECLARES_ABOVE = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# a definition: a line starting in column 0 with "name(" and not ending in ";"
DEFN = re.compile(r'^[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\(')
# a declaration in a header: "name(" after a type, at any indent
DECL = re.compile(r'\b([A-Za-z_]\w*)\s*\(')
NOT_FUNCS = {"if", "while", "for", "switch", "return", "sizeof", "defined",
             "__attribute__", "__typeof__", "typeof", "alignof", "_Alignof",
             "offsetof", "__builtin_expect"}


def folder_of(src, path):
    rel = os.path.relpath(path, src).split(os.sep)
    return rel[0] if len(rel) > 1 else "main"


def sources(src):
    out = []
    for d, _, fs in os.walk(src):
        for f in sorted(fs):
            if f.endswith((".c", ".h")):
                out.append(os.path.join(d, f))
    return sorted(out)


def macros(incdir, files):
    """names of function-like macros (ib_printf_fmt(a, b) is not a function)"""
    out = set()
    hdrs = [os.path.join(d, f) for d, _, fs in os.walk(incdir) for f in fs if f.endswith(".h")]
    for p in hdrs + files:
        for line in open(p, errors="replace"):
            m = re.match(r"\s*#\s*define\s+(\w+)\(", line)
            if m:
                out.add(m.group(1))
    return out


def definitions(src, files, skip=frozenset()):
    """function name -> folders whose .c files define it"""
    defs = collections.defaultdict(set)
    for p in files:
        if not p.endswith(".c"):
            continue
        for line in open(p, errors="replace"):
            s = line.rstrip()
            if not s or s.endswith(";") or line[0] in " \t#/*{}":
                continue
            m = DEFN.match(re.sub(r"\b(%s)\([^)]*\)" % "|".join(skip), "", line) if skip else line)
            if m and m.group(1) not in NOT_FUNCS:
                defs[m.group(1)].add(folder_of(src, p))
    return defs


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declared(hpath):
    """the names a header declares as functions (comments and macros left out)"""
    text = strip_comments(open(hpath, errors="replace").read())
    text = re.sub(r"^#.*(\\\n.*)*", " ", text, flags=re.M)
    return set(DECL.findall(text))


def header_owner(hpath, defs, cbase):
    """(folder, how) of a public header, or (None, why)"""
    name = os.path.basename(hpath)
    if name in HEADER_HOME:
        return HEADER_HOME[name], "HEADER_HOME"
    votes = collections.Counter()
    for name_ in declared(hpath):
        for f in defs.get(name_, ()):
            votes[f] += 1
    if votes:
        best = max(votes.values())
        top = sorted(f for f, n in votes.items() if n == best)
        # ties: the lowest folder, so a header is never put above its users
        # by accident of counting
        top.sort(key=lambda f: LAYERS.index(f) if f in LAYERS else -1)
        return top[0], "defines %d of its functions" % best
    homes = cbase.get(name[:-2], set())
    if len(homes) == 1:
        return next(iter(homes)), "%s.c" % name[:-2]
    return None, "declares no function defined in src/ and no single %s.c" % name[:-2]


def resolve(root, src, incdir, p, name):
    """the file an #include "name" in p means, or None (a system or generated header)"""
    for base in (os.path.dirname(p), incdir, root):
        q = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(q):
            return q
    return None


def check(root, graph_only=False):
    src = os.path.join(root, "src")
    incdir = os.path.join(root, "include")
    files = sources(src)
    defs = definitions(src, files, macros(incdir, files))
    cbase = collections.defaultdict(set)
    for p in files:
        if p.endswith(".c"):
            cbase[os.path.basename(p)[:-2]].add(folder_of(src, p))
    owners = {}
    bad = []
    for d, _, fs in os.walk(os.path.join(incdir, "iobench")):
        for f in fs:
            if f.endswith(".h"):
                hp = os.path.join(d, f)
                o, how = header_owner(hp, defs, cbase)
                if o is None:
                    bad.append("%s: no folder owns it (%s): name one in HEADER_HOME of %s" % (
                        os.path.relpath(hp, root), how, os.path.relpath(__file__, root)))
                owners[os.path.normpath(hp)] = o
                if o in LAYERS:
                    for fn in sorted(declared(hp) - DECLARES_ABOVE.get(f, set())):
                        above = sorted(x for x in defs.get(fn, ()) if x in LAYERS
                                       and LAYERS.index(x) > LAYERS.index(o))
                        if above:
                            bad.append("%s: %s's header declares %s, which %s/ defines, a layer above it" % (
                                os.path.relpath(hp, root), o, fn, "/, ".join(above)))
    unknown = sorted({folder_of(src, p) for p in files} - set(LAYERS))
    for f in unknown:
        bad.append("src/%s/: a folder not in LAYERS of %s: give it its place" % (
            f, os.path.relpath(__file__, root)))
    matrix = collections.Counter()
    nlines = 0
    for p in files + sorted(h for h in owners if owners[h]):
        me = owners[p] if p in owners else folder_of(src, p)
        for i, line in enumerate(open(p, errors="replace"), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            q = resolve(root, src, incdir, p, m.group(1))
            if q is None:
                continue
            if q.startswith(src + os.sep):
                to = folder_of(src, q)
            else:
                to = owners.get(q)
            if to is None or to == me:
                continue
            nlines += 1
            matrix[me, to] += 1
            if me in LAYERS and to in LAYERS and LAYERS.index(to) > LAYERS.index(me):
                bad.append("%s:%d: %s includes %s (%s), a layer above it" % (
                    os.path.relpath(p, root), i, me, m.group(1), to))
    if graph_only:
        for (a, b), n in sorted(matrix.items()):
            print("%-7s -> %-7s %3d" % (a, b, n))
        for h, o in sorted(owners.items()):
            print("%-40s %s" % (os.path.relpath(h, root), o))
        return 0
    for b in bad:
        print(b)
    print("layers %s: %d include lines between folders, %d upward or unplaced" % (
        " < ".join(LAYERS), nlines, len(bad)))
    return 1 if bad else 0


def selftest():
    """A tree with an upward include from a .c, from a private header, and
    through a public header (owned by the folder defining most of its
    functions), and a header declaring a function of a folder above its
    own: the check must name exactly those four."""
    import contextlib
    import io
    import tempfile
    tree = {
        "include/iobench/gen.h": "int ib_gen_next(void);\n",
        "include/iobench/low.h": "#include \"iobench/gen.h\"\nint ib_low(void);\n",
        "include/iobench/num.h": "int ib_num(void);\nint ib_num2(void);\nint ib_gen_next(void);\n",
        "src/io/gen.c": "#include \"iobench/gen.h\"\nint ib_gen_next(void)\n{\n\treturn 0;\n}\n",
        "src/util/low.c": "#include \"iobench/low.h\"\nint ib_low(void)\n{\n\treturn 1;\n}\n",
        "src/util/num.c": "#include <stdio.h>\n#include \"iobench/num.h\"\n#include \"iobench/gen.h\"\n"
                          "int ib_num(void)\n{\n\treturn 2;\n}\nint ib_num2(void)\n{\n\treturn 3;\n}\n",
        "src/stats/st.c": "#include \"iobench/num.h\"\n#include \"st_priv.h\"\n",
        "src/stats/st_priv.h": "#include \"src/io/io_priv.h\"\n",
        "src/io/io_priv.h": "#include \"iobench/num.h\"\n",
        "src/main.c": "#include \"iobench/gen.h\"\n",
    }
    want = ["include/iobench/low.h:1: util includes iobench/gen.h (io)",
            "include/iobench/num.h: util's header declares ib_gen_next, which io/ defines",
            "src/stats/st_priv.h:1: stats includes src/io/io_priv.h (io)",
            "src/util/num.c:3: util includes iobench/gen.h (io)"]
    with tempfile.TemporaryDirectory() as root:
        for rel, text in tree.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check(root)
    got = sorted(l.split(", a layer")[0] for l in out.getvalue().splitlines() if ", a layer" in l)
    if rc != 1 or got != want:
        print("selftest failed: exit %d, found:\n  %s\nwanted:\n  %s" % (
            rc, "\n  ".join(got), "\n  ".join(want)))
        return 1
    print("selftest: the %d planted upward dependencies found, by line" % len(want))
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--selftest"]:
        sys.exit(selftest())
    graph = False
    if args and args[0] == "--graph":
        graph = True
        args = args[1:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    sys.exit(check(os.path.abspath(root), graph))
