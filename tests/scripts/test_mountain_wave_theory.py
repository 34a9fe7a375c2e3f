#!/usr/bin/env python3
"""scripts/mountain_wave_theory.py against closed forms: the Fourier solution of hydrostatic
Boussinesq flow over the Witch of Agnesi against Queney's w, its momentum flux against
M_H = -(pi/4) rho_0 U N h_0^2 at every height, the anelastic flux against the reduction
sqrt(1 - (U/(2 H N))^2) that the density's scale height brings, the surface condition
w = U dh/dx, and the evanescent branch (a narrow hill carries almost no flux).

  test_mountain_wave_theory.py SCRIPTS_DIR
"""
import math
import sys

sys.path.insert(0, sys.argv[1])
from scaling import ensure_module  # noqa: E402

ensure_module("numpy", "the test needs")
import numpy as np  # noqa: E402

import mountain_wave_theory as mw  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


a, h0, U, N = 10e3, 1.0, 20.0, 0.0196
n, dx = 4800, 250.0
x = (np.arange(n) - n // 2) * dx
h = mw.agnesi(x, h0, a)
z = np.linspace(0.0, 12000.0, 25)
near = np.abs(x) < 100e3

s = mw.linear_solution(x, z, h, U, N, hydrostatic=True)
q = mw.queney_w(x, z, h0, a, U, N)
err = np.abs(s["w"][:, near] - q[:, near]).max() / np.abs(q).max()
check(err < 1e-3, f"hydrostatic Boussinesq Agnesi: w against Queney's closed form, max error {err:.2e} of max |w|")

MH = mw.hydrostatic_agnesi_flux(1.0, U, N, h0)
ratio = s["momentum_flux"] / MH
check(abs(ratio.mean() - 1) < 5e-3, f"its momentum flux / M_H = {ratio.mean():.5f} (expected 1 within 0.5 %)")
check(ratio.max() - ratio.min() < 1e-9, f"constant with height: range {ratio.max() - ratio.min():.1e}")

dhdx = np.real(np.fft.ifft(1j * 2 * math.pi * np.fft.fftfreq(n, dx) * np.fft.fft(h)))
surf = np.abs(s["w"][0] - U * dhdx).max() / np.abs(U * dhdx).max()
check(surf < 1e-10, f"surface condition w = U dh/dx, error {surf:.1e}")

T = 250.0
Ni, H = mw.isothermal(T)
rho0 = 1e5 / (mw.R_D * T)
sa = mw.linear_solution(x, z, h, U, Ni, scale_height=H, hydrostatic=True, rho0=rho0)
expected = math.sqrt(1 - (U / (2 * H * Ni)) ** 2)
got = (sa["momentum_flux"] / mw.hydrostatic_agnesi_flux(rho0, U, Ni, h0)).mean()
check(abs(got / expected - 1) < 5e-3,
      f"anelastic isothermal 250 K: normalised flux {got:.5f}, reduction factor {expected:.5f}")
energy = np.sum(sa["w"] ** 2, axis=1)
growth = energy[-1] / energy[0]
check(abs(growth / math.exp(z[-1] / H) - 1) < 1e-9,
      f"sum of w^2 grows as exp(z / H): {growth:.6f} against {math.exp(z[-1] / H):.6f} at {z[-1]:g} m")

# Non-hydrostatic flow: the narrower the hill (the smaller N a / U), the more of its
# spectrum is evanescent and the less momentum its waves carry.
fluxes = []
for width in (10e3, 2e3, 500.0, 100.0):
    sn = mw.linear_solution(x, z, mw.agnesi(x, h0, width), U, N)
    fluxes.append(sn["momentum_flux"].mean() / mw.hydrostatic_agnesi_flux(1.0, U, N, h0))
text = ", ".join(f"{f:.4f}" for f in fluxes)
check(abs(fluxes[0] - 1) < 0.02, f"non-hydrostatic, N a / U = {N * 10e3 / U:.1f}: flux / M_H = {fluxes[0]:.4f} (near 1)")
check(all(f1 > f2 > 0 for f1, f2 in zip(fluxes, fluxes[1:])) and fluxes[-1] < 0.05,
      f"N a / U = 9.8, 2.0, 0.49, 0.098: flux / M_H = {text} (falling towards 0)")

sys.exit(1 if failures else 0)
