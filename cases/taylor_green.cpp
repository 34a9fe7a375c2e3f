/// taylor_green: the Taylor-Green vortex at Re = 1600 and Ma = 0.1 in the periodic box
/// [-pi L, pi L]^3, no gravity (the standard DNS benchmark; DeBonis 2013, AIAA 2013-0382;
/// reference dissipation of Brachet et al. 1983, J. Fluid Mech. 130, 411-452):
///   u = V0 sin(x/L) cos(y/L) cos(z/L),  v = -V0 cos(x/L) sin(y/L) cos(z/L),  w = 0,
///   p = p0 + rho0 V0^2 / 16 (cos(2x/L) + cos(2y/L)) (cos(2z/L) + 2),  T = T0,
/// with T0 = 300 K, p0 = 1e5 Pa, V0 = 0.1 c0, L from the domain; Re = V0 L / nu sets
/// physics.viscosity in cases/taylor_green.toml (nu = V0 L / 1600). diagnostics.csv gets
/// the volume-averaged kinetic energy E_k = <rho |u|^2 / 2> / rho0, its dissipation
/// rate -dE_k/dt (between outputs) and the enstrophy <rho |omega|^2 / 2> / rho0.
#include <cmath>
#include <limits>

#include "cases/registry.hpp"
#include "core/reproducible_sum.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

constexpr Real T0 = 300.0;

struct TaylorGreen {
  Real L, V0, rho0;
  physics::GasParameters gas;
  KOKKOS_INLINE_FUNCTION PointState operator()(Real x, Real y, Real z) const {
    const Real X = x / L, Y = y / L, Z = z / L;
    const Real p = gas.p_0 + rho0 * V0 * V0 / 16 * (math::cos(2 * X) + math::cos(2 * Y)) * (math::cos(2 * Z) + 2);
    return {p / (gas.R_d * T0), V0 * math::sin(X) * math::cos(Y) * math::cos(Z),
            -V0 * math::cos(X) * math::sin(Y) * math::cos(Z), 0, T0, 0, 0};
  }
};

class TaylorGreenCase : public Case {
 public:
  explicit TaylorGreenCase(const Config& c) {
    tg_.gas = equations().gas;
    tg_.L = (c.mesh.domain[0][1] - c.mesh.domain[0][0]) / (2 * M_PI);
    tg_.V0 = 0.1 * std::sqrt(tg_.gas.gamma_d * tg_.gas.R_d * T0);
    tg_.rho0 = tg_.gas.p_0 / (tg_.gas.R_d * T0);
  }
  Real gravity() const override { return 0; }
  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    fill_pointwise("case::taylor_green", equations(), x, q, aux, 0, tg_);
  }
  std::vector<std::string> time_series_columns() const override {
    return {"kinetic_energy", "dissipation_rate", "enstrophy"};
  }
  std::vector<double> time_series(const HostSolution& s, MPI_Comm comm) const override {
    const int n1 = static_cast<int>(s.lgl_weights.size());
    const int nodes = n1 * n1 * n1;
    std::vector<ExactSum> sums(2);
    std::vector<double> u(3 * nodes);
    for (size_t e = 0; e < s.q.extent(0); ++e) {
      const double jacobian = s.jacobian(e);
      for (int n = 0; n < nodes; ++n)
        for (int d = 0; d < 3; ++d) u[d * nodes + n] = s.q(e, dg::Equations::i_rhou + d, n) / s.q(e, dg::Equations::i_rho, n);
      for (int n = 0; n < nodes; ++n) {
        const int idx[3] = {n % n1, (n / n1) % n1, n / (n1 * n1)};
        // du[c][d] = d u_c / d x_d by the element's differentiation matrix
        double du[3][3];
        for (int d = 0; d < 3; ++d) {
          const int stride = d == 0 ? 1 : d == 1 ? n1 : n1 * n1;
          const int base = n - idx[d] * stride;
          for (int c = 0; c < 3; ++c) {
            double sum = 0;
            for (int m = 0; m < n1; ++m) sum += s.lgl_derivative[idx[d] * n1 + m] * u[c * nodes + base + m * stride];
            du[c][d] = 2 / s.size(e, d) * sum;
          }
        }
        const double wx = du[2][1] - du[1][2], wy = du[0][2] - du[2][0], wz = du[1][0] - du[0][1];
        const double rho = s.q(e, dg::Equations::i_rho, n);
        const double weight = s.lgl_weights[idx[0]] * s.lgl_weights[idx[1]] * s.lgl_weights[idx[2]] * jacobian;
        const double speed2 = u[n] * u[n] + u[nodes + n] * u[nodes + n] + u[2 * nodes + n] * u[2 * nodes + n];
        sums[0].add(weight * 0.5 * rho * speed2);
        sums[1].add(weight * 0.5 * rho * (wx * wx + wy * wy + wz * wz));
      }
    }
    allreduce(comm, sums);
    const double scale = 1 / (tg_.rho0 * s.domain_volume);
    const double ek = sums[0].value() * scale, enstrophy = sums[1].value() * scale;
    const double rate = s.time > last_time_ ? -(ek - last_ek_) / (s.time - last_time_)
                                            : std::numeric_limits<double>::quiet_NaN();  // first output
    last_time_ = s.time, last_ek_ = ek;
    return {ek, rate, enstrophy};
  }
  /// The last output's time and E_k, for the dissipation rate between outputs: a
  /// restart continues with them (else its first rate would be undefined).
  std::vector<double> saved_state() const override { return {last_time_, last_ek_}; }
  void restore_state(const std::vector<double>& v) override { last_time_ = v.at(0), last_ek_ = v.at(1); }

 private:
  TaylorGreen tg_;
  mutable double last_time_ = std::numeric_limits<double>::quiet_NaN(), last_ek_ = 0;
};

}  // namespace

std::unique_ptr<Case> make_taylor_green(const Config& c) { return std::make_unique<TaylorGreenCase>(c); }

}  // namespace squall::cases
