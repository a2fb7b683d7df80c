#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build iobench's Debian binary package from this source tree, with the
# standard tooling (debhelper compat 13, dh --buildsystem=meson,
# dpkg-buildpackage -us -uc -b), and check it with lintian (any error fails).
#
# Usage: tools/build-deb.sh [-o OUTDIR] [-k]
#   -o OUTDIR  where to put iobench_VERSION_ARCH.deb (default: .)
#   -k         keep the temporary build tree (its path is printed)
#
# The tree (tracked and untracked-but-not-ignored files of a git checkout,
# or everything but build directories otherwise) is copied to a temporary
# directory, tools/debian/ becomes its debian/ directory and a changelog is
# written for the version in meson.build. Needs: dpkg-dev, debhelper,
# lintian and the build dependencies in tools/debian/control (all installed
# by tools/install-deps.sh). DEBFULLNAME and DEBEMAIL set the maintainer;
# DEB_BUILD_OPTIONS is passed through (nocheck skips the unit tests).
# No network, no root.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=.
keep=0
while getopts o:kh opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) keep=1 ;;
	*) sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 2 ;;
	esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

for tool in dpkg-buildpackage dh lintian; do
	if ! command -v "$tool" >/dev/null; then
		echo "build-deb: $tool not found (run tools/install-deps.sh)" >&2
		exit 1
	fi
done

version=$(sed -n "s/^[[:space:]]*version:[[:space:]]*'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
if [ -z "$version" ]; then
	echo "build-deb: no version: '...' in $top/meson.build" >&2
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iobench-deb.XXXXXX")
if [ "$keep" = 1 ]; then
	echo "build-deb: build tree kept in $tmp"
else
	trap 'rm -rf "$tmp"' EXIT
fi
src="$tmp/iobench-$version"
mkdir -p "$src"

# copy_tree: the source files only, never build directories or packages.
copy_tree() {
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
		[ "$(git -C "$top" rev-parse --show-toplevel)" = "$top" ]; then
		(cd "$top" && git ls-files -z --cached --others --exclude-standard |
			while IFS= read -r -d '' f; do
				[ -e "$f" ] && printf '%s\0' "$f"
			done | tar --null -T - -cf -) | tar -C "$src" -xf -
	else
		tar -C "$top" --exclude=./.git --exclude='./build*' --exclude='./*.deb' \
			--exclude=./debian -cf - . | tar -C "$src" -xf -
	fi
}
copy_tree
rm -rf "$src/debian"
cp -r "$top/tools/debian" "$src/debian"

# The changelog (dated by SOURCE_DATE_EPOCH, else the last commit, else now)
# and the maintainer.
maint="${DEBFULLNAME:-iobench developers} <${DEBEMAIL:-iobench@example.org}>"
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)}
sed -i "s|@MAINTAINER@|$maint|" "$src/debian/control"
cat >"$src/debian/changelog" <<EOF
iobench ($version) unstable; urgency=medium

  * Built from the iobench source tree by tools/build-deb.sh.

 -- $maint  $(LC_ALL=C date -u -R -d "@$epoch")
EOF

export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}"
echo "build-deb: dpkg-buildpackage -us -uc -b in $src"
(cd "$src" && dpkg-buildpackage -us -uc -b)

debs=("$tmp"/iobench_"$version"_*.deb)
if [ ! -f "${debs[0]}" ]; then
	echo "build-deb: dpkg-buildpackage made no iobench_${version}_*.deb" >&2
	exit 1
fi

echo "build-deb: lintian ${debs[*]##*/}"
lintian --fail-on error --display-info --tag-display-limit 0 "${debs[@]}"

cp "${debs[@]}" "$out/"
for d in "${debs[@]}"; do
	echo "build-deb: $out/${d##*/}"
done
