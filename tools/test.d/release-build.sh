#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Distribution builds use optimisation levels the test builds do not, and
# gcc's -O2/-O3 flow analysis finds warnings -O0/-Og miss (format
# truncation, maybe-uninitialized): build (no tests) with warnings as errors
# as a release with gcc, and with clang when it is installed.
# Usage: tools/test.d/release-build.sh [TOPDIR]
set -euo pipefail

top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top"

rc=0
build() {
	local name=$1 dir=$2
	shift 2
	if [ -f "$dir/meson-private/coredata.dat" ]; then
		meson setup --reconfigure "$dir" "$@" >/dev/null
	else
		meson setup "$dir" "$@" >/dev/null
	fi
	if ninja -C "$dir" >"$dir/ninja.log" 2>&1; then
		echo "release-build: ok: $name"
	else
		echo "release-build: FAILED: $name"
		grep -E 'error|warning' "$dir/ninja.log" | head -20
		rc=1
	fi
}

# IB_RELEASE_BUILDS: which of the two (tools/test.sh's gate leaves gcc out
# when the pkg suite runs: test_pkg.py builds the release tarball with gcc
# at -O3 and -Werror, the same build from the tarball's tree)
builds=${IB_RELEASE_BUILDS:-gcc clang}
if [[ " $builds " == *" gcc "* ]]; then
	CC=gcc build "gcc -O3 -Werror" build-release -Dbuildtype=release \
		-Dwerror=true
fi
if [[ " $builds " == *" clang "* ]] && command -v clang >/dev/null; then
	CC=clang build "clang -O3 -Werror" build-release-clang \
		-Dbuildtype=release -Dwerror=true
fi
exit $rc
