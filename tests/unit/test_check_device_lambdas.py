#!/usr/bin/env python3
"""cmake/check_device_lambdas.py can fail: it flags each kernel construct that nvcc
rejects or crashes on (and only those), in small kernels written for the purpose.

  test_check_device_lambdas.py CHECKER
"""
import os
import subprocess
import sys
import tempfile

# Kernel bodies inside  void S::run(const View& q, bool flag) { const auto g = g_; ... }
BAD = [
    # first use of a local inside if constexpr
    "if constexpr (Packed) use(g, e);",
    # ... or of a parameter, in the else branch
    "if constexpr (Packed) use(e); else use(q, e);",
    # ... or inside a nested lambda within one
    "if constexpr (Packed) { const auto f = [=](int a) { return g(a); }; use(f(e)); }",
    # a compile-time value from a generic lambda's argument type
    "const auto along = [&](auto d) { constexpr int k = decltype(d)::value; use(k); }; along(0);",
    # a member read in the kernel captures this
    "use(g_(e));",
    "use(this->g_);",
]
GOOD = [
    # used before the if constexpr: captured already
    "use(g, e); if constexpr (Packed) use(g, e);",
    # a template constant, the kernel's own argument and a kernel local in if constexpr
    "const int n = e + 1; if constexpr (Packed) use(n, e);",
    # a plain if
    "if (flag) use(g, q, e);",
    # the if constexpr in a function the kernel calls
    "use_packed<Packed>(g, q, e);",
    # a member of a local, not of the class
    "use(g.extent_, e);",
    # in a comment: // if constexpr (Packed) use(g, e);
    "use(e); // if constexpr (Packed) use(g, e);",
]


def main(checker):
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "solver")
        os.makedirs(src)
        for i, body in enumerate(BAD + GOOD):
            with open(os.path.join(src, f"case_{i:02d}.hpp"), "w") as f:
                f.write("template <bool Packed>\n"
                        "void S::run(const View& q, bool flag) {\n"
                        "  const auto g = g_;\n"
                        "  parallel_for(\"s\", n_, KOKKOS_LAMBDA(const int e) {\n"
                        f"    {body}\n"
                        "  });\n"
                        "}\n")
        r = subprocess.run([sys.executable, checker, "--root", d, "--sources", src], capture_output=True, text=True)
        for i, body in enumerate(BAD + GOOD):
            flagged = f"case_{i:02d}.hpp:5:" in r.stderr
            want = i < len(BAD)
            if flagged != want:
                failures += 1
                print(f"{'missed' if want else 'wrongly flagged'}: {body}")
        if (r.returncode != 0) != bool(BAD):
            failures += 1
            print(f"exit status {r.returncode} with {len(BAD)} bad kernels")
    print(f"{len(BAD)} kernels nvcc rejects flagged, {len(GOOD)} it accepts passed" if failures == 0
          else f"{failures} case(s) wrong\n{r.stderr}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
