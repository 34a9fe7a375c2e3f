#pragma once
/// Numerical surface fluxes: functions of the two states of a face, (minus, plus), with
/// the normal pointing from minus to plus, for any equation set Eq.
#include "core/math.hpp"
#include "physics/dry_air.hpp"

namespace squall::physics {

/// Rusanov's flux together with the two physical fluxes it is formed from, F(q_m).n and
/// F(q_p).n (with `aux`), which face kernels need again for F* - F(q).
template <class Eq>
struct RusanovFlux {
  typename Eq::Cons star, minus, plus;
};

/// Rusanov (local Lax-Friedrichs) flux:
///   F* = (F(q_m).n + F(q_p).n) / 2 - lambda (q_p - q_m) / 2,
///   lambda = max(|u_n| + c) over both sides.
/// Rusanov, J. Comput. Math. Phys. USSR 1 (1961) 267-279; see Toro, Riemann Solvers and
/// Numerical Methods for Fluid Dynamics (2009), sec. 10.5.1.
/// The reference pressure and geopotential are those of the face point (equal on both
/// sides, since the point is the same).
/// With the primitive variables of both sides given (w_m, w_p: Eq::primitive of q_m, q_p).
template <class Eq, class Normal>
KOKKOS_FORCEINLINE_FUNCTION RusanovFlux<Eq> rusanov_with_sides(const Eq& eq, const typename Eq::Cons& q_m,
                                                          const typename Eq::Prim& w_m, const typename Eq::Cons& q_p,
                                                          const typename Eq::Prim& w_p, const typename Eq::Aux& aux,
                                                          const Normal& n) {
  RusanovFlux<Eq> r;
  r.minus = eq.flux(q_m, w_m, aux.p_ref, n);
  r.plus = eq.flux(q_p, w_p, aux.p_ref, n);
  const Real lambda = math::max(eq.max_wave_speed(w_m, n), eq.max_wave_speed(w_p, n));
  for (int v = 0; v < Eq::nvar; ++v) r.star[v] = 0.5 * (r.minus[v] + r.plus[v]) - 0.5 * lambda * (q_p[v] - q_m[v]);
  return r;
}
/// Rusanov's flux through a curved face times its surface element, in contravariant form:
/// ja = |J a^d| n is the face node's contravariant vector J a^d (the normal from minus to
/// plus scaled by the surface Jacobian), and
///   F* = (F(q_m).ja + F(q_p).ja) / 2 - lambda |ja| (q_p - q_m) / 2,
/// lambda = max(|u.n| + c) with the unit normal n = ja / |ja|. The physical fluxes are
/// those along ja itself (F is linear in the normal), as the volume term forms them, so a
/// uniform state gives F* - F(q).ja = 0 exactly.
template <class Eq>
KOKKOS_FORCEINLINE_FUNCTION RusanovFlux<Eq> rusanov_contravariant(const Eq& eq, const typename Eq::Cons& q_m,
                                                             const typename Eq::Prim& w_m,
                                                             const typename Eq::Cons& q_p,
                                                             const typename Eq::Prim& w_p,
                                                             const typename Eq::Aux& aux, const VectorNormal& ja) {
  const Real area = math::sqrt(ja.n[0] * ja.n[0] + ja.n[1] * ja.n[1] + ja.n[2] * ja.n[2]);
  const VectorNormal unit{{ja.n[0] / area, ja.n[1] / area, ja.n[2] / area}};
  RusanovFlux<Eq> r;
  r.minus = eq.flux(q_m, w_m, aux.p_ref, ja);
  r.plus = eq.flux(q_p, w_p, aux.p_ref, ja);
  const Real lambda = math::max(eq.max_wave_speed(w_m, unit), eq.max_wave_speed(w_p, unit)) * area;
  for (int v = 0; v < Eq::nvar; ++v) r.star[v] = 0.5 * (r.minus[v] + r.plus[v]) - 0.5 * lambda * (q_p[v] - q_m[v]);
  return r;
}
template <class Eq, class Normal>
KOKKOS_INLINE_FUNCTION RusanovFlux<Eq> rusanov_with_sides(const Eq& eq, const typename Eq::Cons& q_m,
                                                          const typename Eq::Cons& q_p,
                                                          const typename Eq::Aux& aux, const Normal& n) {
  return rusanov_with_sides(eq, q_m, eq.primitive(q_m, aux.phi), q_p, eq.primitive(q_p, aux.phi), aux, n);
}
template <class Eq, class Normal>
KOKKOS_INLINE_FUNCTION typename Eq::Cons rusanov(const Eq& eq, const typename Eq::Cons& q_m,
                                                 const typename Eq::Cons& q_p, const typename Eq::Aux& aux,
                                                 const Normal& n) {
  return rusanov_with_sides(eq, q_m, q_p, aux, n).star;
}

}  // namespace squall::physics
