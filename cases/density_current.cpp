/// density_current: Straka et al. (1993), Int. J. Numer. Methods Fluids 17, 1-22,
/// doi:10.1002/fld.1650170103. Neutral atmosphere theta_0 = 300 K; a cold bubble with
/// temperature perturbation T' = -15 K (cos(pi r) + 1) / 2 for r <= 1,
/// r = sqrt(((x - x_c)/4 km)^2 + ((z - 3 km)/2 km)^2), in hydrostatic pressure; here the
/// half domain x in [0, 25.6 km] with x_c = 0 (the wall at x = 0 is the symmetry plane),
/// z in [0, 6.4 km], free-slip walls everywhere, nu = kappa = 75 m^2/s (prandtl = 1), 900 s.
/// Diagnostics: the minimum of theta' and the front position, the largest x on the ground
/// where theta' <= -1 K (linearly interpolated between nodes), as in the paper.
#include <cmath>

#include "cases/registry.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

constexpr Real theta_0 = 300.0;

struct ColdBubble {
  Real x_c, z_c, x_r, z_r, z_ground;
  Real g;
  physics::GasParameters gas;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real x, Real, Real z) const {
    const Real pi = 1 - g * (z - z_ground) / (gas.cp_d * theta_0);
    const Real p = gas.p_0 * math::pow(pi, gas.cp_d / gas.R_d);
    const Real T_ref = theta_0 * pi;
    const Real r = math::sqrt((x - x_c) * (x - x_c) / (x_r * x_r) + (z - z_c) * (z - z_c) / (z_r * z_r));
    const Real T = T_ref + (r <= 1 ? Real(-15) * (math::cos(Real(M_PI) * r) + 1) / 2 : Real(0));
    return {p / (gas.R_d * T), 0, 0, 0, T, p / (gas.R_d * T_ref), p};
  }
};

class DensityCurrent : public Case {
 public:
  explicit DensityCurrent(const Config& c)
      : bubble_{c.mesh.domain[0][0], c.mesh.domain[2][0] + 3000.0, 4000.0, 2000.0, c.mesh.domain[2][0],
                gravity(), equations().gas} {}

  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    fill_pointwise("case::density_current", equations(), x, q, aux, bubble_.g, bubble_);
  }

  std::vector<CaseDiagnostic> diagnostics(const HostSolution& s, MPI_Comm comm) const override {
    double theta_min = 1e300, front = -1e300;
    const dg::Equations eq = equations();
    for (size_t e = 0; e < s.q.extent(0); ++e) {
      const int n1 = static_cast<int>(std::lround(math::cbrt(static_cast<double>(s.q.extent(2)))));
      std::vector<double> ground_x, ground_theta;
      for (size_t n = 0; n < s.q.extent(2); ++n) {
        const physics::Prim w = eq.primitive(s.state(e, n), s.aux(e, dg::Equations::a_phi, n));
        const double theta_prime = eq.potential_temperature(w.T, w.p) - theta_0;
        theta_min = std::min(theta_min, theta_prime);
        // ground nodes (k = 0) of the lowest elements, along x (j = 0)
        if (s.x(e, 2, n) == bubble_.z_ground && static_cast<int>(n) < n1) {
          ground_x.push_back(s.x(e, 0, n));
          ground_theta.push_back(theta_prime);
        }
      }
      for (size_t i = 0; i < ground_x.size(); ++i) {
        if (ground_theta[i] > -1) continue;
        double x = ground_x[i];
        if (i + 1 < ground_x.size() && ground_theta[i + 1] > -1)  // the contour lies between i and i+1
          x += (ground_x[i + 1] - ground_x[i]) * (-1 - ground_theta[i]) / (ground_theta[i + 1] - ground_theta[i]);
        front = std::max(front, x);
      }
    }
    double global_min = 0, global_front = 0;
    MPI_Allreduce(&theta_min, &global_min, 1, MPI_DOUBLE, MPI_MIN, comm);
    MPI_Allreduce(&front, &global_front, 1, MPI_DOUBLE, MPI_MAX, comm);
    // No front yet (nothing at or below -1 K on the ground): NaN, written as null.
    const double position = global_front > -1e299 ? global_front - bubble_.x_c : std::nan("");
    return {{"min_theta_prime", global_min}, {"front_position", position}};
  }

 private:
  ColdBubble bubble_;
};

}  // namespace

std::unique_ptr<Case> make_density_current(const Config& c) { return std::make_unique<DensityCurrent>(c); }

}  // namespace squall::cases
