#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Build iobench and run its tests: the README's test command and what
# .ci/run executes. Three tiers (doc/development.md "Tests"):
#
# tools/test.sh           the gate (CI): every test once where it finds the
#                         most, about 25 minutes on 2 CPUs:
#   1. build/       gcc, warnings as errors: the unit tests, the goldens and
#                   what ASan cannot run (suite asan_skip: the timing tests
#                   rate and stall, the machine checks through envshim, the
#                   tests of tools/bench.py, install)
#   2. build-asan/  ASan+UBSan, -Werror: the unit tests and every
#                   integration test but asan_skip (the one integration pass)
#   3. beside 1 and 2, at the lowest CPU priority (SCHED_IDLE: only what the
#      tests leave idle): the ASan build, the fuzz build (clang, -Werror,
#      every source and the fuzz targets: the clang warnings' build) and the
#      `pkg` suite (the Debian package built from the `meson dist` tarball,
#      offline, without git and without its tests, with gcc -O3 -Werror:
#      the gcc release build; lintian, apt install and remove, smoke-run:
#      tests/integration/test_pkg.py). The clang -O3 release build
#      (tools/test.d/release-build.sh) is --deep's: clang's warnings come
#      from its front end, which the fuzz build runs over every source.
#   4. tools/test.d/valgrind.sh: memcheck over the unit tests and the few
#      integration tests whose runs reach lines the unit tests do not
#      (suite vg_gate, tests/meson.build; tools/vg-coverage.py), while the
#      chain of 3 ends, at the normal policy
#   5. tools/test.d/fuzz.sh: every fuzz target for FUZZ_SECONDS (5), after
#      the replay of its corpus (the fuzz_replay_* unit tests, in 1 and 2)
# tools/test.sh --deep    all of it, as the gate was until 2026-11-28 (about
#                         55 minutes): build/ runs every suite, pkg runs the
#                         package's unit tests and the tarball's own tests,
#                         the ASan run as in the gate, the fuzzing 25 s a
#                         target, valgrind.sh over vgintegration but
#                         vg_covered (17 minutes alone)
# tools/test.sh --flake N the integration suite N times with a CPU hog on
#                         one core (tools/test.d/flake.sh); a summary of the
#                         tests that failed, per test
#
# Each step's line says when it started ("at 12m03s"); the last line is
# "N passed, N failed[, N skipped]" over all of it (a failed build or step
# counts as one failure), and the exit status is non-zero if anything failed.
# Usage: tools/test.sh [--deep] [--no-asan] [--no-pkg] [meson test args...]
#        tools/test.sh --flake N [meson test args...]
# Extra arguments go to every `meson test` and leave pkg out.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tier=gate
asan=1
pkg=1
while [ $# -gt 0 ]; do
	case $1 in
	--deep) tier=deep ;;
	--flake)
		[ $# -ge 2 ] || { echo "test.sh: --flake needs a number of rounds" >&2; exit 2; }
		shift
		export CC="${CC:-gcc}"
		exec tools/test.d/flake.sh "$top" "$@"
		;;
	--no-asan) asan=0 ;;
	--no-pkg) pkg=0 ;;
	*) break ;;
	esac
	shift
done
[ $# -eq 0 ] || pkg=0
export CC="${CC:-gcc}"
export IB_TEST_TIER=$tier

# at: the time since the start, on each step's line ("at 12m03s")
at() {
	printf 'at %dm%02ds (load %s)' $((SECONDS / 60)) $((SECONDS % 60)) \
		"$(cut -d' ' -f1 /proc/loadavg)"
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

# count RC NAME: an extra step's exit status (0 pass, 77 skip, else fail)
count() {
	case $1 in
	0) passes=$((passes + 1)) ;;
	77) skips=$((skips + 1)); echo "=== $2: SKIPPED" ;;
	*) failures=$((failures + 1)); echo "=== $2: FAILED (rc=$1)" ;;
	esac
}

# run_tests NAME DIR LOGBASE MESON_TEST_ARGS...: one meson test run in a
# built DIR, its log kept for the summary.
# testlog DIR BASE: the JSON log of `meson test --logbase BASE` in DIR
# (meson appends "-SETUP" to the name under --setup), or nothing
testlog() {
	local f
	for f in "$1/meson-logs/$2.json" "$1/meson-logs/$2"-*.json; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 0
}

run_tests() {
	local name=$1 dir=$2 base=$3 rc=0 log
	shift 3
	echo "=== $name: test ($dir) $(at)"
	rm -f "$dir/meson-logs/$base.json" "$dir/meson-logs/$base"-*.json
	meson test -C "$dir" --logbase "$base" --print-errorlogs "$@" || rc=$?
	log=$(testlog "$dir" "$base")
	if [ -n "$log" ]; then
		logs+=("$log")
	elif [ "$rc" -ne 0 ]; then
		echo "=== $name: meson test failed (rc=$rc) without a test log"
		failures=$((failures + 1))
	fi
}

# build NAME DIR: ninja in DIR; a failure counts once
build() {
	echo "=== $1: build ($2) $(at)"
	if ! ninja -C "$2"; then
		echo "=== $1: BUILD FAILED"
		failures=$((failures + 1))
		return 1
	fi
}

# The background chain (step 3): builds and checks that need no quiet
# machine, each writing ITS.out and ITS.rc into $early_dir. While the
# foreground runs tests (the file fg-busy exists) the chain runs at
# SCHED_IDLE, on what the tests leave idle; while the foreground waits for
# it (the ASan build before the ASan run, the rest at the end) at the normal
# policy: at SCHED_IDLE any other load on the machine would starve it.
early_pid=
early_dir=
start_early() {
	early_dir=$(mktemp -d /tmp/iobench-test-early.XXXXXX)
	local idle=()
	chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)
	(
		exec </dev/null
		# step NAME CMD...: CMD at SCHED_IDLE if the foreground is busy
		step() {
			local name=$1 rc=0 pol=()
			shift
			[ -e "$early_dir/fg-busy" ] && pol=("${idle[@]}")
			"${pol[@]}" "$@" >"$early_dir/$name.out" 2>&1 || rc=$?
			echo "$rc $SECONDS" >"$early_dir/$name.rc"
		}
		if [ "$asan" = 1 ]; then
			export -f configure configure_asan
			step asan bash -c 'configure_asan && ninja -C build-asan'
		fi
		FUZZ_BUILD_ONLY=1 step fuzzbuild tools/test.d/fuzz.sh "$top"
		# the gate: pkg's tarball build is the gcc -O3 -Werror build and
		# the fuzz build the clang -Werror one; --deep (or no pkg) builds
		# the release builds too
		if [ "$pkg" != 1 ] || [ "$tier" != gate ]; then
			step release tools/test.d/release-build.sh "$top"
		fi
		if [ "$pkg" = 1 ]; then
			rm -f build/meson-logs/testlog-pkg.json build/meson-logs/testlog-pkg-*.json
			step pkg meson test -C build --no-rebuild --setup=pkg \
				--suite=pkg --logbase testlog-pkg --print-errorlogs
		fi
	) &
	early_pid=$!
}
# to_policy POLICY PID: PID and its descendants to the CPU policy (other or
# idle; what they start from now on inherits it)
to_policy() {
	local p
	chrt "--$1" -p 0 "$2" 2>/dev/null || true
	for p in $(pgrep -P "$2" 2>/dev/null); do
		to_policy "$1" "$p"
	done
}
# fg_busy: the foreground runs tests; the chain to SCHED_IDLE
fg_busy() {
	[ -n "$early_pid" ] || return 0
	touch "$early_dir/fg-busy"
	to_policy idle "$early_pid"
}
# fg_waits: the foreground waits for the chain; the chain to the normal policy
fg_waits() {
	[ -n "$early_pid" ] || return 0
	rm -f "$early_dir/fg-busy"
	to_policy other "$early_pid"
}
# wait_for NAME: until the background step NAME has written its status
wait_for() {
	[ -n "$early_pid" ] || return 0
	echo "=== waiting for the background step $1 $(at)"
	fg_waits
	while [ ! -f "$early_dir/$1.rc" ] && kill -0 "$early_pid" 2>/dev/null; do
		sleep 1
	done
}
# early_result NAME: print a background step's output and count its status
early_result() {
	local rc=1 done_at='?'
	[ -f "$early_dir/$1.rc" ] && read -r rc done_at <"$early_dir/$1.rc"
	echo "=== step $1 (in the background, done at ${done_at}s) $(at)"
	cat "$early_dir/$1.out" 2>/dev/null || true
	count "$rc" "step $1"
}
# wait_early: the foreground is done; the rest of the chain at the normal
# policy
wait_early() {
	[ -n "$early_pid" ] || return 0
	echo "=== the background steps: waiting for them $(at)"
	fg_waits
	wait "$early_pid" || true
	early_pid=
}

gcc_ok=0
if configure build -Dwerror=true -Dbuildtype=debugoptimized &&
	build "gcc -Werror" build; then
	gcc_ok=1
else
	echo "=== gcc -Werror: CONFIGURE OR BUILD FAILED"
	failures=$((failures + 1))
fi

if [ "$tier" = deep ]; then
	# the old gate: every suite in build/, pkg in full, then the ASan run
	if [ "$gcc_ok" = 1 ]; then
		run_tests "gcc -Werror" build testlog "$@"
		if [ "$pkg" = 1 ]; then
			export IB_PKG_FULL=1
			run_tests pkg build testlog-pkg --setup=pkg --suite=pkg
			unset IB_PKG_FULL
		fi
	fi
	pkg=0
	start_early
	[ "$asan" = 0 ] || wait_for asan
elif [ "$gcc_ok" = 1 ]; then
	start_early
	fg_busy
	# what the ASan run leaves out, and the unit tests and goldens once
	# without a sanitizer (the optimised build's code paths)
	# (extra arguments select the tests instead)
	if [ $# -gt 0 ]; then
		run_tests "gcc -Werror" build testlog "$@"
	else
		run_tests "gcc -Werror" build testlog --suite unit --suite golden \
			--suite asan_skip
	fi
	[ "$asan" = 0 ] || wait_for asan
else
	pkg=0
	start_early
	[ "$asan" = 0 ] || wait_for asan
fi

if [ "$asan" = 1 ]; then
	read -r asan_rc _ <"$early_dir/asan.rc" 2>/dev/null || asan_rc=1
	if [ "$asan_rc" != 0 ]; then
		cat "$early_dir/asan.out" 2>/dev/null || true
		echo "=== ASan+UBSan: CONFIGURE OR BUILD FAILED"
		failures=$((failures + 1))
	else
		echo "=== ASan+UBSan: built in the background $(at)"
		fg_busy
		export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
		export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
		run_tests "ASan+UBSan" build-asan testlog --no-suite pkg \
			--no-suite asan_skip --timeout-multiplier=3 "$@"
		unset ASAN_OPTIONS UBSAN_OPTIONS
	fi
fi

# step NAME: tools/test.d/NAME.sh, counted
run_step() {
	local rc=0
	echo "=== step $1 $(at)"
	"tools/test.d/$1.sh" "$top" || rc=$?
	count "$rc" "step $1"
}

# memcheck needs only build/: it runs while the chain ends, at the normal
# policy (with another load beside the gate, the chain has had little CPU
# until now, and waiting for it first left a CPU to that load)
fg_waits
run_step valgrind
wait_early
early_result fuzzbuild
if [ "$pkg" != 1 ] || [ "$tier" != gate ]; then
	early_result release
fi
if [ "$pkg" = 1 ]; then
	echo "=== pkg (in the background) $(at)"
	cat "$early_dir/pkg.out" 2>/dev/null || true
	pkglog=$(testlog build testlog-pkg)
	if [ -n "$pkglog" ]; then
		logs+=("$pkglog")
	else
		echo "=== pkg: no test log"
		failures=$((failures + 1))
	fi
fi

run_step fuzz

[ -z "$early_dir" ] || rm -rf "$early_dir"
echo "=== end $(at)"
python3 "$top/tools/testlog-summary.py" --extra "$passes" "$failures" "$skips" \
	${logs[@]+"${logs[@]}"}
