// The DYCOMS-II radiation (physics/radiation.hpp): the flux formula of Stevens et al.
// (2005) pointwise, and the property the energy ledger rests on: minus the derivative
// of an element's polynomial of F, integrated by the LGL quadrature, is F(bottom) -
// F(top) of the element, so over a column it is the difference of the boundary fluxes.
#include <catch2/catch.hpp>

#include <cmath>

#include "physics/radiation.hpp"
#include "solver/basis.hpp"

using namespace squall;

TEST_CASE("DYCOMS radiation: the net flux formula", "[radiation]") {
  physics::DycomsRadiation r;
  r.cp = 1004;
  // No liquid water: F_0 + F_1 below the inversion.
  CHECK(r.net_flux(100, 0, 0, 840) == Approx(92).epsilon(1e-15));
  // Liquid water above and below: each term decays with its own path.
  const double above = 0.02, below = 0.05;
  CHECK(r.net_flux(500, above, below, 840) ==
        Approx(70 * std::exp(-85 * above) + 22 * std::exp(-85 * below)).epsilon(1e-14));
  // Above the inversion the free troposphere's term adds
  // rho_i c_p D alpha_z ((z - z_i)^(4/3) / 4 + z_i (z - z_i)^(1/3)).
  const double z = 1000, d = z - 840;
  const double third = 1.13 * 1004 * 3.75e-6 * (std::pow(d, 4.0 / 3) / 4 + 840 * std::cbrt(d));
  CHECK(r.net_flux(z, 0, below, 840) == Approx(70 + 22 * std::exp(-85 * below) + third).epsilon(1e-14));
  // Continuous at z_i (with an infinite slope: the cube root).
  CHECK(r.net_flux(840, 0, 0, 840) == 92);
  CHECK(r.net_flux(std::nextafter(840.0, 1000.0), 0, 0, 840) == Approx(92).epsilon(1e-5));
}

TEST_CASE("DYCOMS radiation: the quadrature of -dF/dz is the flux difference", "[radiation]") {
  const auto b = dg::Basis<4>::make();
  constexpr int n1 = 5;
  physics::DycomsRadiation r;
  const double h = 80, bottom = 800;  // an element across the inversion
  double F[n1];
  for (int k = 0; k < n1; ++k) {
    const double z = bottom + (b.x[k] + 1) / 2 * h;
    const double lwp_above = z < 840 ? 0.001 * (840 - z) : 0, lwp_below = 0.06 + 0.0005 * (z - bottom);
    F[k] = r.net_flux(z, lwp_above, lwp_below, 840);
  }
  double integral = 0;
  for (int k = 0; k < n1; ++k) {
    double d = 0;
    for (int j = 0; j < n1; ++j) d += b.D[k][j] * F[j];
    integral += b.w[k] * (h / 2) * -(2 / h * d);
  }
  CHECK(integral == Approx(F[0] - F[n1 - 1]).epsilon(1e-13));
  CHECK(std::abs(F[0] - F[n1 - 1]) > 1);  // a real difference, not 0 = 0
}
