// Pointwise physics: thermodynamic round trips, flux consistency and symmetry, walls.
#include <catch2/catch.hpp>
#include <cmath>

#include "physics/numerical_flux.hpp"

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
