#!/usr/bin/env bash
# slurm_tests.sh SQUALL WORKDIR MPIEXEC TEST
# The Slurm hooks (scripts/slurm/compose_{prolog,epilog}.sh) on a real single-node Slurm
# (tests/compose/slurm_cluster.sh) against the Redfish emulator. TEST is one of:
#   compose   a job with --comment=compose:gpus=2 sees its 2 GPUs composed while it runs
#             `mpirun -n 2 squall run` on a tiny case, and they are freed after
#   refused   a job asking for more GPUs than exist never runs, and nothing is composed
#   scancel   scancel of a running job frees its GPUs
#   storm     a storm of 503 replies during the prolog is ridden out
#   crash     a launcher inside a job killed with SIGKILL is cleaned up by the epilog
#   template  scripts/slurm/squall_composed.sbatch runs squall on the hook's GPUs
#   launcher  scripts/slurm/squall_launcher.sbatch composes, runs squall and frees
# After each, every block must be Unused and unreserved. Every process started here is
# stopped by PID on exit. Needs root and Debian's slurmctld, slurmd, slurm-client and
# munge; exits 77 (skipped) without them.
set -u
squall=$1 work=$2 mpiexec=$3 test=$4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
dir="$work/slurm_$test"
rm -rf "$dir" && mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)
emulator_pid=

cleanup() {
  "$here/slurm_cluster.sh" stop "$dir/cluster" || true
  if [ -n "$emulator_pid" ]; then kill "$emulator_pid" 2>/dev/null; wait "$emulator_pid" 2>/dev/null; fi
}
trap cleanup EXIT
fail() {
  echo "FAIL ($test): $*"
  echo "--- squall-compose log"; cat "$dir/compose.log" 2>/dev/null | tail -30
  echo "--- job output"; cat "$dir"/job*.out 2>/dev/null | tail -30
  exit 1
}

[ "$(id -u)" = 0 ] || { echo "slurm_tests.sh: skipped: needs root (munged, slurmd)"; exit 77; }
for exe in /usr/sbin/munged /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/sbatch; do
  [ -x "$exe" ] || { echo "slurm_tests.sh: skipped: $exe missing (scripts/install_deps.sh installs it)"; exit 77; }
done

# The fabric: the emulator, with this host's Slurm node name as its compute block.
node=$(hostname -s)
python3 "$root/scripts/compose/redfish_emulator.py" --gpus 4 --host "$node" --port-file "$dir/port" \
  > "$dir/emulator.log" 2>&1 &
emulator_pid=$!
for _ in $(seq 100); do [ -s "$dir/port" ] && break; sleep 0.05; done
[ -s "$dir/port" ] || fail "the emulator did not start: $(cat "$dir/emulator.log")"
url="http://127.0.0.1:$(cat "$dir/port")"
cat > "$dir/compose.conf" <<EOF
endpoint = $url/redfish/v1
state_dir = $dir/compose-state
deadline = 60
EOF
export SQUALL_COMPOSE_CONFIG="$dir/compose.conf" SQUALL_COMPOSE_LOG="$dir/compose.log"
for hook in prolog epilog; do  # slurmctld gives hooks a bare environment
  printf '#!/bin/sh\nexport SQUALL_COMPOSE_CONFIG=%s SQUALL_COMPOSE_LOG=%s SLURM_CONF=%s\nexec %s "$@"\n' \
    "$SQUALL_COMPOSE_CONFIG" "$SQUALL_COMPOSE_LOG" "$dir/cluster/slurm.conf" "$root/scripts/slurm/compose_$hook.sh" \
    > "$dir/$hook.sh"
  chmod +x "$dir/$hook.sh"
done
"$here/slurm_cluster.sh" start "$dir/cluster" "$dir/prolog.sh" "$dir/epilog.sh" || fail "Slurm did not start"
export SLURM_CONF="$dir/cluster/slurm.conf"
compose="$root/scripts/compose/squall-compose"

emulator() {  # python expression over the emulator state `s`
  python3 -c "import json,sys,urllib.request
s = json.load(urllib.request.urlopen('$url/emulator/state', timeout=10))
print($1)"
}
composed() { emulator "' '.join(sorted(b for b, v in s['blocks'].items() if v['state'] != 'Unused'))"; }
all_free() {  # polls: the epilog runs after the job has left the queue
  local left
  for _ in $(seq 150); do
    left=$(emulator "' '.join(sorted(b for b, v in s['blocks'].items() if v['state'] != 'Unused' or v['reserved']))")
    [ -z "$left" ] && [ -z "$(ls "$dir/compose-state/jobs" 2>/dev/null)" ] && return 0
    sleep 0.2
  done
  fail "still composed or reserved after the job: '$left'; state files: $(ls "$dir/compose-state/jobs" 2>/dev/null)"
}
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }
wait_state() {  # JOB STATES... : waits until the job is in one of STATES (up to 150 s: on a
  # loaded 2-core machine a prolog's refusal has been seen to take over 60 s to cancel the job)
  local s
  for _ in $(seq 750); do
    s=$(job_state "$1")
    for want in "${@:2}"; do [ "$s" = "$want" ] && return 0; done
    sleep 0.2
  done
  fail "job $1 is '$s', expected one of: ${*:2}"
}
submit() { sbatch --parsable -o "$dir/job%j.out" "$@" || fail "sbatch $*"; }

case $test in
compose)
  cat > "$dir/job.sh" <<EOF
#!/bin/bash
"$compose" status --job "\$SLURM_JOB_ID" --json > "$dir/in_job_status.json" || exit 10
$mpiexec -n 2 "$squall" run "$root/cases/rising_bubble.toml" --quiet --output "$dir/run" \
  --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.max_steps=5 --set output.interval=0 || exit 11
EOF
  id=$(submit --comment=compose:gpus=2 -n 2 "$dir/job.sh")
  wait_state "$id" COMPLETED FAILED CANCELLED
  [ "$(job_state "$id")" = COMPLETED ] || fail "job $id ended $(job_state "$id")"
  python3 - "$dir/in_job_status.json" "$id@$node" <<'EOF' || fail "the job did not see 2 composed GPUs"
import json, sys
report = json.load(open(sys.argv[1]))
job = report["jobs"][sys.argv[2]]
blocks = {b["ref"]: b for b in report["blocks"]}
assert job["phase"] == "composed" and len(job["gpus"]) == 2, job
assert all(blocks[g]["state"] == "Composed" for g in job["gpus"]), blocks
print(f"in the job: {sys.argv[2]} composed {', '.join(g.rsplit('/', 1)[-1] for g in job['gpus'])}")
EOF
  [ -f "$dir/run/summary.json" ] || fail "the squall run left no summary.json"
  all_free
  ;;
refused)
  id=$(submit --comment=compose:gpus=8 --wrap "touch $dir/ran")
  # The prolog logs its start, then the composer's refusal: wait for the refusal itself.
  for _ in $(seq 150); do grep -q "refused: 8 GPUs requested" "$dir/compose.log" 2>/dev/null && break; sleep 0.2; done
  grep -q "refused: 8 GPUs requested" "$dir/compose.log" || fail "the prolog did not refuse: $(cat "$dir/compose.log")"
  wait_state "$id" CANCELLED
  [ -e "$dir/ran" ] && fail "the job ran"
  all_free
  ;;
scancel)
  id=$(submit --comment=compose:gpus=3 --wrap "touch $dir/started; sleep 300")
  for _ in $(seq 300); do [ -e "$dir/started" ] && break; sleep 0.1; done
  [ -e "$dir/started" ] || fail "job $id did not start"
  [ "$(composed)" = "gpu0 gpu1 gpu2 $node" ] || fail "while running, composed: '$(composed)'"
  scancel "$id"
  wait_state "$id" CANCELLED
  all_free
  ;;
storm)
  curl -s -X POST -d '{"busy_calls": 40, "retry_after": 0}' "$url/emulator/faults" > /dev/null
  id=$(submit --comment=compose:gpus=1 --wrap "\"$compose\" status --job \$SLURM_JOB_ID --json > $dir/in_job_status.json")
  wait_state "$id" COMPLETED FAILED CANCELLED
  [ "$(job_state "$id")" = COMPLETED ] || fail "job $id ended $(job_state "$id")"
  grep -q retrying "$dir/compose.log" || fail "no busy replies were seen"
  grep -q '"phase": "composed"' "$dir/in_job_status.json" || fail "the job did not see its GPU composed"
  all_free
  ;;
crash)
  # The launcher's job id <slurm job>@launcher is a part of the Slurm job, so the
  # epilog frees it even though the launcher was killed before it could.
  cat > "$dir/job.sh" <<EOF
#!/bin/bash
"$compose" run --gpus 2 --job "\$SLURM_JOB_ID@launcher" -- sleep 300 &
launcher=\$!
for _ in \$(seq 200); do "$compose" status --job "\$SLURM_JOB_ID@launcher" | grep -q "composed, host" && break; sleep 0.1; done
pkill -9 -P \$launcher
kill -9 \$launcher
"$compose" status --job "\$SLURM_JOB_ID" > "$dir/after_kill.txt"
EOF
  id=$(submit "$dir/job.sh")
  wait_state "$id" COMPLETED FAILED CANCELLED
  grep -q "@launcher: composed" "$dir/after_kill.txt" || fail "the killed launcher's GPUs were not left composed: $(cat "$dir/after_kill.txt")"
  all_free
  ;;
template|launcher)
  # The batch templates of scripts/slurm: the hook composes (template), or the job
  # composes its own GPUs with squall-compose run (launcher); a tiny squall run either way.
  file=squall_composed.sbatch
  [ "$test" = launcher ] && file=squall_launcher.sbatch
  id=$(SQUALL="$squall" SQUALL_COMPOSE="$compose" SQUALL_LAUNCH="$mpiexec -n 2" SQUALL_GPUS=2 \
       submit --chdir "$dir" "$root/scripts/slurm/$file" "$root/cases/rising_bubble.toml" --quiet \
       --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.max_steps=5 --set output.interval=0)
  wait_state "$id" COMPLETED FAILED CANCELLED
  [ "$(job_state "$id")" = COMPLETED ] || fail "job $id ended $(job_state "$id")"
  [ -f "$dir/output/$id/summary.json" ] || fail "no summary.json from the run"
  if [ "$test" = template ]; then
    grep -q "^job $id@$node: composed" "$dir/job$id.out" || fail "the job did not report its composition"
  else
    grep -q "job $id@launcher: composed 2 GPU" "$dir/job$id.out" || fail "the launcher did not compose"
    grep -q "job $id@launcher: freed 2 GPU" "$dir/job$id.out" || fail "the launcher did not free"
  fi
  all_free
  ;;
signal)
  # The time limit's SIGUSR1 (#SBATCH --signal=B:USR1@120 in squall_composed.sbatch),
  # sent here at once with scancel: the script passes it on, every rank stops with a
  # checkpoint, and the job completes (status 0).
  id=$(SQUALL="$squall" SQUALL_COMPOSE="$compose" SQUALL_LAUNCH="$mpiexec -n 2" SQUALL_OUTPUT="$dir/run" \
       submit --chdir "$dir" "$root/scripts/slurm/squall_composed.sbatch" "$root/cases/rising_bubble.toml" --quiet \
       --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.end_time=1e6)
  for _ in $(seq 600); do [ -f "$dir/run/fields_000000.nc" ] && break; sleep 0.1; done
  [ -f "$dir/run/fields_000000.nc" ] || fail "the run of job $id did not start: $(cat "$dir/job$id.out")"
  sleep 1
  scancel --batch --signal=USR1 "$id" || fail "scancel --signal=USR1 $id"
  wait_state "$id" COMPLETED FAILED CANCELLED
  [ "$(job_state "$id")" = COMPLETED ] || fail "job $id ended $(job_state "$id"): $(cat "$dir/job$id.out")"
  grep -q '"stopped_by_signal": 10' "$dir/run/summary.json" || fail "summary.json does not record SIGUSR1"
  ls "$dir/run"/checkpoint_*.h5 >/dev/null || fail "no checkpoint"
  all_free
  ;;
*) fail "unknown test" ;;
esac
echo "$test: ok"
