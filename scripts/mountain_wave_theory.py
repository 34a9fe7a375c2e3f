#!/usr/bin/env python3
"""Linear theory of steady two-dimensional mountain waves: the reference solutions that the
mountain-wave cases (Witch of Agnesi, Schär's mountain) are compared with.

  scripts/mountain_wave_theory.py agnesi [--out DIR]     the hydrostatic Agnesi case
  scripts/mountain_wave_theory.py schar [--out DIR]      Schär et al. (2002)

Each writes DIR/<case>_linear.npz (x, z, w, u, momentum_flux, the parameters) and
DIR/<case>_linear_w.png (the vertical velocity; needs matplotlib), and prints the
momentum flux against its hydrostatic value.

Theory. A uniform wind U over terrain h(x) in an atmosphere of constant buoyancy
frequency N, linearised about the rest state (Smith 1979, Adv. Geophys. 21, 87; Durran
1986 and 1990, in "Atmospheric Processes over Complex Terrain", Meteor. Monogr. 23):
with the anelastic density rho(z) = rho_0 exp(-z/H) (H the density scale height; H =
infinity is the Boussinesq limit), each Fourier mode of the terrain gives

  w^(k, z) = i k U h^(k) exp(z/(2H)) exp(i m(k) z),
  m^2 = N^2/U^2 - k^2 - 1/(4H^2)          (the k^2 dropped for hydrostatic flow),

m = sign(k) sqrt(m^2) where m^2 > 0 (waves whose energy goes up, the radiation condition)
and m = i sqrt(-m^2) where m^2 < 0 (evanescent modes). The horizontal velocity follows
from the anelastic continuity equation, u^ = -(m/k + i/(2 H k)) w^. The vertical flux of
horizontal momentum, M(z) = integral of rho u' w' dx, is constant with height, and for
the hydrostatic Boussinesq flow over the Witch of Agnesi h_0 a^2/(x^2 + a^2) it is

  M_H = -(pi/4) rho_0 U N h_0^2            (per unit length along y; Smith 1979),

the value by which Giraldo & Restelli (2008), J. Comput. Phys. 227, 3849, normalise the
flux of their linear hydrostatic test (a = 10 km, h_0 = 1 m, U = 20 m/s, isothermal
250 K): a model's normalised flux should be close to 1 through the wave layer. For the
hydrostatic Boussinesq Agnesi flow the displacement has the closed form of Queney (1948),
eta(x, z) = h_0 a (a cos(l z) - x sin(l z))/(x^2 + a^2), l = N/U, w = U d eta/dx, which
the tests compare the Fourier solution with.

The Fourier solution is that of a periodic terrain of period L = n dx: the domain must be
wide enough (tens of half-widths) for the periodic images of the hill not to matter.
"""
import argparse
import math
import os
import sys

from scaling import UsageError, ensure_module


G = 9.81        # gravity [m s-2], physics/constants.hpp
R_D = 287.0     # dry air's gas constant [J kg-1 K-1]
CP_D = 1004.0   # its heat capacity at constant pressure [J kg-1 K-1]


def isothermal(T):
    """Buoyancy frequency N = g / sqrt(c_p T) [s-1] and density scale height H = R T / g
    [m] of an isothermal atmosphere at T [K]."""
    return G / math.sqrt(CP_D * T), R_D * T / G


def agnesi(x, h0, a, xc=0.0):
    """Witch of Agnesi h_0 a^2 / ((x - x_c)^2 + a^2) [m] (mesh/terrain.hpp)."""
    return h0 * a * a / ((x - xc) ** 2 + a * a)


def schar(x, h0, a, wavelength, xc=0.0):
    """Schär's mountain h_0 exp(-((x - x_c)/a)^2) cos^2(pi (x - x_c)/lambda) [m]
    (Schär et al. 2002, Mon. Wea. Rev. 130, 2459)."""
    import numpy as np
    d = x - xc
    return h0 * np.exp(-(d / a) ** 2) * np.cos(math.pi * d / wavelength) ** 2


def linear_solution(x, z, h, U, N, scale_height=None, hydrostatic=False, rho0=1.0):
    """The steady linear solution over terrain h at the points x (uniform, periodic) and
    heights z: a dict with w and u (len(z) x len(x)) [m s-1], the density at z, and the
    momentum flux M(z) = sum of rho u' w' dx [N m-1 = kg s-2] (per unit length along y)."""
    import numpy as np
    x = np.asarray(x, dtype=float)
    z = np.asarray(z, dtype=float)
    n = x.size
    dx = x[1] - x[0]
    if not np.allclose(np.diff(x), dx, rtol=1e-9, atol=0):
        raise ValueError("x must be uniformly spaced")
    k = 2 * math.pi * np.fft.fftfreq(n, dx)
    hk = np.fft.fft(np.asarray(h, dtype=float))
    inv2h = 0.0 if scale_height is None else 1.0 / (2.0 * scale_height)
    m2 = (N / U) ** 2 - (0.0 if hydrostatic else k ** 2) - inv2h ** 2
    m = np.where(m2 > 0, np.sign(k) * np.sqrt(np.abs(m2)), 1j * np.sqrt(np.abs(m2))).astype(complex)
    wk0 = 1j * k * U * hk
    with np.errstate(divide="ignore", invalid="ignore"):
        uk_factor = np.where(k != 0, -(m / k + 1j * inv2h / k), 0.0)
    w = np.empty((z.size, n))
    u = np.empty((z.size, n))
    for j, zj in enumerate(z):
        wk = wk0 * np.exp(1j * m * zj)
        growth = math.exp(zj * inv2h)
        w[j] = np.real(np.fft.ifft(wk)) * growth
        u[j] = np.real(np.fft.ifft(uk_factor * wk)) * growth
    rho = rho0 * np.exp(-2.0 * inv2h * z)
    flux = rho * np.sum(u * w, axis=1) * dx
    return {"w": w, "u": u, "rho": rho, "momentum_flux": flux}


def hydrostatic_agnesi_flux(rho0, U, N, h0):
    """M_H = -(pi/4) rho_0 U N h_0^2 (Smith 1979)."""
    return -math.pi / 4 * rho0 * U * N * h0 * h0


def queney_w(x, z, h0, a, U, N):
    """w of the hydrostatic Boussinesq flow over the Witch of Agnesi (Queney 1948):
    U d/dx of eta = h_0 a (a cos(l z) - x sin(l z)) / (x^2 + a^2), l = N / U."""
    import numpy as np
    X, Z = np.meshgrid(np.asarray(x, dtype=float), np.asarray(z, dtype=float))
    lz = N / U * Z
    s = X * X + a * a
    deta = h0 * a * (-np.sin(lz) * s - (a * np.cos(lz) - X * np.sin(lz)) * 2 * X) / (s * s)
    return U * deta


CASES = {
    # Giraldo & Restelli (2008): linear hydrostatic flow over the Witch of Agnesi.
    "agnesi": dict(h0=1.0, a=10000.0, U=20.0, T=250.0, width=1.2e6, dx=250.0, top=30000.0, shown=(-60e3, 60e3)),
    # Schär et al. (2002): U = 10 m/s, N = 0.01 s-1, h0 = 250 m, a = 5 km,
    # lambda = 4 km; a Boussinesq solution with constant N.
    "schar": dict(h0=250.0, a=5000.0, wavelength=4000.0, U=10.0, N=0.01, width=4.0e5, dx=50.0, top=20000.0,
                  shown=(-25e3, 25e3)),
}


def solve_case(name, nz=201):
    import numpy as np
    c = CASES[name]
    n = int(round(c["width"] / c["dx"]))
    x = (np.arange(n) - n // 2) * c["dx"]
    z = np.linspace(0.0, c["top"], nz)
    if name == "agnesi":
        N, H = isothermal(c["T"])
        rho0 = 1e5 / (R_D * c["T"])
        h = agnesi(x, c["h0"], c["a"])
        sol = linear_solution(x, z, h, c["U"], N, scale_height=H, hydrostatic=True, rho0=rho0)
        reference = hydrostatic_agnesi_flux(rho0, c["U"], N, c["h0"])
    else:
        N = c["N"]
        rho0 = 1.0
        h = schar(x, c["h0"], c["a"], c["wavelength"])
        sol = linear_solution(x, z, h, c["U"], N, rho0=rho0)
        reference = None
    sol.update(x=x, z=z, h=h, N=N, U=c["U"], reference_flux=reference)
    return sol


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("case", choices=sorted(CASES))
    p.add_argument("--out", default="validation/mountain_waves", help="folder of the outputs")
    args = p.parse_args(argv)
    try:
        ensure_module("numpy", "the theory needs")
    except UsageError as e:
        sys.exit(f"mountain_wave_theory.py: {e}")
    import numpy as np
    sol = solve_case(args.case)
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"{args.case}_linear.npz")
    np.savez(path, **{k: v for k, v in sol.items() if v is not None})
    flux = sol["momentum_flux"]
    print(f"{args.case}: N = {sol['N']:.6g} s-1, U = {sol['U']:g} m/s; wrote {path}")
    if sol["reference_flux"] is not None:
        ratio = flux / sol["reference_flux"]
        print(f"momentum flux / M_H (hydrostatic Agnesi, {sol['reference_flux']:.6g} N/m): "
              f"{ratio.min():.4f} .. {ratio.max():.4f} over 0..{sol['z'][-1]:g} m")
    else:
        print(f"momentum flux: {flux.min():.6g} .. {flux.max():.6g} N/m over 0..{sol['z'][-1]:g} m")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no picture")
        return 0
    c = CASES[args.case]
    x, z, w = sol["x"], sol["z"], sol["w"]
    keep = (x >= c["shown"][0]) & (x <= c["shown"][1])
    fig, ax = plt.subplots(figsize=(8, 5))
    lim = np.abs(w[:, keep]).max()
    pc = ax.pcolormesh(x[keep] / 1e3, z / 1e3, w[:, keep], cmap="RdBu_r", vmin=-lim, vmax=lim, shading="auto")
    ax.fill_between(x[keep] / 1e3, 0, sol["h"][keep] / 1e3, color="0.3")
    fig.colorbar(pc, ax=ax, label="w [m/s]")
    ax.set_xlabel("x [km]")
    ax.set_ylabel("z [km]")
    ax.set_title(f"{args.case}: linear theory, vertical velocity")
    png = os.path.join(args.out, f"{args.case}_linear_w.png")
    fig.savefig(png, dpi=110, bbox_inches="tight")
    print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
