#!/usr/bin/env python3
"""Plot columns of diagnostics.csv of several runs against time, one panel per column.

  scripts/compare_runs.py RUN_DIR[=LABEL]... --columns lwp,cloud_cover --out compare.png

Each RUN_DIR is a run's output directory (the one with diagnostics.csv); LABEL names it
in the legend (default: the directory's name). Time is shown in minutes. --scale
COLUMN=FACTOR multiplies a column (e.g. lwp=1000 for g m-2) and --unit COLUMN=TEXT
labels its axis. Prints the columns of every run at the times of the first run's rows
(nearest row) as a Markdown table with --table.
"""
import argparse
import csv
import os
import sys


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no rows")
    return rows


def pairs(items, what):
    out = {}
    for item in items:
        if "=" not in item:
            sys.exit(f"--{what} {item}: expected COLUMN=VALUE")
        key, value = item.split("=", 1)
        out[key] = value
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="+", metavar="RUN_DIR[=LABEL]")
    p.add_argument("--columns", required=True, help="comma-separated columns of diagnostics.csv")
    p.add_argument("--out", help="PNG to write (default: none)")
    p.add_argument("--scale", action="append", default=[], metavar="COLUMN=FACTOR")
    p.add_argument("--unit", action="append", default=[], metavar="COLUMN=TEXT")
    p.add_argument("--table", action="store_true", help="print a Markdown table")
    p.add_argument("--title", default="")
    args = p.parse_args()

    columns = args.columns.split(",")
    scale = {k: float(v) for k, v in pairs(args.scale, "scale").items()}
    unit = pairs(args.unit, "unit")
    runs = []
    for item in args.runs:
        path, _, label = item.partition("=")
        csv_path = os.path.join(path, "diagnostics.csv")
        if not os.path.isfile(csv_path):
            sys.exit(f"{csv_path}: not found (RUN_DIR must hold a run's diagnostics.csv)")
        rows = read_csv(csv_path)
        for c in columns:
            if c not in rows[0]:
                sys.exit(f"{csv_path}: no column '{c}' (it has {', '.join(rows[0])})")
        t = [float(r["time"]) / 60 for r in rows]
        values = {c: [float(r[c]) * scale.get(c, 1.0) for r in rows] for c in columns}
        runs.append((label or os.path.basename(os.path.normpath(path)), t, values))

    if args.table:
        print("| run | t [min] | " + " | ".join(c + (f" [{unit[c]}]" if c in unit else "") for c in columns) + " |")
        print("|---" * (len(columns) + 2) + "|")
        for label, t, values in runs:
            for i, time in enumerate(t):
                print(f"| {label} | {time:.0f} | " + " | ".join(f"{values[c][i]:.4g}" for c in columns) + " |")

    if args.out:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(len(columns), 1, figsize=(7, 2.6 * len(columns)), sharex=True, squeeze=False)
        for ax, c in zip(axes[:, 0], columns):
            for label, t, values in runs:
                ax.plot(t, values[c], marker=".", label=label)
            ax.set_ylabel(c + (f" [{unit[c]}]" if c in unit else ""))
            ax.grid(alpha=0.3)
        axes[0, 0].legend(fontsize=8)
        axes[-1, 0].set_xlabel("time [min]")
        if args.title:
            axes[0, 0].set_title(args.title)
        fig.tight_layout()
        fig.savefig(args.out, dpi=110)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
