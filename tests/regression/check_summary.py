#!/usr/bin/env python3
"""Checks values in summary.json files.

  check_summary.py bound SUMMARY KEY MAX      |value at KEY| <= MAX (KEY like a.b.c)
  check_summary.py at-least SUMMARY KEY MIN   |value at KEY| >= MIN
  check_summary.py same-checksum SUMMARY...  all state_checksum values are equal
  check_summary.py same-values A B KEY...     the values at KEY... are bitwise equal in A and B
  check_summary.py within SUMMARY KEY LO HI [KEY LO HI]...
                                             LO <= value at KEY <= HI
  check_summary.py reference SUMMARY REF     every "KEY VALUE" line of REF matches
                                             within a relative 1e-9 of that value, or
                                             its round-off floor (below)
  check_summary.py kernels SUMMARY REF       the state_checksum of REF matches (bit for
                                             bit), or else every other line matches
                                             within a relative 1e-12 (kernels whose
                                             arithmetic order changed), or its floor
  check_summary.py reference|kernels --exact SUMMARY REF
                                             as above, and the state_checksum of REF
                                             must match bit for bit (strict-math builds:
                                             the same bits on every CPU and GPU)

Each value is compared relative to itself: |value - expected| <= relative |expected| +
floor. The floor is the round-off of that quantity, 8 ulps (8 x 2.2e-16) of its scale:
for a density or energy norm or error, the state norm of that variable; for a momentum
component, the momentum scale sqrt(rho rhoe) ~ rho c (rho e ~ rho c_v T, so this is the
size of the pressure terms every momentum value is formed from), which is where a
component that is zero but for round-off (v in a 2D case) lives. Other values (time,
case diagnostics) have no floor.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def lookup(summary, key):
    value = summary
    for part in key.split("."):
        value = value[part]
    return value


ULPS = 8 * 2.220446049250313e-16


def round_off_floors(reference):
    """The round-off floor of each key of a reference (see the module docstring)."""
    rho = abs(reference.get("state_norms.l2.rho", 0.0))
    rhoe = abs(reference.get("state_norms.l2.rhoe", 0.0))
    scale = {"rho": rho, "rhoe": rhoe, "rhou": (rho * rhoe) ** 0.5}
    scale["rhov"] = scale["rhow"] = scale["rhou"]
    floors = {}
    for key in reference:
        parts = key.split(".")
        kind = parts[0] in ("state_norms", "errors") and parts[-1] in scale
        floors[key] = ULPS * scale[parts[-1]] if kind else 0.0
    return floors


def main(argv):
    mode = argv[1]
    if mode == "bound":
        summary, key, bound = load(argv[2]), argv[3], float(argv[4])
        value = lookup(summary, key)
        print(f"{key} = {value!r} (bound {bound:g})")
        return 0 if abs(value) <= bound else 1
    if mode == "at-least":
        summary, key, least = load(argv[2]), argv[3], float(argv[4])
        value = lookup(summary, key)
        print(f"{key} = {value!r} (at least {least:g} in magnitude)")
        return 0 if abs(value) >= least else 1
    if mode == "same-values":
        a, b = load(argv[2]), load(argv[3])
        failed = 0
        for key in argv[4:]:
            va, vb = lookup(a, key), lookup(b, key)
            ok = va == vb
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {key}: {va!r} {'==' if ok else '!='} {vb!r}")
        return 1 if failed or len(argv) < 5 else 0
    if mode == "within":
        summary, rest = load(argv[2]), argv[3:]
        if not rest or len(rest) % 3:
            print(__doc__)
            return 2
        failed = 0
        for i in range(0, len(rest), 3):
            key, lo, hi = rest[i], float(rest[i + 1]), float(rest[i + 2])
            value = lookup(summary, key)
            ok = value is not None and lo <= value <= hi
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {key} = {value!r} (in [{lo:g}, {hi:g}])")
        return 1 if failed else 0
    if mode == "same-checksum":
        sums = [(path, load(path)["state_checksum"]) for path in argv[2:]]
        for path, checksum in sums:
            print(f"{path}: {checksum} ({load(path)['ranks']} ranks)")
        return 0 if len({c for _, c in sums}) == 1 and len(sums) > 1 else 1
    if mode in ("reference", "kernels"):
        exact = len(argv) > 2 and argv[2] == "--exact"
        if exact:
            argv = argv[:2] + argv[3:]
        summary = load(argv[2])
        with open(argv[3]) as f:
            rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
        relative = 1e-9
        expected = dict(rows).get("state_checksum")
        rows = [r for r in rows if r[0] != "state_checksum"]
        bitwise = expected is not None and summary["state_checksum"] == expected
        if exact and not bitwise:
            print(f"FAIL state_checksum {summary['state_checksum']} != {expected or '(none in the reference)'}: "
                  f"a strict-math build must give the reference's bits (core/strict_math.hpp)")
        elif expected is not None:
            print(f"{'ok  ' if bitwise else 'note'} state_checksum {summary['state_checksum']}"
                  f"{' == ' if bitwise else ' != '}{expected}")
        if mode == "kernels":
            if bitwise:
                print("ok   bit for bit the reference state")
                return 0
            if not exact:
                print("the bits changed; comparing state norms within a relative 1e-12")
            relative = 1e-12
        floors = round_off_floors(dict((k, float(v)) for k, v in rows))
        failed = 0
        for key, expected in rows:
            value, expected = float(lookup(summary, key)), float(expected)
            ok = abs(value - expected) <= relative * abs(expected) + floors[key]
            print(f"{'ok  ' if ok else 'FAIL'} {key}: {value!r} (reference {expected!r})")
            failed += not ok
        return 1 if failed or (exact and not bitwise) else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
