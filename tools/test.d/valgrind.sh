#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# valgrind memcheck: every unit test (meson's `valgrind` test setup, see
# tests/meson.build) and a few real runs of the binary (each engine, job
# processes and threads, a job file, a refused and a failing job). Any
# memcheck error or definite leak fails. About a minute on 2 cores.
#
# The value parser computes in long double, which valgrind emulates with
# 64-bit doubles (its documented x87 limitation): the exact UINT64_MAX cases
# of test_parse and test_options cannot hold under it. Those two run under
# memcheck outside meson, where only a memcheck finding (exit 99) fails;
# their assertions run in the gcc and ASan builds.
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
ninja -C "$dir" >/dev/null

rc=0
long_double=(parse options)
mapfile -t units < <(meson test -C "$dir" --list --suite unit 2>/dev/null |
	sed -n 's/^iobench:unit \/ //p; s/^iobench \/ //p' |
	grep -vxF -e "${long_double[0]}" -e "${long_double[1]}")
if [ ${#units[@]} -eq 0 ]; then
	echo "valgrind: no unit tests found"
	exit 1
fi
echo "valgrind: ${#units[@]} unit tests"
meson test -C "$dir" --setup=valgrind --suite unit --print-errorlogs \
	"${units[@]}" || rc=1

vg=(valgrind --quiet --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite --show-leak-kinds=definite)
for t in "${long_double[@]}"; do
	got=0
	"${vg[@]}" "$dir/tests/test_$t" >/dev/null 2>"$dir/valgrind-$t.log" || got=$?
	if [ "$got" -eq 99 ]; then
		echo "valgrind: FAILED: memcheck errors in test_$t (see $dir/valgrind-$t.log)"
		rc=1
	else
		echo "valgrind: ok: test_$t (memcheck clean; assertions checked elsewhere)"
	fi
done
bin="$top/$dir/src/iobench"
work=$(mktemp -d /dev/shm/iobench-vg.XXXXXX)
trap 'rm -rf "$work"' EXIT
truncate -s 8m "$work/t.dat"
printf '[global]\nfilename=%s\nsize=2m\n[a]\nrw=randread\n[b]\nrw=write\nbs=64k\nstonewall\n' \
	"$work/t.dat" >"$work/j.fio"

# check WANT_RC ARGS...: one run under memcheck; 99 = memcheck found something
check() {
	local want=$1 got=0
	shift
	"${vg[@]}" "$bin" "$@" >"$work/out" 2>"$work/err" || got=$?
	if [ "$got" -ne "$want" ]; then
		echo "valgrind: FAILED (rc=$got, want $want): iobench $*"
		grep -v '^iobench: warning' "$work/err" | head -30
		rc=1
	else
		echo "valgrind: ok: iobench $*"
	fi
}
common=(--name=v --filename="$work/t.dat" --size=4m --output-format=json,normal)
for e in psync io_uring libaio null; do
	check 0 "${common[@]}" --rw=randrw --ioengine=$e --iodepth=8 --numjobs=2
done
check 0 "${common[@]}" --rw=randread --ioengine=io_uring --iodepth=4 --thread --numjobs=2
check 0 "$work/j.fio" --output-format=terse
check 1 "${common[@]}" --rw=read --bs=8m
check 1 "${common[@]}" --rw=read --offset=100 --direct=1
check 1 --name=v --filename="$work/missing/f" --size=1m --rw=write
exit $rc
