#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build iobench and run the whole test suite, twice:
#   1. build/       gcc, warnings as errors (-Dwerror=true): every suite, and
#                   then, once, the packaging suite (`pkg`: the Debian package
#                   build with lintian, an install of it, the `meson dist`
#                   tarball) unless --no-pkg is given or tests are selected
#   2. build-asan/  gcc, AddressSanitizer + UndefinedBehaviorSanitizer, -Werror: every
#                   suite but `pkg` and `asan_skip`: the tests of
#                   tools/bench.py (perf and bench_lateness: a minute and a
#                   half of fio, strace and perf runs around short iobench
#                   runs), and rate, stall, checks_env and install, whose
#                   iobench runs reach no line the other tests do not
#                   (gcov; but two scalar lines of rate's: tests/meson.build);
#                   they run in build/
# then every executable tools/test.d/*.sh (extra steps: fuzzing, valgrind...),
# each called as `STEP TOPDIR` from TOPDIR, exit 0 = pass, 77 = skip, else fail.
# Ends with one line "N passed, N failed[, N skipped]" over all of it and
# exits non-zero if anything failed (a failed build counts as one failure).
# While pkg runs, the ASan build, the release builds and the fuzz targets'
# build run beside it at the lowest CPU priority (start_early, below).
# Each step's line says when it started. On 2 CPUs (CI): the gcc build
# about 2 minutes, the gcc suite 11-13 (its integration tests two at a time
# but for those that need the machine alone: tests/meson.build), pkg 6-9
# with the other builds beside it, the ASan suite about 14, fuzz.sh 2,
# valgrind.sh about 17 (measured alone on 2026-11-27: 17.0 min, its
# integration suite 15.5: the tests and cases
# whose runs of iobench reach lines of src/ the others do not, by gcov,
# tools/vg-coverage.py; tests/meson.build). Last CI run before that choice:
# 57.5 min in all, valgrind.sh 24 (its integration suite 22), 2026-11-27.
#
# Usage: tools/test.sh [--no-asan] [--no-pkg] [extra `meson test` arguments...]
# This is the README's test command and what .ci/run executes.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

asan=1
pkg=1
while [ $# -gt 0 ]; do
	case $1 in
	--no-asan) asan=0 ;;
	--no-pkg) pkg=0 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 0 ] || pkg=0
export CC="${CC:-gcc}"

# at: the time since the start, on each step's line ("at 12m03s")
at() {
	printf 'at %dm%02ds' $((SECONDS / 60)) $((SECONDS % 60))
}

failures=0
passes=0
skips=0
logs=()

# configure DIR ARGS...: set up a fresh dir, or reconfigure an existing one.
configure() {
	local dir=$1
	shift
	if [ -f "$dir/meson-private/coredata.dat" ]; then
		meson setup --reconfigure "$dir" "$@"
	else
		meson setup "$dir" "$@"
	fi
}

configure_asan() {
	configure build-asan -Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debug -Dwerror=true
}

# run_suite NAME DIR MESON_TEST_ARGS...: build and test one configuration.
run_suite() {
	local name=$1 dir=$2
	shift 2
	echo "=== $name: build ($dir) $(at)"
	rm -f "$dir/meson-logs/testlog.json"
	if ! ninja -C "$dir"; then
		echo "=== $name: BUILD FAILED"
		failures=$((failures + 1))
		return 0
	fi
	echo "=== $name: test $(at)"
	local rc=0
	meson test -C "$dir" --print-errorlogs "$@" || rc=$?
	if [ -f "$dir/meson-logs/testlog.json" ]; then
		logs+=("$dir/meson-logs/testlog.json")
	elif [ "$rc" -ne 0 ]; then
		echo "=== $name: meson test failed (rc=$rc) without a test log"
		failures=$((failures + 1))
	fi
}

# run_pkg: the `pkg` suite (minutes), in build/ only.
run_pkg() {
	local log=build/meson-logs/testlog-pkg.json rc=0
	echo "=== pkg: test (build) $(at)"
	rm -f "$log"
	meson test -C build --setup=pkg --suite=pkg --print-errorlogs || rc=$?
	if [ -f "$log" ]; then
		logs+=("$log")
	elif [ "$rc" -ne 0 ]; then
		echo "=== pkg: meson test failed (rc=$rc) without a test log"
		failures=$((failures + 1))
	fi
}

# Builds that need no quiet machine, run in the background while the pkg
# suite runs (its package and tarball builds leave a CPU idle for a while:
# lintian, xz, dpkg-deb, apt, the configure steps), at the lowest CPU
# priority (SCHED_IDLE: they get only what pkg leaves idle, so pkg's own
# tests run as they did alone): the ASan build, the release builds
# (release-build.sh, whose result is reported at its place among the steps
# below) and the fuzz targets' build (fuzz.sh FUZZ_BUILD_ONLY=1; the fuzzing
# itself runs at its place, with the machine to itself). All of it is done
# before the ASan suite's tests start: nothing runs beside the timing tests.
early_pid=
early_dir=
start_early() {
	early_dir=$(mktemp -d /tmp/iobench-test-early.XXXXXX)
	local idle=()
	chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)
	(
		exec </dev/null
		# bg CMD...: CMD at SCHED_IDLE while pkg runs, at the normal
		# policy once pkg is done (wait_early)
		bg() {
			if [ -e "$early_dir/pkg-done" ]; then
				"$@"
			else
				"${idle[@]}" "$@"
			fi
		}
		if [ "$asan" = 1 ] && configure_asan >"$early_dir/asan.log" 2>&1; then
			bg ninja -C build-asan >>"$early_dir/asan.log" 2>&1 || true
		fi
		rc=0
		bg tools/test.d/release-build.sh "$top" >"$early_dir/release.out" 2>&1 || rc=$?
		echo "$rc" >"$early_dir/release.rc"
		FUZZ_BUILD_ONLY=1 bg tools/test.d/fuzz.sh "$top" \
			>"$early_dir/fuzz.out" 2>&1 || true
	) &
	early_pid=$!
}
# to_normal PID: PID and its descendants back to the normal CPU policy
# (what they start from now on inherits it)
to_normal() {
	local p
	chrt --other -p 0 "$1" 2>/dev/null || true
	for p in $(pgrep -P "$1" 2>/dev/null); do
		to_normal "$p"
	done
}
# wait_early: pkg is done; what is left of the early builds runs at the
# normal priority (at SCHED_IDLE any other load would starve it), and the
# ASan suite waits for it.
wait_early() {
	[ -n "$early_pid" ] || return 0
	echo "=== the builds begun during pkg: waiting for them $(at)"
	touch "$early_dir/pkg-done"
	to_normal "$early_pid"
	wait "$early_pid" || true
	early_pid=
}

if configure build -Dwerror=true -Dbuildtype=debugoptimized; then
	run_suite "gcc -Werror" build "$@"
	if [ "$pkg" = 1 ]; then
		start_early
		run_pkg
	fi
else
	echo "=== gcc -Werror: CONFIGURE FAILED"
	failures=$((failures + 1))
fi

wait_early
if [ "$asan" = 1 ]; then
	export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
	if configure_asan; then
		run_suite "ASan+UBSan" build-asan --no-suite pkg --no-suite asan_skip \
			--timeout-multiplier=3 "$@"
	else
		echo "=== ASan+UBSan: CONFIGURE FAILED"
		failures=$((failures + 1))
	fi
	unset ASAN_OPTIONS UBSAN_OPTIONS
fi

for step in tools/test.d/*.sh; do
	[ -x "$step" ] || continue
	echo "=== step $step $(at)"
	rc=0
	if [ -n "$early_dir" ] && [ "$step" = tools/test.d/release-build.sh ] &&
		[ -f "$early_dir/release.rc" ]; then
		echo "(run during pkg)"
		cat "$early_dir/release.out"
		rc=$(cat "$early_dir/release.rc")
	else
		"$step" "$top" || rc=$?
	fi
	case $rc in
	0) passes=$((passes + 1)) ;;
	77) skips=$((skips + 1)); echo "=== step $step: SKIPPED" ;;
	*) failures=$((failures + 1)); echo "=== step $step: FAILED (rc=$rc)" ;;
	esac
done

[ -z "$early_dir" ] || rm -rf "$early_dir"
echo "=== end $(at)"
python3 "$top/tools/testlog-summary.py" --extra "$passes" "$failures" "$skips" \
	${logs[@]+"${logs[@]}"}
