#!/usr/bin/env bash
# make_reference.sh SQUALL CASE: prints the reference norms of CASE's regression run
# (same settings as tests/regression/CMakeLists.txt) to tests/regression/CASE.ref.
# Use only after a change that is meant to change results, and say why in the commit.
set -euo pipefail
squall=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
args=$(sed -n "s/^set(regression_${case} \(.*\))$/\1/p" "$here/CMakeLists.txt" | tr -d '"')
[ -n "$args" ] || { echo "no regression settings for $case" >&2; exit 1; }
tmp=$(mktemp -d)
# shellcheck disable=SC2086
"$squall" run "$here/../../cases/$case.toml" --quiet --output "$tmp" $args --set output.interval=0
python3 - "$tmp/summary.json" > "$here/$case.ref" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"# {s['case']}: {s['steps']} steps, N = {s['polynomial_order']}, elements {s['elements']}")
print(f"state_checksum {s['state_checksum']}")
rows = [("final_time", s["final_time"])]
rows += [(f"state_norms.l2.{k}", v) for k, v in s["state_norms"]["l2"].items()]
rows += [(f"errors.l2.{k}", v) for k, v in s.get("errors", {}).get("l2", {}).items()]
rows += [(f"case_diagnostics.{k}", v) for k, v in s["case_diagnostics"].items()]
for key, value in rows:
    if value is not None:  # null: not defined yet (e.g. no front in the first steps)
        print(f"{key} {value!r}")
PY
rm -rf "$tmp"
cat "$here/$case.ref"
