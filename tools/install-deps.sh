#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Install iobench's build and test dependencies on Debian 12 (run as root,
# or as a user with sudo). Idempotent; quiet; never prompts.
set -euo pipefail

pkgs=(
	build-essential   # gcc (+ libasan/libubsan for the sanitizer build), make
	meson ninja-build pkg-config
	liburing-dev      # io_uring engine
	libaio-dev        # libaio engine
	libcmocka-dev     # unit tests
	python3           # integration tests (stdlib only)
	fio               # reference for side-by-side checks in the tests
	ioping            # reference for iobench ping (ioping 1.3) golden tests
	mount             # losetup: loop devices for the integration tests
	util-linux
	libblkid-dev      # safety: filesystem/RAID/LVM/partition-table signatures
	zlib1g-dev        # gzip-compressed traces (read_iolog); validity checks: how well data compresses
	blktrace          # trace replay tests: blktrace/blkparse captures
	libisal-dev       # verify: crc32c/crc32/crc64 (ISA-L, hardware-accelerated)
	libxxhash-dev     # verify: xxhash
	nettle-dev        # verify: md5, sha1, sha256, sha512, sha3-*
	e2fsprogs xfsprogs # safety tests: real ext4/xfs images on loop devices
	strace            # safety tests: --readonly never opens for writing
	libfuse3-dev fuse3 # rate tests: test_stall's FUSE target (tests/helpers/stallfs.c)
	clang libclang-rt-dev # tools/test.d/fuzz.sh: libFuzzer (tests/fuzz/)
	valgrind          # tools/test.d/valgrind.sh: memcheck (unit tests, chosen integration cases)
	stress-ng         # tools/test.sh --flake: a CPU hog on one core beside the suite
	debhelper dpkg-dev lintian mandoc # packaging: tools/build-deb.sh, man page lint
	git               # meson dist (release tarball test)
	chromium fonts-liberation # test_plots: the HTML report in a headless browser
	libopenmpi-dev openmpi-bin # iobench-mpi and its test (tests/integration/test_mpi.py)
)

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all ${#pkgs[@]} packages already installed"
	exit 0
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
