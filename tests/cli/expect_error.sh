#!/usr/bin/env bash
# expect_error.sh STATUS TEXT -- COMMAND...
# Runs COMMAND (with a time limit) and passes when it exits with STATUS and its output
# contains TEXT (a fixed string).
set -u
want_status=$1 want_text=$2
shift 2
[ "${1:-}" = "--" ] && shift
out=$(timeout 60 "$@" 2>&1 </dev/null)
status=$?
echo "$out"
if [ "$status" -ne "$want_status" ]; then
  echo "FAIL: exit status $status, expected $want_status" >&2
  exit 1
fi
if ! grep -qF -- "$want_text" <<<"$out"; then
  echo "FAIL: output does not contain: $want_text" >&2
  exit 1
fi
