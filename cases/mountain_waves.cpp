/// Mountain waves: a uniform wind U over terrain (the [terrain] section) in a stably
/// stratified atmosphere, the linear tests of terrain-following models.
///   agnesi_hydrostatic: an isothermal atmosphere (T = 250 K, N = g / sqrt(c_p T)), U =
///     20 m/s over a Witch of Agnesi hill h_0 = 1 m, a = 10 km: linear hydrostatic waves
///     (Giraldo & Restelli 2008, J. Comput. Phys. 227, 3849, section 5.4).
///   schar_mountain: constant buoyancy frequency N = 0.01 1/s (theta = theta_0 exp(N^2 z /
///     g)), U = 10 m/s over Schär's mountain h_0 = 250 m, a = 5 km, lambda = 4 km:
///     non-hydrostatic waves with an evanescent small-scale part (Schär et al. 2002, Mon.
///     Wea. Rev. 130, 2459, section 5b).
/// Background pressure and density are hydrostatic in the continuous sense; the case
/// makes the discrete state its own reference state (reference_from_state), so that the
/// same atmosphere at rest would be an exact discrete equilibrium. The wind starts
/// impulsively, everywhere at once. Waves leave through the sponges of [physics]
/// (sponge_height, sponge_side_widths), which relax to the same wind: the case refuses a
/// sponge_velocity other than (U, 0, 0). scripts/validate_mountain_waves.py compares the
/// fields with the linear theory of scripts/mountain_wave_theory.py.
/// Diagnostics: max_w, the largest |w| [m/s] (also a diagnostics.csv column), which linear
/// theory bounds by a few U h_0 / a: a scheme whose grid-scale modes grow shows there
/// first.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cases/registry.hpp"
#include "core/error.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

/// Isothermal (N2 == 0 selects it) or constant-N background at height z - bottom, with the
/// uniform wind U.
struct StratifiedWind {
  Real U, T_iso, theta_0, N2, bottom, g;
  physics::GasParameters gas;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real, Real, Real z) const {
    const Real height = z - bottom;
    Real T, p;
    if (N2 == 0) {
      T = T_iso;
      p = gas.p_0 * math::exp(-g * height / (gas.R_d * T_iso));
    } else {  // Exner function of theta = theta_0 exp(N^2 z / g) in hydrostatic balance
      const Real pi = 1 + g * g / (gas.cp_d * theta_0 * N2) * (math::exp(-N2 * height / g) - 1);
      T = theta_0 * math::exp(N2 * height / g) * pi;
      p = gas.p_0 * math::pow(pi, gas.cp_d / gas.R_d);
    }
    const Real rho = p / (gas.R_d * T);
    return {rho, U, 0, 0, T, rho, p};
  }
};

class MountainWaves : public Case {
 public:
  MountainWaves(const Config& c, bool isothermal) : bottom_(c.mesh.domain[2][0]) {
    wind_ = case_number(c, "wind", isothermal ? 20.0 : 10.0, -100, 100, "a number of m/s in [-100, 100]");
    if (isothermal) {
      temperature_ = case_number(c, "temperature", 250.0, 150, 350, "a number of K in [150, 350]");
    } else {
      const Real N = case_number(c, "buoyancy_frequency", 0.01, 1e-4, 0.05, "a number of 1/s in [0.0001, 0.05]");
      n2_ = N * N;
      theta_0_ = case_number(c, "surface_theta", 280.0, 200, 350, "a number of K in [200, 350]");
      // The Exner function of a constant-N atmosphere reaches 0 at a finite height.
      const Real g = physics::grav, top = c.mesh.domain[2][1] - bottom_;
      const Real pi_top = 1 + g * g / (physics::cp_d * theta_0_ * n2_) * (math::exp(-n2_ * top / g) - 1);
      if (!(pi_top > 0.05))
        throw InputError(c.source + ": 'mesh.domain': expected a top below the height where the constant-N "
                                    "atmosphere's pressure vanishes (case.buoyancy_frequency, case.surface_theta)");
    }
    const PhysicsConfig& p = c.physics;
    const bool sponge = (p.sponge_height > 0 || p.sponge_side_widths[0] > 0 || p.sponge_side_widths[1] > 0) &&
                        p.sponge_strength > 0;
    if (sponge && (p.sponge_velocity[0] != wind_ || p.sponge_velocity[1] != 0 || p.sponge_velocity[2] != 0)) {
      char expected[96];
      std::snprintf(expected, sizeof expected, "[%g, 0.0, 0.0], the wind of case.wind", wind_);
      throw InputError(c.source + ": 'physics.sponge_velocity': expected " + expected +
                       ": the sponges must relax to the wind the waves ride on");
    }
  }
  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    const dg::Equations eq = equations();
    fill_pointwise("case::mountain_waves", eq, x, q, aux, gravity(),
                   StratifiedWind{wind_, temperature_, theta_0_, n2_, bottom_, gravity(), eq.gas});
    reference_from_state(eq, q, aux);
  }
  std::vector<std::string> time_series_columns() const override { return {"max_w"}; }
  std::vector<double> time_series(const HostSolution& s, MPI_Comm comm) const override { return {max_w(s, comm)}; }
  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    return {{"max_w", max_w(s, comm)}};
  }

 private:
  static double max_w(const HostSolution& s, MPI_Comm comm) {
    double local = 0;
    for (size_t e = 0; e < s.q.extent(0); ++e)
      for (size_t n = 0; n < s.q.extent(2); ++n)
        local = std::max(local, std::abs(s.q(e, dg::Equations::i_rhow, n) / s.q(e, dg::Equations::i_rho, n)));
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
    return global;
  }

  Real bottom_;
  Real wind_ = 0;
  Real temperature_ = 0;
  Real theta_0_ = 0;
  Real n2_ = 0;
};

}  // namespace

std::unique_ptr<Case> make_agnesi_hydrostatic(const Config& c) { return std::make_unique<MountainWaves>(c, true); }
std::unique_ptr<Case> make_schar_mountain(const Config& c) { return std::make_unique<MountainWaves>(c, false); }

}  // namespace squall::cases
