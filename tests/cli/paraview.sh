#!/usr/bin/env bash
# paraview.sh SQUALL CASE_TOML SOURCE_DIR: a fields file opens in ParaView (pvpython,
# offscreen) with the CF reader's defaults as the Cartesian box. Skipped (77) without
# pvpython (Debian: python3-paraview, installed by install_deps.sh --tests).
set -u
squall=$1 case=$2 src=$3
command -v pvpython >/dev/null || { echo "no pvpython: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$squall" run "$case" --quiet --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.max_steps=2 \
  --output "$dir/out" || { echo "FAIL: the run failed"; exit 1; }
timeout 120 pvpython --force-offscreen-rendering "$src/tests/cli/paraview_box.py" "$dir/out/fields_000000.nc" \
  1000 100 1000 2>&1 | grep -v "^\s*$" | tail -5
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || { echo "FAIL: ParaView did not read the box (status $status)"; exit 1; }
echo "ParaView: ok"
