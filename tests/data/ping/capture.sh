#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Re-capture the golden outputs of the real ioping 1.3 in this folder (root:
# makes an ext4 image on a loop device and a raw loop device). ioping runs
# under fakeclock.so (see fakeclock.c), so every latency is scripted and
# the outputs are byte-reproducible; tests/unit/test_report_ping.c feeds the
# same latencies to iobench's formatters and expects these bytes.
# Usage: capture.sh [OUTDIR]   (default: this folder)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(cd "${1:-$here}" && pwd)
work=$(mktemp -d /dev/shm/ibping_cap.XXXXXX)
loops=()
cleanup() {
	umount "$work/mnt" 2>/dev/null || true
	umount "$work/d" 2>/dev/null || true
	for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
gcc -O2 -shared -fPIC -o "$work/fakeclock.so" "$here/fakeclock.c"
truncate -s 64M "$work/ext4.img"
mkfs.ext4 -q -F "$work/ext4.img"
loops+=("$(losetup -f --show "$work/ext4.img")")
mkdir "$work/mnt" "$work/d"
mount "${loops[0]}" "$work/mnt"
dd if=/dev/zero of="$work/mnt/f" bs=1M count=4 status=none
truncate -s 32M "$work/raw.img"
loops+=("$(losetup -f --show "$work/raw.img")")
ln -s "${loops[1]}" "$work/dev"
mount -t tmpfs -o size=64m tmpfs "$work/d"

# name, latencies (ns), ioping arguments (run from $work: targets d, mnt/f, dev)
lat_a=1500,601,2270,11600,9220,1000,4000000,100000,123456789,25000000000,5400000000000,999,60000000000
run() {
	local name=$1 lat=$2
	shift 2
	(cd "$work" && IBFC_LAT=$lat TZ=UTC LD_PRELOAD="$work/fakeclock.so" \
		ioping -e 1 "$@" >"$out/$name.out" 2>&1) || echo "exit $?" >>"$out/$name.out"
}
run dir "$lat_a" -c 13 -i 10ms d
run dir_json "$lat_a" -c 13 -i 10ms -J d
run dir_batch "$lat_a" -c 13 -i 10ms -B d
run dir_time "$lat_a" -c 3 -i 10ms -I d
run dir_quiet "$lat_a" -c 13 -i 10ms -q d
lat_b=18900,5190,9330,5280
run file "$lat_b" -c 4 -i 0 mnt/f
run file_json "$lat_b" -c 4 -i 0 -J mnt/f
run dev "$lat_b" -c 4 -i 0 dev
run dev_json "$lat_b" -c 2 -i 0 -J dev
run dev_batch "$lat_b" -c 4 -i 0 -B dev
lat_p=1860,601,551,641,851,671,630
run period "$lat_p" -c 7 -i 0 -p 3 d
run period_quiet "$lat_p" -c 7 -i 0 -p 3 -q d
run period_batch "$lat_p" -c 5 -i 0 -p 2 -B d
run period_json "$lat_p" -c 4 -i 0 -p 2 -J d
lat_t=1950,6560,10800,3980,5388,7361
run ptime "$lat_t" -w 1s -i 100ms -P 300ms d
run ptime_quiet "$lat_t" -w 1s -i 100ms -P 300ms -q d
run write "1380,891,812" -c 3 -i 0 -W d
run rw "1300,1260,972,570" -c 4 -i 0 -G d
run rw_json "1300,1260" -c 2 -i 0 -G -J d
run minmax "1000,631,511,1510,491,700,501,491" -c 8 -i 0 -t 600ns -T 1us d
run burst "1990,620,561,560,550" -c 5 -i 0 -b 2 d
run none "1823" -c 1 -i 0 d
run none_batch "1823" -c 1 -i 0 -B d
run big "3000000,1500000,2500000" -c 3 -i 0 -s 1m -S 8m d
run json_quiet "$lat_p" -c 5 -i 0 -p 2 -q -J d
run json_time "$lat_b" -c 2 -i 0 -J -I%s d
run linear "$lat_b" -c 3 -i 0 -L -S 1m d
run rapid "1000000,2000000" -R -S 1m d
run file_write "$lat_b" -c 3 -i 0 -WWW mnt/f
run odd_size "$lat_b" -c 2 -i 0 -s 1536 d
