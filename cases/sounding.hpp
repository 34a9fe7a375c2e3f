#pragma once
/// Hydrostatic soundings of the moist cases, host code: p(z) from dp/dz = -rho(z, p) g
/// by RK4 in 1 m steps from the surface, with cubic Hermite interpolation (values and
/// slopes) between the levels, and the bisection the cases invert their thermodynamic
/// definitions with.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "core/types.hpp"

namespace squall::cases {

/// The root of an increasing f on [150 K, 400 K] by a fixed 64 halvings of [150, 400]
/// (exact to the last bit or two, the same on every machine): the reference
/// bisect_temperature is measured against.
template <class F>
Real bisect_temperature_plain(const F& f) {
  Real lo = 150, hi = 400;
  for (int i = 0; i < 64; ++i) {
    const Real mid = (lo + hi) / 2;
    (f(mid) > 0 ? hi : lo) = mid;
  }
  return (lo + hi) / 2;
}

/// How far outside a bracket [a, b] of the root (f(a) <= 0 < f(b), both evaluated) the
/// sign of f is taken as known: f must be increasing near its root with a rounding error
/// far below its slope times this (the cases' f are potential temperatures, in K per K,
/// computed to about 1e-13 K).
constexpr Real bisection_margin = 1e-9;

/// Shrinks a bracket [a, b] of the root of f (f(a) = fa <= 0 < f(b) = fb) below
/// bisection_margin: secant steps (regula falsi, with the Illinois halving of an end
/// kept twice), and where a step's point r lies within an eighth of the margin of the
/// root by the bracket's slope, a probe a quarter margin beyond r on the root's side,
/// which closes the bracket (a few evaluations: f is nearly linear in T).
template <class F>
void shrink_bracket(const F& f, Real& a, Real fa, Real& b, Real fb) {
  Real fa_true = fa, fb_true = fb;  // f at the ends (fa, fb: the Illinois weights)
  int kept = 0;                     // the end the last secant step kept: -1 a, +1 b
  const auto take = [&](Real r, Real fr) {
    if (fr > 0)
      b = r, fb = fb_true = fr;
    else
      a = r, fa = fa_true = fr;
  };
  for (int it = 0; it < 50 && b - a >= bisection_margin; ++it) {
    Real r = b - fb * ((b - a) / (fb - fa));
    if (!(r > a && r < b)) r = (a + b) / 2;
    const Real fr = f(r);
    if (fr > 0 ? kept == -1 : kept == 1) (fr > 0 ? fa : fb) /= 2;
    kept = fr > 0 ? -1 : 1;
    take(r, fr);
    const Real slope = (fb_true - fa_true) / (b - a);
    if (!(b - a >= bisection_margin) || !(std::abs(fr) < slope * (bisection_margin / 8))) continue;
    const Real probe = fr > 0 ? r - bisection_margin / 4 : r + bisection_margin / 4;
    if (probe > a && probe < b) take(probe, f(probe));
  }
}

/// The same bits as bisect_temperature_plain, in about a third of its evaluations of f:
/// - the 64 halvings, evaluating f until both ends have been set by a halving
///   (f(lo) <= 0 < f(hi));
/// - then a bracket [a, b] of the root inside [lo, hi] narrower than bisection_margin
///   (shrink_bracket, a few evaluations), after which a halving whose midpoint lies
///   farther than bisection_margin outside [a, b] takes its side without evaluating f
///   (f there is certainly positive above b and not positive below a: the answer f
///   would give);
/// - and a stop once a midpoint rounds to an end that a halving set: f there gives the
///   answer it gave then, so no later halving moves either end.
template <class F>
Real bisect_temperature(const F& f) {
  Real lo = 150, hi = 400, f_lo = 0, f_hi = 0, a = 0, b = 0;
  bool lo_set = false, hi_set = false, bracketed = false;
  for (int i = 0; i < 64; ++i) {
    const Real mid = (lo + hi) / 2;
    if ((mid == lo && lo_set) || (mid == hi && hi_set)) break;
    if (!bracketed && lo_set && hi_set && f_lo <= 0 && f_hi > 0) {
      a = lo, b = hi;
      shrink_bracket(f, a, f_lo, b, f_hi);
      bracketed = true;
    }
    bool above;
    Real value = 0;
    if (bracketed && mid > b + bisection_margin) {
      above = true;
    } else if (bracketed && mid < a - bisection_margin) {
      above = false;
    } else {
      value = f(mid);
      above = value > 0;
    }
    if (above)
      hi = mid, f_hi = value, hi_set = true;
    else
      lo = mid, f_lo = value, lo_set = true;
  }
  return (lo + hi) / 2;
}

/// Host initialisation of a node of a case whose reference state is its undisturbed
/// background's own discrete state (so that, where nothing disturbs it, the air is in
/// exact discrete equilibrium): the state s, the background's density and pressure as
/// the reference, and the geopotential.
template <class Eq, class HostState, class HostAux>
void store_node(const Eq& eq, const HostState& qh, const HostAux& ah, std::size_t e, std::size_t n,
                const typename Eq::Cons& s, const typename Eq::Cons& background, Real phi) {
  for (int v = 0; v < Eq::nvar; ++v) qh(e, v, n) = s[v];
  const typename Eq::Prim w = eq.primitive(background, phi);
  ah(e, Eq::a_rho_ref, n) = w.rho;
  ah(e, Eq::a_p_ref, n) = w.p;
  ah(e, Eq::a_phi, n) = phi;
}

class HydrostaticSounding {
 public:
  /// density(z, p): the air's density at height z (above the surface) and pressure p.
  template <class Density>
  HydrostaticSounding(const Density& density, Real p_surface, Real g, Real height) {
    const auto slope = [&](Real z, Real p) { return -density(z, p) * g; };
    const int levels = static_cast<int>(std::ceil(height / dz_)) + 2;
    p_.resize(levels);
    dpdz_.resize(levels);
    p_[0] = p_surface;
    for (int k = 1; k < levels; ++k) {  // RK4 on dp/dz = -rho(z, p) g
      const Real p = p_[k - 1], z = (k - 1) * dz_;
      const Real k1 = dpdz_[k - 1] = slope(z, p);
      const Real k2 = slope(z + dz_ / 2, p + dz_ / 2 * k1), k3 = slope(z + dz_ / 2, p + dz_ / 2 * k2),
                 k4 = slope(z + dz_, p + dz_ * k3);
      p_[k] = p + dz_ / 6 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
    dpdz_[levels - 1] = slope((levels - 1) * dz_, p_[levels - 1]);
  }
  /// Pressure at height z above the surface (cubic Hermite between levels, with dp/dz).
  Real pressure(Real z) const {
    const Real s = std::clamp(z / dz_, Real(0), Real(p_.size() - 2));
    const int k = std::min(static_cast<int>(s), static_cast<int>(p_.size()) - 2);
    const Real u = s - k, p0 = p_[k], p1 = p_[k + 1], m0 = dz_ * dpdz_[k], m1 = dz_ * dpdz_[k + 1];
    const Real h00 = (1 + 2 * u) * (1 - u) * (1 - u), h10 = u * (1 - u) * (1 - u), h01 = u * u * (3 - 2 * u),
               h11 = u * u * (u - 1);
    return h00 * p0 + h10 * m0 + h01 * p1 + h11 * m1;
  }

 private:
  static constexpr Real dz_ = 1.0;
  std::vector<Real> p_;     ///< p at z = k dz_
  std::vector<Real> dpdz_;  ///< dp/dz there
};

}  // namespace squall::cases
