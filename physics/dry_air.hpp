#pragma once
/// The dry-air equation set: compressible Navier-Stokes in total-energy form with
/// geopotential (DESIGN.md section 3),
///   d(rho)/dt   + div(rho u)                = 0
///   d(rho u)/dt + div(rho u u + (p - p_r) I) = -(rho - rho_r) grad(Phi) + div(tau)
///   d(rho e)/dt + div((rho e + p) u)         = div(tau u + rho c_p kappa grad T),
/// e = e_int + |u|^2/2 + Phi, dry ideal gas, Phi = g z, and K passive tracers with
/// mixing ratios c_k (mass of tracer per mass of air):
///   d(rho c_k)/dt + div(rho c_k u)          = div(rho D grad c_k),
/// D = nu / Sc + nu_t / Sc_t (molecular and turbulent Schmidt numbers).
/// Everything that depends on which variables are prognostic lives here: their number
/// and names, the pointwise state types, cons <-> prim, the flux along a normal, the wave
/// speed, the two-point volume flux and its point type, the gradient variables and the
/// viscous flux, the derived output fields and the physical-state check. The solver
/// reads all of it from this type (dg::Equations); adding a prognostic variable is a
/// change here (the tracers are the worked example: docs/solver.md). The gas constants are plain data (GasParameters), held by value, so a
/// kernel that copies a DryAir has everything it needs and reads no global.
#include <string>
#include <type_traits>
#include <vector>

#include "core/math.hpp"
#include "core/simd.hpp"
#include "physics/constants.hpp"
#include "physics/state.hpp"

namespace squall::physics {

/// The constants of the thermodynamics, plain data passed by value into kernels, with
/// the combinations the pointwise functions use formed once (as a compile-time
/// constant would be). Make other constants with GasParameters::of.
struct GasParameters {
  Real R_d = physics::R_d;    ///< gas constant of dry air [J kg^-1 K^-1]
  Real cp_d = physics::cp_d;  ///< specific heat at constant pressure [J kg^-1 K^-1]
  Real cv_d = physics::cv_d;  ///< specific heat at constant volume, c_p - R [J kg^-1 K^-1]
  Real gamma_d = physics::gamma_d;  ///< c_p / c_v
  Real p_0 = physics::p_0;    ///< reference pressure of potential temperature [Pa]
  Real T_0 = physics::T_0;    ///< temperature of zero internal energy [K]
  Real kappa_d = physics::R_d / physics::cp_d;       ///< R_d / c_p, the exponent of the Exner function
  Real gamma_R_d = physics::gamma_d * physics::R_d;  ///< gamma R_d, for the speed of sound

  static GasParameters of(Real R, Real cp, Real p0, Real T0) {
    GasParameters g;
    g.R_d = R, g.cp_d = cp, g.cv_d = cp - R, g.gamma_d = cp / (cp - R), g.p_0 = p0, g.T_0 = T0;
    g.kappa_d = R / cp, g.gamma_R_d = g.gamma_d * R;
    return g;
  }
};

/// A unit normal along coordinate direction d (the faces of a brick): u . n = u_d.
struct AxisNormal {
  int d;
};
/// A general unit normal (curved faces).
struct VectorNormal {
  Real n[3];
};
/// Of a point, or of a pack of points (S = Pack<W>) along an axis.
template <class S>
KOKKOS_INLINE_FUNCTION S normal_component(const S u[3], AxisNormal n) { return u[n.d]; }
KOKKOS_INLINE_FUNCTION Real normal_component(const Real u[3], const VectorNormal& n) {
  return u[0] * n.n[0] + u[1] * n.n[1] + u[2] * n.n[2];
}
/// m += s n for the three momentum components m[0..2].
template <class S>
KOKKOS_INLINE_FUNCTION void add_along(S* m, const nondeduced<S>& s, AxisNormal n) { m[n.d] += s; }
KOKKOS_INLINE_FUNCTION void add_along(Real* m, Real s, const VectorNormal& n) {
  for (int i = 0; i < 3; ++i) m[i] += s * n.n[i];
}

/// Primitive variables of one point (S = Real), or of several elements' points side by
/// side (S = Pack<W>, core/simd.hpp: the host kernels that take W elements at once).
template <class S = Real>
struct BasicPrim {
  S rho;   ///< density [kg m^-3]
  S u[3];  ///< velocity [m s^-1]
  S p;     ///< pressure [Pa]
  S T;     ///< temperature [K]
};
using Prim = BasicPrim<>;

/// The number type of a point's primitive variables P: Real, or a Pack.
template <class P>
using scalar_of = std::decay_t<decltype(std::declval<const P&>().rho)>;

/// Per-point data that is not prognostic: the hydrostatic reference state subtracted
/// in the momentum equation, and the geopotential.
struct Aux {
  Real rho_ref;  ///< reference density [kg m^-3]
  Real p_ref;    ///< reference pressure [Pa]
  Real phi;      ///< geopotential g z [m^2 s^-2]
};

/// What the two-point flux needs of one point: primitives, specific total energy
/// e = rho e / rho, and the reference pressure.
struct SplitPoint {
  Real rho, u[3], p, e, p_ref;
};

/// Gradients at one point: du[i][j] = d u_i / d x_j, dT[j] = d T / d x_j, dtheta[j].
template <class S = Real>
struct BasicGradients {
  S du[3][3];
  S dT[3];
  S dtheta[3];
};
using Gradients = BasicGradients<>;

/// The same with the mixing ratios c of K passive tracers (K > 0; without tracers the
/// dry structs themselves are used, so the dry solver's code is what it was).
template <int K, class S = Real>
struct TracerPrim : BasicPrim<S> {
  S c[K];
};
template <int K>
struct TracerSplitPoint : SplitPoint {
  Real c[K];
};
template <int K, class S = Real>
struct TracerGradients : BasicGradients<S> {
  S dc[K][3];  ///< dc[k][j] = d c_k / d x_j
};

/// Name and CF metadata of an output variable (host code).
struct FieldInfo {
  std::string name;
  std::string long_name;
  std::string standard_name;  ///< CF standard name, or ""
  std::string units;
};

/// What host code (output, ledger, checkpoints, summary) needs to know of an equation
/// set's variables, with the tracers' names filled in.
struct VariableInfo {
  std::vector<FieldInfo> conservative;  ///< the state's variables, in state order
  std::vector<FieldInfo> derived;       ///< output fields (fields_*.nc, profiles.nc), in derived() order
  std::vector<int> conserved;           ///< state indices of the ledger's quantities
  std::vector<std::string> conserved_names;  ///< their names (diagnostics.csv columns)
  std::vector<std::string> budget_names;     ///< their names in the budget keys (<name>_budget_residual)
  int tracers = 0;
};

template <int K = 0>
struct DryAir {
  static_assert(K >= 0, "a tracer count");
  static constexpr int ntracers = K;
  /// The conservative variables, in state order: the dry ones, then rho c_k.
  static constexpr int ndry = 5;
  static constexpr int nvar = ndry + K;
  enum Var : int { i_rho = 0, i_rhou = 1, i_rhov = 2, i_rhow = 3, i_rhoe = 4, i_tracer = 5 };
  /// The quantities whose volume integrals the conservation ledger follows: mass, total
  /// energy and the mass of each tracer.
  static constexpr int nconserved = 2 + K;
  KOKKOS_INLINE_FUNCTION static constexpr int conserved(int c) { return c == 0 ? i_rho : c == 1 ? i_rhoe : i_tracer + c - 2; }
  /// Aux values per node: reference density and pressure, geopotential.
  static constexpr int naux = 3;
  enum AuxVar : int { a_rho_ref = 0, a_p_ref = 1, a_phi = 2 };
  /// Values of a SplitPoint, in the order of split_values / split_from.
  static constexpr int nsplit = 7 + K;
  /// Variables whose gradients BR1 lifts: u, v, w, T, theta, c_k.
  static constexpr int ngrad = 5 + K;
  /// Index of T, theta and the first tracer among the gradient variables (the velocity
  /// is 0..2).
  static constexpr int g_T = 3, g_theta = 4, g_tracer = 5;
  /// Scalars whose gradients the lifting forms beside u, T and theta (Gradients::dc):
  /// here the tracers; an equation set with more scalars (moist air's q_t) lists them
  /// first.
  static constexpr int nscalars = K, g_scalar = g_tracer;
  /// Derived output fields, in this order: then the tracers' mixing ratios.
  enum Derived : int { f_rho, f_u, f_v, f_w, f_theta, f_p, f_T, f_tracer };
  static constexpr int nderived = f_tracer + K;

  /// The pointwise types of one point (S = Real) or of a pack of elements' points
  /// (S = Pack<W>): the functions that the host kernels call on packs are templates of S.
  template <class S>
  using ConsOf = Vec<nvar, S>;
  template <class S>
  using PrimOf = std::conditional_t<K == 0, BasicPrim<S>, TracerPrim<K, S>>;
  template <class S>
  using GradientsOf = std::conditional_t<K == 0, BasicGradients<S>, TracerGradients<K, S>>;
  using Cons = ConsOf<Real>;
  using Grad = Vec<ngrad>;
  using Prim = PrimOf<Real>;
  using Aux = physics::Aux;
  using SplitPoint = std::conditional_t<K == 0, physics::SplitPoint, TracerSplitPoint<K>>;
  using Gradients = GradientsOf<Real>;

  GasParameters gas{};

  /// The equation set with gas constants `gas` (the water's constants are moist air's
  /// business: MoistAir::make).
  template <class Water>
  static DryAir make(const GasParameters& gas, const Water&) {
    return DryAir{gas};
  }

  /// The variables' names and metadata, with tracer k named tracers[k] (host code).
  static VariableInfo describe(const std::vector<std::string>& tracers) {
    VariableInfo v;
    v.tracers = K;
    v.conservative = {
        {"rho", "air density", "air_density", "kg m-3"},
        {"rhou", "x momentum density", "", "kg m-2 s-1"},
        {"rhov", "y momentum density", "", "kg m-2 s-1"},
        {"rhow", "z momentum density", "", "kg m-2 s-1"},
        {"rhoe", "total energy density (internal, kinetic and potential)", "", "J m-3"},
    };
    v.derived = {
        {"rho", "air density", "air_density", "kg m-3"},
        {"u", "velocity along x", "eastward_wind", "m s-1"},
        {"v", "velocity along y", "northward_wind", "m s-1"},
        {"w", "velocity along z", "upward_air_velocity", "m s-1"},
        {"theta", "potential temperature", "air_potential_temperature", "K"},
        {"p", "pressure", "air_pressure", "Pa"},
        {"T", "temperature", "air_temperature", "K"},
    };
    v.conserved_names = {"mass", "total_energy"};
    v.budget_names = {"mass", "energy"};
    for (int k = 0; k < K; ++k) {
      const std::string name = k < static_cast<int>(tracers.size()) ? tracers[k] : "tracer" + std::to_string(k);
      v.conservative.push_back({"rho_" + name, "density of passive tracer " + name, "", "kg m-3"});
      v.derived.push_back({name, "mixing ratio of passive tracer " + name, "", "kg kg-1"});
      v.conserved_names.push_back(name + "_mass");
      v.budget_names.push_back(name + "_mass");
    }
    for (int c = 0; c < nconserved; ++c) v.conserved.push_back(conserved(c));
    return v;
  }

  // Thermodynamics of the dry ideal gas.
  /// p = rho R_d T.
  template <class S>
  KOKKOS_INLINE_FUNCTION S pressure(const S& rho, const nondeduced<S>& T) const { return rho * gas.R_d * T; }
  /// e_int = c_v (T - T_0).
  KOKKOS_INLINE_FUNCTION Real internal_energy(Real T) const { return gas.cv_d * (T - gas.T_0); }
  /// T = T_0 + e_int / c_v.
  template <class S>
  KOKKOS_INLINE_FUNCTION S temperature(const S& e_int) const { return gas.T_0 + e_int / gas.cv_d; }
  /// c = sqrt(gamma R_d T).
  template <class S>
  KOKKOS_INLINE_FUNCTION S sound_speed(const S& T) const { return math::sqrt(gas.gamma_R_d * T); }
  /// Exner function, Pi = (p / p_0)^(R_d / c_p).
  template <class S>
  KOKKOS_INLINE_FUNCTION S exner(const S& p) const { return math::pow(p / gas.p_0, gas.kappa_d); }
  /// The operator's Pi(p) at a node of reference pressure p_ref: exner(p) itself for dry
  /// air (its bits are those of every dry reference; moist air takes a series here).
  KOKKOS_INLINE_FUNCTION Real exner_near(Real p, Real, Real) const { return exner(p); }
  /// Potential temperature, theta = T / Pi.
  KOKKOS_INLINE_FUNCTION Real potential_temperature(Real T, Real p) const { return T / exner(p); }

  /// Primitive variables from the conservative state; `phi` is the geopotential.
  /// e_int = rho e / rho - |u|^2 / 2 - Phi, T = T_0 + e_int / c_v, p = rho R_d T.
  template <class S>
  KOKKOS_INLINE_FUNCTION PrimOf<S> primitive(const ConsOf<S>& q, const nondeduced<S>& phi) const {
    PrimOf<S> w;
    w.rho = q[i_rho];
    const S inv_rho = 1 / w.rho;
    w.u[0] = q[i_rhou] * inv_rho;
    w.u[1] = q[i_rhov] * inv_rho;
    w.u[2] = q[i_rhow] * inv_rho;
    const S kinetic = 0.5 * (w.u[0] * w.u[0] + w.u[1] * w.u[1] + w.u[2] * w.u[2]);
    w.T = temperature(q[i_rhoe] * inv_rho - kinetic - phi);
    w.p = pressure(w.rho, w.T);
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) w.c[k] = q[i_tracer + k] * inv_rho;
    return w;
  }

  /// Values of the primitive state that are costly to form and that the operator keeps
  /// per node within a stage (MoistAir: the saturation adjustment's); none here.
  static constexpr int nthermo = 0;
  /// Whether the state carries total water (MoistAir), which the time loop keeps
  /// non-negative (physics/positivity.hpp).
  static constexpr bool moist = false;

  /// Conservative state from density, velocity, temperature and geopotential.
  KOKKOS_INLINE_FUNCTION Cons conservative(Real rho, Real u, Real v, Real w, Real T, Real phi) const {
    Cons q;
    q[i_rho] = rho;
    q[i_rhou] = rho * u;
    q[i_rhov] = rho * v;
    q[i_rhow] = rho * w;
    q[i_rhoe] = rho * (internal_energy(T) + 0.5 * (u * u + v * v + w * w) + phi);
    for (int k = 0; k < K; ++k) q[i_tracer + k] = 0;
    return q;
  }
  /// The same with tracer mixing ratios c[0..K).
  KOKKOS_INLINE_FUNCTION Cons conservative(Real rho, Real u, Real v, Real w, Real T, Real phi, const Real* c) const {
    Cons q = conservative(rho, u, v, w, T, phi);
    for (int k = 0; k < K; ++k) q[i_tracer + k] = rho * c[k];
    return q;
  }

  /// Flux along the unit normal n of the state q with primitives w and reference
  /// pressure p_ref: F.n = (rho u_n, rho u u_n + (p - p_ref) n, (rho e + p) u_n).
  /// Of a point, or of a pack of points (C = ConsOf<Pack<W>>) along an axis; w may be any
  /// primitive type with this set's u and p (moist air's: the flux reads nothing else).
  template <class C, class P, class Normal>
  KOKKOS_INLINE_FUNCTION C flux(const C& q, const P& w, const scalar_of<P>& p_ref, const Normal& n) const {
    C f;
    const scalar_of<P> un = normal_component(w.u, n);
    f[i_rho] = q[i_rho] * un;
    f[i_rhou] = q[i_rhou] * un;
    f[i_rhov] = q[i_rhov] * un;
    f[i_rhow] = q[i_rhow] * un;
    add_along(&f[i_rhou], w.p - p_ref, n);
    f[i_rhoe] = (q[i_rhoe] + w.p) * un;
    for (int k = 0; k < K; ++k) f[i_tracer + k] = q[i_tracer + k] * un;
    return f;
  }
  KOKKOS_INLINE_FUNCTION Cons flux(const Cons& q, const Prim& w, Real p_ref, int d) const {
    return flux(q, w, p_ref, AxisNormal{d});
  }

  /// Largest wave speed along the unit normal n, |u_n| + c (of a point, or of a pack of
  /// points along an axis).
  template <class P, class Normal>
  KOKKOS_INLINE_FUNCTION scalar_of<P> max_wave_speed(const P& w, const Normal& n) const {
    return math::abs(normal_component(w.u, n)) + sound_speed(w.T);
  }
  KOKKOS_INLINE_FUNCTION Real max_wave_speed(const Prim& w, int d) const { return max_wave_speed(w, AxisNormal{d}); }

  /// Speed |u| of the state.
  KOKKOS_INLINE_FUNCTION Real speed(const Prim& w) const {
    return math::sqrt(w.u[0] * w.u[0] + w.u[1] * w.u[1] + w.u[2] * w.u[2]);
  }

  /// True when the state is physical: finite, positive density and temperature; `w` is
  /// primitive(q, phi), already at hand in most callers.
  KOKKOS_INLINE_FUNCTION bool is_physical(const Cons& q, const Prim& w) const {
    for (int v = 0; v < nvar; ++v)
      if (!math::isfinite(q[v])) return false;
    return q[i_rho] > 0 && w.T > 0;
  }
  KOKKOS_INLINE_FUNCTION bool is_physical(const Cons& q, Real phi) const { return is_physical(q, primitive(q, phi)); }

  // Split form.
  KOKKOS_INLINE_FUNCTION SplitPoint split_point(const Cons& q, const Prim& w, Real p_ref) const {
    SplitPoint s;
    s.rho = w.rho, s.u[0] = w.u[0], s.u[1] = w.u[1], s.u[2] = w.u[2], s.p = w.p, s.e = q[i_rhoe] / w.rho;
    s.p_ref = p_ref;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) s.c[k] = w.c[k];
    return s;
  }
  /// The values of a split point, for storage: out[0..nsplit).
  KOKKOS_INLINE_FUNCTION static void split_values(const SplitPoint& s, Real* out) {
    out[0] = s.rho, out[1] = s.u[0], out[2] = s.u[1], out[3] = s.u[2], out[4] = s.p, out[5] = s.e, out[6] = s.p_ref;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) out[7 + k] = s.c[k];
  }
  /// The split point of the values v(0..nsplit) (any indexable).
  template <class Values>
  KOKKOS_INLINE_FUNCTION static SplitPoint split_from(const Values& v) {
    SplitPoint s;
    s.rho = v(0), s.u[0] = v(1), s.u[1] = v(2), s.u[2] = v(3), s.p = v(4), s.e = v(5), s.p_ref = v(6);
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) s.c[k] = v(7 + k);
    return s;
  }

  /// Kinetic-energy-preserving two-point flux of Kennedy & Gruber (2008), J. Comput.
  /// Phys. 227, 1676-1700, doi:10.1016/j.jcp.2007.09.020, in the form of Gassner, Winters
  /// & Kopriva (2016), J. Comput. Phys. 327, 39-66, eq. (4.13), with the reference
  /// pressure subtracted in the momentum flux only ({.} is the arithmetic mean):
  ///   F_rho = {rho}{u_n},  F_rhou = F_rho {u} + ({p} - {p_ref}) n,
  ///   F_rhoe = F_rho {e} + {p}{u_n},  F_rhoc = F_rho {c}
  /// (the tracers as the mass flux carries them, so a uniform mixing ratio stays uniform).
  /// Symmetric in a and b, bit for bit, and consistent: F#(q, q) = F(q).n.
  template <class Normal>
  KOKKOS_INLINE_FUNCTION Cons two_point_flux(const SplitPoint& a, const SplitPoint& b, const Normal& n) const {
    const Real rho = 0.5 * (a.rho + b.rho);
    const Real un = 0.5 * (normal_component(a.u, n) + normal_component(b.u, n));
    const Real p = 0.5 * (a.p + b.p);
    const Real mass = rho * un;
    Cons f;
    f[i_rho] = mass;
    f[i_rhou] = mass * 0.5 * (a.u[0] + b.u[0]);
    f[i_rhov] = mass * 0.5 * (a.u[1] + b.u[1]);
    f[i_rhow] = mass * 0.5 * (a.u[2] + b.u[2]);
    add_along(&f[i_rhou], p - 0.5 * (a.p_ref + b.p_ref), n);
    f[i_rhoe] = mass * 0.5 * (a.e + b.e) + p * un;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) f[i_tracer + k] = mass * 0.5 * (a.c[k] + b.c[k]);
    return f;
  }
  KOKKOS_INLINE_FUNCTION Cons two_point_flux(const SplitPoint& a, const SplitPoint& b, int d) const {
    return two_point_flux(a, b, AxisNormal{d});
  }

  // Viscous terms.
  /// The gradient variables (u, v, w, T, theta). Without `with_theta` (nothing uses grad
  /// theta: heat diffuses down grad T and no closure needs the stratification) theta is
  /// left 0, which spares a pow per node.
  KOKKOS_INLINE_FUNCTION Grad gradient_variables(const Prim& w, bool with_theta = true) const {
    return gradient_variables(w, with_theta, with_theta ? exner(w.p) : Real(1));
  }
  /// The same with Pi(p) = exner(w.p) given (the operator computes it once per node and
  /// keeps it for the viscous flux).
  KOKKOS_INLINE_FUNCTION Grad gradient_variables(const Prim& w, bool with_theta, Real exner_p) const {
    Grad g;
    g[0] = w.u[0], g[1] = w.u[1], g[2] = w.u[2], g[g_T] = w.T, g[g_theta] = with_theta ? w.T / exner_p : Real(0);
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) g[g_tracer + k] = w.c[k];
    return g;
  }

  /// Viscous stress tau_ij = rho nu (du_i/dx_j + du_j/dx_i - 2/3 delta_ij div u).
  template <class P, class G, class S>
  KOKKOS_INLINE_FUNCTION static S stress(const P& w, const G& g, const S& nu, int i, int j) {
    const S divergence = g.du[0][0] + g.du[1][1] + g.du[2][2];
    return w.rho * nu * (g.du[i][j] + g.du[j][i] - (i == j ? Real(2) / 3 * divergence : S(0)));
  }

  /// The stresses tau_id (i = 0, 1, 2) into m[0..2], and returns their work u_i tau_id
  /// (every equation set's momentum and energy share of the viscous flux).
  template <class P, class G, class S>
  KOKKOS_INLINE_FUNCTION static S stress_and_work(const P& w, const G& g, const S& nu, int d, S* m) {
    S work = 0;
    for (int i = 0; i < 3; ++i) {
      const S t = stress(w, g, nu, i, d);
      m[i] = t;
      work += w.u[i] * t;
    }
    return work;
  }

  /// The squared buoyancy frequency N^2 = (g / theta) d theta / dz at a point (z is axis
  /// 2), from the lifted gradient of theta: the stratification that Smagorinsky's
  /// Richardson number reads. exner_p = Pi(p) at the point. (`unsaturated_form` is for
  /// moist air; dry air has no cloud.)
  template <class P, class S = scalar_of<P>>
  KOKKOS_INLINE_FUNCTION S buoyancy_frequency_squared(const P& w, const nondeduced<S>& exner_p,
                                                      const GradientsOf<S>& g, Real gravity,
                                                      bool unsaturated_form = false) const {
    (void)unsaturated_form;
    const S theta = w.T / exner_p;
    return gravity / theta * g.dtheta[2];
  }

  /// Viscous flux along direction d,
  ///   F_v,d = (0, tau_1d, tau_2d, tau_3d, u_j tau_jd + rho c_p kappa dT/dx_d,
  ///            rho D dc_k/dx_d),
  /// tau from the kinematic viscosity nu, kappa the thermal diffusivity and D the tracers'
  /// diffusivity [m^2 s^-1]. With
  /// `theta_diffusion` the heat flux is rho c_p kappa Pi d theta/dx_d instead (heat
  /// diffuses down the potential-temperature gradient, as in atmospheric models, e.g.
  /// Straka et al. 1993, so a neutral atmosphere carries no heat flux); `exner_p` =
  /// Pi(p) at the point, which callers that form all three directions compute once.
  template <class P, class S = scalar_of<P>>
  KOKKOS_INLINE_FUNCTION ConsOf<S> viscous_flux(const P& w, const GradientsOf<S>& g, const nondeduced<S>& nu,
                                                const nondeduced<S>& kappa, const nondeduced<S>& D, int d,
                                                bool theta_diffusion, const nondeduced<S>& exner_p) const {
    ConsOf<S> f;
    f[i_rho] = 0;
    const S work = stress_and_work(w, g, nu, d, &f[i_rhou]);
    const S heat_gradient = theta_diffusion ? exner_p * g.dtheta[d] : g.dT[d];
    f[i_rhoe] = work + w.rho * gas.cp_d * kappa * heat_gradient;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) f[i_tracer + k] = w.rho * D * g.dc[k][d];
    return f;
  }
  KOKKOS_INLINE_FUNCTION Cons viscous_flux(const Prim& w, const Gradients& g, Real nu, Real kappa, Real D, int d,
                                           bool theta_diffusion = false) const {
    return viscous_flux(w, g, nu, kappa, D, d, theta_diffusion, theta_diffusion ? exner(w.p) : Real(1));
  }
  /// The first variable with a viscous flux (the density has none): components
  /// first_viscous .. nvar-1 of F_v are stored and exchanged.
  static constexpr int first_viscous = i_rhou;
  static constexpr int nvflux = nvar - first_viscous;

  /// The derived output fields of q (Derived order) into out[0..nderived).
  KOKKOS_INLINE_FUNCTION void derived(const Cons& q, Real phi, Real* out) const {
    const Prim w = primitive(q, phi);
    out[f_rho] = w.rho;
    out[f_u] = w.u[0];
    out[f_v] = w.u[1];
    out[f_w] = w.u[2];
    out[f_theta] = potential_temperature(w.T, w.p);
    out[f_p] = w.p;
    out[f_T] = w.T;
    if constexpr (K > 0)
      for (int k = 0; k < K; ++k) out[f_tracer + k] = w.c[k];
  }
};

}  // namespace squall::physics
