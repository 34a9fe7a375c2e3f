#pragma once
/// Equilibrium thermodynamics of moist air: dry air, water vapour and condensate (liquid,
/// and ice as an option) in an ideal mixture, the specific volume of the condensate
/// neglected; the formulation of the ClimateMachine thermodynamics (Sridhar et al. 2022,
/// Geosci. Model Dev. 15, 6259-6284, sec. 2, doi:10.5194/gmd-15-6259-2022, and the
/// Thermodynamics.jl package it describes). With specific humidities q_t (total water),
/// q_l, q_i (condensate) and q_v = q_t - q_l - q_i:
///   R_m  = R_d (1 - q_t) + R_v q_v,
///   c_vm = c_vd (1 - q_t) + c_vv q_v + c_l q_l + c_i q_i,   c_pm = c_vm + R_m,
///   e_int = c_vm (T - T_0) + q_v e_v0 - q_i e_i0,            e_v0 = L_v0 - R_v T_0, e_i0 = L_f0,
///   p = rho R_m T,
/// latent heats linear in T (Kirchhoff), L_v(T) = L_v0 + (c_pv - c_l)(T - T_0) and the
/// same for sublimation, and the saturation vapour pressure over a surface of liquid
/// fraction lambda from the Clausius-Clapeyron relation integrated with that latent heat:
///   p_v*(T) = p_tr (T / T_tr)^(dc_p / R_v) exp((L_0 - dc_p T_0) / R_v (1 / T_tr - 1 / T)),
///   L_0 = lambda L_v0 + (1 - lambda) L_s0,  dc_p = lambda (c_pv - c_l) + (1 - lambda)(c_pv - c_i),
/// q_v* = p_v* / (rho R_v T). The liquid fraction is 1 above T_freeze and, with ice on,
/// falls linearly to 0 at T_icenuc. Everything is plain arithmetic and squall::math, so
/// the results have the same bits on every backend in a strict build.
#include "core/math.hpp"
#include "physics/dry_air.hpp"

namespace squall::physics {

/// The constants of water, in one place (the defaults of Thermodynamics.jl /
/// CLIMAParameters, as ClimateMachine used them). The dry-air constants are those of
/// GasParameters.
struct WaterParameters {
  Real R_v = 461.5;         ///< gas constant of water vapour [J kg^-1 K^-1]
  Real cp_v = 1859.0;       ///< specific heat of vapour at constant pressure [J kg^-1 K^-1]
  Real cp_l = 4181.0;       ///< specific heat of liquid water [J kg^-1 K^-1]
  Real cp_i = 2100.0;       ///< specific heat of ice [J kg^-1 K^-1]
  Real T_0 = 273.16;        ///< reference temperature of the internal energies [K]
  Real LH_v0 = 2.5008e6;    ///< latent heat of vaporization at T_0 [J kg^-1]
  Real LH_s0 = 2.8344e6;    ///< latent heat of sublimation at T_0 [J kg^-1]
  Real T_triple = 273.16;   ///< triple-point temperature [K]
  Real p_triple = 611.657;  ///< triple-point pressure [Pa]
  Real T_freeze = 273.15;   ///< above it all condensate is liquid [K]
  Real T_icenuc = 233.0;    ///< below it all condensate is ice (with ice) [K]
  bool ice = false;         ///< condensate may freeze (liquid fraction below T_freeze)
};

/// A partition of the total water: specific humidities [kg kg^-1]; of one point (S =
/// Real) or of several elements' points side by side (S = Pack<W>, core/simd.hpp).
template <class S = Real>
struct BasicPhasePartition {
  S tot = 0, liq = 0, ice = 0;
  KOKKOS_INLINE_FUNCTION S vap() const { return tot - liq - ice; }
};
using PhasePartition = BasicPhasePartition<>;

/// Temperature and water partition from saturation adjustment.
struct Equilibrium {
  Real T;
  PhasePartition q;
};

/// The moist thermodynamic functions of dry air `dry` and water `water` (plain data,
/// passed by value into kernels).
struct MoistThermodynamics {
  GasParameters dry{};
  WaterParameters water{};
  /// Newton iterations of the saturation adjustment: at most this many with the bounded
  /// q_v*, and at most this many with the strict one. From the unsaturated first guess,
  /// the worst states of 200-320 K with up to 20 g/kg of condensate need 10 (liquid
  /// only) or 11 (with ice) to reach round-off (tests/unit/test_moist_thermodynamics.cpp);
  /// cloudy air of the lower troposphere converges in 3-5.
  KOKKOS_INLINE_FUNCTION int adjustment_iterations() const { return water.ice ? 11 : 10; }
  /// The iteration stops after a Newton step smaller than this [K]: convergence is
  /// quadratic, so the error left is far below round-off of T. The test compares
  /// numbers that every backend computes with the same bits in a strict build
  /// (core/strict_math.hpp), so every backend stops at the same step.
  static constexpr Real adjustment_tolerance = 1e-7;

  // Mixture properties, of a point or of a pack of points (the viscous kernels' packs;
  // the PhasePartition forms take a braced partition too).
  template <class S>
  KOKKOS_INLINE_FUNCTION S gas_constant(const BasicPhasePartition<S>& q) const {
    return dry.R_d * (1 - q.tot) + water.R_v * q.vap();
  }
  template <class S>
  KOKKOS_INLINE_FUNCTION S cv(const BasicPhasePartition<S>& q) const {
    return dry.cv_d * (1 - q.tot) + (water.cp_v - water.R_v) * q.vap() + water.cp_l * q.liq + water.cp_i * q.ice;
  }
  template <class S>
  KOKKOS_INLINE_FUNCTION S cp(const BasicPhasePartition<S>& q) const { return cv(q) + gas_constant(q); }
  KOKKOS_INLINE_FUNCTION Real gas_constant(const PhasePartition& q) const { return gas_constant<Real>(q); }
  KOKKOS_INLINE_FUNCTION Real cv(const PhasePartition& q) const { return cv<Real>(q); }
  KOKKOS_INLINE_FUNCTION Real cp(const PhasePartition& q) const { return cp<Real>(q); }
  /// e_v0 = L_v0 - R_v T_0: internal energy of vapour at T_0 above liquid's.
  KOKKOS_INLINE_FUNCTION Real e_int_v0() const { return water.LH_v0 - water.R_v * water.T_0; }
  /// e_i0 = L_f0 = L_s0 - L_v0: internal energy of liquid at T_0 above ice's.
  KOKKOS_INLINE_FUNCTION Real e_int_i0() const { return water.LH_s0 - water.LH_v0; }

  /// e_int(T, q) [J kg^-1].
  KOKKOS_INLINE_FUNCTION Real internal_energy(Real T, const PhasePartition& q) const {
    return cv(q) * (T - water.T_0) + q.vap() * e_int_v0() - q.ice * e_int_i0();
  }
  /// T from e_int at a given partition (no phase change); of a point or of a pack.
  template <class S>
  KOKKOS_INLINE_FUNCTION S temperature(const S& e_int, const BasicPhasePartition<S>& q) const {
    return water.T_0 + (e_int - q.vap() * e_int_v0() + q.ice * e_int_i0()) / cv(q);
  }
  KOKKOS_INLINE_FUNCTION Real temperature(Real e_int, const PhasePartition& q) const {
    return temperature<Real>(e_int, q);
  }
  /// Latent heats at T [J kg^-1].
  template <class S>
  KOKKOS_INLINE_FUNCTION S latent_heat_vapor(const S& T) const {
    return water.LH_v0 + (water.cp_v - water.cp_l) * (T - water.T_0);
  }
  template <class S>
  KOKKOS_INLINE_FUNCTION S latent_heat_sublim(const S& T) const {
    return water.LH_s0 + (water.cp_v - water.cp_i) * (T - water.T_0);
  }

  /// The liquid fraction lambda(T) of condensate, and its derivative d lambda / dT.
  KOKKOS_INLINE_FUNCTION Real liquid_fraction(Real T) const {
    if (!water.ice || T >= water.T_freeze) return 1;
    if (T <= water.T_icenuc) return 0;
    return (T - water.T_icenuc) / (water.T_freeze - water.T_icenuc);
  }
  /// Of a pack: each lane's.
  template <int W>
  Pack<W> liquid_fraction(const Pack<W>& T) const {
    return Pack<W>::gather([&](int l) { return liquid_fraction(T[l]); });
  }
  KOKKOS_INLINE_FUNCTION Real liquid_fraction_slope(Real T) const {
    return water.ice && T > water.T_icenuc && T < water.T_freeze ? 1 / (water.T_freeze - water.T_icenuc) : Real(0);
  }

  /// Latent heat L_0 at T_0 and dc_p of a surface of liquid fraction lambda.
  template <class S>
  KOKKOS_INLINE_FUNCTION S weighted_latent_heat(const S& lambda) const {
    return lambda * water.LH_v0 + (1 - lambda) * water.LH_s0;
  }
  template <class S>
  KOKKOS_INLINE_FUNCTION S weighted_delta_cp(const S& lambda) const {
    return lambda * (water.cp_v - water.cp_l) + (1 - lambda) * (water.cp_v - water.cp_i);
  }
  /// Saturation vapour pressure p_v*(T) [Pa] over a surface of liquid fraction lambda
  /// (1: liquid, 0: ice).
  KOKKOS_INLINE_FUNCTION Real saturation_vapor_pressure(Real T, Real lambda) const {
    const Real L0 = weighted_latent_heat(lambda), dcp = weighted_delta_cp(lambda);
    return water.p_triple * math::exp(dcp / water.R_v * math::log(T / water.T_triple) +
                                      (L0 - dcp * water.T_0) / water.R_v * (1 / water.T_triple - 1 / T));
  }
  /// Saturation specific humidity q_v*(T, rho) = p_v* / (rho R_v T) at the equilibrium
  /// liquid fraction.
  KOKKOS_INLINE_FUNCTION Real q_vap_saturation(Real T, Real rho) const {
    return saturation_vapor_pressure(T, liquid_fraction(T)) / (rho * water.R_v * T);
  }
  /// q_v* over a surface of liquid fraction lambda, given p instead of rho (the
  /// definition with the pressure of the mixture: q_v* = eps p_v* / (p - (1 - eps) p_v*)
  /// for air with no condensate, eps = R_d / R_v; sounding tools use it).
  KOKKOS_INLINE_FUNCTION Real q_vap_saturation_from_pressure(Real T, Real p, Real q_t, Real lambda) const {
    const Real pv = saturation_vapor_pressure(T, lambda);
    const Real eps = dry.R_d / water.R_v;
    return eps * (1 - q_t) * pv / (p - pv);
  }

  /// ln(p_v*(T) / p_tr) over a surface of liquid fraction lambda, from
  /// math::strict::log_bounded: within 7.2e-10 + 2.3e-16 |ln(T / T_tr)| of ln(T / T_tr)
  /// times |dc_p / R_v| < 6, so within 5e-9 of the exact value for physical T.
  template <class S>
  KOKKOS_INLINE_FUNCTION S log_vapor_pressure_ratio_bounded(const S& T, const S& lambda) const {
    const S L0 = weighted_latent_heat(lambda), dcp = weighted_delta_cp(lambda);
    return dcp / water.R_v * math::strict::log_bounded(T / water.T_triple) +
           (L0 - dcp * water.T_0) / water.R_v * (1 / water.T_triple - 1 / T);
  }
  /// ln(q_t / q_v*(T, rho)) from log_bounded: with the logarithm of physics's q_v*,
  ///   ln(q_t rho R_v T / p_tr) - (dc_p / R_v) ln(T / T_tr) - (L_0 - dc_p T_0) / R_v (1 / T_tr - 1 / T),
  /// both logarithms from math::strict::log_bounded (error below 7.2e-10 + 2.3e-16 |ln|
  /// each, so below 5e-9 on the difference for |dc_p / R_v| < 6). NaN where q_t, rho or
  /// T is not positive (or q_t rho R_v T / p_tr not a normal double).
  /// Of a point or of a pack (math::strict::log_bounded lane by lane: the same bits).
  template <class S>
  KOKKOS_INLINE_FUNCTION S log_saturation_ratio_bounded(const S& T, const S& rho, const S& q_t) const {
    return math::strict::log_bounded(q_t * rho * water.R_v * T / water.p_triple) -
           log_vapor_pressure_ratio_bounded(T, liquid_fraction(T));
  }
  /// q_v*(T, rho) from log_bounded and exp_bounded: within 1e-8 (relative) of the strict
  /// q_vap_saturation, for the saturation adjustment's first Newton steps.
  KOKKOS_INLINE_FUNCTION Real q_vap_saturation_bounded(Real T, Real rho) const {
    return water.p_triple * math::strict::exp_bounded(log_vapor_pressure_ratio_bounded(T, liquid_fraction(T))) /
           (rho * water.R_v * T);
  }

  /// True when q_t < q_v*(T, rho) for certain, decided without evaluating q_v*: where
  /// log_saturation_ratio_bounded is below -unsaturated_margin. The margin of 1e-7 covers
  /// its error (5e-9) and the rounding of the strict q_v* (a few ulp of a value whose
  /// logarithm is below 30), so a true answer implies !(q_t > q_vap_saturation(T, rho)).
  /// False means "perhaps saturated": the caller evaluates q_v*. Non-positive q_t is
  /// certainly below q_v* >= 0 where T and rho are positive; an unphysical T or rho
  /// gives false.
  static constexpr Real unsaturated_margin = 1e-7;
  KOKKOS_INLINE_FUNCTION bool certainly_unsaturated(Real T, Real rho, Real q_t) const {
    if (!(q_t > 0)) return q_t <= 0 && T > 0 && rho > 0;
    return log_saturation_ratio_bounded(T, rho, q_t) < -unsaturated_margin;
  }
  /// True when q_t > q_v*(T, rho) for certain (the same bound and margin the other way):
  /// a true answer implies q_t > q_vap_saturation(T, rho).
  KOKKOS_INLINE_FUNCTION bool certainly_saturated(Real T, Real rho, Real q_t) const {
    return log_saturation_ratio_bounded(T, rho, q_t) > unsaturated_margin;
  }
  /// certainly_unsaturated of each lane of a pack (host packs), with the bounded
  /// logarithms in the lanes: the scalar answers.
  template <int W>
  Mask<W> certainly_unsaturated(const Pack<W>& T, const Pack<W>& rho, const Pack<W>& q_t) const {
    const Mask<W> below = log_saturation_ratio_bounded(T, rho, q_t) < -unsaturated_margin;
    return Mask<W>::gather([&](int l) { return q_t[l] > 0 ? below[l] : q_t[l] <= 0 && T[l] > 0 && rho[l] > 0; });
  }

  /// The partition in equilibrium at T and rho: vapour up to saturation, the rest
  /// condensate split by the liquid fraction. `allow_negative` keeps the smooth extension
  /// q_c = q_t - q_v* < 0 (the Newton iteration needs it); otherwise q_c >= 0.
  KOKKOS_INLINE_FUNCTION PhasePartition equilibrium_partition(Real T, Real rho, Real q_t,
                                                              bool allow_negative = false) const {
    return partition_at(T, q_t, q_vap_saturation(T, rho), allow_negative);
  }
  /// The same with q_v*(T, rho) = q_vs already at hand.
  KOKKOS_INLINE_FUNCTION PhasePartition partition_at(Real T, Real q_t, Real q_vs, bool allow_negative) const {
    Real q_c = q_t - q_vs;
    if (!allow_negative && !(q_c > 0)) q_c = 0;
    const Real lambda = liquid_fraction(T);
    PhasePartition q;
    q.tot = q_t, q.liq = lambda * q_c, q.ice = (1 - lambda) * q_c;
    return q;
  }

  /// The Newton step of the saturation adjustment at T, where q_v*(T, rho) = q_vs: the
  /// correction dT to subtract from T so that e_int(T, q*(T)) = e_int, and d q_v* / dT,
  /// from Clausius-Clapeyron (any derivative near the true one converges; this one takes
  /// the bounded logarithm in the freezing range).
  struct AdjustmentStep {
    Real dT, dqv_dT;
  };
  KOKKOS_INLINE_FUNCTION AdjustmentStep adjustment_step(Real T, Real q_t, Real q_vs, Real e_int) const {
    const Real cv_v = water.cp_v - water.R_v;
    const Real lambda = liquid_fraction(T), dlambda = liquid_fraction_slope(T);
    const Real q_c = q_t - q_vs;
    const PhasePartition q = partition_at(T, q_t, q_vs, true);
    const Real f = internal_energy(T, q) - e_int;
    // d q_v* / dT = q_v* (L / (R_v T^2) - 1 / T + lambda' d ln p_v* / d lambda), L at
    // the liquid fraction (the last term only in the freezing range).
    const Real L = weighted_latent_heat(lambda) + weighted_delta_cp(lambda) * (T - water.T_0);
    Real dlnp_dlambda = 0;
    if (dlambda != 0) {
      const Real ddcp = water.cp_i - water.cp_l, dL0 = water.LH_v0 - water.LH_s0;
      dlnp_dlambda = ddcp / water.R_v * math::strict::log_bounded(T / water.T_triple) +
                     (dL0 - ddcp * water.T_0) / water.R_v * (1 / water.T_triple - 1 / T);
    }
    const Real dqv = q_vs * (L / (water.R_v * T * T) - 1 / T + dlambda * dlnp_dlambda);
    const Real dql = -lambda * dqv + dlambda * q_c, dqi = -(1 - lambda) * dqv - dlambda * q_c;
    const Real dcv = cv_v * dqv + water.cp_l * dql + water.cp_i * dqi;
    const Real df = cv(q) + (T - water.T_0) * dcv + e_int_v0() * dqv - e_int_i0() * dqi;
    return {f / df, dqv};
  }

  /// Saturation adjustment: T and the partition of q_t in equilibrium with the density
  /// rho and internal energy e_int. First guess: all water as vapour (T_1); if q_t is at
  /// most q_v*(T_1, rho) that is the answer (unsaturated; exact, no iteration). Otherwise
  /// Newton steps on e_int(T, q*(T)) = e_int from T_1 (which lies below the saturated
  /// solution): first with the bounded q_v* (q_vap_saturation_bounded: basic operations,
  /// far cheaper than the strict one) until a step is below adjustment_coarse_tolerance,
  /// then with the strict q_v* until a step is below adjustment_tolerance (each at most
  /// adjustment_iterations()). The first strict step is then about 1e-8 K, and after the
  /// last one q_v* at the new T is the strict value at the old one plus the step times
  /// d q_v* / dT (the remainder, (step / 15 K)^2 / 2 relative, is below 1e-16), so most
  /// cloudy nodes evaluate the strict q_v* once. The branches depend only on values that
  /// a strict build computes with the same bits everywhere, so every backend takes the
  /// same steps and returns the same bits.
  static constexpr Real adjustment_coarse_tolerance = 1e-3;
  KOKKOS_FORCEINLINE_FUNCTION Equilibrium saturation_adjustment(Real rho, Real e_int, Real q_t) const {
    PhasePartition vapour;
    vapour.tot = q_t;
    const Real T1 = temperature(e_int, vapour);
    // Most air is clearly unsaturated, and its answer does not depend on q_v*: decide
    // that with the cheap bounded logarithm first (in the caller's code), and evaluate
    // q_v* strictly only when the margin is too small to tell either way (the same
    // answer, so the same bits).
    if (certainly_unsaturated(T1, rho, q_t)) return {T1, vapour};
    return adjust_from(rho, e_int, q_t, T1);
  }
  /// The rest of saturation_adjustment, from the all-vapour temperature T1 of air that
  /// the cheap test could not call unsaturated.
  KOKKOS_INLINE_FUNCTION Equilibrium adjust_from(Real rho, Real e_int, Real q_t, Real T1) const {
    PhasePartition vapour;
    vapour.tot = q_t;
    if (!certainly_saturated(T1, rho, q_t) && !(q_t > q_vap_saturation(T1, rho))) return {T1, vapour};
    const int iterations = adjustment_iterations();
    Real T = T1;
    for (int it = 0; it < iterations; ++it) {
      const Real step = adjustment_step(T, q_t, q_vap_saturation_bounded(T, rho), e_int).dT;
      // A bounded q_v* that is not finite (an unphysical state) leaves the strict steps
      // to start from T_1.
      if (!(math::abs(step) < 1e3)) {
        T = T1;
        break;
      }
      T -= step;
      if (math::abs(step) < adjustment_coarse_tolerance) break;
    }
    // q_v* at the current T: one strict evaluation per Newton step, reused by the next
    // step (and, after the last, moved along the tangent to the result's T).
    Real q_vs = q_vap_saturation(T, rho);
    for (int it = 0; it < iterations; ++it) {
      const AdjustmentStep step = adjustment_step(T, q_t, q_vs, e_int);
      T -= step.dT;
      if (math::abs(step.dT) < adjustment_tolerance) {
        q_vs -= step.dqv_dT * step.dT;
        break;
      }
      q_vs = q_vap_saturation(T, rho);
    }
    return {T, partition_at(T, q_t, q_vs, false)};
  }

  // Potential temperatures. Pi is the dry Exner function (p / p_0)^(R_d / c_pd), as in
  // Bryan & Fritsch (2002) and the intercomparisons' definitions.
  template <class S>
  KOKKOS_INLINE_FUNCTION S exner(const S& p) const { return math::pow(p / dry.p_0, dry.kappa_d); }
  /// Pi(p) near a pressure p_ref whose Exner function exner_ref = Pi(p_ref) is known (a
  /// node's reference state): Pi(p) = Pi(p_ref) (1 + x)^kappa, x = (p - p_ref) / p_ref,
  /// by the binomial series to x^7 for |x| <= 2^-7 (the first term left out is below
  /// |C(kappa, 8)| 2^-56 < 3e-19), about a tenth of the cost of the strict pow; farther
  /// from p_ref (or with no reference pressure) exner(p). Within 3 ulp of exner(p).
  KOKKOS_INLINE_FUNCTION Real exner_near(Real p, Real p_ref, Real exner_ref) const {
    const Real x = (p - p_ref) / p_ref;
    if (!(math::abs(x) <= 0.0078125)) return exner(p);
    return exner_series(x, exner_ref);
  }
  /// Of a pack (host packs): the series in the lanes, exner(p) in a lane farther from its
  /// p_ref; each lane's bits are the scalar form's.
  template <int W>
  Pack<W> exner_near(const Pack<W>& p, const Pack<W>& p_ref, const Pack<W>& exner_ref) const {
    const Pack<W> x = (p - p_ref) / p_ref;
    const Pack<W> t = exner_series(x, exner_ref);
    return Pack<W>::gather([&](int l) { return math::abs(x[l]) <= 0.0078125 ? t[l] : exner(p[l]); });
  }
  /// exner_near's series at x = (p - p_ref) / p_ref:
  /// Pi(p_ref) (1 + k x (1 + (k - 1) x / 2 (1 + (k - 2) x / 3 (... (1 + (k - 6) x / 7))))).
  template <class S>
  KOKKOS_INLINE_FUNCTION S exner_series(const S& x, const S& exner_ref) const {
    const Real k = dry.kappa_d;
    S t = 1 + (k - 6) * x * (1.0 / 7.0);
    t = 1 + (k - 5) * x * (1.0 / 6.0) * t;
    t = 1 + (k - 4) * x * (1.0 / 5.0) * t;
    t = 1 + (k - 3) * x * (1.0 / 4.0) * t;
    t = 1 + (k - 2) * x * (1.0 / 3.0) * t;
    t = 1 + (k - 1) * x * 0.5 * t;
    t = 1 + k * x * t;
    return exner_ref * t;
  }
  /// Liquid-ice potential temperature, theta_li = (T / Pi) (1 - (L_v0 q_l + L_s0 q_i) / (c_pd T))
  /// (the linearised form of Betts 1973 that BOMEX and DYCOMS specify their soundings in).
  /// Without condensate T / Pi alone: the factor is then exactly 1 wherever T != 0, so
  /// the bits are the same, and most nodes of a cloud case skip a division.
  KOKKOS_INLINE_FUNCTION Real liquid_ice_potential_temperature(Real T, Real exner_p, const PhasePartition& q) const {
    const Real latent = water.LH_v0 * q.liq + water.LH_s0 * q.ice;
    if (latent == 0 && T != 0) return T / exner_p;
    return T / exner_p * (1 - latent / (dry.cp_d * T));
  }
  /// Density potential temperature theta_rho = (R_m / R_d) T / Pi, the virtual potential
  /// temperature with condensate loading, theta (1 + (R_v / R_d - 1) q_v - q_l - q_i)
  /// (Emanuel 1994, eq. 4.3.6; what Bryan & Fritsch compare).
  KOKKOS_INLINE_FUNCTION Real density_potential_temperature(Real T, Real exner_p, const PhasePartition& q) const {
    return gas_constant(q) / dry.R_d * T / exner_p;
  }
  /// Relative humidity over the equilibrium surface, p_v / p_v*(T) (may exceed 1 only by
  /// round-off in equilibrium).
  KOKKOS_INLINE_FUNCTION Real relative_humidity(Real T, Real rho, const PhasePartition& q) const {
    return rho * water.R_v * T * q.vap() / saturation_vapor_pressure(T, liquid_fraction(T));
  }
};

}  // namespace squall::physics
