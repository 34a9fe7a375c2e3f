#!/usr/bin/env bash
# view_peak.sh LIBRARY BUDGET SQUALL CASE [--set ...]: runs `SQUALL run CASE --set ...`
# on one rank with the View-following tools library and fails when the most bytes held in
# one memory space's Views at any moment of the run exceed BUDGET doubles per node
# (summary.json's dof). Exit 77 (skipped) when this Kokkos does not load tools.
set -euo pipefail
lib=$1 budget=$2 squall=$3 case=$4
shift 4
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
KOKKOS_PROFILE_LIBRARY="$lib" KOKKOS_TOOLS_LIBS="$lib" VIEW_PEAK_OUT="$out/peak.txt" \
  "$squall" run "$case" --quiet --output "$out/run" "$@" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
if [ ! -s "$out/peak.txt" ]; then
  echo "view_peak.sh: this Kokkos did not load the tools library $lib"
  exit 77
fi
python3 - "$out/peak.txt" "$out/run/summary.json" "$budget" <<'PY'
import json, sys
s = json.load(open(sys.argv[2]))
nodes = s["dof"]  # elements x (N+1)^3, one rank
budget = float(sys.argv[3])
spaces = {}  # space -> (peak bytes, [(bytes, label)])
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("peak "):
        _, space, peak = line.split(" ")
        spaces[space] = (int(peak), [])
    elif line:
        b, label = line.split(" ", 1)  # a label may hold spaces
        spaces[space][1].append((int(b), label))
worst = 0
for space, (peak, held) in spaces.items():
    per_node = peak / 8 / nodes
    worst = max(worst, per_node)
    print(f"{space}: most bytes in Views {peak} = {per_node:.2f} doubles per node (budget {budget}); held then:")
    for b, label in sorted(held, reverse=True):
        print(f"  {b / 8 / nodes:8.3f}  {label}")
sys.exit(0 if worst <= budget else 1)
PY
