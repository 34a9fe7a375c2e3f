#pragma once
/// rising_bubble: a dry warm bubble in a neutral atmosphere (Giraldo & Restelli 2008,
/// J. Comput. Phys. 227, 3849-3877, doi:10.1016/j.jcp.2007.12.009, case 2).
/// Background: theta_0 = 300 K, Exner Pi = 1 - g z / (c_p theta_0), p = p_0 Pi^(c_p/R_d).
/// Bubble: theta' = (theta_c / 2) (1 + cos(pi r / r_c)) for r <= r_c, theta_c = 0.5 K,
/// r_c = 250 m, centred at the middle of the domain in x, 350 m above the ground: a
/// cylinder along y when the mesh is one element thick in y (the 2D case), a sphere
/// centred in y otherwise (the 3D LES variant, cases/rising_bubble_les.toml); pressure
/// stays the background's.
#include <cmath>

#include "cases/registry.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {

inline constexpr Real theta_0 = 300.0;

struct WarmBubble {
  Real x_c, z_c, r_c, theta_c, z_ground;
  Real y_c;
  bool sphere;
  Real g;
  physics::GasParameters gas;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real x, Real y, Real z) const {
    const Real height = z - z_ground;
    const Real pi = 1 - g * height / (gas.cp_d * theta_0);
    const Real p = gas.p_0 * math::pow(pi, gas.cp_d / gas.R_d);
    const Real rho_ref = p / (gas.R_d * theta_0 * pi);
    const Real dy = sphere ? y - y_c : Real(0);
    const Real r = math::sqrt((x - x_c) * (x - x_c) + dy * dy + (z - z_c) * (z - z_c));
    const Real theta_prime = r <= r_c ? theta_c / 2 * (1 + math::cos(Real(M_PI) * r / r_c)) : Real(0);
    const Real T = (theta_0 + theta_prime) * pi;
    return {p / (gas.R_d * T), 0, 0, 0, T, rho_ref, p};
  }
};

class RisingBubble : public Case {
 public:
  explicit RisingBubble(const Config& c)
      : bubble_{(c.mesh.domain[0][0] + c.mesh.domain[0][1]) / 2, c.mesh.domain[2][0] + 350.0, 250.0,
                0.5, c.mesh.domain[2][0], (c.mesh.domain[1][0] + c.mesh.domain[1][1]) / 2,
                c.mesh.elements[1] > 1, gravity(), equations().gas} {}

  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    fill_pointwise("case::rising_bubble", equations(), x, q, aux, bubble_.g, bubble_);
  }

  /// Maximum of theta' = theta - theta_0 and the height (above ground) where it is.
  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    struct {
      double value;
      int rank;
    } local{-1e300, 0}, global{};
    MPI_Comm_rank(comm, &local.rank);
    double z_local = 0;
    const dg::Equations eq = equations();
    for (size_t e = 0; e < s.q.extent(0); ++e)
      for (size_t n = 0; n < s.q.extent(2); ++n) {
        const physics::Prim w = eq.primitive(s.state(e, n), s.aux(e, dg::Equations::a_phi, n));
        const double theta_prime = eq.potential_temperature(w.T, w.p) - theta_0;
        if (theta_prime > local.value) local.value = theta_prime, z_local = s.x(e, 2, n);
      }
    // The maximum is exact; on ties the lowest rank's point wins (MPI_MAXLOC).
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    double z = z_local;
    MPI_Bcast(&z, 1, MPI_DOUBLE, global.rank, comm);
    return {{"max_theta_prime", global.value}, {"height_of_max_theta_prime", z - bubble_.z_ground}};
  }

 protected:
  WarmBubble bubble_;
};

}  // namespace squall::cases
