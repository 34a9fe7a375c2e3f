#!/usr/bin/env bash
# long_values.sh SQUALL GOOD_CASE
# A config value or key of hundreds of kilobytes, and a --set of as many, are refused
# with status 2 and a message of a few lines: the text is quoted only in part.
set -u
squall=$1 good=$2
dir=$(mktemp -d) && trap 'rm -rf "$dir"' EXIT
long=$(head -c 300000 /dev/zero | tr '\0' x)
printf '[case]\nname = "%s"\n' "$long" > "$dir/value.toml"
printf '[case]\nname = "rising_bubble"\n[dg]\n%s = 3\n' "$long" > "$dir/key.toml"
fail() { echo "FAIL: $*"; exit 1; }
expect_short() {  # expect_short TEXT ARGS...: status 2, TEXT in a message under 3000 characters
  local text=$1; shift
  out=$(timeout 60 "$squall" "$@" 2>&1 </dev/null); status=$?
  echo "${out:0:300}"
  [ $status -eq 2 ] || fail "status $status, expected 2"
  grep -qF -- "$text" <<<"$out" || fail "the message lacks: $text"
  [ ${#out} -lt 3000 ] || fail "a message of ${#out} characters"
}
expect_short "no such case" check "$dir/value.toml"
expect_short "unknown key 'dg.xxx" check "$dir/key.toml"
# a --set of 100 kB (one argument may hold at most 128 KiB)
expect_short "'case.name'" check "$good" --set "case.name=${long:0:100000}"
echo "long values: ok"
