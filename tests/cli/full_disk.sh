#!/usr/bin/env bash
# full_disk.sh SQUALL CASE_TOML MPIEXEC
# Output onto a disk that fills up during the run. Two ways, on 1 and 2 ranks:
#  - small file systems (tmpfs; the tests run as root): the run ends within the time limit
#    with status 1 and "no space left on device", naming the file it could not write;
#  - a file size limit (ulimit -f) that a write runs into half-way: status 1, the cause
#    named, never a hang or a crash.
# Either way no unfinished copy (*.tmp) is left, every line of diagnostics.csv is whole,
# and the newest checkpoint left behind restarts the run to its end. Skipped (status 77)
# where tmpfs cannot be mounted.
set -u
squall=$1 case=$2 mpiexec=$3
dir=$(mktemp -d)
cleanup() { umount "$dir/disk" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
mkdir -p "$dir/disk"
mount -t tmpfs -o size=64k tmpfs "$dir/disk" 2>/dev/null || { echo "cannot mount a tmpfs here: skipped"; exit 77; }
umount "$dir/disk"
fail() { echo "FAIL: $*"; exit 1; }
args=(run "$case" --quiet --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.end_time=200
      --set output.interval=50 --set output.checkpoint_interval=100 --set output.profiles_interval=25)

# What a failed run leaves in $1 must be sound: no partial copies, whole CSV rows, and a
# newest checkpoint (if any) that carries the run to its end (restarted from a copy).
check_left() {
  local out=$1 label=$2
  [ -z "$(find "$out" -name '*.tmp')" ] || fail "$label: partial files left: $(ls "$out")"
  if [ -f "$out/diagnostics.csv" ]; then
    awk -F, 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$out/diagnostics.csv" ||
      fail "$label: diagnostics.csv has an incomplete line"
    [ "$(tail -c 1 "$out/diagnostics.csv" | od -An -c | tr -d ' ')" = '\n' ] ||
      fail "$label: diagnostics.csv does not end with a whole line"
  fi
  if ls "$out"/checkpoint_*.h5 >/dev/null 2>&1; then
    rm -rf "$dir/copy" && cp -r "$out" "$dir/copy"
    timeout 60 $mpiexec -n $ranks "$squall" "${args[@]}" --output "$dir/copy" --restart latest >/dev/null 2>&1 ||
      fail "$label: the newest checkpoint left does not restart the run"
  fi
}

for ranks in 1 2; do
  for size in 40k 200k 400k 560k; do
    label="$ranks rank(s), a $size disk"
    mount -t tmpfs -o size=$size tmpfs "$dir/disk" || fail "cannot mount a $size tmpfs"
    text=$(timeout 60 $mpiexec -n $ranks "$squall" "${args[@]}" --output "$dir/disk/out" 2>&1); status=$?
    [ $status -eq 124 ] && fail "$label: hung"
    [ $status -eq 1 ] || fail "$label: status $status, expected 1: $text"
    grep -q "no space left on device: writing .*$dir/disk/out/" <<<"$text" ||
      fail "$label: the message does not say that the disk is full: $text"
    check_left "$dir/disk/out" "$label"
    echo "$label: $(grep -o 'no space left on device: writing [^,]*' <<<"$text" | head -1 | sed "s|$dir/disk/out/||")"
    umount "$dir/disk"
  done
done

# A write that fails half-way, in the fields (40 kB limit) or in profiles.nc (90 kB limit,
# fields only at the start and the end). The ranks talk over TCP: Open MPI's shared-memory
# files are limited too.
export OMPI_MCA_btl=self,tcp
for ranks in 1 2; do
  for limit in 40 90; do
    label="$ranks rank(s), files limited to $limit kB"
    extra=()
    [ $limit -eq 90 ] && extra=(--set output.interval=0 --set output.profiles_interval=5)
    out="$dir/limited_${ranks}_$limit"
    text=$(timeout 60 $mpiexec -n $ranks bash -c "trap '' XFSZ; ulimit -f $limit; exec \"\$@\"" limited \
           "$squall" "${args[@]}" "${extra[@]}" --output "$out" 2>&1); status=$?
    [ $status -eq 124 ] && fail "$label: hung"
    [ $status -eq 1 ] || fail "$label: status $status, expected 1: $text"
    grep -q "squall: error.*NetCDF error writing '$out/" <<<"$text" || fail "$label: no message naming the file: $text"
    grep -q "Segmentation fault" <<<"$text" && fail "$label: crashed: $text"
    check_left "$out" "$label"
    echo "$label: ended with status 1: $(grep -o "NetCDF error writing '[^']*'" <<<"$text" | head -1 | sed "s|$dir/||")"
  done
done
echo "full disk: ok"
