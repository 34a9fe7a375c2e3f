#pragma once
/// The moist-air equation set: the dry set of physics/dry_air.hpp with the total water
/// as one more prognostic variable, in equilibrium thermodynamics
/// (physics/moist_thermodynamics.hpp):
///   d(rho q_t)/dt + div(rho q_t u) = div(rho kappa grad q_t),
/// e = e_int(T, q) + |u|^2/2 + Phi with the e_int of the mixture, p = rho R_m T, and
/// T, q_l, q_i from (rho, e_int, q_t) by saturation adjustment wherever the primitive
/// variables are formed. Water is carried with the air (no fallout). State order:
/// rho, rho u, rho v, rho w, rho e, rho q_t, then the K passive tracers; the dry
/// variables come first, as in every equation set, so code that reads only them serves
/// both. The gradient variables are u, v, w, T, theta_li (the liquid-ice potential
/// temperature, conserved under phase changes), q_t and the tracers' mixing ratios.
/// Diffusion: water diffuses with the heat diffusivity (kappa + kappa_t), and the energy
/// flux is that of the mixture's static energy, rho c_pm kappa Pi grad theta_li (or
/// rho c_pm kappa grad T without theta diffusion), plus the enthalpy the diffusing water
/// carries relative to the dry air it replaces, (h_v - h_d) rho kappa grad q_t.
#include <string>
#include <vector>

#include "physics/moist_thermodynamics.hpp"

namespace squall::physics {

/// Primitive variables of moist air: the dry ones with the water partition; of one
/// point or of a pack of points (S = Pack<W>, as BasicPrim).
template <class S = Real>
struct BasicMoistPrim : BasicPrim<S> {
  S q_t, q_l, q_i;  ///< total water, liquid and ice [kg kg^-1]
  KOKKOS_INLINE_FUNCTION BasicPhasePartition<S> partition() const { return {q_t, q_l, q_i}; }
};
using MoistPrim = BasicMoistPrim<>;
template <int K, class S = Real>
struct MoistTracerPrim : BasicMoistPrim<S> {
  S c[K];
};

template <int K = 0>
struct MoistAir {
  static_assert(K >= 0, "a tracer count");
  static constexpr int ntracers = K;
  static constexpr int ndry = 5;
  enum Var : int { i_rho = 0, i_rhou = 1, i_rhov = 2, i_rhow = 3, i_rhoe = 4, i_rhoqt = 5, i_tracer = 6 };
  static constexpr int nvar = i_tracer + K;
  /// The ledger follows mass, total energy, total water and each tracer's mass.
  static constexpr int nconserved = 3 + K;
  KOKKOS_INLINE_FUNCTION static constexpr int conserved(int c) {
    return c == 0 ? i_rho : c == 1 ? i_rhoe : c == 2 ? i_rhoqt : i_tracer + c - 3;
  }
  static constexpr int naux = 3;
  enum AuxVar : int { a_rho_ref = 0, a_p_ref = 1, a_phi = 2 };
  static constexpr int nsplit = DryAir<1 + K>::nsplit;
  /// Gradient variables: u, v, w, T, theta_li, then the scalars q_t and the tracers.
  static constexpr int ngrad = 6 + K;
  static constexpr int g_T = 3, g_theta = 4, g_scalar = 5, g_qt = 5, g_tracer = 6;
  /// Scalars whose gradients the lifting forms beside u, T, theta: q_t and the tracers
  /// (Gradients::dc[0] is grad q_t, dc[1 + k] that of tracer k).
  static constexpr int nscalars = 1 + K;
  /// Derived output fields: the dry ones in the dry order, then the water's.
  enum Derived : int { f_rho, f_u, f_v, f_w, f_theta, f_p, f_T, f_qt, f_ql, f_qi, f_theta_li, f_theta_rho, f_rh, f_tracer };
  static constexpr int nderived = f_tracer + K;

  /// The pointwise types of one point (S = Real) or of a pack of points (S = Pack<W>).
  template <class S>
  using ConsOf = Vec<nvar, S>;
  template <class S>
  using PrimOf = std::conditional_t<K == 0, BasicMoistPrim<S>, MoistTracerPrim<K, S>>;
  template <class S>
  using GradientsOf = TracerGradients<1 + K, S>;
  using Cons = ConsOf<Real>;
  using Grad = Vec<ngrad>;
  using Prim = PrimOf<Real>;
  using Aux = physics::Aux;
  /// The dry equation set with q_t as its first scalar: the same state layout, whose
  /// inviscid flux, split points and two-point flux are moist air's (the water is carried
  /// by the mass flux like a tracer). Split point c[0] is q_t, c[1 + k] tracer k.
  using Carrier = DryAir<1 + K>;
  using SplitPoint = typename Carrier::SplitPoint;
  using Gradients = GradientsOf<Real>;

  GasParameters gas{};
  MoistThermodynamics thermo{};

  static MoistAir make(const GasParameters& gas, const WaterParameters& water) {
    MoistAir m;
    m.gas = gas;
    m.thermo.dry = gas;
    m.thermo.water = water;
    return m;
  }

  static VariableInfo describe(const std::vector<std::string>& tracers) {
    VariableInfo v = DryAir<0>::describe({});
    v.tracers = K;
    v.conservative.push_back({"rhoqt", "total water density (vapour and condensate)", "", "kg m-3"});
    v.derived.push_back({"qt", "total water specific humidity", "", "kg kg-1"});
    v.derived.push_back({"ql", "liquid water specific humidity", "mass_fraction_of_cloud_liquid_water_in_air", "kg kg-1"});
    v.derived.push_back({"qi", "ice specific humidity", "mass_fraction_of_cloud_ice_in_air", "kg kg-1"});
    v.derived.push_back({"theta_li", "liquid-ice water potential temperature", "", "K"});
    v.derived.push_back({"theta_v", "virtual (density) potential temperature, condensate loading included", "", "K"});
    v.derived.push_back({"rh", "relative humidity over the equilibrium condensate", "relative_humidity", "1"});
    v.conserved_names.push_back("total_water");
    v.budget_names.push_back("water");
    for (int k = 0; k < K; ++k) {
      const std::string name = k < static_cast<int>(tracers.size()) ? tracers[k] : "tracer" + std::to_string(k);
      v.conservative.push_back({"rho_" + name, "density of passive tracer " + name, "", "kg m-3"});
      v.derived.push_back({name, "mixing ratio of passive tracer " + name, "", "kg kg-1"});
      v.conserved_names.push_back(name + "_mass");
      v.budget_names.push_back(name + "_mass");
    }
    v.conserved.clear();
    for (int c = 0; c < nconserved; ++c) v.conserved.push_back(conserved(c));
    return v;
  }

  template <class S>
  KOKKOS_INLINE_FUNCTION S exner(const S& p) const { return thermo.exner(p); }
  /// Pi(p) from the Exner function exner_ref of the node's reference pressure p_ref
  /// (MoistThermodynamics::exner_near: the series where p is near p_ref).
  KOKKOS_INLINE_FUNCTION Real exner_near(Real p, Real p_ref, Real exner_ref) const {
    return thermo.exner_near(p, p_ref, exner_ref);
  }
  template <int W>
  Pack<W> exner_near(const Pack<W>& p, const Pack<W>& p_ref, const Pack<W>& exner_ref) const {
    return thermo.exner_near(p, p_ref, exner_ref);
  }
  template <class S>
  KOKKOS_INLINE_FUNCTION S sound_speed(const S& T, const BasicPhasePartition<S>& q) const {
    return math::sqrt(thermo.cp(q) / thermo.cv(q) * thermo.gas_constant(q) * T);
  }

  /// Primitive variables: e_int = e - |u|^2 / 2 - Phi, then T and the partition by
  /// saturation adjustment, p = rho R_m T.
  KOKKOS_INLINE_FUNCTION Prim primitive(const Cons& q, Real phi) const {
    Prim w = velocity_and_water(q);
    const Real kinetic = 0.5 * (w.u[0] * w.u[0] + w.u[1] * w.u[1] + w.u[2] * w.u[2]);
    const Equilibrium eq = thermo.saturation_adjustment(w.rho, q[i_rhoe] / w.rho - kinetic - phi, w.q_t);
    set_thermodynamics(w, eq.T, eq.q.liq, eq.q.ice);
    return w;
  }
  /// primitive(q, phi) of the W points of a pack (host kernels): the velocities, the
  /// all-vapour temperature T_1 and the test for air that is certainly unsaturated in
  /// the lanes, then point by point T_1 where the test says so, the saturation
  /// adjustment from T_1 elsewhere (MoistThermodynamics::adjust_from). Each lane's
  /// operations are primitive's, so w[l] holds its bits.
  template <int W>
  void primitives(const ConsOf<Pack<W>>& q, const Pack<W>& phi, Prim* w) const {
    using P = Pack<W>;
    PrimOf<P> v = velocity_and_water(q);
    const P kinetic = 0.5 * (v.u[0] * v.u[0] + v.u[1] * v.u[1] + v.u[2] * v.u[2]);
    const P e_int = q[i_rhoe] / v.rho - kinetic - phi;
    BasicPhasePartition<P> vapour;
    vapour.tot = v.q_t;
    const P T1 = thermo.temperature(e_int, vapour);
    const Mask<W> unsaturated = thermo.certainly_unsaturated(T1, v.rho, v.q_t);
    set_thermodynamics(v, T1, P(0), P(0));
    for (int l = 0; l < W; ++l) {
      Prim& p = w[l];
      p.rho = v.rho[l], p.u[0] = v.u[0][l], p.u[1] = v.u[1][l], p.u[2] = v.u[2][l], p.q_t = v.q_t[l];
      if constexpr (K > 0)
        for (int k = 0; k < K; ++k) p.c[k] = v.c[k][l];
      if (unsaturated[l]) {
        p.T = T1[l], p.q_l = 0, p.q_i = 0, p.p = v.p[l];
      } else {
        const Equilibrium eq = thermo.adjust_from(p.rho, e_int[l], p.q_t, T1[l]);
        set_thermodynamics(p, eq.T, eq.q.liq, eq.q.ice);
      }
    }
  }
  /// What the saturation adjustment found at a node, kept by the operator's pointwise
  /// pass so that the other phases of the same stage (faces, viscous fluxes) need not
  /// repeat it: T, q_l, q_i; without ice (water.ice false: q_i is 0 at every node) T and
  /// q_l alone, thermo_count() of them, which saves the phases a load per node.
  static constexpr int nthermo = 3;
  KOKKOS_INLINE_FUNCTION int thermo_count() const { return thermo.water.ice ? 3 : 2; }
  /// The time loop keeps rho q_t non-negative after every step with the limiter of
  /// physics/positivity.hpp, element by element, each element's water unchanged.
  static constexpr bool moist = true;
  KOKKOS_INLINE_FUNCTION static void thermo_values(const Prim& w, Real* out) { out[0] = w.T, out[1] = w.q_l, out[2] = w.q_i; }
  /// primitive(q, phi) given the thermo_values v of the same state (v(k) for k below
  /// thermo_count()): the same bits, without the adjustment. Of a point, or of a pack of
  /// points whose v(k) are packs.
  template <class S, class Values>
  KOKKOS_INLINE_FUNCTION PrimOf<S> primitive_from(const ConsOf<S>& q, const nondeduced<S>&, const Values& v) const {
    PrimOf<S> w = velocity_and_water(q);
    set_thermodynamics(w, S(v(0)), S(v(1)), thermo.water.ice ? S(v(2)) : S(0));
    return w;
  }

 private:
  /// The carrier's primitive variables: the dry ones, q_t and the tracers as its scalars.
  KOKKOS_INLINE_FUNCTION static typename Carrier::Prim carrier_prim(const Prim& w) {
    typename Carrier::Prim c;
    static_cast<physics::Prim&>(c) = w;
    c.c[0] = w.q_t;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) c.c[1 + k] = w.c[k];
    return c;
  }
  template <class S>
  KOKKOS_INLINE_FUNCTION PrimOf<S> velocity_and_water(const ConsOf<S>& q) const {
    PrimOf<S> w;
    w.rho = q[i_rho];
    const S inv_rho = 1 / w.rho;
    w.u[0] = q[i_rhou] * inv_rho;
    w.u[1] = q[i_rhov] * inv_rho;
    w.u[2] = q[i_rhow] * inv_rho;
    w.q_t = q[i_rhoqt] * inv_rho;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) w.c[k] = q[i_tracer + k] * inv_rho;
    return w;
  }
  /// T, q_l, q_i and the pressure of w, in place (a pack of points is large: no copies).
  template <class P, class S = scalar_of<P>>
  KOKKOS_INLINE_FUNCTION void set_thermodynamics(P& w, const S& T, const S& q_l, const S& q_i) const {
    w.T = T, w.q_l = q_l, w.q_i = q_i;
    w.p = w.rho * thermo.gas_constant(w.partition()) * T;
  }

 public:
  /// Conservative state of air at rest or moving with velocity (u, v, w), density rho,
  /// temperature T and total water q_t in equilibrium (the partition at T and rho).
  KOKKOS_INLINE_FUNCTION Cons conservative(Real rho, Real u, Real v, Real w, Real T, Real phi, Real q_t) const {
    const PhasePartition q = thermo.equilibrium_partition(T, rho, q_t);
    Cons s;
    s[i_rho] = rho;
    s[i_rhou] = rho * u;
    s[i_rhov] = rho * v;
    s[i_rhow] = rho * w;
    s[i_rhoe] = rho * (thermo.internal_energy(T, q) + 0.5 * (u * u + v * v + w * w) + phi);
    s[i_rhoqt] = rho * q_t;
    for (int k = 0; k < K; ++k) s[i_tracer + k] = 0;
    return s;
  }

  /// F.n: DryAir's, with rho q_t u_n carried like a tracer (of a point, or of a pack of
  /// points along an axis; DryAir::flux reads the velocity and pressure of w).
  template <class C, class P, class Normal>
  KOKKOS_INLINE_FUNCTION C flux(const C& q, const P& w, const scalar_of<P>& p_ref, const Normal& n) const {
    return Carrier{gas}.flux(q, w, p_ref, n);
  }
  KOKKOS_INLINE_FUNCTION Cons flux(const Cons& q, const Prim& w, Real p_ref, int d) const {
    return flux(q, w, p_ref, AxisNormal{d});
  }

  /// |u_n| + c with the frozen sound speed of the mixture, sqrt(c_pm / c_vm R_m T) (an
  /// upper bound of the equilibrium one).
  template <class P, class Normal>
  KOKKOS_INLINE_FUNCTION scalar_of<P> max_wave_speed(const P& w, const Normal& n) const {
    return math::abs(normal_component(w.u, n)) + sound_speed(w.T, w.partition());
  }
  KOKKOS_INLINE_FUNCTION Real max_wave_speed(const Prim& w, int d) const { return max_wave_speed(w, AxisNormal{d}); }
  KOKKOS_INLINE_FUNCTION Real speed(const Prim& w) const { return Carrier{gas}.speed(carrier_prim(w)); }

  /// Finite, positive density and temperature (negative total water, an overshoot of
  /// the polynomials, is the positivity limiter's business, not a blow-up).
  KOKKOS_INLINE_FUNCTION bool is_physical(const Cons& q, const Prim& w) const {
    return Carrier{gas}.is_physical(q, carrier_prim(w));
  }
  KOKKOS_INLINE_FUNCTION bool is_physical(const Cons& q, Real phi) const { return is_physical(q, primitive(q, phi)); }

  // Split form: Kennedy & Gruber as for dry air, the water carried by the mass flux
  // (F_rhoqt = F_rho {q_t}: a uniform q_t stays uniform).
  KOKKOS_INLINE_FUNCTION SplitPoint split_point(const Cons& q, const Prim& w, Real p_ref) const {
    return Carrier{gas}.split_point(q, carrier_prim(w), p_ref);
  }
  KOKKOS_INLINE_FUNCTION static void split_values(const SplitPoint& s, Real* out) { Carrier::split_values(s, out); }
  template <class Values>
  KOKKOS_INLINE_FUNCTION static SplitPoint split_from(const Values& v) {
    return Carrier::split_from(v);
  }
  template <class Normal>
  KOKKOS_INLINE_FUNCTION Cons two_point_flux(const SplitPoint& a, const SplitPoint& b, const Normal& n) const {
    return Carrier{gas}.two_point_flux(a, b, n);
  }
  KOKKOS_INLINE_FUNCTION Cons two_point_flux(const SplitPoint& a, const SplitPoint& b, int d) const {
    return two_point_flux(a, b, AxisNormal{d});
  }

  // Viscous terms.
  KOKKOS_INLINE_FUNCTION Grad gradient_variables(const Prim& w, bool with_theta = true) const {
    return gradient_variables(w, with_theta, with_theta ? exner(w.p) : Real(1));
  }
  KOKKOS_INLINE_FUNCTION Grad gradient_variables(const Prim& w, bool with_theta, Real exner_p) const {
    Grad g;
    g[0] = w.u[0], g[1] = w.u[1], g[2] = w.u[2], g[g_T] = w.T;
    g[g_theta] = with_theta ? thermo.liquid_ice_potential_temperature(w.T, exner_p, w.partition()) : Real(0);
    g[g_qt] = w.q_t;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) g[g_tracer + k] = w.c[k];
    return g;
  }
  /// The squared buoyancy frequency of moist air, N^2 = (g / theta_rho) d theta_rho / dz,
  /// with d theta_rho written in the gradients of the two variables a displaced parcel
  /// keeps, theta_li and q_t (the form of Cuijpers & Duynkerke 1993, J. Atmos. Sci. 50,
  /// 3894-3908, that LES codes use for the buoyancy flux; derived here for this code's
  /// theta_li and theta_rho):
  ///   d theta_rho = A d theta_li + B d q_t.
  /// Unsaturated air (no condensate): theta_li = theta, theta_rho = theta (1 + eps_v q_t),
  ///   A = 1 + eps_v q_t,  B = eps_v theta,  eps_v = R_v / R_d - 1.
  /// Saturated air, where q_v = q_v* and condensation keeps it there as T changes
  /// (Clausius-Clapeyron at constant pressure, dq_v* = gamma dT, gamma = q_v* L / (R_v T^2),
  /// L the latent heat of the node's condensate at T, and theta_li's own linear relation
  /// d theta_li = d theta - L_0 / (c_pd Pi) dq_c with L_0 its weighted L_v0, L_s0):
  ///   A = (1 - q_t + (R_v / R_d) q_v* + q_v* L / (R_d T)) / (1 + L_0 gamma / c_pd),
  ///   B = A L_0 / (c_pd Pi) - theta.
  /// In a cloud A is about a half and B is small, so a cloud layer with a stable theta_li
  /// gradient can be neutral or unstable for a saturated parcel. Whether a node is
  /// saturated is all or nothing (q_c > 0), as in most LES closures; the slope of the
  /// liquid fraction in the mixed-phase range is left out of gamma.
  /// `unsaturated_form`: the unsaturated A and B also where the node is cloudy. The
  /// closure asks for it at a cloud's edge (physics.cloud_stratification = "interior"):
  /// where the gradients come from nodes in and out of the cloud (the capping inversion
  /// of a stratocumulus deck, where q_t drops by several g/kg and theta_li jumps within
  /// one element), the saturated form reads the jump as an instability of saturated
  /// parcels, though the parcels that cross it leave or enter the cloud.
  /// On packs (S = Pack<W>) `unsaturated_form` is a Mask of the lanes, and each lane
  /// takes its form by a selection of both forms' values (the same bits as its branch).
  template <class P, class S = scalar_of<P>, class Edge = bool>
  KOKKOS_INLINE_FUNCTION S buoyancy_frequency_squared(const P& w, const nondeduced<S>& exner_p,
                                                      const GradientsOf<S>& g, Real gravity,
                                                      const Edge& unsaturated_form = false) const {
    const S theta = w.T / exner_p;
    const Real ratio = thermo.water.R_v / gas.R_d;
    const S q_c = w.q_l + w.q_i;
    const S q_v = w.q_t - q_c;
    const S theta_rho = theta * (1 - w.q_t + ratio * q_v);
    const auto saturated_form = [&](S& a, S& b) {
      const S L = (w.q_l * thermo.latent_heat_vapor(w.T) + w.q_i * thermo.latent_heat_sublim(w.T)) / q_c;
      const S L_0 = (w.q_l * thermo.water.LH_v0 + w.q_i * thermo.water.LH_s0) / q_c;
      const S gamma = q_v * L / (thermo.water.R_v * w.T * w.T);
      a = (1 - w.q_t + ratio * q_v + q_v * L / (gas.R_d * w.T)) / (1 + L_0 * gamma / gas.cp_d);
      b = a * L_0 / (gas.cp_d * exner_p) - theta;
    };
    S a = 1 + (ratio - 1) * w.q_t, b = (ratio - 1) * theta;
    if constexpr (is_pack<S>::value) {
      static_assert(!std::is_same_v<Edge, bool>, "a pack's cloud edges are a Mask");
      // The saturated form only where a lane takes it (most packs are clear air).
      const auto saturated = (q_c > 0) & !unsaturated_form;
      if (any(saturated)) {
        S a_sat, b_sat;  // NaN in the lanes without condensate, which take the other form
        saturated_form(a_sat, b_sat);
        a = select(saturated, a_sat, a);
        b = select(saturated, b_sat, b);
      }
    } else {
      if (q_c > 0 && !unsaturated_form) saturated_form(a, b);
    }
    return gravity / theta_rho * (a * g.dtheta[2] + b * g.dc[0][2]);
  }
  /// h_v - h_d at T: the enthalpy diffusing water carries relative to dry air.
  template <class S>
  KOKKOS_INLINE_FUNCTION S water_enthalpy_excess(const S& T) const {
    const Real cv_v = thermo.water.cp_v - thermo.water.R_v;
    return (cv_v - gas.cv_d) * (T - thermo.water.T_0) + thermo.e_int_v0() + (thermo.water.R_v - gas.R_d) * T;
  }
  /// Viscous flux along d: the stress and its work, the heat flux of the mixture, the
  /// water flux rho kappa dq_t/dx_d with the enthalpy it carries, the tracers' rho D dc/dx_d.
  template <class P, class S = scalar_of<P>>
  KOKKOS_INLINE_FUNCTION ConsOf<S> viscous_flux(const P& w, const GradientsOf<S>& g, const nondeduced<S>& nu,
                                                const nondeduced<S>& kappa, const nondeduced<S>& D, int d,
                                                bool theta_diffusion, const nondeduced<S>& exner_p) const {
    ConsOf<S> f;
    f[i_rho] = 0;
    const S work = DryAir<0>::stress_and_work(w, g, nu, d, &f[i_rhou]);
    const S heat_gradient = theta_diffusion ? exner_p * g.dtheta[d] : g.dT[d];
    const S water = w.rho * kappa * g.dc[0][d];
    f[i_rhoe] = work + w.rho * thermo.cp(w.partition()) * kappa * heat_gradient + water_enthalpy_excess(w.T) * water;
    f[i_rhoqt] = water;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) f[i_tracer + k] = w.rho * D * g.dc[1 + k][d];
    return f;
  }
  KOKKOS_INLINE_FUNCTION Cons viscous_flux(const Prim& w, const Gradients& g, Real nu, Real kappa, Real D, int d,
                                           bool theta_diffusion = false) const {
    return viscous_flux(w, g, nu, kappa, D, d, theta_diffusion, theta_diffusion ? exner(w.p) : Real(1));
  }
  static constexpr int first_viscous = i_rhou;
  static constexpr int nvflux = nvar - first_viscous;

  KOKKOS_INLINE_FUNCTION void derived(const Cons& q, Real phi, Real* out) const {
    const Prim w = primitive(q, phi);
    const PhasePartition part = w.partition();
    const Real pi = exner(w.p);
    out[f_rho] = w.rho;
    out[f_u] = w.u[0];
    out[f_v] = w.u[1];
    out[f_w] = w.u[2];
    out[f_theta] = w.T / pi;
    out[f_p] = w.p;
    out[f_T] = w.T;
    out[f_qt] = w.q_t;
    out[f_ql] = w.q_l;
    out[f_qi] = w.q_i;
    out[f_theta_li] = thermo.liquid_ice_potential_temperature(w.T, pi, part);
    out[f_theta_rho] = thermo.density_potential_temperature(w.T, pi, part);
    out[f_rh] = thermo.relative_humidity(w.T, w.rho, part);
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) out[f_tracer + k] = w.c[k];
  }
};

}  // namespace squall::physics
