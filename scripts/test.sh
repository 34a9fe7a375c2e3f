#!/usr/bin/env bash
# Installs the dependencies (if missing), builds Squall and runs the whole CTest suite.
# Exits non-zero on any failure. Extra arguments go to ctest (e.g. -L unit, -R halo).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh --tests
./scripts/build.sh
cd build
exec ctest --output-on-failure --timeout 300 -j "${SQUALL_TEST_JOBS:-$(nproc)}" "$@"
