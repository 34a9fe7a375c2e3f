#!/usr/bin/env bash
# output_lock.sh SQUALL CASE_TOML MPIEXEC
# One run per output directory: while a run is going, a second one into its directory is
# refused (status 2, naming the first) on 1 and 2 ranks, without touching its files; the
# lock goes when the run ends (here by SIGTERM); a stale lock (its process gone) is
# replaced with a warning; a lock from another host is respected.
set -u
squall=$1 case=$2 mpiexec=$3
dir=$(mktemp -d)
first=
cleanup() { [ -n "$first" ] && kill -9 "$first" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
out="$dir/out" lock="$dir/out/.squall.lock"
args=(run "$case" --quiet --set "mesh.elements=[4,1,4]" --set dg.order=2 --output "$out")

"$squall" "${args[@]}" --set time.end_time=1e6 > "$dir/first.log" 2>&1 &
first=$!
for i in $(seq 100); do [ -f "$lock" ] && break; sleep 0.1; done
[ -f "$lock" ] || fail "the running run holds no lock: $(cat "$dir/first.log")"
grep -q "^pid=$first$" "$lock" || fail "the lock does not name the run's process: $(cat "$lock")"
for ranks in 1 2; do
  before=$(ls "$out" | grep -v '^fields\|^checkpoint\|diagnostics\|profiles' | md5sum)
  text=$(timeout 60 $mpiexec -n $ranks "$squall" "${args[@]}" --set time.max_steps=2 2>&1); status=$?
  [ $status -eq 124 ] && fail "second run on $ranks rank(s) hung"
  [ $status -eq 2 ] || fail "a second run on $ranks rank(s) exited $status, expected 2: $text"
  grep -qF "output directory '$out' is in use by another run (pid $first on $(hostname)" <<<"$text" ||
    fail "the refusal does not name the first run: $text"
  [ -d "$out/superseded_checkpoints" ] && fail "the refused run moved the first run's checkpoints"
  echo "second run on $ranks rank(s): refused"
done
kill -TERM $first
wait $first || fail "the first run did not stop cleanly on SIGTERM: $(cat "$dir/first.log")"
first=
[ -f "$lock" ] && fail "the lock outlived the run"

# Stale: a lock of a process that is gone, on this host.
sleep 0 & dead=$!; wait $dead
printf 'pid=%s\nhost=%s\nstarted=2026-01-01T00:00:00Z\n' $dead "$(hostname)" > "$lock"
text=$(timeout 60 "$squall" "${args[@]}" --set time.max_steps=2 --set time.end_time=1e6 2>&1) ||
  fail "a stale lock blocked the run: $text"
grep -q "replaced the stale lock .*pid $dead" <<<"$text" || fail "no warning about the stale lock: $text"
[ -f "$lock" ] && fail "the lock outlived the run"

# Another host's lock cannot be checked: refused, saying how to go on.
printf 'pid=1\nhost=elsewhere.invalid\nstarted=2026-01-01T00:00:00Z\nslurm_job=4242\n' > "$lock"
text=$(timeout 60 "$squall" "${args[@]}" --set time.max_steps=2 2>&1); status=$?
[ $status -eq 2 ] || fail "a lock of another host: status $status, expected 2: $text"
grep -q "pid 1 on elsewhere.invalid.*Slurm job 4242.*delete the lock file" <<<"$text" ||
  fail "the refusal does not name the other host's run: $text"
echo "output lock: ok"
