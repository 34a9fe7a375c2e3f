#!/usr/bin/env bash
# unwritable_output.sh SQUALL CASE_TOML MPIEXEC
# An output directory on a read-only file system (a read-only tmpfs; the tests run as
# root) is bad input on 1 and 2 ranks: exit status 2 and a message naming it, within the
# time limit, never a hang. Skipped (status 77) where tmpfs cannot be mounted.
set -u
squall=$1 case=$2 mpiexec=$3
dir=$(mktemp -d) && mkdir -p "$dir/ro"
cleanup() { umount "$dir/ro" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
mount -t tmpfs -o ro,size=1M tmpfs "$dir/ro" 2>/dev/null || { echo "cannot mount a tmpfs here: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
args=(run "$case" --quiet --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.max_steps=2)
for ranks in 1 2; do
  for out in "$dir/ro" "$dir/ro/new"; do
    text=$(timeout 60 $mpiexec -n $ranks "$squall" "${args[@]}" --output "$out" 2>&1); status=$?
    [ $status -eq 124 ] && fail "$ranks rank(s), --output $out: hung"
    [ $status -eq 2 ] || fail "$ranks rank(s), --output $out: status $status, expected 2: $text"
    grep -qF "output directory '$out'" <<<"$text" || fail "$ranks rank(s): the message does not name $out: $text"
    grep -q "Read-only file system" <<<"$text" || fail "$ranks rank(s): the message does not give the reason: $text"
    echo "$ranks rank(s), --output $out: refused"
  done
done
echo "unwritable output: ok"
