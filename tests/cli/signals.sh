#!/usr/bin/env bash
# signals.sh SQUALL CASE_TOML MPIEXEC
# Stopping a run by a signal ends it cleanly, with a checkpoint that restarts it:
#  - SIGINT (Ctrl-C) to a run without a launcher;
#  - SIGTERM to one rank only of a 2-rank run: every rank stops (exit status 0);
#  - Open MPI: SIGUSR1 to mpirun (forwarded) ends with status 0; SIGTERM to mpirun (which
#    kills the ranks odls_base_sigkill_timeout seconds later) still leaves a checkpoint
#    when that timeout is raised, as the docs advise.
set -u
squall=$1 case=$2 mpiexec=$3
dir=$(mktemp -d)
job=
cleanup() { [ -n "$job" ] && kill -9 $job 2>/dev/null; pkill -9 -f "$dir/" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
args=(run "$case" --quiet --set "mesh.elements=[6,1,6]" --set dg.order=3 --set time.end_time=1e6)
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
# wait_for_steps DIR: until the run in DIR has written its first field file and taken steps.
wait_for_steps() {
  for i in $(seq 300); do [ -f "$1/fields_000000.nc" ] && sleep 1 && return 0; sleep 0.1; done
  fail "the run in $1 did not start"
}
# restarts DIR: the newest checkpoint in DIR carries the run a few more steps.
restarts() {
  local steps
  steps=$(ls "$1" | sed -n 's/^checkpoint_0*\([0-9][0-9]*\)\.h5$/\1/p' | sort -n | tail -1)
  [ -n "$steps" ] || fail "$2: no checkpoint"
  timeout 120 "$squall" "${args[@]}" --output "$1" --restart latest --set time.max_steps=$((steps + 3)) \
    >"$1/restart.log" 2>&1 || fail "$2: the run does not restart from its checkpoint: $(cat "$1/restart.log")"
}

# clean_stop LABEL SIGNAL LOG: the run $job in $out ends by itself with status 0,
# summary.json records SIGNAL, and its checkpoint restarts it.
clean_stop() {
  timeout 60 tail --pid=$job -f /dev/null || fail "$1: the run did not stop"
  wait $job; local status=$?; job=
  [ $status -eq 0 ] || fail "$1: status $status: $(cat "$3")"
  [ "$(field "$out/summary.json" stopped_by_signal)" = "$2" ] || fail "$1: summary.json does not record signal $2"
  restarts "$out" "$1"
}

# SIGINT, no launcher.
out="$dir/sigint"
"$squall" "${args[@]}" --output "$out" >"$dir/sigint.log" 2>&1 & job=$!
wait_for_steps "$out"
kill -INT $job
clean_stop "SIGINT" 2 "$dir/sigint.log"
echo "SIGINT: stopped with a checkpoint"

# SIGTERM to one rank of two (the one that does not write the lock file: rank 1).
out="$dir/one_rank"
$mpiexec -n 2 "$squall" "${args[@]}" --output "$out" >"$dir/one_rank.log" 2>&1 & job=$!
wait_for_steps "$out"
rank0=$(sed -n 's/^pid=//p' "$out/.squall.lock")
rank1=$(pgrep -f -- "--output $out" | grep -vx "$rank0" | while read p; do
          [ "$(cat /proc/$p/comm 2>/dev/null)" = squall ] && echo $p; done | head -1)
[ -n "$rank1" ] || fail "cannot find rank 1"
kill -TERM $rank1
clean_stop "SIGTERM to one rank" 15 "$dir/one_rank.log"
echo "SIGTERM to rank 1 only: every rank stopped, with a checkpoint"

if ! $mpiexec --version 2>&1 | grep -q "Open MPI"; then
  echo "not Open MPI: the mpirun signal cases are skipped"
  echo "signals: ok"
  exit 0
fi
for signal in USR1 TERM; do
  out="$dir/mpirun_$signal"
  OMPI_MCA_odls_base_sigkill_timeout=5 $mpiexec -n 2 "$squall" "${args[@]}" --output "$out" \
    >"$dir/mpirun_$signal.log" 2>&1 & job=$!
  wait_for_steps "$out"
  kill -$signal $job
  timeout 90 tail --pid=$job -f /dev/null || fail "SIG$signal to mpirun: the run did not stop"
  wait $job; status=$?; job=
  ls "$out"/checkpoint_*.h5 >/dev/null 2>&1 || fail "SIG$signal to mpirun: no checkpoint: $(cat "$dir/mpirun_$signal.log")"
  grep -q "stopped by signal" "$dir/mpirun_$signal.log" || fail "SIG$signal to mpirun: no message"
  [ $signal = USR1 ] && [ $status -ne 0 ] && fail "SIGUSR1 to mpirun: status $status"
  restarts "$out" "SIG$signal to mpirun"
  echo "SIG$signal to mpirun: stopped with a checkpoint (mpirun status $status)"
done
echo "signals: ok"
