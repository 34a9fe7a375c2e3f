#!/usr/bin/env python3
"""A performance model of Squall's time step, fitted to a measured scaling study and
extrapolated to many ranks (nodes or GPUs).

  scripts/scaling_model.py --csv scaling/scaling.csv --network ib-ndr --max-ranks 4096 --out model/

Per rank and time step, with s Runge-Kutta stages:

  T(P) = s * [ C(P) + max(0, M(P) - f C(P)) ],    C(P) = t_e E(P) / s,
  M(P) = alpha * 2 * d(P) + beta * B(P),          B(P) = F(P) * nvar * (N+1)^2 * 8 bytes

E(P): elements of the busiest rank of Squall's Cartesian partition, F(P): its MPI faces
(two per cut direction, both sides of the block), d(P): cut directions; t_e: compute
time per element and step, from the measured run with the fewest ranks; alpha, beta:
latency and inverse bandwidth of the network; f: the fraction of a stage's compute that
can hide communication (interior work overlapping the halo exchange, default 0.8).
See docs/scaling.md for what this leaves out.
"""
import argparse
import csv
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from scaling import UsageError, ensure_matplotlib, parse_int_list, weak_growth  # noqa: E402

# Nominal MPI latency [s] and point-to-point bandwidth [B/s] per direction. Rough
# public figures, for orientation only: pass --latency/--bandwidth measured on your
# system (e.g. with the OSU micro-benchmarks) for real predictions.
NETWORKS = {
    "shared-memory": (0.5e-6, 10e9),
    "ib-hdr": (1.5e-6, 25e9),
    "ib-ndr": (1.2e-6, 50e9),
    "slingshot-11": (2.0e-6, 25e9),
    "ethernet-100g": (5.0e-6, 12.5e9),
    "nvlink4": (3.0e-6, 300e9),
}
NVAR = 5


def choose_grid(n, ranks):
    """Squall's partition choice (mesh/partition.cpp): fewest elements on the busiest rank,
    then least cut area, then fewest splits in z and y."""
    best, best_cost = None, None
    total = n[0] * n[1] * n[2]
    for px in range(1, ranks + 1):
        if ranks % px or px > n[0]:
            continue
        for py in range(1, ranks // px + 1):
            if (ranks // px) % py or py > n[1]:
                continue
            pz = ranks // px // py
            if pz > n[2]:
                continue
            p = (px, py, pz)
            busiest = 1
            for d in range(3):
                busiest *= -(-n[d] // p[d])
            cuts = sum((p[d] - 1) * (total // n[d]) for d in range(3))
            cost = (busiest, cuts, pz, py)
            if best_cost is None or cost < best_cost:
                best, best_cost = p, cost
    return best


def predict(n, ranks, order, stages, t_e, alpha, beta, overlap):
    grid = choose_grid(n, ranks)
    if grid is None:
        return None
    block = [-(-n[d] // grid[d]) for d in range(3)]
    elements = block[0] * block[1] * block[2]
    faces, directions = 0, 0
    for d in range(3):
        if grid[d] > 1:
            directions += 1
            area = 1
            for t in range(3):
                if t != d:
                    area *= block[t]
            faces += 2 * area
    compute = t_e * elements / stages
    message = alpha * 2 * directions + beta * faces * NVAR * (order + 1) ** 2 * 8
    step = stages * (compute + max(0.0, message - overlap * compute))
    return {"ranks": ranks, "grid": "x".join(map(str, grid)), "nx": n[0], "ny": n[1], "nz": n[2],
            "elements_per_rank": elements, "mpi_faces_per_rank": faces, "time_per_step": step,
            "communication_fraction": stages * max(0.0, message - overlap * compute) / step}


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--csv", required=True, help="scaling.csv written by scripts/scaling.py")
    p.add_argument("--network", default="ib-hdr", help=f"one of {', '.join(NETWORKS)} (default ib-hdr)")
    p.add_argument("--latency", type=float, help="MPI latency [s], overrides --network")
    p.add_argument("--bandwidth", type=float, help="bandwidth [B/s], overrides --network")
    p.add_argument("--overlap", type=float, default=0.8, help="fraction of compute hiding communication")
    p.add_argument("--time-per-element", type=float,
                   help="compute time per element and step [s] (default: from the measured base run; "
                        "give a GPU's measured value to model GPUs)")
    p.add_argument("--elements", help="strong: predict for this global mesh nx,ny,nz instead of the measured one")
    p.add_argument("--max-ranks", type=int, default=4096, help="largest rank count to predict (default 4096)")
    p.add_argument("--out", default="scaling_model", help="output directory")
    try:
        args = p.parse_args(argv)
        ensure_matplotlib()
        if args.network not in NETWORKS:
            raise UsageError(f"--network: unknown {args.network!r}; known: {', '.join(NETWORKS)}")
        if not os.path.isfile(args.csv):
            raise UsageError(f"--csv: no such file {args.csv!r}")
        with open(args.csv) as f:
            rows = list(csv.DictReader(f))
        if not rows:
            raise UsageError(f"--csv: {args.csv} has no runs")
        mode = rows[0]["mode"]
        order, stages = int(rows[0]["order"]), int(rows[0]["rk_stages"])
        base_ranks = min(int(r["ranks"]) for r in rows)
        base = min((r for r in rows if int(r["ranks"]) == base_ranks), key=lambda r: float(r["time_per_step"]))
        base_elements = [int(base["nx"]), int(base["ny"]), int(base["nz"])]
        alpha, bandwidth = NETWORKS[args.network]
        alpha = args.latency if args.latency is not None else alpha
        bandwidth = args.bandwidth if args.bandwidth is not None else bandwidth
        t_e = args.time_per_element
        if t_e is None:  # the base run's time per element and step, per rank
            grid = choose_grid(base_elements, base_ranks)
            per_rank = 1
            for d in range(3):
                per_rank *= -(-base_elements[d] // grid[d])
            t_e = float(base["time_per_step"]) / per_rank

        ranks, predictions = 1, []
        while ranks <= args.max_ranks:
            if mode == "strong":
                n = parse_int_list(args.elements, "--elements", 3) if args.elements else base_elements
            else:
                g_base = weak_growth(base_ranks)
                per = [base_elements[d] // g_base[d] for d in range(3)]
                n = [per[d] * g for d, g in enumerate(weak_growth(ranks))]
            row = predict(n, ranks, order, stages, t_e, alpha, 1.0 / bandwidth, args.overlap)
            if row:
                predictions.append(row)
            ranks *= 2
        if not predictions:
            raise UsageError("no rank count fits the mesh")
        first = predictions[0]
        for r in predictions:
            r["efficiency"] = (first["time_per_step"] * first["ranks"] / (r["time_per_step"] * r["ranks"])
                               if mode == "strong" else first["time_per_step"] / r["time_per_step"])
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "model.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(predictions[0].keys()))
            writer.writeheader()
            writer.writerows(predictions)

        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        measured = {}
        for r in rows:
            k = int(r["ranks"])
            measured[k] = min(measured.get(k, 1e300), float(r["time_per_step"]))
        fig, ax = plt.subplots(1, 2, figsize=(10, 4))
        xs = [r["ranks"] for r in predictions]
        ax[0].loglog(xs, [r["time_per_step"] for r in predictions], "-", label=f"model ({args.network})")
        if mode == "weak" or not args.elements:  # measured points are of the same mesh
            ax[0].loglog(sorted(measured), [measured[k] for k in sorted(measured)], "o", label="measured")
        ax[0].set(xlabel="ranks", ylabel="time per step [s]", title=f"{mode} scaling: model vs measurement")
        ax[0].legend()
        ax[1].semilogx(xs, [100 * r["efficiency"] for r in predictions], "-")
        ax[1].set(xlabel="ranks", ylabel="predicted efficiency [%]", ylim=(0, 110), title="predicted efficiency")
        fig.tight_layout()
        fig.savefig(os.path.join(args.out, f"model_{mode}.png"), dpi=120)
        print(f"[model] t_e = {t_e:.3e} s per element and step, alpha = {alpha:.2e} s, "
              f"bandwidth = {bandwidth:.3g} B/s; {len(predictions)} rank counts up to {predictions[-1]['ranks']}: "
              f"efficiency {predictions[-1]['efficiency']:.1%}; wrote {args.out}/model.csv, model_{mode}.png")
        return 0
    except UsageError as e:
        print(f"scaling_model.py: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
