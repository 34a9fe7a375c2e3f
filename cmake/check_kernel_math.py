#!/usr/bin/env python3
"""Fails when kernel code calls a library's elementary function directly.

  check_kernel_math.py [--sources DIR...] [--objects LIB...] [--nm NM]

Squall's kernels (and the host code beside them) take exp, log, pow, sin, cos and cbrt
from squall::math (core/math.hpp), which gives the same bits on every CPU and GPU; a
direct call of std::exp, Kokkos::pow, ::sin, sinf, __builtin_log, ... would bring back
the vendor's rounding, which differs between glibc, CUDA and ROCm. Two checks:

  --sources DIR...  every C++ file under DIR (except core/math.hpp and
                    core/strict_math.hpp) is searched, comments and strings removed,
                    for a call of a libm transcendental not written math::NAME( ;
  --objects LIB...  (strict builds) the object files or archives must not reference
                    a libm transcendental symbol (nm -u): this catches what the compiler
                    was given through any name, macro or template.

Exit 1 with every offending file:line (or archive member and symbol), 0 otherwise.
"""
import argparse
import os
import re
import subprocess
import sys

FUNCTIONS = ("exp exp2 exp10 expm1 log log2 log10 log1p pow sin cos tan asin acos atan atan2 "
             "sinh cosh tanh asinh acosh atanh cbrt hypot erf erfc tgamma lgamma sincos").split()
ALLOWED_FILES = ("core/math.hpp", "core/strict_math.hpp")
NAMES = "|".join(FUNCTIONS)
# A call NAME( or NAMEf( / NAMEl( / __builtin_NAME(, with any qualifier but squall::math::
CALL = re.compile(r"(?P<prefix>[A-Za-z_][A-Za-z_0-9:]*::|[.>]\s*|\b)(?P<name>(?:__builtin_)?(?:%s)[fl]?)\s*\(" % NAMES)
SYMBOL = re.compile(r"^_*(?:%s)[fl]?(?:_finite)?(?:@.*)?$" % NAMES)


def strip_comments_and_strings(text):
    """The text with comments and string/char literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" ")
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def base_name(name):
    """exp for exp, expf, expl, __builtin_exp."""
    name = name.replace("__builtin_", "")
    if name not in FUNCTIONS and name[:-1] in FUNCTIONS:
        name = name[:-1]
    return name


def source_files(dirs, root):
    """(name relative to root, text without comments and strings) of every C++ file under dirs."""
    for top in dirs:
        for path, _, files in os.walk(top):
            for name in sorted(files):
                if not name.endswith((".hpp", ".cpp", ".h", ".cc", ".cu")):
                    continue
                full = os.path.join(path, name)
                with open(full, encoding="utf-8", errors="replace") as f:
                    yield os.path.relpath(full, root).replace(os.sep, "/"), strip_comments_and_strings(f.read())


def scan_sources(dirs, root):
    problems = []
    for rel, code in source_files(dirs, root):
        if rel in ALLOWED_FILES:
            continue
        for number, line in enumerate(code.split("\n"), 1):
            for m in CALL.finditer(line):
                prefix = m.group("prefix").replace(" ", "")
                if prefix.endswith(("math::", "math::strict::")) and not prefix.endswith(
                        ("std::math::", "Kokkos::math::")):
                    continue  # squall::math::NAME, squall::math::strict::NAME
                if prefix in (".", ">"):
                    continue  # a member function of that name
                if prefix == "" and re.search(r"(?:\bdouble|\bfloat|\bReal|\bauto|\bint)\s+$", line[:m.start()]):
                    continue  # a declaration, not a call
                problems.append(f"{rel}:{number}: {prefix}{m.group('name')}(...) calls a library "
                                f"elementary function; use squall::math::{base_name(m.group('name'))} "
                                f"(core/math.hpp)")
    return problems


def scan_objects(libs, nm):
    problems = []
    for lib in libs:
        result = subprocess.run([nm, "-u", "-A", lib], capture_output=True, text=True)
        if result.returncode != 0:
            problems.append(f"{lib}: nm failed: {result.stderr.strip()}")
            continue
        for line in result.stdout.splitlines():
            # "archive:member:                 U symbol"
            parts = line.split()
            if len(parts) < 2 or parts[-2] != "U":
                continue
            symbol = parts[-1]
            if SYMBOL.match(symbol):
                where = parts[0].rstrip(":")
                problems.append(f"{where}: references {symbol}, a library elementary function "
                                f"(strict math: every transcendental must come from squall::math)")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", nargs="*", default=[], help="directories of kernel code")
    parser.add_argument("--root", default=None, help="source root (for file names)")
    parser.add_argument("--objects", nargs="*", default=[], help="archives or objects to inspect with nm")
    parser.add_argument("--nm", default="nm")
    args = parser.parse_args()
    root = args.root or os.path.commonpath([os.path.abspath(d) for d in args.sources] or ["."])
    problems = scan_sources(args.sources, root) + scan_objects(args.objects, args.nm)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_kernel_math: {len(problems)} direct call(s) of library elementary functions "
              f"(see core/math.hpp)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
