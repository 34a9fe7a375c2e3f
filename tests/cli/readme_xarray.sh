#!/usr/bin/env bash
# readme_xarray.sh SQUALL CASE_TOML README
# The README's xarray example, as written there, opens the field files of a run into its
# default output directory, with the time decoded to dates (CF "seconds since
# output.start_date"); ncdump shows the units; another start date moves the dates.
set -u
squall=$1 case=$2 readme=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Debian's Python, which has the packages install_deps.sh installs (a python3 earlier in
# PATH, e.g. pyenv's, may not).
py=/usr/bin/python3
[ -x "$py" ] || py=python3
cd "$dir" || exit 1
example=$(grep -o 'xr.open_mfdataset("[^"]*")' "$readme" | head -1)
[ -n "$example" ] || fail "no xr.open_mfdataset example in $readme"
"$squall" run "$case" --quiet --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.end_time=200 \
  --set output.interval=100 || fail "the run failed"
ncdump -h output/rising_bubble/fields_000001.nc | grep -qF 'time:units = "seconds since 2000-01-01 00:00:00"' ||
  fail "fields: no CF time units: $(ncdump -h output/rising_bubble/fields_000001.nc | grep time:)"
ncdump -h output/rising_bubble/profiles.nc | grep -qF 'time:units = "seconds since 2000-01-01 00:00:00"' ||
  fail "profiles: no CF time units"
"$py" - "$example" <<'PY' || fail "the README example does not work as written: $example"
import sys
import numpy as np
import xarray as xr
ds = eval(sys.argv[1])
times = ds["time"].values
assert ds.sizes["time"] == 3, ds.sizes
assert np.issubdtype(times.dtype, np.datetime64), times.dtype
assert str(times[1]).startswith("2000-01-01T00:01:40"), times
print("README example:", sys.argv[1], "->", ds.sizes["time"], "times from", times[0], "to", times[-1])
PY
"$squall" run "$case" --quiet --set "mesh.elements=[4,1,4]" --set dg.order=2 --set time.end_time=100 \
  --set output.start_date=1969-06-22T12:00:00 --output other || fail "the run with a start date failed"
"$py" -c "
import xarray as xr
t = xr.open_dataset('other/fields_000001.nc')['time'].values[0]
assert str(t).startswith('1969-06-22T12:01:40'), t" || fail "output.start_date does not move the dates"
echo "README xarray example: ok"
