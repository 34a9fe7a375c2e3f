#!/usr/bin/env bash
# ensemble.sh SQUALL CASES_DIR WORKDIR MPIEXEC TEST
# `squall ensemble` scenarios on a tiny bomex_small: every member ends in the state of the
# same config run alone with `squall run` (its state_checksum), on other rank counts, for
# 1, 4 and 8 members, with seeds and a closure constant varying, across a stop by signal
# and a restart on another rank count; a member that blows up fails alone; and the same
# for members run as one batch (--batch), also with their own surface fluxes and forcing,
# and with radiation.
set -u
squall=$1 cases=$2 work=$3 mpiexec=$4 test=$5
here=$(cd "$(dirname "$0")" && pwd)
check="python3 $here/../regression/check_summary.py"
rm -rf "$work/$test" && mkdir -p "$work/$test" && cd "$work/$test" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
common='"dg.order=2", "mesh.elements=[2,2,3]", "output.interval=0", "output.profiles_interval=0"'
# solo NAME RANKS OVERRIDES...: the base config with the common and the member's
# overrides, run alone.
solo() {
  local name=$1 ranks=$2; shift 2
  local args=()
  for o in "dg.order=2" "mesh.elements=[2,2,3]" "output.interval=0" "output.profiles_interval=0" "$@"; do
    args+=(--set "$o")
  done
  $mpiexec -n "$ranks" "$squall" run "$cases/bomex_small.toml" --quiet --output "$name" "${args[@]}" ||
    fail "solo run $name"
}
# ensemble_file FILE "OVERRIDE", ... < REST: FILE with the base config, the common
# overrides and these, then the rest of the file from standard input.
ensemble_file() {
  { printf '[ensemble]\nconfig = "%s"\nset = [%s, %s]\n' "$cases/bomex_small.toml" "$common" "$2"; cat; } > "$1"
}
# same MEMBER_DIR SOLO_DIR: the member's state_checksum is the solo run's.
same() { $check same-checksum "$1/summary.json" "$2/summary.json" || fail "$1 differs from $2"; }
# same_rows CSV_A CSV_B: the two diagnostics.csv files agree in every column but wall_seconds.
same_rows() {
  python3 -c "import csv, sys
rows = [[{k: v for k, v in r.items() if k != 'wall_seconds'} for r in csv.DictReader(open(f))] for f in sys.argv[1:]]
sys.exit(rows[0] != rows[1])" "$1" "$2"
}
# count FILE KEY VALUE: ensemble_summary.json's status_counts.KEY is VALUE.
count() {
  python3 -c "import json,sys; s=json.load(open(sys.argv[1])); c=s['status_counts'][sys.argv[2]]; \
assert c == int(sys.argv[3]), (sys.argv[2], c)" "$1" "$2" "$3" || fail "status_counts.$2 is not $3"
}

# stopped_by_signal FILE ARGS...: `squall ensemble e.toml ARGS...` on 2 ranks, stopped by
# SIGUSR1 once FILE exists; its output in log.txt, its exit status in $status (true if 0).
stopped_by_signal() {
  local file=$1; shift
  $mpiexec -n 2 "$squall" ensemble e.toml "$@" > log.txt 2>&1 &
  local pid=$!
  for _ in $(seq 300); do [ -f "$file" ] && break; sleep 0.1; done
  sleep 0.3
  kill -USR1 "$pid"
  wait "$pid"
  status=$?
  cat log.txt
  [ "$status" = 0 ]
}

case $test in
members)
  # 4 members on 2 ranks: three seeds from "range", one member of its own with another
  # Smagorinsky constant; each against its solo run on 1 rank.
  ensemble_file e.toml '"time.max_steps=8", "output.checkpoint_interval=0"' <<EOF
members = 3
vary = { "case.seed" = "range" }

[[member]]
set = ["case.seed=7", "physics.smagorinsky_cs=0.25"]
EOF
  # Two groups of one rank side by side (the default), and one group of both ranks.
  $mpiexec -n 2 "$squall" ensemble e.toml --output ens --quiet || fail "ensemble"
  count ens/ensemble_summary.json done 4
  $mpiexec -n 2 "$squall" ensemble e.toml --output ens2 --ranks-per-member 2 --quiet || fail "ensemble, 2 ranks per member"
  for m in 0 1 2 3; do same ens/member_00$m ens2/member_00$m; done
  python3 -c "import json; g=[json.load(open(f'{d}/ensemble_summary.json'))['groups'] for d in ('ens', 'ens2')]; \
assert g == [2, 1], g" || fail "not 2 groups by default and 1 with --ranks-per-member 2"
  for m in 0 1 2; do
    solo solo$m 1 time.max_steps=8 output.checkpoint_interval=0 case.seed=$m
    same ens/member_00$m solo$m
  done
  solo solo3 1 time.max_steps=8 output.checkpoint_interval=0 case.seed=7 physics.smagorinsky_cs=0.25
  same ens/member_003 solo3
  # The members really differ, and their summaries say which member they are.
  $check same-checksum ens/member_000/summary.json ens/member_001/summary.json && fail "seeds 0 and 1 gave one state"
  python3 -c "import json; m=json.load(open('ens/member_003/summary.json'))['ensemble_member']; \
assert m['index'] == 3 and m['overrides'] == ['case.seed=7', 'physics.smagorinsky_cs=0.25'], m" ||
    fail "member_003/summary.json lacks its member keys"
  ;;
sweep)
  # 1 member, and 8 members sweeping the Smagorinsky constant (3 ranks).
  ensemble_file one.toml '"time.max_steps=6", "output.checkpoint_interval=0"' <<EOF
members = 1
EOF
  # on 2 ranks: one group, the member split over both ranks
  $mpiexec -n 2 "$squall" ensemble one.toml --output one --quiet || fail "1-member ensemble"
  python3 -c "import json; s=json.load(open('one/ensemble_summary.json')); assert s['groups'] == 1 and s['ranks_per_member'] == 2, s" || fail "1 member on 2 ranks is not one group of 2"
  solo solo 2 time.max_steps=6 output.checkpoint_interval=0
  same one/member_000 solo
  ensemble_file eight.toml '"time.max_steps=6", "output.checkpoint_interval=0"' <<EOF
vary = { "physics.smagorinsky_cs" = [0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.22, 0.24] }
EOF
  $mpiexec -n 3 "$squall" ensemble eight.toml --output eight --quiet || fail "8-member ensemble"
  count eight/ensemble_summary.json done 8
  python3 -c "import json; s=json.load(open('eight/ensemble_summary.json')); assert s['groups'] == 3, s" ||
    fail "8 members on 3 ranks are not 3 groups"
  i=0
  for cs in 0.1 0.12 0.14 0.16 0.18 0.2 0.22 0.24; do
    solo cs$i 1 time.max_steps=6 output.checkpoint_interval=0 physics.smagorinsky_cs=$cs
    same eight/member_00$i cs$i
    i=$((i + 1))
  done
  ;;
restart)
  # 3 members on 2 ranks, stopped by SIGUSR1 in the middle, continued on 1 rank with
  # --restart latest: each ends in its solo run's state.
  ensemble_file e.toml '"time.max_steps=1000", "output.checkpoint_steps=100"' <<EOF
members = 3
vary = { "case.seed" = [3, 4, 5] }
EOF
  stopped_by_signal ens/member_001/fields_000000.nc --output ens || fail "the stopped ensemble exited with $status"
  grep -q "squall ensemble e.toml --restart latest" log.txt || fail "no message on how to continue"
  python3 -c "import json; s=json.load(open('ens/ensemble_summary.json'))['status_counts']; \
assert s['done'] < 3 and s['stopped'] + s['not run'] > 0, s" || fail "the signal did not stop the ensemble"
  "$squall" ensemble e.toml --output ens --restart latest --quiet || fail "restart on 1 rank"
  count ens/ensemble_summary.json done 3
  for m in 0 1 2; do
    solo solo$m 1 time.max_steps=1000 output.checkpoint_steps=100 case.seed=$((m + 3))
    same ens/member_00$m solo$m
  done
  ;;
failure)
  # A member whose fixed time step is far too long blows up; the others are done, the
  # ensemble exits 1 and says which member failed.
  ensemble_file e.toml '"time.max_steps=20", "output.checkpoint_interval=0"' <<EOF
vary = { "time.dt" = [1.0, 400.0, 1.5] }
EOF
  # Not batched, then as one batch: there the member that blows up keeps its last good
  # state (in its checkpoint) and the batch goes on with the others.
  solo solo0 1 time.max_steps=20 output.checkpoint_interval=0 time.dt=1.0
  solo solo2 1 time.max_steps=20 output.checkpoint_interval=0 time.dt=1.5
  for how in "" --batch; do
    "$squall" ensemble e.toml --output "ens$how" $how > log.txt 2>&1
    status=$?
    cat log.txt
    [ "$status" = 1 ] || fail "$how: exit status $status, expected 1"
    grep -q "member 1 (time.dt=400.0) failed" log.txt || fail "$how: the failed member is not named"
    count "ens$how/ensemble_summary.json" done 2
    count "ens$how/ensemble_summary.json" failed 1
    same "ens$how/member_000" solo0
    same "ens$how/member_002" solo2
  done
  ls ens--batch/member_001/checkpoint_*.h5 > /dev/null || fail "batch: no checkpoint of the failed member's last good state"
  ;;
batch)
  # Batches of 1, 3 and 8 members, each with its own time steps (CFL), with field files,
  # profiles and the subgrid fluxes written on the way: every member's checksum, ledger
  # and records are those of its solo run. The three vary the seed, the perturbation, C_s,
  # the CFL number and the end time.
  sets='"time.end_time=60", "output.checkpoint_interval=0", "output.interval=20.0", "output.profiles_interval=15.0"'
  ensemble_file one.toml "$sets" <<EOF
members = 1
batch = true
EOF
  "$squall" ensemble one.toml --output one --quiet || fail "a batch of 1"
  solo solo 1 time.end_time=60 output.checkpoint_interval=0 output.interval=20.0 output.profiles_interval=15.0
  same one/member_000 solo
  ensemble_file three.toml "$sets" <<EOF
members = 3
vary = { "case.seed" = "range", "case.theta_perturbation" = [0.1, 0.3, 0.1], "physics.smagorinsky_cs" = [0.23, 0.23, 0.3], "time.cfl" = [1.5, 1.0, 1.5], "time.end_time" = [60.0, 60.0, 45.0] }
EOF
  "$squall" ensemble three.toml --output three --batch --quiet || fail "a batch of 3"
  python3 -c "import json; s=json.load(open('three/ensemble_summary.json')); \
assert s['batch'] and [r['batch_members'] for r in s['member_records']] == [3, 3, 3], s" || fail "not one batch of 3"
  steps=()
  for m in 0 1 2; do
    tp=0.1 cs=0.23 cfl=1.5 end=60.0
    [ $m = 1 ] && tp=0.3 cfl=1.0
    [ $m = 2 ] && cs=0.3 end=45.0
    solo solo$m 1 time.end_time=$end output.checkpoint_interval=0 output.interval=20.0 output.profiles_interval=15.0 \
      case.seed=$m case.theta_perturbation=$tp physics.smagorinsky_cs=$cs time.cfl=$cfl
    same three/member_00$m solo$m
    # diagnostics.csv up to the wall-clock column, and the data of every record file
    cmp <(cut -d, -f1-14 three/member_00$m/diagnostics.csv) <(cut -d, -f1-14 solo$m/diagnostics.csv) ||
      fail "member $m: diagnostics.csv differs from its solo run's"
    for f in profiles.nc fields_000000.nc fields_000001.nc fields_000003.nc; do
      cmp <(ncdump three/member_00$m/$f | sed -n '/^data:/,$p') <(ncdump solo$m/$f | sed -n '/^data:/,$p') ||
        fail "member $m: $f differs from its solo run's"
    done
    steps+=("$(python3 -c "import json; print(json.load(open('three/member_00$m/summary.json'))['steps'])")")
  done
  # the members really took their own steps
  [ "${steps[0]}" != "${steps[1]}" ] && [ "${steps[0]}" != "${steps[2]}" ] || fail "the members took the same steps: ${steps[*]}"
  $check same-checksum three/member_000/summary.json three/member_001/summary.json && fail "seeds 0 and 1 gave one state"
  # C_s matters: member 2 with member 0's C_s is another state
  solo cs0 1 time.end_time=45.0 output.checkpoint_interval=0 case.seed=2
  $check same-checksum three/member_002/summary.json cs0/summary.json && fail "C_s = 0.3 and 0.23 gave one state"
  # Other cases: tracer_bubble's own sources (an emission) and agnesi_hydrostatic's
  # curved elements (terrain), two members each with their own CFL number.
  for c in "tracer_bubble mesh.elements=[4,1,4] time.end_time=6 case.emission=0.01" \
           "agnesi_hydrostatic mesh.elements=[8,1,4] time.max_steps=20"; do
    set -- $c
    name=$1; shift
    list=""
    for o in "$@" output.interval=0 output.profiles_interval=0; do list="$list\"$o\", "; done
    { printf '[ensemble]\nconfig = "%s"\nset = [%s]\nbatch = true\nvary = { "time.cfl" = [0.5, 0.4] }\n' \
        "$cases/$name.toml" "${list%, }"; } > "$name.toml"
    "$squall" ensemble "$name.toml" --output "b_$name" --quiet || fail "a batch of $name"
    for m in 0 1; do
      cfl=0.5; [ $m = 1 ] && cfl=0.4
      args=()
      for o in "$@" output.interval=0 output.profiles_interval=0 time.cfl=$cfl; do args+=(--set "$o"); done
      "$squall" run "$cases/$name.toml" --quiet --output "s_${name}_$m" "${args[@]}" || fail "solo $name $m"
      same "b_$name/member_00$m" "s_${name}_$m"
      same_rows "b_$name/member_00$m/diagnostics.csv" "s_${name}_$m/diagnostics.csv" ||
        fail "$name member $m: diagnostics.csv differs from its solo run's"
    done
  done
  # 8 members on 2 ranks: two groups of one rank, each a batch of 4; and one group of both
  # ranks, a batch of 8 split over them.
  ensemble_file eight.toml '"time.max_steps=6", "output.checkpoint_interval=0"' <<EOF
members = 8
vary = { "case.seed" = "range" }
batch = true
EOF
  $mpiexec -n 2 "$squall" ensemble eight.toml --output eight --quiet || fail "8 members, 2 batches"
  $mpiexec -n 2 "$squall" ensemble eight.toml --output eight2 --ranks-per-member 2 --quiet ||
    fail "8 members, 1 batch on 2 ranks"
  count eight/ensemble_summary.json done 8
  count eight2/ensemble_summary.json done 8
  python3 -c "import json; b=[[r['batch_members'] for r in json.load(open(f'{d}/ensemble_summary.json'))['member_records']] \
for d in ('eight', 'eight2')]; assert b == [[4] * 8, [8] * 8], b" || fail "not 2 batches of 4 and 1 batch of 8"
  # and on 1 rank in batches of at most 3 (--batch-members): 3, 3 and 2
  "$squall" ensemble eight.toml --output eight3 --batch-members 3 --quiet || fail "8 members in batches of 3"
  python3 -c "import json; b=[r['batch_members'] for r in json.load(open('eight3/ensemble_summary.json'))['member_records']]; \
assert b == [3, 3, 3, 3, 3, 3, 2, 2], b" || fail "not batches of 3, 3 and 2"
  for m in 0 1 2 3 4 5 6 7; do
    solo s8_$m 1 time.max_steps=6 output.checkpoint_interval=0 case.seed=$m
    same eight/member_00$m s8_$m
    same eight2/member_00$m s8_$m
    same eight3/member_00$m s8_$m
  done
  ;;
batch_restart)
  # A batch of 3 (the third with a smaller CFL number, so its own steps) stopped by
  # SIGUSR1 on 2 ranks, continued as a batch on 1 rank: each member ends in its solo
  # run's state, with its solo run's records.
  ensemble_file e.toml '"time.max_steps=1000", "output.checkpoint_steps=100"' <<EOF
members = 3
vary = { "case.seed" = [3, 4, 5], "time.cfl" = [1.5, 1.5, 1.2] }
batch = true
EOF
  stopped_by_signal ens/member_002/checkpoint_000100.h5 --output ens --ranks-per-member 2 ||
    fail "the stopped batch exited with $status"
  count ens/ensemble_summary.json stopped 3
  "$squall" ensemble e.toml --output ens --restart latest --quiet || fail "restart on 1 rank"
  count ens/ensemble_summary.json done 3
  for m in 0 1 2; do
    cfl=1.5; [ $m = 2 ] && cfl=1.2
    solo solo$m 1 time.max_steps=1000 output.checkpoint_steps=100 case.seed=$((m + 3)) time.cfl=$cfl
    same ens/member_00$m solo$m
    cmp <(cut -d, -f1-14 ens/member_00$m/diagnostics.csv) <(cut -d, -f1-14 solo$m/diagnostics.csv) ||
      fail "member $m: diagnostics.csv differs from its solo run's after the restart"
  done
  ;;
batch_physics)
  # Members of a batch with their own surface fluxes and forcing (as sweeps of a surface
  # flux or of the large-scale forcing do): one batch split over 2 ranks, every member in
  # its solo run's state with its solo run's ledger, and each in another state than
  # member 0's (the numbers reach the state).
  ensemble_file f.toml '"time.max_steps=20", "output.checkpoint_interval=0"' <<EOF
batch = true

[[member]]
set = []
[[member]]
set = ["surface.heat_flux=0.02", "surface.water_flux=1.0e-4"]
[[member]]
set = ["surface.friction_velocity=0.0", "surface.drag_coefficient=1.2e-3"]
[[member]]
set = ["forcing.coriolis=1.0e-4", "forcing.geostrophic_u=[[0.0, -5.0], [3000.0, -2.0]]", "forcing.geostrophic_v=[[0.0, 2.0]]", "forcing.subsidence=[[0.0, 0.0], [1000.0, -0.01], [2100.0, 0.0]]", "forcing.theta_tendency=[[0.0, -5.0e-5], [3000.0, 0.0]]", "forcing.qt_tendency=[[0.0, -3.0e-8], [500.0, 0.0]]"]
EOF
  $mpiexec -n 2 "$squall" ensemble f.toml --output f --ranks-per-member 2 --quiet || fail "a batch of 4 on 2 ranks"
  count f/ensemble_summary.json done 4
  member_sets=(""
    "surface.heat_flux=0.02 surface.water_flux=1.0e-4"
    "surface.friction_velocity=0.0 surface.drag_coefficient=1.2e-3"
    "forcing.coriolis=1.0e-4 forcing.geostrophic_u=[[0.0,-5.0],[3000.0,-2.0]] forcing.geostrophic_v=[[0.0,2.0]] forcing.subsidence=[[0.0,0.0],[1000.0,-0.01],[2100.0,0.0]] forcing.theta_tendency=[[0.0,-5.0e-5],[3000.0,0.0]] forcing.qt_tendency=[[0.0,-3.0e-8],[500.0,0.0]]")
  for m in 0 1 2 3; do
    # shellcheck disable=SC2086 # the member's overrides, one word each
    solo solo$m 1 time.max_steps=20 output.checkpoint_interval=0 ${member_sets[$m]}
    same f/member_00$m solo$m
    same_rows f/member_00$m/diagnostics.csv solo$m/diagnostics.csv ||
      fail "member $m: diagnostics.csv differs from its solo run's"
    [ $m = 0 ] || ! $check same-checksum f/member_00$m/summary.json f/member_000/summary.json ||
      fail "member $m ended in member 0's state: its surface numbers or forcing did not act"
  done
  # Bulk aerodynamic walls: each member its own sea-surface temperature and coefficients.
  ensemble_file b.toml '"time.max_steps=20", "output.checkpoint_interval=0", "boundary.z_low=\"bulk_aerodynamic\"", "surface.heat_flux=0", "surface.water_flux=0", "surface.friction_velocity=0", "surface.drag_coefficient=1.2e-3", "surface.moisture_transfer=1.2e-3"' <<EOF
members = 2
vary = { "surface.temperature" = [300.4, 302.0], "surface.heat_transfer" = [1.1e-3, 2.0e-3] }
batch = true
EOF
  "$squall" ensemble b.toml --output b --quiet || fail "a batch of 2 with bulk aerodynamic walls"
  for m in 0 1; do
    sst=300.4 ch=1.1e-3
    [ $m = 1 ] && sst=302.0 ch=2.0e-3
    solo bulk$m 1 time.max_steps=20 output.checkpoint_interval=0 'boundary.z_low="bulk_aerodynamic"' \
      surface.heat_flux=0 surface.water_flux=0 surface.friction_velocity=0 surface.drag_coefficient=1.2e-3 \
      surface.moisture_transfer=1.2e-3 surface.temperature=$sst surface.heat_transfer=$ch
    same b/member_00$m bulk$m
  done
  $check same-checksum b/member_001/summary.json b/member_000/summary.json && fail "two SSTs gave one state"
  # DYCOMS-II: radiation (column integrals of each member's liquid water) in a batch split
  # over 2 ranks (the columns split in z), each member with its own seed, surface flux,
  # CFL number and radiation numbers; the profiles (F_rad among them) are the solo runs'.
  { printf '[ensemble]\nconfig = "%s"\n' "$cases/dycoms_rf01_small.toml"
    printf 'set = ["dg.order=2", "mesh.elements=[2,2,10]", "time.max_steps=12", "output.interval=0", '
    printf '"output.profiles_interval=10.0", "output.checkpoint_interval=0"]\nbatch = true\nmembers = 3\n'
    printf 'vary = { "case.seed" = "range", "surface.heat_flux" = [0.01215, 0.02, 0.01215], "time.cfl" = [0.8, 0.8, 0.6], '
    printf '"radiation.flux_top" = [70.0, 70.0, 80.0] }\n'
  } > d.toml
  $mpiexec -n 2 "$squall" ensemble d.toml --output d --ranks-per-member 2 --quiet || fail "a batch of DYCOMS on 2 ranks"
  for m in 0 1 2; do
    flux=0.01215 cfl=0.8 top=70.0
    [ $m = 1 ] && flux=0.02
    [ $m = 2 ] && cfl=0.6 top=80.0
    "$squall" run "$cases/dycoms_rf01_small.toml" --quiet --output dsolo$m --set dg.order=2 --set "mesh.elements=[2,2,10]" \
      --set time.max_steps=12 --set output.interval=0 --set output.profiles_interval=10.0 \
      --set output.checkpoint_interval=0 --set case.seed=$m --set surface.heat_flux=$flux --set time.cfl=$cfl \
      --set radiation.flux_top=$top ||
      fail "solo DYCOMS $m"
    same d/member_00$m dsolo$m
    same_rows d/member_00$m/diagnostics.csv dsolo$m/diagnostics.csv || fail "DYCOMS member $m: diagnostics.csv differs"
    cmp <(ncdump d/member_00$m/profiles.nc | sed -n '/^data:/,$p') <(ncdump dsolo$m/profiles.nc | sed -n '/^data:/,$p') ||
      fail "DYCOMS member $m: profiles.nc differs from its solo run's"
  done
  ncdump -h d/member_000/profiles.nc | grep -q "F_rad" || fail "no F_rad in the profiles"
  ;;
*) fail "unknown test $test" ;;
esac
echo "ok: $test"
