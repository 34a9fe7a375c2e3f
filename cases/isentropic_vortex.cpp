/// isentropic_vortex: an isentropic vortex carried by a uniform flow through a doubly
/// periodic domain, no gravity (Shu, NASA/CR-97-206253, 1997, sec. 5.1; here in
/// dimensional form for dry air). With r the distance to the centre and R the radius,
///   u = U + U_v -(y - y_c)/R exp((1 - r^2/R^2)/2),  v = V + U_v (x - x_c)/R exp(...),
///   T = T_inf - U_v^2 / (2 c_p) exp(1 - r^2/R^2),   rho = rho_inf (T / T_inf)^(1/(gamma-1)),
/// which is an exact steady solution in the frame moving with (U, V): the exact solution
/// at time t is the initial one shifted by (U t, V t), wrapped periodically.
/// T_inf = 300 K, rho_inf = 1 kg/m^3, (U, V) = (50, 25) m/s, U_v = 25 m/s, R = L/12 with
/// L the smaller horizontal extent; the centre starts in the middle of the domain.
#include <algorithm>
#include <cmath>

#include "cases/registry.hpp"
#include "solver/pointwise_fill.hpp"

namespace squall::cases {
namespace {

struct Vortex {
  Real x0, y0, Lx, Ly;  ///< domain origin and size
  Real xc, yc, R;
  Real U, V, U_v, T_inf, rho_inf;
  Real t;  ///< time of the state
  physics::GasParameters gas;

  /// Displacement from c to x in a periodic direction of length L, to the nearest image.
  KOKKOS_INLINE_FUNCTION static Real periodic_offset(Real x, Real c, Real L) {
    Real d = x - c;
    d -= L * math::floor(d / L + Real(0.5));
    return d;
  }

  KOKKOS_INLINE_FUNCTION PointState operator()(Real x, Real y, Real) const {
    const Real dx = periodic_offset(x, xc + U * t, Lx) / R;
    const Real dy = periodic_offset(y, yc + V * t, Ly) / R;
    const Real r2 = dx * dx + dy * dy;
    const Real bump = math::exp((1 - r2) / 2);
    const Real T = T_inf - U_v * U_v / (2 * gas.cp_d) * bump * bump;
    const Real rho = rho_inf * math::pow(T / T_inf, 1 / (gas.gamma_d - 1));
    return {rho, U - U_v * dy * bump, V + U_v * dx * bump, 0, T, 0, 0};
  }
};

}  // namespace

std::unique_ptr<Case> make_isentropic_vortex(const Config& c) {
  const auto& d = c.mesh.domain;
  Vortex v{};
  v.x0 = d[0][0], v.y0 = d[1][0];
  v.Lx = d[0][1] - d[0][0], v.Ly = d[1][1] - d[1][0];
  v.xc = v.x0 + v.Lx / 2, v.yc = v.y0 + v.Ly / 2;
  v.R = std::min(v.Lx, v.Ly) / 12;
  v.U = 50, v.V = 25, v.U_v = 25, v.T_inf = 300, v.rho_inf = 1;
  v.gas = physics::GasParameters{};
  return std::make_unique<ExactSolutionCase<Vortex>>("isentropic_vortex", v);
}

}  // namespace squall::cases
