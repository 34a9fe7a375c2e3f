#pragma once
/// Compressible Euler equations in total-energy form with geopotential (DESIGN.md §3):
///   d(rho)/dt   + div(rho u)                = 0
///   d(rho u)/dt + div(rho u u + (p - p_r) I) = -(rho - rho_r) grad(Phi)
///   d(rho e)/dt + div((rho e + p) u)         = 0,   e = e_int + |u|^2/2 + Phi,
/// dry ideal gas, Phi = g z. Every function is for one point; volume and face kernels
/// only wrap them.
#include "core/math.hpp"
#include "physics/state.hpp"
#include "physics/thermodynamics.hpp"

namespace squall::physics {

/// Primitive variables from the conservative state; `phi` is the geopotential.
/// e_int = rho e / rho - |u|^2 / 2 - Phi, T = T_0 + e_int / c_v, p = rho R_d T.
KOKKOS_INLINE_FUNCTION Prim primitive(const Cons& q, Real phi) {
  Prim w;
  w.rho = q[i_rho];
  const Real inv_rho = 1 / w.rho;
  w.u[0] = q[i_rhou] * inv_rho;
  w.u[1] = q[i_rhov] * inv_rho;
  w.u[2] = q[i_rhow] * inv_rho;
  const Real kinetic = 0.5 * (w.u[0] * w.u[0] + w.u[1] * w.u[1] + w.u[2] * w.u[2]);
  w.T = temperature(q[i_rhoe] * inv_rho - kinetic - phi);
  w.p = pressure(w.rho, w.T);
  return w;
}

/// Conservative state from density, velocity, temperature and geopotential.
KOKKOS_INLINE_FUNCTION Cons conservative(Real rho, Real u, Real v, Real w, Real T, Real phi) {
  Cons q;
  q[i_rho] = rho;
  q[i_rhou] = rho * u;
  q[i_rhov] = rho * v;
  q[i_rhow] = rho * w;
  q[i_rhoe] = rho * (internal_energy(T) + 0.5 * (u * u + v * v + w * w) + phi);
  return q;
}

/// Flux in direction d (0, 1, 2) of the state q with primitives w and reference
/// pressure p_ref: F_d = (rho u_d, rho u u_d + (p - p_ref) e_d, (rho e + p) u_d).
KOKKOS_INLINE_FUNCTION Cons flux(const Cons& q, const Prim& w, Real p_ref, int d) {
  Cons f;
  const Real ud = w.u[d];
  f[i_rho] = q[i_rho] * ud;
  f[i_rhou] = q[i_rhou] * ud;
  f[i_rhov] = q[i_rhov] * ud;
  f[i_rhow] = q[i_rhow] * ud;
  f[i_rhou + d] += w.p - p_ref;
  f[i_rhoe] = (q[i_rhoe] + w.p) * ud;
  return f;
}

/// Largest wave speed in direction d, |u_d| + c.
KOKKOS_INLINE_FUNCTION Real max_wave_speed(const Prim& w, int d) {
  return math::abs(w.u[d]) + sound_speed(w.T);
}

/// Gravity source of the momentum equation in perturbation form, -(rho - rho_r) g e_z;
/// returns the z component (the others are zero).
KOKKOS_INLINE_FUNCTION Real buoyancy_source(Real rho, Real rho_ref, Real g) {
  return -(rho - rho_ref) * g;
}

/// True when the state is physical: finite, positive density and temperature; `w` is
/// primitive(q, phi), already at hand in most callers.
KOKKOS_INLINE_FUNCTION bool is_physical(const Cons& q, const Prim& w) {
  for (int v = 0; v < nvar; ++v)
    if (!math::isfinite(q[v])) return false;
  return q[i_rho] > 0 && w.T > 0;
}
KOKKOS_INLINE_FUNCTION bool is_physical(const Cons& q, Real phi) { return is_physical(q, primitive(q, phi)); }

}  // namespace squall::physics
