#!/usr/bin/env bash
# make_kernel_references.sh SQUALL: writes tests/regression/kernels_*.ref (state checksum
# and norms after 5 steps) for the kernel checks of tests/regression/CMakeLists.txt.
# Use only after a change that is meant to change results, and say why in the commit.
set -euo pipefail
squall=$1
here=$(cd "$(dirname "$0")" && pwd)
names=$(sed -n 's/^set(kernels_\([a-z_]*\) .*/\1/p' "$here/CMakeLists.txt")
for name in $names; do
  # the set(...) may continue on following lines: join until the closing parenthesis
  args=$(awk -v n="set(kernels_$name " 'index($0, n) == 1 {on = 1} on {printf "%s ", $0} on && /\)$/ {exit}' \
         "$here/CMakeLists.txt" | sed "s/^set(kernels_$name //; s/) *$//" | tr -d '"')
  tmp=$(mktemp -d)
  # shellcheck disable=SC2086
  set -- $args
  case_name=$1; shift
  "$squall" run "$here/../../cases/$case_name.toml" --quiet --output "$tmp" "$@" --set time.max_steps=5 \
    --set output.interval=0
  python3 - "$tmp/summary.json" > "$here/kernels_$name.ref" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print(f"# {s['case']}: {s['steps']} steps, N = {s['polynomial_order']}, elements {s['elements']}")
print(f"state_checksum {s['state_checksum']}")
print(f"final_time {s['final_time']!r}")
for k, v in s["state_norms"]["l2"].items():
    print(f"state_norms.l2.{k} {v!r}")
PY
  rm -rf "$tmp"
  echo "== kernels_$name"; cat "$here/kernels_$name.ref"
done
