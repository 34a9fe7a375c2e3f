#!/usr/bin/env python3
"""same_records.py A B: the diagnostics.csv and profiles.nc of output directories A and B
hold the same records (every column but wall_seconds, every profile variable, bit for
bit), and the time axes increase. Exit status 1 with the first difference otherwise."""
import csv
import sys

import netCDF4
import numpy as np


def rows(d):
    table = list(csv.DictReader(open(d + "/diagnostics.csv")))
    return [{k: v for k, v in r.items() if k != "wall_seconds"} for r in table]


def main(a_dir, b_dir):
    a, b = rows(a_dir), rows(b_dir)
    if a != b:
        ta, tb = [r["time"] for r in a], [r["time"] for r in b]
        return f"diagnostics.csv: {len(a)} rows against {len(b)}; times {ta} / {tb}"
    times = [float(r["time"]) for r in a]
    if any(t1 <= t0 for t0, t1 in zip(times, times[1:])):
        return f"diagnostics.csv: the time column does not increase: {times}"
    pa, pb = netCDF4.Dataset(a_dir + "/profiles.nc"), netCDF4.Dataset(b_dir + "/profiles.nc")
    if list(pa.variables) != list(pb.variables):
        return "profiles.nc: the variables differ"
    ta, tb = np.asarray(pa["time"][:]), np.asarray(pb["time"][:])
    if not np.array_equal(ta, tb):
        return f"profiles.nc: times {list(ta)} / {list(tb)}"
    if np.any(np.diff(ta) <= 0):
        return f"profiles.nc: the time axis does not increase: {list(ta)}"
    bad = [n for n in pa.variables if not np.array_equal(np.asarray(pa[n][:]), np.asarray(pb[n][:]))]
    if bad:
        return f"profiles.nc: the values of {bad} differ"
    print(f"{len(a)} diagnostics rows and {len(ta)} profile records, the same in {a_dir} and {b_dir}")
    return None


if __name__ == "__main__":
    problem = main(sys.argv[1], sys.argv[2])
    if problem:
        print("FAIL:", problem)
    sys.exit(1 if problem else 0)
