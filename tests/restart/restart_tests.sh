#!/usr/bin/env bash
# restart_tests.sh SQUALL CASE_TOML WORKDIR MPIEXEC TEST
# Checkpoint/restart scenarios on a small rising bubble; each TEST exits non-zero on
# failure and says why. MPIEXEC is the launcher with its flags, e.g. "mpiexec --oversubscribe".
set -u
squall=$1 case=$2 work=$3 mpiexec=$4 test=$5
here=$(cd "$(dirname "$0")" && pwd)
check="python3 $here/../regression/check_summary.py"
common=(--quiet --set "mesh.elements=[4,1,4]" --set dg.order=3 --set output.interval=0)
rm -rf "$work/$test" && mkdir -p "$work/$test" && cd "$work/$test" || exit 1

fail() { echo "FAIL: $*"; exit 1; }
run() { "$squall" run "$case" "${common[@]}" "$@"; }
prun() { local n=$1; shift; $mpiexec -n "$n" "$squall" run "$case" "${common[@]}" "$@"; }
checksum() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['state_checksum'])" "$1"; }
# restart_2_to_3 ARGS...: 20 steps on 2 ranks with a checkpoint at step 10, restarted from
# it on 3 ranks; the same state, and the energy and water budgets closed to 1e-13.
restart_2_to_3() {
  prun 2 --output full "$@" --set output.checkpoint_steps=10 || fail "full run"
  mkdir -p r3 && cp full/checkpoint_000010.h5 r3/
  prun 3 --output r3 "$@" --restart latest || fail "restart on 3 ranks"
  $check same-checksum full/summary.json r3/summary.json || fail "checksums differ"
  for key in energy_budget_residual water_budget_residual; do
    $check bound r3/summary.json conservation.$key 1e-13 || fail "$key after the restart"
  done
}

case $test in
equality)
  # Uninterrupted on 2 ranks with a checkpoint every 40 steps; restarts from step 40 on
  # 1 rank and from step 80 on 4 ranks must end in the same state.
  prun 2 --output full --set time.max_steps=120 --set output.checkpoint_steps=40 || fail "full run"
  for f in full/checkpoint_000040.h5 full/checkpoint_000080.h5 full/checkpoint_000120.h5; do
    [ -f "$f" ] || fail "missing $f"
  done
  mkdir -p r1 r4 && cp full/checkpoint_000040.h5 r1/ && cp full/checkpoint_000080.h5 r4/
  run --output r1 --set time.max_steps=120 --restart latest || fail "restart on 1 rank"
  prun 4 --output r4 --set time.max_steps=120 --restart r4/checkpoint_000080.h5 || fail "restart on 4 ranks"
  $check same-checksum full/summary.json r1/summary.json r4/summary.json || fail "checksums differ"
  ;;
schedule)
  # A restart with another end time or output interval: an end time before the
  # checkpoint is bad input (status 2) that leaves the output untouched; a new interval
  # puts the outputs after the checkpoint at its multiples, never in the past.
  prun 2 --output full --set time.end_time=20 --set output.checkpoint_interval=10 || fail "full run"
  ckpt=$(ls full/checkpoint_*.h5 | head -1)
  ncdump -h "$ckpt" | grep -qF '# --set time.end_time=20\n' || fail "the checkpoint's config text lacks the --set overrides"
  before=$(ls -R full | md5sum; cat full/diagnostics.csv full/profiles.nc 2>/dev/null | md5sum)
  run --output full --set time.end_time=5 --restart "$ckpt" > early.log 2>&1
  status=$?
  cat early.log
  [ "$status" = 2 ] || fail "a restart with an end time before the checkpoint exited $status, expected 2"
  grep -q "'time.end_time' = 5 s is before t = " early.log || fail "the refusal does not name time.end_time"
  [ "$before" = "$(ls -R full | md5sum; cat full/diagnostics.csv full/profiles.nc 2>/dev/null | md5sum)" ] ||
    fail "the refused restart changed the output directory"
  mkdir -p every4 && cp "$ckpt" every4/
  run --output every4 --set time.end_time=20 --set output.interval=4 --restart latest || fail "restart with interval 4"
  times=$(for f in every4/fields_*.nc; do ncdump -v time "$f" | sed -n 's/^ time = \([0-9.]*\) ;$/\1/p'; done | tr '\n' ' ')
  [ "$times" = "12 16 20 " ] || fail "outputs after a restart with interval 4 at t = $times, expected 12 16 20"
  # The same restart in the first run's own directory: its field file of t = 20 (number 1
  # there) lies after the checkpoint and is moved aside, so every file left belongs to
  # the restarted run's timeline.
  run --output full --set time.end_time=20 --set output.interval=4 --restart "$ckpt" > same_dir.log 2>&1 ||
    fail "restart with interval 4 in the first run's directory: $(cat same_dir.log)"
  [ -f full/superseded_fields/fields_000001.nc ] || fail "the earlier run's later field file was not moved aside"
  grep -q "moved 1 field file(s) of times after this run's start" same_dir.log || fail "no warning: $(cat same_dir.log)"
  times=$(for f in full/fields_*.nc; do ncdump -v time "$f" | sed -n 's/^ time = \([0-9.]*\) ;$/\1/p'; done | tr '\n' ' ')
  [ "$times" = "0 12 16 20 " ] || fail "field files after the restart in place at t = $times, expected 0 12 16 20"
  ;;
tracers)
  # With passive tracers (CASE: tracer_bubble): a restart on another rank count ends in
  # the same state, and a restart with other tracers is refused (status 2), naming them.
  prun 2 --output full --set time.max_steps=60 --set output.checkpoint_steps=30 || fail "full run"
  mkdir -p r3 && cp full/checkpoint_000030.h5 r3/
  prun 3 --output r3 --set time.max_steps=60 --restart latest || fail "restart on 3 ranks"
  $check same-checksum full/summary.json r3/summary.json || fail "checksums differ"
  mkdir -p other && cp full/checkpoint_000030.h5 other/
  run --output other --set time.max_steps=60 --set 'physics.tracers=["bubble"]' --restart latest > other.log 2>&1
  status=$?
  cat other.log
  [ "$status" = 2 ] || fail "a restart with other tracers exited $status, expected 2"
  grep -q "physics.tracers must be the same" other.log || fail "the refusal does not name physics.tracers"
  ;;
moist)
  # Moist air (CASE: moist_bubble): a restart on another rank count ends in the same
  # state, and a moist checkpoint is refused by a dry case (status 2).
  margs=(--set "mesh.elements=[4,1,2]" --set time.max_steps=30)
  prun 2 --output full "${margs[@]}" --set output.checkpoint_steps=15 || fail "full run"
  mkdir -p r3 && cp full/checkpoint_000015.h5 r3/
  prun 3 --output r3 "${margs[@]}" --restart latest || fail "restart on 3 ranks"
  $check same-checksum full/summary.json r3/summary.json || fail "checksums differ"
  mkdir -p dry && cp full/checkpoint_000015.h5 dry/
  "$squall" run "$(dirname "$case")/dry_bubble.toml" "${common[@]}" --output dry "${margs[@]}" --restart latest \
    > dry.log 2>&1
  status=$?
  cat dry.log
  [ "$status" = 2 ] || fail "a dry case restarted from a moist checkpoint exited $status, expected 2"
  ;;
terrain)
  # Over a Witch of Agnesi hill (curved elements): a restart on another rank count ends
  # in the same state, and a checkpoint is refused (status 2) by a config over another
  # terrain or over flat ground, naming the terrains.
  targs=(--set "mesh.elements=[6,1,5]" --set time.max_steps=20 --set terrain.shape=agnesi
         --set terrain.height=150 --set terrain.half_width=120 --set terrain.x_center=800)
  prun 2 --output full "${targs[@]}" --set output.checkpoint_steps=10 || fail "full run"
  mkdir -p r3 && cp full/checkpoint_000010.h5 r3/
  prun 3 --output r3 "${targs[@]}" --restart latest || fail "restart on 3 ranks"
  $check same-checksum full/summary.json r3/summary.json || fail "checksums differ"
  mkdir -p higher flat && cp full/checkpoint_000010.h5 higher/ && cp full/checkpoint_000010.h5 flat/
  run --output higher "${targs[@]}" --set terrain.height=200 --restart latest > higher.log 2>&1
  status=$?
  cat higher.log
  [ "$status" = 2 ] || fail "a restart over another terrain exited $status, expected 2"
  grep -q "written over the terrain 'shape=agnesi height=150 " higher.log || fail "the refusal does not name the terrain"
  run --output flat --set "mesh.elements=[6,1,5]" --set time.max_steps=20 --restart latest > flat.log 2>&1
  status=$?
  cat flat.log
  [ "$status" = 2 ] || fail "a restart over flat ground exited $status, expected 2"
  grep -q "the config's \[terrain\] is 'flat'" flat.log || fail "the refusal does not say the config is flat"
  ;;
dycoms)
  # DYCOMS-II RF01 (CASE: dycoms_rf01_small) with its radiation on a tall mesh of element
  # layers of different heights: run on 2 ranks (1 x 1 x 2) and restarted on 3 (1 x 1 x 3),
  # so the column scans cross other ranks after the restart; the same state, and the
  # budgets still close. A restart with other layers is refused (status 2).
  dargs=(--set dg.order=2 --set "mesh.elements=[2,2,6]" --set time.max_steps=20 --set output.interval=0
         --set output.profiles_interval=0 --set output.checkpoint_interval=0)
  restart_2_to_3 "${dargs[@]}" --set "mesh.element_heights=[400.0,300.0,200.0,150.0,150.0,300.0]"
  prun 1 --output other "${dargs[@]}" --set "mesh.element_heights=[]" --set mesh.height_ratio=1.2 --restart full/checkpoint_000010.h5 >other.log 2>&1
  status=$?
  cat other.log
  [ "$status" = 2 ] || fail "a restart with other element layers exited with $status, not 2"
  grep -q "element layers along z differ" other.log || fail "the refusal does not name the element layers"
  ;;
bomex)
  # BOMEX (CASE: bomex_small) with its forcing and surface fluxes on a tiny mesh: a
  # restart on another rank count ends in the same state, and the budgets still close.
  bargs=(--set dg.order=2 --set "mesh.elements=[2,2,3]" --set time.max_steps=20 --set output.interval=0
         --set output.profiles_interval=0 --set output.checkpoint_interval=0)
  restart_2_to_3 "${bargs[@]}"
  # profiles_mean.nc: the time mean of profiles.nc over a window, and the same after a
  # restart from an earlier checkpoint in place (which drops the later records and writes them again).
  margs=("${bargs[@]}" --set output.profiles_interval=4 --set "output.profiles_mean_window=[8.0,40.0]")
  prun 1 --output means "${margs[@]}" --set output.checkpoint_steps=10 || fail "run with profile means"
  [ -f means/profiles_mean.nc ] || fail "no profiles_mean.nc"
  /usr/bin/python3 "$here/../regression/check_profile_means.py" means/profiles.nc means/profiles_mean.nc 8 40 ||
    fail "profiles_mean.nc is not the mean of profiles.nc"
  cp means/profiles_mean.nc mean_first.nc
  prun 1 --output means "${margs[@]}" --restart means/checkpoint_000010.h5 || fail "restart in place"
  /usr/bin/python3 "$here/../regression/check_profile_means.py" means/profiles.nc means/profiles_mean.nc 8 40 ||
    fail "profiles_mean.nc after the restart is not the mean of profiles.nc"
  /usr/bin/python3 - mean_first.nc means/profiles_mean.nc <<'PY' || fail "the means changed after the restart"
import sys
import numpy as np
import xarray as xr
a, b = xr.open_dataset(sys.argv[1], decode_times=False), xr.open_dataset(sys.argv[2], decode_times=False)
bad = [n for n in a.data_vars if not np.array_equal(a[n].values, b[n].values)]
print("differ:", bad) if bad else print(len(a.data_vars), "mean profiles unchanged")
sys.exit(1 if bad else 0)
PY
  ;;
case_state)
  # A case's numbers survive a restart (Case::saved_state; CASE: taylor_green, whose
  # dissipation rate is the change of kinetic energy since the last output): the first
  # rate after the restart is a number, the same as the uninterrupted run's.
  args=(--set time.max_steps=40 --set output.interval=0.0005 --set output.checkpoint_steps=20)
  run --output full "${args[@]}" || fail "full run"
  mkdir -p r && cp full/checkpoint_000020.h5 r/
  run --output r "${args[@]}" --restart latest || fail "restart"
  python3 - full/diagnostics.csv r/diagnostics.csv <<'PY' || fail "dissipation rate after the restart"
import csv, math, sys
full = {row["step"]: row for row in csv.DictReader(open(sys.argv[1]))}
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows, "no rows after the restart"
first = rows[0]
rate = float(first["dissipation_rate"])
print("first row after the restart: step", first["step"], "rate", rate, "uninterrupted", full[first["step"]]["dissipation_rate"])
assert math.isfinite(rate), "not a number"
assert first["dissipation_rate"] == full[first["step"]]["dissipation_rate"], "differs from the uninterrupted run"
PY
  ;;
killed)
  # A run killed while writing a checkpoint leaves the previous one whole and usable.
  run --output out --set time.max_steps=80 --set output.checkpoint_steps=40 || fail "first run"
  reference=$(checksum out/summary.json)
  cp -r out ref
  [ -f "${SQUALL_DIE_IN_CHECKPOINT_LIBRARY:-}" ] || fail "no fault library (SQUALL_DIE_IN_CHECKPOINT_LIBRARY)"
  LD_PRELOAD=$SQUALL_DIE_IN_CHECKPOINT_LIBRARY run --output out --set time.max_steps=160 \
    --set output.checkpoint_steps=40 --restart latest && fail "the injected fault did not kill the run"
  ls out/checkpoint_000120.h5.tmp > /dev/null 2>&1 || fail "no partial checkpoint left by the killed run"
  [ -f out/checkpoint_000120.h5 ] && fail "a partial checkpoint was renamed into place"
  run --output out --set time.max_steps=80 --restart latest || fail "restart from the previous checkpoint"
  [ "$(checksum out/summary.json)" = "$reference" ] || fail "state after restart differs"
  ;;
sigterm|sigusr1)
  # A signal stops the run after the current step with a checkpoint and status 0; the
  # restart ends in the same state as an uninterrupted run. SIGTERM straight to squall
  # on 1 rank; SIGUSR1 to the MPI launcher, which forwards it to the 2 ranks.
  ranks=1 sig=TERM
  [ "$test" = sigusr1 ] && ranks=2 sig=USR1
  prun $ranks --output ref --set time.end_time=150 || fail "reference run"
  if [ "$ranks" = 1 ]; then
    "$squall" run "$case" "${common[@]}" --output out --set time.end_time=150 > log.txt 2>&1 &
  else
    $mpiexec -n "$ranks" "$squall" run "$case" "${common[@]}" --output out --set time.end_time=150 > log.txt 2>&1 &
  fi
  pid=$!
  for _ in $(seq 100); do [ -f out/fields_000000.nc ] && break; sleep 0.1; done
  sleep 1
  kill -"$sig" "$pid"
  wait "$pid"
  status=$?
  cat log.txt
  [ "$status" = 0 ] || fail "stopped run exited with $status"
  grep -q "continue with the same command and --restart latest" log.txt || fail "no message on how to continue"
  python3 -c "import json; s=json.load(open('out/summary.json')); assert s['stopped_by_signal'] and s['final_time'] < 150" \
    || fail "the run was not stopped early by the signal"
  prun $ranks --output out --set time.end_time=150 --restart latest || fail "restart"
  $check same-checksum ref/summary.json out/summary.json || fail "checksums differ"
  /usr/bin/python3 "$here/same_records.py" ref out || fail "the records differ from the uninterrupted run's"
  ;;
corrupt)
  # Damaged or mismatched checkpoints are refused with status 2 and a reason.
  run --output good --set time.max_steps=10 || fail "run"
  file=good/checkpoint_000010.h5
  size=$(stat -c %s "$file")
  expect() {  # expect TEXT FILE ARGS...
    local text=$1 f=$2; shift 2
    out=$(run --output scratch "$@" --restart "$f" 2>&1); status=$?
    [ $status -eq 2 ] || fail "$f: status $status, expected 2: $out"
    grep -qF -- "$text" <<<"$out" || fail "$f: message lacks '$text': $out"
    echo "refused $f: ${out##*error: }"
  }
  mkdir -p scratch
  head -c $((size / 2)) "$file" > truncated.h5
  expect "truncated.h5" truncated.h5 --set time.max_steps=20
  python3 - "$file" flipped_data.h5 <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
# the state dataset is the bulk of the file: flip one byte in its middle
data[len(data) * 2 // 3] ^= 0xFF
open(sys.argv[2], "wb").write(data)
PY
  expect "do not match their checksum" flipped_data.h5 --set time.max_steps=20
  python3 - "$file" flipped_header.h5 <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
data[0:8] = b"NOTHDF5!"
open(sys.argv[2], "wb").write(data)
PY
  expect "flipped_header.h5" flipped_header.h5 --set time.max_steps=20
  # Edited metadata: each number a restart takes from the file is covered by a checksum.
  edit=${SQUALL_EDIT_CHECKPOINT:?the edit_checkpoint tool}
  for change in "time 0.5" "step 3" "output_count 7" "dt 0.001" "initial_mass 1" "boundary_energy 1"; do
    read -r name value <<<"$change"
    cp "$file" "edited_$name.h5" && $edit "edited_$name.h5" set "$name" "$value" || fail "cannot edit $name"
    expect "do not match their checksum" "edited_$name.h5" --set time.max_steps=20
  done
  # A file without the metadata checksum (as earlier versions wrote it) restarts, with a warning.
  cp "$file" unverified.h5 && $edit unverified.h5 delete metadata_checksum || fail "cannot delete the checksum"
  out=$(run --output scratch --set time.max_steps=20 --restart unverified.h5 2>&1) || fail "unverified restart: $out"
  grep -q "carries no metadata checksum" <<<"$out" || fail "no warning for an unverified checkpoint: $out"
  expect "mesh.elements differ" "$file" --set "mesh.elements=[8,1,4]" --set time.max_steps=20
  expect "dg.order = 3, the config 4" "$file" --set dg.order=4 --set time.max_steps=20
  expect "of case 'rising_bubble'" "$file" --set case.name=rest_atmosphere --set time.max_steps=20
  expect "no checkpoint file" missing.h5 --set time.max_steps=20
  mkdir -p empty
  out=$(run --output empty --restart latest 2>&1); [ $? -eq 2 ] && grep -q "no complete checkpoint" <<<"$out" \
    || fail "--restart latest in an empty directory: $out"
  ;;
blowup)
  # A blow-up leaves the last good state as a checkpoint, from which a gentler run goes on.
  run --output out --set time.cfl=3 --set time.max_steps=300 > log.txt 2>&1 && fail "did not blow up"
  grep -q "the last good state (step" log.txt || { cat log.txt; fail "no last-good message"; }
  latest=$(ls out/checkpoint_*.h5 | tail -1)
  [ -n "$latest" ] || fail "no checkpoint written"
  run --output out --set time.cfl=0.3 --set time.max_steps=20 --restart latest || fail "restart with a smaller cfl"
  ;;
wall_heat)
  # Heat through an isothermal wall is carried across a restart: the energy budget of a
  # restarted run closes as tightly as the uninterrupted one's, with the same state.
  heat=(--set physics.viscosity=10 --set boundary.z_low=no_slip_isothermal --set boundary.z_low_temperature=330)
  run --output full "${heat[@]}" --set time.max_steps=60 --set output.checkpoint_steps=30 || fail "full run"
  mkdir -p r && cp full/checkpoint_000030.h5 r/
  run --output r "${heat[@]}" --set time.max_steps=60 --restart latest || fail "restart"
  $check same-checksum full/summary.json r/summary.json || fail "checksums differ"
  $check at-least full/summary.json conservation.total_energy_relative_change 1e-9 || fail "no heat entered"
  for s in full r; do
    $check bound $s/summary.json conservation.energy_budget_residual 1e-13 || fail "$s: energy budget open"
  done
  ;;
records)
  # Outputs after restarts: a run stopped between output times (max_steps 25), continued
  # from its last checkpoint to step 35, then restarted from step 20 (as after a kill)
  # and run to step 40, ends with the diagnostics.csv and profiles.nc of the
  # uninterrupted run: the records written after each restart's checkpoint, and those
  # written when a run stopped between output times, are dropped.
  args=(--set output.interval=0.2 --set output.profiles_interval=0.1 --set output.checkpoint_steps=10
        --set output.checkpoint_keep=10)
  run --output full "${args[@]}" --set time.max_steps=40 || fail "uninterrupted run"
  run --output cut "${args[@]}" --set time.max_steps=25 || fail "first part"
  run --output cut "${args[@]}" --set time.max_steps=35 --restart latest || fail "second part"
  out=$(run --output cut "${args[@]}" --set time.max_steps=40 --restart cut/checkpoint_000020.h5 2>&1) ||
    fail "third part: $out"
  /usr/bin/python3 "$here/same_records.py" full cut || fail "the outputs differ from the uninterrupted run's"
  grep -q "dropped" <<<"$out" || fail "the restart did not say what it dropped: $out"
  ;;
fresh_profiles)
  # A fresh run into a directory holding an earlier run's profiles.nc (another order, so
  # another number of levels) starts the file anew; a restart continues it.
  records() { ncdump -h out/profiles.nc | sed -n 's/.*UNLIMITED ; \/\/ (\([0-9]*\) currently).*/\1/p'; }
  run --output out --set time.max_steps=4 || fail "first run"
  [ "$(records)" = 2 ] || fail "first run: $(records) profile records, expected 2"
  out=$(run --output out --set time.max_steps=4 --set dg.order=2 2>&1) || fail "fresh run with another order: $out"
  [ "$(records)" = 2 ] || fail "fresh run: $(records) profile records, expected 2 (a new file)"
  run --output out --set time.max_steps=6 --set dg.order=2 --restart latest || fail "restart"
  # appended: t = 0 and step 6 (the record of step 4, written when the run stopped
  # between output times, is dropped: the uninterrupted run has none there)
  [ "$(records)" = 2 ] || fail "restart: $(records) profile records, expected 2 (appended)"
  ;;
superseded)
  # Checkpoints with later steps than a run's start (an earlier run's, or those of the
  # trajectory a restart abandons) are set aside, so pruning and --restart latest see only
  # the new run's.
  aside=out/superseded_checkpoints
  run --output out --set time.max_steps=40 --set output.checkpoint_steps=20 || fail "first run"
  out=$(run --output out --set time.max_steps=10 --set output.checkpoint_keep=1 2>&1) || fail "fresh run: $out"
  grep -q "moved 2 checkpoint(s) of an earlier run to out/superseded_checkpoints" <<<"$out" || fail "no warning: $out"
  [ "$(cd out && ls checkpoint_*)" = checkpoint_000010.h5 ] || fail "fresh run: $(ls out)"
  [ "$(cd $aside && ls)" = "checkpoint_000020.h5
checkpoint_000040.h5" ] || fail "set aside: $(ls $aside)"
  run --output out --set time.max_steps=50 --restart $aside/checkpoint_000040.h5 || fail "restart from a set-aside one"
  [ "$(cd out && ls checkpoint_*)" = "checkpoint_000010.h5
checkpoint_000050.h5" ] || fail "after restart at 40: $(ls out)"
  out=$(run --output out --set time.max_steps=20 --restart out/checkpoint_000010.h5 2>&1) || fail "restart at 10: $out"
  grep -q "moved 1 checkpoint(s) later than the restart step" <<<"$out" || fail "no warning: $out"
  [ "$(cd $aside && ls)" = checkpoint_000050.h5 ] || fail "set aside after restart at 10: $(ls $aside)"
  run --output out --set time.max_steps=30 --restart latest || fail "restart latest"
  python3 -c "import json; assert json.load(open('out/summary.json'))['restarted_from'] == 'out/checkpoint_000020.h5'" \
    || fail "--restart latest did not pick the new run's checkpoint"
  # A restart from a set-aside checkpoint keeps that file when it sets aside others.
  run --output out --set time.max_steps=60 --restart $aside/checkpoint_000050.h5 || fail "restart from 50"
  run --output out --set time.max_steps=55 --restart $aside/checkpoint_000050.h5 || fail "restart from 50 again"
  [ "$(cd $aside && ls)" = "checkpoint_000050.h5
checkpoint_000060.h5" ] || fail "the restart file was not kept: $(ls $aside)"
  ;;
*) fail "unknown test $test" ;;
esac
echo "$test: ok"
