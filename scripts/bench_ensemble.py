#!/usr/bin/env python3
"""Ensemble throughput: M members as one `squall ensemble`, one after another as M
`squall run`s, and as M `squall run`s at once sharing the machine.

  scripts/bench_ensemble.py --members 1,2,4,8 --out bench-ensemble/
  scripts/bench_ensemble.py --members 1,4 --elements 8,8,8 --order 4 --steps 20 --cores 16

Every member is the base config (default cases/bomex_small.toml) with tiny-member
overrides (--order, --elements, --steps time steps of --dt seconds, no field, profile or
checkpoint output) and its own case.seed (0, 1, ...). For each M and mode the script measures the
wall time of the whole job (process starts, set-up and output included: what a batch
allocation pays) and reports members per hour and core-seconds per member-simulated-hour
(wall x --cores / (M x simulated hours): the allocation's cost, whatever the mode leaves
idle). Modes:
  ensemble    one `squall ensemble` job with M members on --cores ranks, --ranks per member
              (groups of --ranks ranks run their members side by side)
  batched     the same job with --batch: each group's members as one batch, one element
              list, every kernel launch covering all of them
  serial      M `squall run` processes one after another (each on --ranks ranks)
  concurrent  M `squall run` processes at once (each on --ranks ranks), sharing the cores
It checks that every member's state_checksum is the same in all modes. Writes
bench_ensemble.csv, bench_ensemble.md and bench_ensemble.png to --out. The machine
should be otherwise idle; the modes alternate per M, --repeats times, and the median is
reported.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, check_inputs, ensure_matplotlib, launcher_command, parse_int_list  # noqa: E402

MODES = ("ensemble", "batched", "serial", "concurrent")
LABELS = {"ensemble": "squall ensemble (one job)", "batched": "squall ensemble --batch (one job, one element list)",
          "serial": "squall run, one after another",
          "concurrent": "squall run, M processes at once"}


def member_overrides(args):
    return [f"dg.order={args.order}", f"mesh.elements=[{args.elements}]", f"time.max_steps={args.steps}",
            f"time.dt={args.dt!r}",
            "time.end_time=1e30", "output.interval=0", "output.profiles_interval=0",
            "output.checkpoint_interval=0", "output.profiles_mean_window=[]"] + (args.set or [])


def run_mode(args, mode, members, folder):
    """Runs one mode for `members` members in `folder`; returns (wall seconds, member summaries)."""
    os.makedirs(folder, exist_ok=True)
    common = member_overrides(args)
    launcher = launcher_command(args, args.ranks)
    runs = []
    if mode in ("ensemble", "batched"):
        path = os.path.join(folder, "ensemble.toml")
        with open(path, "w") as f:
            f.write("[ensemble]\n" f"config = {json.dumps(os.path.abspath(args.case))}\n"
                    f"set = {json.dumps(common)}\n" f"members = {members}\n"
                    'vary = { "case.seed" = "range" }\n')
        runs.append(launcher_command(args, args.cores) + [args.squall, "ensemble", path, "--quiet", "--output",
                                                          os.path.join(folder, "out"), "--ranks-per-member",
                                                          str(args.ranks)] +
                    (["--batch"] if mode == "batched" else []))
        dirs = [os.path.join(folder, "out", f"member_{m:03d}") for m in range(members)]
    else:
        dirs = [os.path.join(folder, f"run_{m:03d}") for m in range(members)]
        for m, d in enumerate(dirs):
            cmd = launcher + [args.squall, "run", args.case, "--quiet", "--output", d]
            for o in common + [f"case.seed={m}"]:
                cmd += ["--set", o]
            runs.append(cmd)
    start = time.perf_counter()
    if mode == "concurrent":
        procs = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for c in runs]
        outputs = [(p, p.communicate()[0]) for p in procs]
    else:
        outputs = []
        for c in runs:
            r = subprocess.run(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            outputs.append((r, r.stdout))
    wall = time.perf_counter() - start
    for (p, text), c in zip(outputs, runs):
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(c)} failed ({p.returncode}):\n{text}")
    summaries = []
    for d in dirs:
        with open(os.path.join(d, "summary.json")) as f:
            summaries.append(json.load(f))
    return wall, summaries


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def write_outputs(args, rows):
    os.makedirs(args.out, exist_ok=True)
    columns = ["members", "mode", "wall_seconds", "members_per_hour", "core_seconds_per_member_simulated_hour",
               "dof_per_member", "simulated_seconds_per_member", "repeats", "wall_seconds_all"]
    with open(os.path.join(args.out, "bench_ensemble.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        w.writerows(rows)
    lines = [f"# squall ensemble throughput: {os.path.basename(args.case)}, N = {args.order}, elements "
             f"{args.elements}, {args.steps} steps per member, {args.ranks} rank(s) per process, "
             f"{args.cores} core(s) paid for", "",
             "| M | mode | wall [s] (median) | members per hour | core-s per member-simulated-hour | "
             "vs serial |", "|---|---|---|---|---|---|"]
    for r in rows:
        serial = next(s for s in rows if s["members"] == r["members"] and s["mode"] == "serial")
        lines.append(f"| {r['members']} | {r['mode']} | {r['wall_seconds']:.2f} | {r['members_per_hour']:.0f} | "
                     f"{fmt(r['core_seconds_per_member_simulated_hour'], '.1f')} | "
                     f"{serial['wall_seconds'] / r['wall_seconds']:.2f}x |")
    lines += ["", "Command: `" + " ".join(sys.argv) + "`"]
    with open(os.path.join(args.out, "bench_ensemble.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    import matplotlib  # main() made sure it is there (ensure_matplotlib)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    for mode in MODES:
        pts = [(r["members"], r["members_per_hour"]) for r in rows if r["mode"] == mode]
        if pts:
            ax.plot(*zip(*pts), marker="o", label=LABELS[mode])
    ax.set_xscale("log", base=2)
    ax.set_xticks(args.member_list, [str(m) for m in args.member_list])
    ax.set_xlabel("members M")
    ax.set_ylabel("members per hour")
    ax.set_title(f"{os.path.basename(args.case)}: {rows[0]['dof_per_member']} DOF per member")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "bench_ensemble.png"), dpi=120)
    plt.close(fig)
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", default=os.path.join(ROOT, "cases", "bomex_small.toml"))
    p.add_argument("--members", default="1,2,4,8", help="member counts M (default 1,2,4,8)")
    p.add_argument("--modes", default=",".join(MODES), help="modes to run (default all: " + ",".join(MODES) + ")")
    p.add_argument("--order", type=int, default=3, help="polynomial order of every member (default 3)")
    p.add_argument("--elements", default="4,4,5", help="elements of every member (default 4,4,5: 5120 DOF at N = 3)")
    p.add_argument("--steps", type=int, default=20, help="time steps per member (default 20)")
    p.add_argument("--dt", type=float, default=0.5,
                   help="the fixed time step [s] of every member (default 0.5; batches need a fixed one)")
    p.add_argument("--ranks", type=int, default=1, help="ranks per process (default 1)")
    p.add_argument("--cores", type=int, default=os.cpu_count(), help="cores the job pays for (default: this machine's)")
    p.add_argument("--repeats", type=int, default=3, help="rounds of all modes, alternating (default 3)")
    p.add_argument("--launcher", choices=["mpirun", "srun"], default="mpirun")
    p.add_argument("--launcher-args", help="extra launcher arguments, one string")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="extra override of every member")
    p.add_argument("--out", default="bench-ensemble")
    args = p.parse_args(argv)
    args.member_list = parse_int_list(args.members, "--members")
    args.elements = ",".join(map(str, parse_int_list(args.elements, "--elements", 3)))
    args.mode_list = [m for m in args.modes.split(",") if m]
    if any(m not in MODES for m in args.mode_list) or "serial" not in args.mode_list:
        raise UsageError(f"--modes {args.modes}: expected some of {', '.join(MODES)}, serial among them")
    if args.cores % args.ranks != 0:
        raise UsageError(f"--cores {args.cores}: expected a multiple of --ranks {args.ranks}")
    if not 1 <= args.order <= 8 or args.steps < 1 or args.ranks < 1 or args.cores < 1 or args.repeats < 1 or not args.dt > 0:
        raise UsageError("--order in 1..8, --steps, --ranks, --cores and --repeats at least 1, --dt > 0")
    check_inputs(args)
    return args


def main(argv):
    try:
        args = parse_args(argv)
        ensure_matplotlib()
    except UsageError as e:
        print(f"bench_ensemble.py: {e}", file=sys.stderr)
        return 2
    rows = []
    for members in args.member_list:
        walls = {mode: [] for mode in args.mode_list}
        checksums = {}
        for repeat in range(args.repeats):
            for mode in args.mode_list:
                print(f"bench_ensemble.py: M = {members}, {mode}, round {repeat + 1} ...", file=sys.stderr, flush=True)
                folder = os.path.join(args.out, "runs", f"M{members}_{mode}_r{repeat}")
                try:
                    wall, summaries = run_mode(args, mode, members, folder)
                except RuntimeError as e:
                    print(f"bench_ensemble.py: {e}", file=sys.stderr)
                    return 1
                walls[mode].append(wall)
                checksums[mode] = [s["state_checksum"] for s in summaries]
                simulated = statistics.fmean(s["final_time"] for s in summaries)
                dof = summaries[0]["dof"]
        reference = checksums["serial"]
        for mode, sums in checksums.items():
            if sums != reference:
                print(f"bench_ensemble.py: M = {members}: the {mode} members' checksums differ from the serial "
                      f"runs': {sums} against {reference}", file=sys.stderr)
                return 1
        for mode in args.mode_list:
            wall = statistics.median(walls[mode])
            rows.append({"members": members, "mode": mode, "wall_seconds": wall,
                         "members_per_hour": members * 3600 / wall,
                         "core_seconds_per_member_simulated_hour":
                             wall * args.cores / (members * simulated / 3600) if simulated > 0 else None,
                         "dof_per_member": dof, "simulated_seconds_per_member": simulated,
                         "repeats": args.repeats, "wall_seconds_all": " ".join(f"{w:.3f}" for w in walls[mode])})
        write_outputs(args, rows)  # after every M: a long series keeps what it measured
    print(write_outputs(args, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
