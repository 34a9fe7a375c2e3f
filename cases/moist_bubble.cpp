/// moist_bubble and dry_bubble: the benchmark of Bryan & Fritsch (2002), Mon. Wea. Rev.
/// 130, 2917-2928, doi:10.1175/1520-0493(2002)130<2917:ABSFMN>2.0.CO;2, a warm bubble in a
/// neutral atmosphere, moist and dry. Domain 20 km x 10 km (a 2D slice: one element in
/// y, periodic), free-slip walls, 1000 s, no diffusion, reversible condensation, no
/// fallout. Perturbation theta' = 2 K cos^2(pi L / 2) for L <= 1,
/// L = sqrt(((x - x_c) / 2 km)^2 + ((z - 2 km) / 2 km)^2), x_c the domain's centre,
/// at the background's pressure (case.amplitude: 2 K; 0 leaves the background alone,
/// which must stay at rest).
///  - dry_bubble: theta = 300 K + theta' in a hydrostatic neutral atmosphere,
///    Pi = 1 - g z / (c_p 300 K), p(0) = 1000 hPa.
///  - moist_bubble: saturated, constant total-water mixing ratio r_t = 0.020 and
///    constant equivalent potential temperature theta_e = 320 K, p(0) = 1000 hPa, with
///    the reversible theta_e of the paper (its eq. for theta_e with c_pd + c_l r_t),
///      theta_e = T (p_d / p_0)^(-R_d / (c_pd + c_l r_t)) exp(L_v(T) r_v / ((c_pd + c_l r_t) T)),
///    which, with the Clausius-Clapeyron saturation and the linear L_v(T) of
///    physics/moist_thermodynamics.hpp, is constant along a reversible moist adiabat of
///    Squall's own thermodynamics: the background is exactly moist-neutral. The bubble
///    perturbs the density potential temperature, theta_rho = theta_rho_bar (1 + theta' / 300 K),
///    keeps r_t = 0.020 and stays saturated (the vapour takes its saturation value at the
///    new temperature), as the paper does. The constants are Squall's (GasParameters,
///    WaterParameters), not the paper's (c_pd = 1005.7, c_pv = 1870, c_l = 4190 in CM1);
///    dry and moist runs use the same dry constants, which is what the comparison needs.
/// The hydrostatic background is integrated on the host (cases/sounding.hpp: RK4 in z,
/// 1 m steps, cubic Hermite interpolation between them), and the state of every node that the bubble
/// does not touch is its own reference state, so the rest of the atmosphere is an exact
/// discrete equilibrium.
/// Diagnostics (both): the maximum of theta_rho' = theta_rho - theta_rho_bar (theta' for
/// dry air) and its height, the bubble's top (the highest node with theta_rho' >= 0.2 K,
/// a tenth of the initial amplitude), the extremes of w, and (moist) the maximum of q_l.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "cases/rising_bubble.hpp"
#include "cases/sounding.hpp"
#include "core/error.hpp"
#include "physics/moist_air.hpp"

namespace squall::cases {
namespace {

using Moist = physics::MoistAir<0>;
constexpr Real default_amplitude = 2.0;  ///< theta' at the centre [K] (case.amplitude)
constexpr Real bubble_radius = 2000.0;  ///< [m], in x and z
constexpr Real bubble_height = 2000.0;  ///< centre above ground [m]
constexpr Real top_threshold = 0.2;     ///< theta_rho' defining the bubble's top [K]

/// theta' of the bubble of amplitude A at (x, z) (z above ground).
Real perturbation(Real A, Real x, Real z, Real x_c) {
  const Real lx = (x - x_c) / bubble_radius, lz = (z - bubble_height) / bubble_radius;
  const Real L = math::sqrt(lx * lx + lz * lz);
  if (L > 1) return 0;
  const Real c = math::cos(Real(M_PI) * L / 2);
  return A * c * c;
}

/// The passive tracers of a moist bubble run (physics.tracers) mark the bubble's air:
/// each starts as the shape of the perturbation, cos^2(pi L / 2) inside the bubble (1 at
/// its centre) and 0 outside.
struct BubbleAir {
  Real x_c, z_ground;
  KOKKOS_INLINE_FUNCTION Real operator()(int, Real x, Real, Real z) const {
    const Real lx = (x - x_c) / bubble_radius, lz = (z - z_ground - bubble_height) / bubble_radius;
    const Real L = math::sqrt(lx * lx + lz * lz);
    if (L > 1) return 0;
    const Real c = math::cos(Real(M_PI) * L / 2);
    return c * c;
  }
};

/// case.amplitude, checked: a finite number of at most 10 K in magnitude.
Real amplitude(const Config& c) {
  const auto it = c.case_.numbers.find("amplitude");
  const Real A = it == c.case_.numbers.end() ? default_amplitude : it->second;
  if (!(std::abs(A) <= 10)) {
    char value[32];
    std::snprintf(value, sizeof value, "%g", A);
    throw InputError(c.source + ": 'case.amplitude' = " + value + ": expected a finite number of K in [-10, 10]");
  }
  return A;
}

/// The saturated moist-neutral background of Bryan & Fritsch, host code.
class MoistNeutralSounding {
 public:
  MoistNeutralSounding(const physics::MoistThermodynamics& t, Real theta_e, Real r_t, Real p_surface, Real g, Real height)
      : t_(t),
        theta_e_(theta_e),
        r_t_(r_t),
        pressure_([this](Real, Real p) { return density(temperature(p), p); }, p_surface, g, height) {}
  Real q_t() const { return r_t_ / (1 + r_t_); }
  /// Pressure at height z above ground.
  Real pressure(Real z) const { return pressure_.pressure(z); }
  /// The saturated temperature with theta_e = theta_e_ at pressure p.
  Real temperature(Real p) const {
    return bisect_temperature([&](Real T) { return theta_e(T, p) - theta_e_; });
  }
  /// The saturated temperature with density potential temperature theta_rho at p.
  Real temperature_with_theta_rho(Real p, Real theta_rho) const {
    return bisect_temperature([&](Real T) { return density_potential_temperature(T, p) - theta_rho; });
  }
  /// Saturation vapour mixing ratio r_vs = eps e_s / (p - e_s) over liquid.
  Real r_vs(Real T, Real p) const { return r_vs_of(t_.saturation_vapor_pressure(T, 1), p); }
  /// The same from the vapour pressure e = e_s(T) at hand.
  Real r_vs_of(Real e, Real p) const { return t_.dry.R_d / t_.water.R_v * e / (p - e); }
  /// Density of saturated air with r_t at T and p.
  Real density(Real T, Real p) const { return p / (gas_constant(T, p) * T); }
  Real density_potential_temperature(Real T, Real p) const {
    return gas_constant(T, p) / t_.dry.R_d * T / t_.exner(p);
  }

 private:
  Real gas_constant(Real T, Real p) const {
    const Real r_v = std::min(r_vs(T, p), r_t_);
    return (t_.dry.R_d + t_.water.R_v * r_v) / (1 + r_t_);  // R_d (1 - q_t) + R_v q_v
  }
  Real theta_e(Real T, Real p) const {
    const Real e = t_.saturation_vapor_pressure(T, 1);
    const Real r_v = r_vs_of(e, p);
    const Real cp = t_.dry.cp_d + t_.water.cp_l * r_t_;
    return T * math::pow((p - e) / t_.dry.p_0, -t_.dry.R_d / cp) * math::exp(t_.latent_heat_vapor(T) * r_v / (cp * T));
  }

  physics::MoistThermodynamics t_;
  Real theta_e_, r_t_;
  HydrostaticSounding pressure_;
};

/// theta_rho - theta_rho_bar (theta' of dry air) of a state with pressure p and density
/// rho, the background from the reference state: theta_rho = p / (rho R_d Pi(p)).
Real theta_rho_prime(const physics::GasParameters& gas, Real p, Real rho, Real p_ref, Real rho_ref) {
  const auto theta_rho = [&](Real pp, Real r) { return pp / (r * gas.R_d * math::pow(pp / gas.p_0, gas.kappa_d)); };
  return theta_rho(p, rho) - theta_rho(p_ref, rho_ref);
}

/// Pressure and liquid water of a node.
struct NodeThermo {
  Real p, q_l;
};

/// The diagnostics of both bubbles from each node's pressure and liquid water
/// (thermo(e, n)) and the host solution (collective).
template <class Thermo>
std::vector<CaseDiagnostic> bubble_diagnostics(const physics::GasParameters& gas, const HostSolution& s, Real z_ground,
                                               const Thermo& thermo, bool moist, MPI_Comm comm) {
  struct {
    double value;
    int rank;
  } local{-1e300, 0}, global{};
  MPI_Comm_rank(comm, &local.rank);
  double z_of_max = 0, top = 0, w_max = -1e300, w_min = 1e300, ql_max = 0;
  for (size_t e = 0; e < s.q.extent(0); ++e)
    for (size_t n = 0; n < s.q.extent(2); ++n) {
      const Real rho = s.q(e, dg::Equations::i_rho, n);
      const NodeThermo node = thermo(e, n);
      const Real prime = theta_rho_prime(gas, node.p, rho, s.aux(e, dg::Equations::a_p_ref, n),
                                         s.aux(e, dg::Equations::a_rho_ref, n));
      const double z = s.x(e, 2, n) - z_ground;
      if (prime > local.value) local.value = prime, z_of_max = z;
      if (prime >= top_threshold) top = std::max(top, z);
      const double w = s.q(e, dg::Equations::i_rhow, n) / rho;
      w_max = std::max(w_max, w), w_min = std::min(w_min, w);
      ql_max = std::max(ql_max, static_cast<double>(node.q_l));
    }
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
  MPI_Bcast(&z_of_max, 1, MPI_DOUBLE, global.rank, comm);  // on ties the lowest rank's point
  double maxima[4] = {top, w_max, -w_min, ql_max}, out[4];
  MPI_Allreduce(maxima, out, 4, MPI_DOUBLE, MPI_MAX, comm);
  std::vector<CaseDiagnostic> d{{"max_theta_rho_prime", global.value},
                                {"height_of_max_theta_rho_prime", z_of_max},
                                {"bubble_top_height", out[0]},
                                {"max_w", out[1]},
                                {"min_w", -out[2]}};
  if (moist) d.push_back({"max_ql", out[3]});
  return d;
}

class DryBubble : public RisingBubble {
 public:
  explicit DryBubble(const Config& c) : RisingBubble(c) {
    const Real A = amplitude(c);
    bubble_.x_c = (c.mesh.domain[0][0] + c.mesh.domain[0][1]) / 2;
    bubble_.z_c = c.mesh.domain[2][0] + bubble_height;
    bubble_.r_c = bubble_radius;
    bubble_.theta_c = A;  // (theta_c / 2)(1 + cos(pi r / r_c)) = theta_c cos^2(pi L / 2)
    bubble_.sphere = false;
  }
  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    const dg::Equations eq = equations();
    const auto thermo = [&](size_t e, size_t n) {
      return NodeThermo{eq.primitive(s.state(e, n), s.aux(e, dg::Equations::a_phi, n)).p, 0};
    };
    return bubble_diagnostics(eq.gas, s, bubble_.z_ground, thermo, false, comm);
  }
};

class MoistBubble : public Case {
 public:
  explicit MoistBubble(const Config& c)
      : amplitude_(amplitude(c)),
        x_c_((c.mesh.domain[0][0] + c.mesh.domain[0][1]) / 2),
        z_ground_(c.mesh.domain[2][0]),
        height_(c.mesh.domain[2][1] - c.mesh.domain[2][0]) {}

  bool moist() const override { return true; }

  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    const Moist eq = Moist::make(equations().gas, water());
    const MoistNeutralSounding sounding(eq.thermo, 320.0, 0.020, 1e5, gravity(), height_);
    auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
    auto qh = Kokkos::create_mirror_view(q);
    auto ah = Kokkos::create_mirror_view(aux);
    const Real q_t = sounding.q_t();
    for (size_t e = 0; e < q.extent(0); ++e)
      for (size_t n = 0; n < q.extent(2); ++n) {
        const Real z = xh(e, 2, n) - z_ground_, phi = gravity() * xh(e, 2, n);
        const Real p = sounding.pressure(z), T = sounding.temperature(p);
        const Moist::Cons background = eq.conservative(sounding.density(T, p), 0, 0, 0, T, phi, q_t);
        Moist::Cons s = background;
        if (const Real prime = perturbation(amplitude_, xh(e, 0, n), z, x_c_); prime != 0) {
          const Real theta_rho = sounding.density_potential_temperature(T, p) * (1 + prime / 300);
          const Real Tb = sounding.temperature_with_theta_rho(p, theta_rho);
          s = eq.conservative(sounding.density(Tb, p), 0, 0, 0, Tb, phi, q_t);
        }
        // The reference is the background's own discrete state: where the bubble is
        // not, the air is in exact discrete equilibrium.
        store_node(eq, qh, ah, e, n, s, background, phi);
      }
    Kokkos::deep_copy(q, qh);
    Kokkos::deep_copy(aux, ah);
  }

  void initialize_tracers(const dg::CoordView& x, const dg::StateView& q, int first, int tracers) const override {
    fill_tracers("case::moist_bubble_tracers", x, q, first, tracers, BubbleAir{x_c_, z_ground_});
  }

  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    const Moist eq = Moist::make(equations().gas, water());
    const auto thermo = [&](size_t e, size_t n) {
      Moist::Cons c;
      for (int v = 0; v < Moist::nvar; ++v) c[v] = s.q(e, v, n);
      const physics::MoistPrim w = eq.primitive(c, s.aux(e, Moist::a_phi, n));
      return NodeThermo{w.p, w.q_l};
    };
    return bubble_diagnostics(eq.gas, s, z_ground_, thermo, true, comm);
  }

 private:
  Real amplitude_, x_c_, z_ground_, height_;
};

}  // namespace

std::unique_ptr<Case> make_dry_bubble(const Config& c) { return std::make_unique<DryBubble>(c); }
std::unique_ptr<Case> make_moist_bubble(const Config& c) { return std::make_unique<MoistBubble>(c); }

}  // namespace squall::cases
