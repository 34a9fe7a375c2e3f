#!/usr/bin/env bash
# Installs the dependencies (if missing), configures and builds Squall in build/.
# Extra arguments go to the CMake configure step, e.g. -DKokkos_ROOT=/opt/kokkos.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install_deps.sh
jobs=${SQUALL_BUILD_JOBS:-$(nproc)}
cmake -S . -B build -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" "$@" >build.log 2>&1 ||
  { cat build.log; echo "scripts/build.sh: configure failed (log above)" >&2; exit 1; }
grep -E '^-- Squall:' build.log || true
cmake --build build -j "$jobs"
rm -f build.log
