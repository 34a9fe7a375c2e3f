#!/usr/bin/env bash
# install.sh BUILD_DIR
# `cmake --install BUILD_DIR --prefix P` installs squall, the cases, the scripts and the
# docs, and the installed squall runs an installed case from another working directory.
set -u
build=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
prefix="$dir/prefix"
cmake --install "$build" --prefix "$prefix" >"$dir/install.log" 2>&1 || fail "cmake --install: $(cat "$dir/install.log")"
for f in bin/squall share/squall/cases/bomex.toml share/squall/cases/rising_bubble.toml \
         share/squall/scripts/slurm/squall_composed.sbatch share/squall/scripts/compose/squall-compose \
         share/squall/scripts/bench.py share/doc/squall/README.md share/doc/squall/docs/config.md; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ -x "$prefix/share/squall/scripts/compose/squall-compose" ] || fail "squall-compose is not executable"
mkdir -p "$dir/elsewhere" && cd "$dir/elsewhere" || exit 1
"$prefix/bin/squall" run "$prefix/share/squall/cases/rising_bubble.toml" --quiet --set "mesh.elements=[4,1,4]" \
  --set dg.order=2 --set time.max_steps=3 || fail "the installed squall does not run an installed case"
[ -f output/rising_bubble/summary.json ] || fail "no summary.json in $(pwd)/output/rising_bubble"
"$prefix/bin/squall" cases | grep -q bomex || fail "squall cases does not list bomex"
echo "install: ok ($(cd "$prefix" && find . -type f | wc -l) files)"
