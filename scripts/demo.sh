#!/usr/bin/env bash
# Installs the dependencies (if missing), builds Squall and runs the default case
# (cases/rising_bubble.toml) on 2 MPI ranks; the output lands in output/rising_bubble/.
# Extra arguments go to `squall run`, e.g. --set dg.order=3.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
launcher=(mpirun -n 2)
if mpirun --version 2>/dev/null | grep -qE 'Open MPI|OpenRTE'; then
  launcher+=(--oversubscribe)
  [ "$(id -u)" -eq 0 ] && launcher+=(--allow-run-as-root)
fi
"${launcher[@]}" build/squall run cases/rising_bubble.toml "$@"
echo "demo: done; summary.json is in the output directory (default output/rising_bubble/)"
