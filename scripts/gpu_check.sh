#!/usr/bin/env bash
# scripts/gpu_check.sh KOKKOS_ROOT [OUT]
#
# The device-side check of "the same bits on CPUs and GPUs" (docs/solver.md, Strict
# math): builds Squall against the CUDA or HIP Kokkos 4 installed at KOKKOS_ROOT (a
# site's build; this script does not build Kokkos), twice:
#   OUT/build-strict   SQUALL_STRICT_MATH=ON (the default)
#   OUT/build-vendor   SQUALL_STRICT_MATH=OFF (the vendor's exp, pow, sin, ...), for the cost
# and then, with the strict build,
#   - test_strict_math: the six elementary functions in a GPU kernel against the host,
#     bit for bit, over 1.2 million arguments;
#   - the unit, operator and regression suites: every kernels_* and regression reference
#     (made on a CPU) must match its state_checksum exactly (--exact); the memory tests
#     (the most bytes held in device Views against the same per-node budgets);
# and with both builds, the TGV benchmark (16^3 elements, N = 4, and 1e7 DOF), strict
# and vendor alternately, for the cost of strict math on the GPU; then the strict build's
# kernel layouts, nodes and teams (dg.kernel_layout) alternately, for the team kernel's
# gain.
# Everything lands in OUT (default ./gpu_check): ctest logs, bench.csv files,
# results.md with the verdicts. Exit status 0 only when every check passed.
#
# Then ensembles of 1e5-DOF members on the device: batched (squall ensemble --batch), not
# batched, one after another and at once (scripts/bench_ensemble.py), and a batch's
# aggregate rate against one mesh of the same size.
# Last, BOMEX and DYCOMS-II RF01 at the intercomparisons' resolution for
# SQUALL_GPU_BOMEX_SECONDS (default 300) and SQUALL_GPU_DYCOMS_SECONDS (default 120) of
# wall time: their time to solution.
# Environment: SQUALL_GPU_JOBS (build jobs, default nproc), SQUALL_GPU_SKIP_VENDOR=1 to
# build and time the strict configuration only (about half the time), CMAKE_ARGS (extra
# configure arguments, e.g. -DCMAKE_CUDA_ARCHITECTURES=90).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
kokkos_root=${1:?usage: scripts/gpu_check.sh KOKKOS_ROOT [OUT]}
out=$(mkdir -p "${2:-gpu_check}" && cd "${2:-gpu_check}" && pwd)
jobs=${SQUALL_GPU_JOBS:-$(nproc)}
status=0
results="$out/results.md"
log() { echo "$*" | tee -a "$results"; }

: >"$results"
log "# Squall GPU check, $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
log ""
log "Device: $( (nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || rocm-smi --showproductname) 2>/dev/null | head -1)"
log "Kokkos: $kokkos_root"

configure_and_build() {  # NAME STRICT
  local dir="$out/build-$1"
  cmake -S "$here" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$kokkos_root" \
        -DSQUALL_STRICT_MATH="$2" ${CMAKE_ARGS:-} >"$out/configure-$1.log" 2>&1 &&
    cmake --build "$dir" -j "$jobs" >"$out/build-$1.log" 2>&1
}

log ""
log "## Build"
if configure_and_build strict ON; then
  log "- strict build: ok ($(grep -E '^-- Squall: Kokkos' "$out/configure-strict.log" | sed 's/^-- Squall: //'))"
else
  log "- strict build: FAILED (see configure-strict.log, build-strict.log)"
  exit 1
fi
vendor=0
if [ "${SQUALL_GPU_SKIP_VENDOR:-0}" != 1 ]; then
  if configure_and_build vendor OFF; then vendor=1; log "- vendor-math build: ok"; else log "- vendor-math build: FAILED"; fi
fi

log ""
log "## Elementary functions: GPU kernel vs host"
strict="$out/build-strict"
if "$strict/tests/test_strict_math" >"$out/test_strict_math.log" 2>&1; then
  log "- ok: $(grep 'kernel (' "$out/test_strict_math.log")"
else
  log "- FAILED: $(grep 'kernel (' "$out/test_strict_math.log" || echo 'see test_strict_math.log')"
  status=1
fi

log ""
log "## Unit, operator and regression suites (references made on a CPU, checksums exact)"
(cd "$strict" && ctest -L 'unit|operator|regression|mpi|memory' --output-on-failure --timeout 600 -j 4 >"$out/ctest.log" 2>&1)
ctest_status=$?
log "- $(grep -E 'tests passed|tests failed' "$out/ctest.log" | tail -1)"
grep -E '^\s*[0-9]+ - .*\(Failed|Timeout\)' "$out/ctest.log" | sed 's/^/  - /' | tee -a "$results"
[ $ctest_status -eq 0 ] || status=1
# Which references matched bit for bit, and which only to round-off (should be none)
grep -hE '(ok  |FAIL|note) state_checksum' "$strict"/Testing/Temporary/LastTest.log 2>/dev/null |
  sort | uniq -c | sed 's/^/  /' >"$out/checksums.txt"
log "- state checksums: $(grep -c 'ok  ' "$out/checksums.txt") lines bitwise, $(grep -c 'FAIL' "$out/checksums.txt") failing (checksums.txt)"

log ""
log "## Cost of strict math on the GPU (TGV, PID in seconds; strict and vendor alternately)"
bench() {  # BUILD TAG ARGS...
  local b=$1 tag=$2; shift 2
  python3 "$here/scripts/bench.py" --squall "$out/build-$b/squall" --case "$here/cases/taylor_green.toml" \
    --orders 4 --steps 10 --warmup 2 --out "$out/bench-$tag" "$@" >"$out/bench-$tag.log" 2>&1
}
pid() { python3 -c "import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))['pid_seconds'])" "$1/bench.csv" 2>/dev/null; }
for size in "--elements 16,16,16" "--dof 1e7"; do
  for round in 1 2 3; do
    bench strict "strict-$round-${size//[^0-9a-z]/}" $size
    s=$(pid "$out/bench-strict-$round-${size//[^0-9a-z]/}")
    v="-"
    if [ $vendor = 1 ]; then
      bench vendor "vendor-$round-${size//[^0-9a-z]/}" $size
      v=$(pid "$out/bench-vendor-$round-${size//[^0-9a-z]/}")
    fi
    log "- $size, round $round: strict $s, vendor $v$( [ "$v" != - ] && [ -n "$s" ] && [ -n "$v" ] &&
        python3 -c "import sys; print(f', ratio {float(sys.argv[1]) / float(sys.argv[2]):.3f}')" "$s" "$v")"
  done
done

log ""
log "## Kernel layouts (TGV, strict build, PID in seconds; dg.kernel_layout nodes and teams alternately)"
# teams: the lifting, viscous flux and viscous divergence as one team per element with the
# element's viscous flux in shared memory (docs/config.md); the same bits (the regression
# suite above runs both layouts against the CPU's references).
for size in "--elements 16,16,16" "--dof 1e7"; do
  for round in 1 2 3; do
    tag=${size//[^0-9a-z]/}
    bench strict "nodes-$round-$tag" $size --set dg.kernel_layout=nodes
    bench strict "teams-$round-$tag" $size --set dg.kernel_layout=teams
    n=$(pid "$out/bench-nodes-$round-$tag")
    t=$(pid "$out/bench-teams-$round-$tag")
    log "- $size, round $round: nodes $n, teams $t$( [ -n "$n" ] && [ -n "$t" ] &&
        python3 -c "import sys; print(f', teams/nodes {float(sys.argv[2]) / float(sys.argv[1]):.3f}')" "$n" "$t")"
  done
done

log ""
log "## Ensembles on one device (bomex_small members of 1e5 DOF: N = 4, 10 x 10 x 8 elements, 20 steps of 0.15 s)"
# squall ensemble with and without --batch, M runs one after another and M processes at
# once sharing the device (scripts/bench_ensemble.py, which also checks that every mode
# gives every member the same state_checksum); then the aggregate DOF x stages per second
# of the batch of 16 against one run of the same 16 x 1e5 DOF as one mesh.
if python3 "$here/scripts/bench_ensemble.py" --squall "$out/build-strict/squall" --cores 1 --members 1,4,16 \
    --order 4 --elements 10,10,8 --steps 20 --dt 0.15 --repeats 2 --out "$out/bench-ensemble" \
    >"$out/bench-ensemble.log" 2>&1; then
  sed -n '3,$p' "$out/bench-ensemble/bench_ensemble.md" >>"$results"
  "$out/build-strict/squall" run "$here/cases/bomex_small.toml" --quiet --output "$out/ensemble-one-mesh" \
    --set dg.order=4 --set "mesh.elements=[40,40,8]" --set "mesh.domain=[[0, 12800], [0, 12800], [0, 3000]]" \
    --set time.max_steps=20 --set time.dt=0.15 --set time.end_time=1e30 --set output.interval=0 \
    --set output.profiles_interval=0 --set output.checkpoint_interval=0 --set "output.profiles_mean_window=[]" \
    >"$out/ensemble-one-mesh.log" 2>&1
  python3 - "$out/bench-ensemble/runs" "$out/ensemble-one-mesh/summary.json" >>"$results" <<'PY' || status=1
import glob, json, sys
batch = [json.load(open(f))["member_records"][0]["pid_seconds"]
         for f in sorted(glob.glob(sys.argv[1] + "/M16_batched_r*/out/ensemble_summary.json"))]
one = json.load(open(sys.argv[2]))["pid_seconds"]
best = min(batch)
print(f"- batch of 16: {1 / best:.3g} DOF stages/s (PID {best:.3g} s); one mesh of the same DOF: {1 / one:.3g} "
      f"(PID {one:.3g} s); batch / one mesh = {one / best:.2f} (goal >= 0.8)")
PY
  tail -1 "$results"
else
  log "- bench_ensemble.py failed (see $out/bench-ensemble.log)"
  status=1
fi

# The moist cases at the intercomparisons' resolution for a fixed wall time each, stopped
# by SIGTERM (the run stops at the next step and writes its checkpoint and summary): time
# to solution, in simulated hours per wall-clock hour.
# time_case NAME TITLE SECONDS HOURS: cases/NAME.toml for SECONDS of wall time; HOURS is
# the case's simulated length.
time_case() {
  local name=$1 title=$2 seconds=$3 hours=$4
  log ""
  log "## $title for $seconds s of wall time"
  timeout -s TERM "$seconds" "$out/build-strict/squall" run "$here/cases/$name.toml" --output "$out/$name" \
    --quiet >"$out/$name.log" 2>&1
  if python3 - "$out/$name/summary.json" "$hours" >>"$results" <<'PY'; then
import json, sys
s = json.load(open(sys.argv[1]))
hours = float(sys.argv[2])
rate = s["final_time"] / s["wall_seconds"]
print(f"- t = {s['final_time']:.0f} s in {s['wall_seconds']:.0f} s of loop wall time: {rate:.2f} simulated h per "
      f"wall h ({hours:g} h in {hours / rate:.1f} h), PID {s['pid_seconds']:.3g} s, LWP {s['case_diagnostics']['lwp']:.4g} kg m-2")
PY
    tail -1 "$results"
  else
    log "- $name: no summary (see $out/$name.log)"
    status=1
  fi
}
time_case bomex "BOMEX (cases/bomex.toml, 16 x 16 x 19 elements, N = 4)" "${SQUALL_GPU_BOMEX_SECONDS:-300}" 6
time_case dycoms_rf01 "DYCOMS-II RF01 (cases/dycoms_rf01.toml, 24 x 24 x 19 elements in 30-150 m layers, N = 4)" \
  "${SQUALL_GPU_DYCOMS_SECONDS:-120}" 4

log ""
log "Overall: $([ $status -eq 0 ] && echo 'every check passed' || echo 'FAILED')"
exit $status
