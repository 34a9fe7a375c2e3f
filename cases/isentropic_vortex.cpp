/// isentropic_vortex: an isentropic vortex carried by a uniform flow through a doubly
/// periodic domain, no gravity (Shu, NASA/CR-97-206253, 1997, sec. 5.1; here in
/// dimensional form for dry air). With r the distance to the centre and R the radius,
///   u = U + U_v -(y - y_c)/R exp((1 - r^2/R^2)/2),  v = V + U_v (x - x_c)/R exp(...),
///   T = T_inf - U_v^2 / (2 c_p) exp(1 - r^2/R^2),   rho = rho_inf (T / T_inf)^(1/(gamma-1)),
/// which is an exact steady solution in the frame moving with (U, V): the exact solution
/// at time t is the initial one shifted by (U t, V t), wrapped periodically.
/// T_inf = 300 K, rho_inf = 1 kg/m^3, (U, V) = (50, 25) m/s, U_v = 25 m/s, R = L/12 with
/// L the smaller horizontal extent; the centre starts in the middle of the domain.
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

  /// Displacement from c to x in a periodic direction of length L, to the nearest image.
  KOKKOS_INLINE_FUNCTION static Real periodic_offset(Real x, Real c, Real L) {
    Real d = x - c;
    d -= L * math::floor(d / L + Real(0.5));
    return d;
  }

  KOKKOS_INLINE_FUNCTION PointState operator()(Real x, Real y, Real) const {
    using namespace physics;
    const Real dx = periodic_offset(x, xc + U * t, Lx) / R;
    const Real dy = periodic_offset(y, yc + V * t, Ly) / R;
    const Real r2 = dx * dx + dy * dy;
    const Real bump = math::exp((1 - r2) / 2);
    const Real T = T_inf - U_v * U_v / (2 * cp_d) * bump * bump;
    const Real rho = rho_inf * math::pow(T / T_inf, 1 / (gamma_d - 1));
    return {rho, U - U_v * dy * bump, V + U_v * dx * bump, 0, T, 0, 0};
  }
};

class IsentropicVortex : public Case {
 public:
  explicit IsentropicVortex(const Config& c) {
    const auto& d = c.mesh.domain;
    v_.x0 = d[0][0], v_.y0 = d[1][0];
    v_.Lx = d[0][1] - d[0][0], v_.Ly = d[1][1] - d[1][0];
    v_.xc = v_.x0 + v_.Lx / 2, v_.yc = v_.y0 + v_.Ly / 2;
    v_.R = std::min(v_.Lx, v_.Ly) / 12;
    v_.U = 50, v_.V = 25, v_.U_v = 25, v_.T_inf = 300, v_.rho_inf = 1;
    v_.t = 0;
  }
  Real gravity() const override { return 0; }
  void initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const override {
    fill_pointwise("case::isentropic_vortex", x, q, aux, 0, v_);
  }
  bool has_exact_solution() const override { return true; }
  void exact_solution(Real t, const dg::CoordView& x, const dg::StateView& q) const override {
    Vortex at_t = v_;
    at_t.t = t;
    fill_state("case::isentropic_vortex_exact", x, q, 0, at_t);
  }

 private:
  Vortex v_;
};

}  // namespace

std::unique_ptr<Case> make_isentropic_vortex(const Config& c) {
  return std::make_unique<IsentropicVortex>(c);
}

}  // namespace squall::cases
