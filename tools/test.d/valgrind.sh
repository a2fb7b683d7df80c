#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# valgrind memcheck in build/ (the gcc build):
#   unit         every unit test and fuzz replay under memcheck (meson's
#                `valgrind` test setup, tests/meson.build)
#   integration  integration tests with every run of iobench under memcheck
#                (tests/integration/ibtest.py's IBTEST_WRAPPER), job
#                processes included; two tests at a time but for those that
#                need the machine alone:
#                  the gate (IB_TEST_TIER unset or gate): suite `vg_gate`,
#                  the tests whose wrapped runs reach lines of src/ the unit
#                  tests do not (tools/vg-coverage.py unit, pick --base)
#                  --deep (IB_TEST_TIER=deep): suite `vgintegration` but
#                  `vg_covered` and the reduced cases (t.reduced), whose
#                  runs reach every line the whole suite's do (17 minutes
#                  alone on 2 CPUs, 2026-11-27: 976 runs of iobench)
# Any memcheck error or definite leak fails, whatever the exit status of the
# run. One line per suite; on a failure, meson's output with the failing
# tests' logs.
# Usage: tools/test.d/valgrind.sh [TOPDIR]   (exit 77: valgrind not installed)
set -euo pipefail

top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top"
if ! command -v valgrind >/dev/null; then
	echo "valgrind: not installed, skipped"
	exit 77
fi
dir=build
[ -f "$dir/meson-private/coredata.dat" ] || meson setup "$dir" >/dev/null
if ! ninja -C "$dir" >"$dir/meson-logs/valgrind-build.out" 2>&1; then
	cat "$dir/meson-logs/valgrind-build.out"
	echo "valgrind: FAILED: build"
	exit 1
fi

rc=0
# suite NAME MESON_TEST_ARGS...: one meson test run with log files of its
# own, meson-logs/valgrind-NAME[-SETUP].* (tools/test.sh reads build's
# testlog.json after this step).
suite() {
	local name=$1 base=$dir/meson-logs/valgrind-$1 t0=$SECONDS got=0 line json
	shift
	rm -f "$base".json "$base"-*.json
	meson test -C "$dir" --logbase "${base##*/}" --print-errorlogs "$@" \
		>"$base.out" 2>&1 || got=$?
	for json in "$base".json "$base"-*.json; do
		[ -f "$json" ] && break
	done
	if [ -f "$json" ]; then
		line=$(python3 tools/testlog-summary.py "$json" | tail -n 1) || true
	else
		line="no test log (meson test exit status $got)"
	fi
	if [ "$got" -ne 0 ]; then
		cat "$base.out"
		line="FAILED: $line"
		rc=1
	fi
	printf 'valgrind: %s: %s (%dm%02ds)\n' "$name" "$line" \
		$(((SECONDS - t0) / 60)) $(((SECONDS - t0) % 60))
}

suite unit --setup=valgrind --suite unit
if [ "${IB_TEST_TIER:-gate}" = deep ]; then
	suite integration --suite vgintegration --no-suite vg_covered
else
	suite integration --suite vg_gate
fi
exit $rc
