#!/usr/bin/env bash
# check_docs_keys.sh SQUALL DOC: every key that `squall check --list-keys` prints is
# documented in DOC.
set -u
squall=$1 doc=$2
keys=$("$squall" check --list-keys | awk '$2 == "=" {print $1}')
[ -n "$keys" ] || { echo "FAIL: no keys listed"; exit 1; }
missing=0
for k in $keys; do
  if ! grep -qF "\`$k\`" "$doc"; then echo "FAIL: $k is not documented in $doc"; missing=1; fi
done
[ $missing -eq 0 ] && echo "all $(wc -w <<<"$keys") keys documented in $doc"
exit $missing
