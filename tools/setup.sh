#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Fresh Debian 12 machine -> built iobench at build/src/iobench.
# Installs the dependencies (apt-get, needs root or sudo), configures and
# builds. Safe to re-run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

tools/install-deps.sh
if [ -f build/meson-private/coredata.dat ]; then
	meson setup --reconfigure build
else
	meson setup build
fi
ninja -C build
echo "setup: built $top/build/src/iobench"
