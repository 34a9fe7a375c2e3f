#!/usr/bin/env python3
"""Fails on kernel lambdas that a host compiler accepts and nvcc does not.

  check_device_lambdas.py --root DIR --sources DIR...

CI builds Kokkos' Serial backend with g++, which compiles KOKKOS_LAMBDA as an ordinary
lambda. With CUDA, KOKKOS_LAMBDA is an extended __host__ __device__ lambda, and nvcc
(CUDA 13) rejects or crashes on constructs that g++ takes silently. Every C++ file under
the --sources directories (comments and strings removed) is searched, in each
KOKKOS_LAMBDA body, for

  1. a variable of the enclosing function (a parameter, or a local declared before the
     kernel: the copies of members the kernels capture) whose first use in the body lies
     inside an `if constexpr` statement, either branch, nested lambdas included. nvcc:
     "An extended __host__ __device__ lambda cannot first-capture variable in
     constexpr-if context". Use it before the `if constexpr`, or move the `if constexpr`
     into a function the kernel calls.
  2. a compile-time value taken from a lambda argument's type, decltype(x)::value, in a
     generic lambda inside the kernel: CUDA 13's front end (cudafe++) dies on it with a
     segmentation fault. Pass the value as a template argument of a function instead.
  3. `this`, or a member (a name ending in `_`, the project's naming of data members)
     read inside the body: the lambda would capture `this`, a host pointer (STYLE.md).

Exit 1 with every offending file:line, 0 otherwise.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_kernel_math import source_files  # noqa: E402

LAMBDA = re.compile(r"\bKOKKOS_(?:CLASS_)?LAMBDA\s*\(")
IDENT = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
# A local declared in the enclosing function: "const auto g = gvars_;", "const Eq eq = eq_;",
# "const Real s0 = ...", "auto x = ...", "const DeviceView<Real**> w(...);".
LOCAL = re.compile(r"^\s*(?:const\s+)?(?:auto|[A-Za-z_][\w:]*(?:<[^;=(){}]*>)?)\s*[&*]?\s+([A-Za-z_]\w*)\s*(?:=|\(|\{)",
                   re.M)
KEYWORDS = set("""if else for while do return const constexpr auto int bool double float void
    static_cast reinterpret_cast const_cast sizeof template typename using struct class
    true false nullptr this break continue new delete operator namespace public private""".split())


def matching(text, i, open_char, close_char):
    """Index just past the bracket matching text[i] == open_char."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == open_char:
            depth += 1
        elif c == close_char:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def statement_end(text, i):
    """Index just past the statement starting at text[i] (a block, or up to its ';')."""
    while i < len(text) and text[i].isspace():
        i += 1
    if i < len(text) and text[i] == "{":
        return matching(text, i, "{", "}")
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ";" and depth == 0:
            return i + 1
        i += 1
    return len(text)


def constexpr_if_spans(body):
    """(start, end) of every `if constexpr` statement in body, its else branches included."""
    spans = []
    for m in re.finditer(r"\bif\s+constexpr\s*\(", body):
        end = statement_end(body, matching(body, m.end() - 1, "(", ")"))
        while True:
            e = re.match(r"\s*else\b", body[end:])
            if not e:
                break
            end = statement_end(body, end + e.end())
        spans.append((m.start(), end))
    return spans


def enclosing_function(code, at):
    """The text from the start of the function around position `at` (the last line that
    starts at column 0 before it, as function definitions here do) up to `at`."""
    start = code.rfind("\n", 0, at)
    while start > 0:
        line_start = code.rfind("\n", 0, start) + 1
        line = code[line_start:start]
        if line and not line[0].isspace() and not line.startswith(("#", "}")):
            # the definition's first line; its signature may start a few lines above
            while line_start > 0:
                prev_start = code.rfind("\n", 0, line_start - 1) + 1
                prev = code[prev_start:line_start - 1]
                if prev and not prev[0].isspace() and not prev.rstrip().endswith((";", "}", "{")) \
                        and not prev.startswith("#"):
                    line_start = prev_start
                else:
                    break
            return code[line_start:at]
        start = line_start - 1
    return code[:at]


def captured_names(function_text):
    """The parameters of the enclosing function and the locals it declares before the kernel."""
    names = set()
    paren = function_text.find("(")
    if paren >= 0:
        params = function_text[paren:matching(function_text, paren, "(", ")")]
        for p in params[1:-1].split(","):
            p = p.split("=")[0].strip()
            m = re.search(r"([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*$", p)
            if m and m.group(1) not in KEYWORDS:
                names.add(m.group(1))
    names.update(n for n in LOCAL.findall(function_text) if n not in KEYWORDS)
    return names


def uses(body, name):
    """Positions where `name` is used as a variable (not a member, not qualified)."""
    out = []
    for m in re.finditer(r"(?<![\w.:>])" + re.escape(name) + r"\b", body):
        before = body[:m.start()].rstrip()
        if before.endswith(("->", ".", "::")):
            continue
        out.append(m.start())
    return out


def scan_file(rel, code):
    problems = []
    for m in LAMBDA.finditer(code):
        args_end = matching(code, m.end() - 1, "(", ")")
        brace = code.find("{", args_end)
        if brace < 0:
            continue
        body_end = matching(code, brace, "{", "}")
        body = code[brace:body_end]
        line_of = lambda pos: code.count("\n", 0, brace + pos) + 1  # noqa: E731
        spans = constexpr_if_spans(body)
        own = set(IDENT.findall(code[m.end():args_end]))  # the kernel's own arguments
        for name in sorted(captured_names(enclosing_function(code, m.start())) - own):
            found = uses(body, name)
            if found and any(a <= found[0] < b for a, b in spans):
                problems.append(f"{rel}:{line_of(found[0])}: '{name}' is captured first inside `if constexpr` "
                                f"(nvcc rejects it: use it before, or move the `if constexpr` into a function)")
        for d in re.finditer(r"\bdecltype\s*\(\s*\w+\s*\)\s*::\s*value\b", body):
            problems.append(f"{rel}:{line_of(d.start())}: decltype(...)::value of a lambda argument inside a "
                            f"kernel (CUDA's front end crashes on it: use a function template)")
        for t in re.finditer(r"(?<![\w.:>])(this\b|[A-Za-z_]\w*_\b)(?!\s*::)", body):
            before = body[:t.start()].rstrip()
            if before.endswith(("->", ".", "::")):
                continue
            problems.append(f"{rel}:{line_of(t.start())}: '{t.group(1)}' inside a kernel captures this "
                            f"(copy the member to a local first)")
    return problems


def scan_sources(dirs, root):
    problems = []
    for rel, code in source_files(dirs, root):
        problems += scan_file(rel, code)
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sources", nargs="*", default=[], help="directories of kernel code")
    parser.add_argument("--root", default=None, help="source root (for file names)")
    args = parser.parse_args()
    root = args.root or os.path.commonpath([os.path.abspath(d) for d in args.sources] or ["."])
    problems = scan_sources(args.sources, root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_device_lambdas: {len(problems)} kernel construct(s) that nvcc does not accept",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
