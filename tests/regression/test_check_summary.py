#!/usr/bin/env python3
"""The reference comparison of check_summary.py can fail: for every reference file and
every value in it, a summary with that value moved by 4 times its tolerance is refused,
and one moved by a quarter of it is accepted; with --exact, a summary whose
state_checksum is not the reference's is refused. Tiny norms (a velocity component that is
zero but for round-off) are compared against their round-off floor, not against the
largest value of the file.

  test_check_summary.py REF...
"""
import contextlib
import io
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_summary  # noqa: E402


def nest(flat):
    out = {}
    for key, value in flat.items():
        node = out
        parts = key.split(".")
        for p in parts[:-1]:
            node = node.setdefault(p, {})
        node[parts[-1]] = value
    return out


def verdict(mode, summary, ref, *flags):
    """check_summary.py's exit status on `summary` (run in this process, quietly)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(summary, f)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            return check_summary.main(["check_summary.py", mode, *flags, f.name, ref])
    finally:
        os.unlink(f.name)


def main(refs):
    failures = 0
    checked = 0
    for ref in refs:
        with open(ref) as f:
            rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
        values = {k: v for k, v in rows if k != "state_checksum"}
        expected = {k: float(v) for k, v in values.items()}
        floors = check_summary.round_off_floors(expected)
        checksum = dict(rows).get("state_checksum")
        kernels = os.path.basename(ref).startswith("kernels_")
        mode, relative = ("kernels", 1e-12) if kernels else ("reference", 1e-9)
        base = dict(expected)
        base["state_checksum"] = "not-the-reference"  # force the norm comparison
        if verdict(mode, nest(base), ref) != 0:
            print(f"FAIL {ref}: the reference values themselves are refused")
            failures += 1
        # --exact (strict-math builds): the reference's norms with other bits are refused,
        # its checksum accepted; a reference without a checksum cannot pass it
        exact_cases = [(base, 1)]
        if checksum is not None:
            exact_cases.append((dict(base, state_checksum=checksum), 0))
        for summary, want in exact_cases:
            got = verdict(mode, nest(summary), ref, "--exact")
            checked += 1
            if (got != 0) != bool(want):
                failures += 1
                print(f"FAIL {ref}: --exact with checksum {summary['state_checksum']}: "
                      f"{'refused' if got else 'accepted'}")
        for key, value in expected.items():
            tolerance = relative * abs(value) + floors[key]
            cases = ((4.0, 1), (0.25, 0))
            if tolerance == 0:  # an exact zero must stay exactly zero
                tolerance, cases = 1e-300, ((4.0, 1),)
            for factor, want in cases:
                moved = dict(base)
                moved[key] = value + factor * tolerance
                got = verdict(mode, nest(moved), ref)
                checked += 1
                if (got != 0) != bool(want):
                    failures += 1
                    print(f"FAIL {ref}: {key} moved by {factor} x tolerance {tolerance:.3g}: "
                          f"{'refused' if got else 'accepted'}")
    print(f"{checked - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
