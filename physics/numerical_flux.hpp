#pragma once
/// Numerical surface fluxes: functions of the two states of a face, (minus, plus), with
/// the normal pointing from minus to plus along direction d.
#include "physics/euler.hpp"

namespace squall::physics {

/// Rusanov (local Lax-Friedrichs) flux:
///   F* = (F_d(q_m) + F_d(q_p)) / 2 - lambda (q_p - q_m) / 2,
///   lambda = max(|u_d| + c) over both sides.
/// Rusanov, J. Comput. Math. Phys. USSR 1 (1961) 267-279; see Toro, Riemann Solvers and
/// Numerical Methods for Fluid Dynamics (2009), sec. 10.5.1.
/// The reference pressure and geopotential are those of the face point (equal on both
/// sides, since the point is the same).
/// Rusanov's flux together with the two physical fluxes it is formed from, F_d(q_m) and
/// F_d(q_p) (with `aux`), which face kernels need again for F* - F(q).
struct RusanovFlux {
  Cons star, minus, plus;
};
KOKKOS_INLINE_FUNCTION RusanovFlux rusanov_with_sides(const Cons& q_m, const Cons& q_p, const Aux& aux, int d) {
  const Prim w_m = primitive(q_m, aux.phi);
  const Prim w_p = primitive(q_p, aux.phi);
  RusanovFlux r;
  r.minus = flux(q_m, w_m, aux.p_ref, d);
  r.plus = flux(q_p, w_p, aux.p_ref, d);
  const Real lambda = math::max(max_wave_speed(w_m, d), max_wave_speed(w_p, d));
  for (int v = 0; v < nvar; ++v) r.star[v] = 0.5 * (r.minus[v] + r.plus[v]) - 0.5 * lambda * (q_p[v] - q_m[v]);
  return r;
}
KOKKOS_INLINE_FUNCTION Cons rusanov(const Cons& q_m, const Cons& q_p, const Aux& aux, int d) {
  return rusanov_with_sides(q_m, q_p, aux, d).star;
}

/// The mirror state of q across a wall normal to direction d: the normal momentum
/// reversed. With it, Rusanov's flux carries no mass or energy through the wall
/// (free-slip, impenetrable).
KOKKOS_INLINE_FUNCTION Cons mirror(const Cons& q, int d) {
  Cons m = q;
  m[i_rhou + d] = -q[i_rhou + d];
  return m;
}

}  // namespace squall::physics
