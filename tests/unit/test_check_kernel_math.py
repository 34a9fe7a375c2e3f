#!/usr/bin/env python3
"""cmake/check_kernel_math.py can fail: it flags each direct call of a library
elementary function in a kernel source (and only those), and an object file that
references libm's exp.

  test_check_kernel_math.py CHECKER CXX SOURCE_ROOT [KOKKOS_INCLUDE_DIRS]

KOKKOS_INCLUDE_DIRS ('|'-separated; a host-only Kokkos) lets the test also compile an
object with the strict exp, which must pass; without it that case is left out.
"""
import os
import subprocess
import sys
import tempfile

BAD = [
    "q = std::exp(x);",
    "q = Kokkos::pow(x, y);",
    "q = Kokkos::Experimental::sin(x);",
    "q = ::cos(x);",
    "q = sinf(x);",
    "q = __builtin_log(x);",
    "q = exp(x);",
    "q = cbrtl(x);",
    "q = std::tanh(x);",
    "q = erf(x) + 1;",
]
GOOD = [
    "q = math::exp(x);",
    "q = squall::math::pow(x, y);",
    "q = math::strict::sin(x);",
    "// q = std::exp(x); in a comment",
    "/* std::pow(x, y) */ q = x;",
    'msg = "std::log(x) in a string";',
    "q = state.log(x);",
    "q = p->exp(x);",
    "q = exponent(x) + logger(x) + sinh_table[i] + cost(x);",
    "double exp(double);",
]


def check(checker, args):
    r = subprocess.run([sys.executable, checker, *args], capture_output=True, text=True)
    return r.returncode, r.stderr


def main(checker, cxx, source_root, kokkos_include=None):
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "physics")
        os.makedirs(src)
        for i, line in enumerate(BAD + GOOD):
            with open(os.path.join(src, f"case_{i:02d}.hpp"), "w") as f:
                f.write(f"inline void f(double x, double y) {{\n  double q;\n  {line}\n}}\n")
        rc, err = check(checker, ["--root", d, "--sources", src])
        for i, line in enumerate(BAD + GOOD):
            flagged = f"case_{i:02d}.hpp:3:" in err
            want = i < len(BAD)
            if flagged != want:
                failures += 1
                print(f"FAIL {line!r}: {'flagged' if flagged else 'not flagged'}")
        if rc != 1:
            failures += 1
            print(f"FAIL exit status {rc} with {len(BAD)} bad calls")
        # object files: one calling libm's exp, one the strict exp
        objects = [("libm", "#include <cmath>\ndouble f(double x) { return std::exp(x); }\n", 1)]
        if kokkos_include:
            objects.append(("strict", '#include "core/strict_math.hpp"\n'
                                      "double f(double x) { return squall::math::strict::exp(x); }\n", 0))
        for name, body, want in objects:
            cpp, obj = os.path.join(d, name + ".cpp"), os.path.join(d, name + ".o")
            with open(cpp, "w") as f:
                f.write(body)
            inc = ["-I", source_root] + [a for p in (kokkos_include or "").split("|") if p for a in ("-I", p)]
            c = subprocess.run([cxx, "-std=c++17", "-O2", "-ffp-contract=off", *inc, "-c", cpp, "-o", obj],
                               capture_output=True, text=True)
            if c.returncode != 0:
                failures += 1
                print(f"FAIL compiling {name}.cpp: {c.stderr[:2000]}")
                continue
            rc, err = check(checker, ["--objects", obj])
            if rc != want:
                failures += 1
                print(f"FAIL object {name}.o: exit {rc}, expected {want}: {err}")
    total = len(BAD) + len(GOOD) + 1 + len(objects)
    print(f"{total - failures} of {total} checks as expected")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
