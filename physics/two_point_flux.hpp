#pragma once
/// Two-point volume fluxes for split-form DG (flux differencing). Symmetric in their two
/// arguments and consistent, F#(q, q) = F(q), so the split-form volume integral
/// 2 sum_m D_im F#(q_i, q_m) conserves what the standard one conserves while reducing
/// the aliasing of the nonlinear terms.
#include "physics/euler.hpp"

namespace squall::physics {

/// What a two-point flux needs of one point: primitives, specific total energy
/// e = rho e / rho, and the reference pressure.
struct SplitPoint {
  Real rho, u[3], p, e, p_ref;
};

KOKKOS_INLINE_FUNCTION SplitPoint split_point(const Cons& q, const Prim& w, Real p_ref) {
  return {w.rho, {w.u[0], w.u[1], w.u[2]}, w.p, q[i_rhoe] / w.rho, p_ref};
}

/// Kinetic-energy-preserving flux of Kennedy & Gruber (2008), J. Comput. Phys. 227,
/// 1676-1700, doi:10.1016/j.jcp.2007.09.020, in the form of Gassner, Winters & Kopriva
/// (2016), J. Comput. Phys. 327, 39-66, eq. (4.13), with the reference pressure
/// subtracted in the momentum flux only ({.} is the arithmetic mean):
///   F_rho = {rho}{u_d},  F_rhou = F_rho {u} + ({p} - {p_ref}) e_d,
///   F_rhoe = F_rho {e} + {p}{u_d}.
KOKKOS_INLINE_FUNCTION Cons kennedy_gruber(const SplitPoint& a, const SplitPoint& b, int d) {
  const Real rho = 0.5 * (a.rho + b.rho);
  const Real ud = 0.5 * (a.u[d] + b.u[d]);
  const Real p = 0.5 * (a.p + b.p);
  const Real mass = rho * ud;
  Cons f;
  f[i_rho] = mass;
  f[i_rhou] = mass * 0.5 * (a.u[0] + b.u[0]);
  f[i_rhov] = mass * 0.5 * (a.u[1] + b.u[1]);
  f[i_rhow] = mass * 0.5 * (a.u[2] + b.u[2]);
  f[i_rhou + d] += p - 0.5 * (a.p_ref + b.p_ref);
  f[i_rhoe] = mass * 0.5 * (a.e + b.e) + p * ud;
  return f;
}

}  // namespace squall::physics
