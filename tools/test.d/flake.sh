#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The flake hunt (tools/test.sh --flake N): the whole integration suite N
# times in a row in build/ (the gcc build; every integration test, the ones
# the ASan build leaves out included), with a CPU hog on one core beside it
# (stress-ng --cpu 1, or a shell busy loop without stress-ng), as the
# machine is when CI shares it. A test that asserts a speed, a load-shaped
# curve or a fixed latency tolerance fails here sooner or later; one that
# asserts exact facts, or bounds from what the same run measured, does not.
# Prints each round's line and, at the end, every test that failed at least
# once with its count ("test_rate: 1 of 3 rounds") and the round's log file,
# and last "N passed, N failed" over all the rounds. Exit 0 when no test
# failed in any round, 1 otherwise.
# Usage: tools/test.d/flake.sh [TOPDIR] ROUNDS [extra `meson test` arguments]
#   FLAKE_HOG=0: no hog (the same rounds on a quiet machine)
set -euo pipefail

top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
rounds=${2:-3}
shift 2 || true
cd "$top"
dir=build

if [ -f "$dir/meson-private/coredata.dat" ]; then
	meson setup --reconfigure "$dir" >/dev/null
else
	meson setup "$dir" -Dwerror=true -Dbuildtype=debugoptimized >/dev/null
fi
ninja -C "$dir" >/dev/null

hog_pid=
stop_hog() {
	[ -n "$hog_pid" ] || return 0
	kill -- -"$hog_pid" 2>/dev/null || kill "$hog_pid" 2>/dev/null || true
	wait "$hog_pid" 2>/dev/null || true
	hog_pid=
}
trap stop_hog EXIT
if [ "${FLAKE_HOG:-1}" != 0 ]; then
	# a process group of its own, so that stop_hog ends stress-ng's worker too
	if command -v stress-ng >/dev/null; then
		setsid stress-ng --cpu 1 --timeout 0 --quiet &
	else
		setsid sh -c 'while :; do :; done' &
	fi
	hog_pid=$!
	echo "flake: CPU hog on one core (pid $hog_pid: $(command -v stress-ng || echo 'sh busy loop'))"
fi

logs=()
for i in $(seq 1 "$rounds"); do
	t0=$SECONDS
	base=flake-$i
	rm -f "$dir/meson-logs/$base.json"
	meson test -C "$dir" --suite integration --logbase "$base" "$@" \
		>"$dir/meson-logs/$base.out" 2>&1 || true
	logs+=("$dir/meson-logs/$base.json")
	printf 'flake: round %d of %d: %s (%dm%02ds, load %s)\n' "$i" "$rounds" \
		"$(python3 tools/testlog-summary.py "$dir/meson-logs/$base.json" | tail -n 1)" \
		$(((SECONDS - t0) / 60)) $(((SECONDS - t0) % 60)) \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
done
stop_hog

rc=0
python3 - "$rounds" "${logs[@]}" <<'EOF' || rc=1
import json
import sys

rounds = int(sys.argv[1])
fails = {}
for path in sys.argv[2:]:
    try:
        with open(path, encoding='utf-8') as f:
            recs = [json.loads(l) for l in f if l.strip()]
    except OSError:
        fails.setdefault('(no test log)', []).append(path)
        continue
    for r in recs:
        if r.get('result') not in ('OK', 'SKIP', 'EXPECTEDFAIL'):
            fails.setdefault(r.get('name'), []).append(path)
for name, where in sorted(fails.items()):
    print('flake: %s: failed %d of %d rounds (%s)'
          % (name, len(where), rounds, ', '.join(where)))
print('flake: %d test(s) failed at least once in %d rounds'
      % (len(fails), rounds))
sys.exit(1 if fails else 0)
EOF
# the last line as every tier's: N passed, N failed over all the rounds
python3 tools/testlog-summary.py "${logs[@]}" | tail -n 1
exit $rc
