#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# A bounded libFuzzer run over every parser of untrusted input (tests/fuzz/):
# options, job files, trace readers, the JSON results reader, verify blocks,
# fio's logs, compare's --fail-if rules.
# clang build in build-fuzz/ (ASan+UBSan+libFuzzer), each target fuzzed for
# FUZZ_SECONDS (default 25; eight targets, one per CPU at a time: under two
# minutes on 2 CPUs), starting from
# tests/fuzz/seeds, tests/data/*.fio and tests/fuzz/regress. Exit 0 = no
# crash, 77 = no clang here, 1 = a crash: the input is kept in
# build-fuzz/fuzz-artifacts/; add it to tests/fuzz/regress/TARGET/ with the fix.
# Usage: tools/test.d/fuzz.sh [TOPDIR]   (FUZZ_BUILD_ONLY=1: build, no fuzzing)
set -euo pipefail

top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top"
# the gate fuzzes each target for 5 s (a smoke: the corpus replay is its
# unit test), --deep for 25
if [ "${IB_TEST_TIER:-gate}" = deep ]; then
	secs=${FUZZ_SECONDS:-25}
else
	secs=${FUZZ_SECONDS:-5}
fi

if ! command -v clang >/dev/null; then
	echo "fuzz: clang not installed, skipped"
	exit 77
fi

dir=build-fuzz
if [ -f "$dir/meson-private/coredata.dat" ]; then
	meson setup --reconfigure "$dir" -Dwerror=true >/dev/null
else
	CC=clang meson setup "$dir" -Dfuzz=enabled -Dtests=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dbuildtype=debugoptimized -Dwerror=true >/dev/null
fi
targets=(cli jobfile trace_iolog trace_blktrace results verify fiolog gate stream)
# FUZZ_BUILD_ONLY=1: the build alone (tools/test.sh builds early, fuzzes
# later), and of every target: the gate's clang -Werror build of every
# source (10% more than the fuzz targets alone, which need the whole core)
if [ "${FUZZ_BUILD_ONLY:-0}" != 0 ]; then
	ninja -C "$dir" >"$dir/ninja.log" 2>&1 ||
		{ grep -E 'error|warning' "$dir/ninja.log" | head -20; exit 1; }
	exit 0
fi
ninja -C "$dir" "${targets[@]/#/tests/fuzz/fuzz_}" >/dev/null

art="$top/$dir/fuzz-artifacts"
mkdir -p "$art"
work=$(mktemp -d /tmp/iobench-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT

# UBSan findings must crash, so libFuzzer keeps the input
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1"
export ASAN_OPTIONS="abort_on_error=1:detect_leaks=1"

# fuzz_one TARGET: fuzz it for $secs from its corpus; exit status in
# $work/TARGET.rc, libFuzzer's output in $work/TARGET.log.
fuzz_one() {
	local target=$1 corpus="$work/$1" run="$work/run-$1" got=0
	mkdir -p "$corpus" "$run"
	cp tests/fuzz/seeds/"$target"/* "$corpus"/
	if [ "$target" = jobfile ]; then
		for f in tests/data/*.fio; do cp "$f" "$corpus/data_$(basename "$f")"; done
	fi
	if [ -d "tests/fuzz/regress/$target" ]; then
		cp tests/fuzz/regress/"$target"/* "$corpus"/
	fi
	# run in a directory of its own: nothing the parsers might name lands
	# in the tree, or in another target's way
	(cd "$run" && "$top/$dir/tests/fuzz/fuzz_$target" \
		-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix="$art/$target-" -print_final_stats=1 \
		"$corpus" >"$work/$target.log" 2>&1) || got=$?
	echo "$got" >"$work/$target.rc"
}

# Each libFuzzer process is one thread: as many targets at a time as there
# are CPUs (FUZZ_JOBS), each still fuzzed for its whole $secs.
par=${FUZZ_JOBS:-$(nproc)}
echo "fuzz: ${#targets[@]} targets for ${secs}s each, $par at a time"
running=0
for target in "${targets[@]}"; do
	if [ "$running" -ge "$par" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	fuzz_one "$target" &
	running=$((running + 1))
done
wait

rc=0
for target in "${targets[@]}"; do
	if [ "$(cat "$work/$target.rc" 2>/dev/null)" != 0 ]; then
		echo "fuzz: $target FOUND A CRASH (input in $art):"
		grep -E 'ERROR|SUMMARY|runtime error|Test unit written' \
			"$work/$target.log" | head -20
		rc=1
	else
		grep -E '^stat::(number_of_executed_units|new_units_added)' \
			"$work/$target.log" | sed "s/^/fuzz: $target /"
	fi
done
exit $rc
