// Pointwise physics: thermodynamic round trips, flux consistency and symmetry, walls.
#include <catch2/catch.hpp>
#include <cmath>

#include "physics/closures.hpp"
#include "physics/numerical_flux.hpp"
#include "physics/sponge.hpp"

using namespace squall;
using namespace squall::physics;

namespace {
Cons sample(double rho, double u, double v, double w, double T, double phi) {
  return conservative(rho, u, v, w, T, phi);
}
}  // namespace

TEST_CASE("conservative <-> primitive round trip", "[physics]") {
  const double phi = grav * 1234.5;
  const Cons q = sample(1.1, 3.0, -4.0, 0.5, 287.3, phi);
  const Prim w = primitive(q, phi);
  CHECK(w.rho == 1.1);
  CHECK(w.u[0] == Approx(3.0).epsilon(1e-14));
  CHECK(w.u[1] == Approx(-4.0).epsilon(1e-14));
  CHECK(w.u[2] == Approx(0.5).epsilon(1e-14));
  CHECK(w.T == Approx(287.3).epsilon(1e-13));
  CHECK(w.p == Approx(1.1 * R_d * 287.3).epsilon(1e-13));
  const Cons back = conservative(w.rho, w.u[0], w.u[1], w.u[2], w.T, phi);
  for (int v = 0; v < nvar; ++v) CHECK(back[v] == Approx(q[v]).epsilon(1e-13));
  // theta = T at p = p_0; the Exner function at 1e5 Pa is 1
  CHECK(potential_temperature(300.0, p_0) == 300.0);
  CHECK(sound_speed(300.0) == Approx(std::sqrt(gamma_d * R_d * 300.0)));
}

TEST_CASE("Rusanov flux is consistent: F*(q, q) = F(q)", "[physics]") {
  const Aux aux{1.05, 9.9e4, grav * 100};
  const Cons q = sample(1.05, 10.0, -3.0, 2.0, 290.0, aux.phi);
  const Prim w = primitive(q, aux.phi);
  for (int d = 0; d < 3; ++d) {
    const Cons f = flux(q, w, aux.p_ref, d);
    const Cons fs = rusanov(q, q, aux, d);
    for (int v = 0; v < nvar; ++v) CHECK(fs[v] == f[v]);
  }
}

TEST_CASE("Rusanov flux is symmetric under exchange of sides and normal", "[physics]") {
  // Seen from the other side (states swapped, velocities mirrored along d), the flux
  // changes sign in all but the normal momentum component.
  const Aux aux{1.0, 1.0e5, 0.0};
  const Cons a = sample(1.2, 15.0, 2.0, -1.0, 300.0, 0), b = sample(0.9, -5.0, 1.0, 3.0, 280.0, 0);
  for (int d = 0; d < 3; ++d) {
    const Cons fab = rusanov(a, b, aux, d);
    const Cons fba = rusanov(mirror(b, d), mirror(a, d), aux, d);
    for (int v = 0; v < nvar; ++v) {
      const double sign = v == i_rhou + d ? 1.0 : -1.0;
      CHECK(fab[v] == Approx(sign * fba[v]).epsilon(1e-13));
    }
  }
}

TEST_CASE("a mirror wall carries no mass or energy", "[physics]") {
  const Aux aux{1.0, 9.5e4, grav * 10};
  const Cons q = sample(1.0, 4.0, -2.0, 7.0, 295.0, aux.phi);
  for (int d = 0; d < 3; ++d) {
    const Cons high = rusanov(q, mirror(q, d), aux, d);
    const Cons low = rusanov(mirror(q, d), q, aux, d);
    CHECK(high[i_rho] == 0.0);
    CHECK(high[i_rhoe] == 0.0);
    CHECK(low[i_rho] == 0.0);
    CHECK(low[i_rhoe] == 0.0);
  }
}

TEST_CASE("unphysical states are detected", "[physics]") {
  CHECK(is_physical(sample(1.0, 0, 0, 0, 300, 0), 0));
  CHECK_FALSE(is_physical(sample(-1.0, 0, 0, 0, 300, 0), 0));
  CHECK_FALSE(is_physical(sample(1.0, 0, 0, 0, -3, 0), 0));
  Cons nan = sample(1.0, 0, 0, 0, 300, 0);
  nan[i_rhou] = std::nan("");
  CHECK_FALSE(is_physical(nan, 0));
}

namespace {
Gradients gradients(std::initializer_list<std::initializer_list<double>> du, double dtheta_dz = 0) {
  Gradients g{};
  int i = 0;
  for (const auto& row : du) {
    int j = 0;
    for (double v : row) g.du[i][j++] = v;
    ++i;
  }
  g.dtheta[2] = dtheta_dz;
  return g;
}
}  // namespace

TEST_CASE("viscous stress: zero for uniform flow and solid-body rotation, symmetric", "[physics]") {
  const Prim w = primitive(sample(1.1, 3, 2, 1, 300, 0), 0);
  const Gradients none = gradients({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  const Gradients rotation = gradients({{0, -0.5, 0}, {0.5, 0, 0}, {0, 0, 0}});  // u = -0.5 y, v = 0.5 x
  for (int d = 0; d < 3; ++d)
    for (int v = 0; v < nvar; ++v) {
      CHECK(viscous_flux(w, none, 10.0, 10.0, d)[v] == 0.0);
      CHECK(viscous_flux(w, rotation, 10.0, 10.0, d)[v] == 0.0);
    }
  const Gradients general = gradients({{0.3, -1.2, 0.4}, {2.0, -0.1, 0.7}, {-0.5, 0.9, 0.2}});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK(stress(w, general, 5.0, i, j) == stress(w, general, 5.0, j, i));
  // trace-free: tau_ii = 0
  CHECK(stress(w, general, 5.0, 0, 0) + stress(w, general, 5.0, 1, 1) + stress(w, general, 5.0, 2, 2) ==
        Approx(0.0).margin(1e-12));
}

TEST_CASE("closures: zero without strain, Vreman zero in pure shear, buoyancy damps Smagorinsky", "[physics]") {
  const Prim w = primitive(sample(1.0, 0, 0, 0, 300, 0), 0);
  const Smagorinsky smagorinsky{0.17 * 0.17 * 25 * 25, 1.0 / 3, grav};
  const Vreman vreman{2.5 * 0.17 * 0.17, 25 * 25, 1.0 / 3};
  const double pi = exner(w.p);  // the Exner function at the point, as the operator passes it
  const Gradients rotation = gradients({{0, -0.5, 0}, {0.5, 0, 0}, {0, 0, 0}});
  CHECK(smagorinsky.nu_t(w, pi, gradients({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})) == 0.0);
  CHECK(smagorinsky.nu_t(w, pi, rotation) == 0.0);
  CHECK(vreman.nu_t(w, pi, gradients({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})) == 0.0);
  // pure shear u = u(z): Smagorinsky (C_s Delta)^2 |du/dz|, Vreman exactly 0 (Vreman 2004, sec. 3)
  const Gradients shear = gradients({{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}});
  CHECK(smagorinsky.nu_t(w, pi, shear) == Approx(0.17 * 0.17 * 25 * 25 * 0.2));
  CHECK(vreman.nu_t(w, pi, shear) == 0.0);
  // a general 3D strain: Vreman positive
  CHECK(vreman.nu_t(w, pi, gradients({{0.1, 0.2, 0}, {0, -0.1, 0.3}, {0.2, 0, 0}})) > 0);
  // stable stratification: Ri = N^2 / |S|^2 > Pr_t switches Smagorinsky off, a weaker one reduces it
  const double n2_off = 0.2 * 0.2 * (1.0 / 3) * 1.01;      // N^2 just above Pr_t |S|^2
  CHECK(smagorinsky.nu_t(w, pi, gradients({{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}}, n2_off * w.T / exner(w.p) / grav)) == 0.0);
  const double reduced = smagorinsky.nu_t(w, pi, gradients({{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}}, 1e-4));
  CHECK(reduced > 0);
  CHECK(reduced < smagorinsky.nu_t(w, pi, shear));
}

TEST_CASE("sponge: zero below its start, full strength at the top, smooth in between", "[physics]") {
  const Sponge s{800.0, 1000.0, 0.1, 2.0, {0, 0, 0}};
  CHECK(s.coefficient(0.0) == 0.0);
  CHECK(s.coefficient(800.0) == 0.0);
  CHECK(s.coefficient(1000.0) == Approx(0.1));
  CHECK(s.coefficient(900.0) == Approx(0.1 * 0.5));  // sin^2(pi/4)
  CHECK(s.coefficient(850.0) < s.coefficient(950.0));
}

TEST_CASE("walls: gradient wall values and wall viscous fluxes by kind", "[physics]") {
  const Prim w = primitive(sample(1.1, 3, -2, 1, 290, 0), 0);
  const Vec<ngrad> g = gradient_variables(w);
  Walls walls;
  walls.kind[0] = free_slip;
  walls.kind[3] = no_slip_adiabatic;
  walls.kind[4] = no_slip_isothermal;
  walls.temperature[4] = 310;
  // free-slip (wall 0, normal x): only the normal velocity goes to zero
  const Vec<ngrad> slip = wall_gradient_jump(g, w.p, 0, walls);
  CHECK(g[0] + slip[0] == 0.0);
  for (int k = 1; k < ngrad; ++k) CHECK(slip[k] == 0.0);
  // no-slip: all of u goes to zero; adiabatic keeps T and theta, isothermal sets them
  const Vec<ngrad> adiabatic = wall_gradient_jump(g, w.p, 3, walls);
  const Vec<ngrad> isothermal = wall_gradient_jump(g, w.p, 4, walls);
  for (int i = 0; i < 3; ++i) CHECK(g[i] + adiabatic[i] == 0.0);
  for (int i = 0; i < 3; ++i) CHECK(g[i] + isothermal[i] == 0.0);
  CHECK(adiabatic[3] == 0.0);
  CHECK(adiabatic[4] == 0.0);
  CHECK(g[3] + isothermal[3] == Approx(310.0));
  CHECK(g[4] + isothermal[4] == Approx(310.0 / exner(w.p)));

  // Wall fluxes: free-slip passes nothing; no-slip takes the interior stress and does no
  // work; adiabatic passes no heat, isothermal exactly the interior heat flux.
  const Gradients gr = gradients({{0.3, -1.2, 0.4}, {2.0, -0.1, 0.7}, {-0.5, 0.9, 0.2}});
  Gradients heat = gr;
  for (int d = 0; d < 3; ++d) heat.dT[d] = 0.01 * (d + 1), heat.dtheta[d] = 0.02 * (d + 1);
  for (int wall : {0, 3, 4}) {
    const int d = wall / 2;
    const Cons fv = viscous_flux(w, heat, 5.0, 7.0, d);
    const Cons fw = wall_viscous_flux(fv, w.u, wall, walls);
    CHECK(fw[i_rho] == 0.0);
    for (int i = 0; i < 3; ++i) CHECK(fw[i_rhou + i] == (wall == 0 ? 0.0 : fv[i_rhou + i]));
    const Real heat_flux = w.rho * cp_d * 7.0 * heat.dT[d];
    CHECK(fw[i_rhoe] == Approx(wall == 4 ? heat_flux : 0.0).margin(1e-12));
  }
  CHECK_FALSE(Walls{}.any_no_slip());
  CHECK(walls.any_no_slip());
}
