#!/usr/bin/env bash
# A stand-in for a FLEXI binary (tests of scripts/bench_vs_flexi.py): checks that its
# parameter file and mesh are there and prints the two lines the script reads, with a
# PID of 2e-7 s (4e-7 s with SplitDG in the parameter file).
set -eu
[ -f "$1" ] && [ -f mesh.h5 ] || { echo "no parameter file or mesh" >&2; exit 1; }
grep -q "^N = [0-9]" "$1" || { echo "no order in $1" >&2; exit 1; }
echo " CALCULATION RUNNING..."
if grep -q "^SplitDG = " "$1"; then pid=4.00000E-07; else pid=2.00000E-07; fi
echo " CALCULATION TIME PER STAGE/DOF: [ $pid sec ]"
