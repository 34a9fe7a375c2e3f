// Pointwise physics: thermodynamic round trips, flux consistency and symmetry, the
// two-point flux, boundary-condition types, sources.
#include <catch2/catch.hpp>
#include <cmath>

#include "physics/boundary_conditions.hpp"
#include "physics/closures.hpp"
#include "physics/numerical_flux.hpp"
#include "physics/sources.hpp"

using namespace squall;
using namespace squall::physics;

namespace {
using Dry = DryAir<0>;
const Dry eq{};
using Cons = Dry::Cons;
using Grad = Dry::Grad;
constexpr int nvar = Dry::nvar, ngrad = Dry::ngrad;
constexpr int i_rho = Dry::i_rho, i_rhou = Dry::i_rhou, i_rhoe = Dry::i_rhoe;
Cons sample(double rho, double u, double v, double w, double T, double phi) {
  return eq.conservative(rho, u, v, w, T, phi);
}
}  // namespace

TEST_CASE("conservative <-> primitive round trip", "[physics]") {
  const double phi = grav * 1234.5;
  const Cons q = sample(1.1, 3.0, -4.0, 0.5, 287.3, phi);
  const Prim w = eq.primitive(q, phi);
  CHECK(w.rho == 1.1);
  CHECK(w.u[0] == Approx(3.0).epsilon(1e-14));
  CHECK(w.u[1] == Approx(-4.0).epsilon(1e-14));
  CHECK(w.u[2] == Approx(0.5).epsilon(1e-14));
  CHECK(w.T == Approx(287.3).epsilon(1e-13));
  CHECK(w.p == Approx(1.1 * R_d * 287.3).epsilon(1e-13));
  const Cons back = eq.conservative(w.rho, w.u[0], w.u[1], w.u[2], w.T, phi);
  for (int v = 0; v < nvar; ++v) CHECK(back[v] == Approx(q[v]).epsilon(1e-13));
  // theta = T at p = p_0; the Exner function at 1e5 Pa is 1
  CHECK(eq.potential_temperature(300.0, p_0) == 300.0);
  CHECK(eq.sound_speed(300.0) == Approx(std::sqrt(gamma_d * R_d * 300.0)));
  // the derived output fields are the primitives and theta, in their declared order
  double derived[Dry::nderived];
  eq.derived(q, phi, derived);
  CHECK(derived[Dry::f_rho] == w.rho);
  CHECK(derived[Dry::f_u] == w.u[0]);
  CHECK(derived[Dry::f_w] == w.u[2]);
  CHECK(derived[Dry::f_T] == w.T);
  CHECK(derived[Dry::f_p] == w.p);
  CHECK(derived[Dry::f_theta] == eq.potential_temperature(w.T, w.p));
  const VariableInfo info = Dry::describe({});
  CHECK(info.derived[Dry::f_theta].name == "theta");
  CHECK(info.conservative[i_rhoe].name == "rhoe");
  CHECK(info.conservative.size() == static_cast<size_t>(Dry::nvar));
  CHECK(info.derived.size() == static_cast<size_t>(Dry::nderived));
}

TEST_CASE("Rusanov flux is consistent: F*(q, q) = F(q)", "[physics]") {
  const Aux aux{1.05, 9.9e4, grav * 100};
  const Cons q = sample(1.05, 10.0, -3.0, 2.0, 290.0, aux.phi);
  const Prim w = eq.primitive(q, aux.phi);
  for (int d = 0; d < 3; ++d) {
    const Cons f = eq.flux(q, w, aux.p_ref, d);
    const Cons fs = rusanov(eq, q, q, aux, d);
    for (int v = 0; v < nvar; ++v) CHECK(fs[v] == f[v]);
  }
}

TEST_CASE("Rusanov flux is symmetric under exchange of sides and normal", "[physics]") {
  // Seen from the other side (states swapped, velocities mirrored along d), the flux
  // changes sign in all but the normal momentum component.
  const Aux aux{1.0, 1.0e5, 0.0};
  const Cons a = sample(1.2, 15.0, 2.0, -1.0, 300.0, 0), b = sample(0.9, -5.0, 1.0, 3.0, 280.0, 0);
  for (int d = 0; d < 3; ++d) {
    const Cons fab = rusanov(eq, a, b, aux, d);
    const Cons fba = rusanov(eq, mirror(eq, b, d), mirror(eq, a, d), aux, d);
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
    const Cons high = rusanov(eq, q, mirror(eq, q, d), aux, d);
    const Cons low = rusanov(eq, mirror(eq, q, d), q, aux, d);
    CHECK(high[i_rho] == 0.0);
    CHECK(high[i_rhoe] == 0.0);
    CHECK(low[i_rho] == 0.0);
    CHECK(low[i_rhoe] == 0.0);
  }
}

TEST_CASE("unphysical states are detected", "[physics]") {
  CHECK(eq.is_physical(sample(1.0, 0, 0, 0, 300, 0), 0));
  CHECK_FALSE(eq.is_physical(sample(-1.0, 0, 0, 0, 300, 0), 0));
  CHECK_FALSE(eq.is_physical(sample(1.0, 0, 0, 0, -3, 0), 0));
  Cons nan = sample(1.0, 0, 0, 0, 300, 0);
  nan[i_rhou] = std::nan("");
  CHECK_FALSE(eq.is_physical(nan, 0));
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
  const Prim w = eq.primitive(sample(1.1, 3, 2, 1, 300, 0), 0);
  const Gradients none = gradients({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
  const Gradients rotation = gradients({{0, -0.5, 0}, {0.5, 0, 0}, {0, 0, 0}});  // u = -0.5 y, v = 0.5 x
  for (int d = 0; d < 3; ++d)
    for (int v = 0; v < nvar; ++v) {
      CHECK(eq.viscous_flux(w, none, 10.0, 10.0, 0.0, d)[v] == 0.0);
      CHECK(eq.viscous_flux(w, rotation, 10.0, 10.0, 0.0, d)[v] == 0.0);
    }
  const Gradients general = gradients({{0.3, -1.2, 0.4}, {2.0, -0.1, 0.7}, {-0.5, 0.9, 0.2}});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) CHECK(Dry::stress(w, general, 5.0, i, j) == Dry::stress(w, general, 5.0, j, i));
  // trace-free: tau_ii = 0
  CHECK(Dry::stress(w, general, 5.0, 0, 0) + Dry::stress(w, general, 5.0, 1, 1) +
            Dry::stress(w, general, 5.0, 2, 2) ==
        Approx(0.0).margin(1e-12));
}

TEST_CASE("closures: zero without strain, Vreman zero in pure shear, buoyancy damps Smagorinsky", "[physics]") {
  const Prim w = eq.primitive(sample(1.0, 0, 0, 0, 300, 0), 0);
  const Smagorinsky smagorinsky{0.17 * 0.17 * 25 * 25, 1.0 / 3, grav};
  const Vreman vreman{2.5 * 0.17 * 0.17, 25 * 25, 1.0 / 3};
  const double pi = eq.exner(w.p);  // the Exner function at the point, as the operator passes it
  const Gradients rotation = gradients({{0, -0.5, 0}, {0.5, 0, 0}, {0, 0, 0}});
  CHECK(smagorinsky.nu_t(eq, w, pi, gradients({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})) == 0.0);
  CHECK(smagorinsky.nu_t(eq, w, pi, rotation) == 0.0);
  CHECK(vreman.nu_t(eq, w, pi, gradients({{0, 0, 0}, {0, 0, 0}, {0, 0, 0}})) == 0.0);
  // pure shear u = u(z): Smagorinsky (C_s Delta)^2 |du/dz|, Vreman exactly 0 (Vreman 2004, sec. 3)
  const Gradients shear = gradients({{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}});
  CHECK(smagorinsky.nu_t(eq, w, pi, shear) == Approx(0.17 * 0.17 * 25 * 25 * 0.2));
  CHECK(vreman.nu_t(eq, w, pi, shear) == 0.0);
  // a general 3D strain: Vreman positive
  CHECK(vreman.nu_t(eq, w, pi, gradients({{0.1, 0.2, 0}, {0, -0.1, 0.3}, {0.2, 0, 0}})) > 0);
  // stable stratification: Ri = N^2 / |S|^2 > Pr_t switches Smagorinsky off, a weaker one reduces it
  const double n2_off = 0.2 * 0.2 * (1.0 / 3) * 1.01;      // N^2 just above Pr_t |S|^2
  CHECK(smagorinsky.nu_t(eq, w, pi, gradients({{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}}, n2_off * w.T / eq.exner(w.p) / grav)) == 0.0);
  const double reduced = smagorinsky.nu_t(eq, w, pi, gradients({{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}}, 1e-4));
  CHECK(reduced > 0);
  CHECK(reduced < smagorinsky.nu_t(eq, w, pi, shear));
}

TEST_CASE("sponge: zero below its start, full strength at the top, smooth in between", "[physics]") {
  const Sponge s{800.0, 1000.0, 0.1, 2.0, {0, 0, 0}};
  CHECK(s.coefficient(0.0) == 0.0);
  CHECK(s.coefficient(800.0) == 0.0);
  CHECK(s.coefficient(1000.0) == Approx(0.1));
  CHECK(s.coefficient(900.0) == Approx(0.1 * 0.5));  // sin^2(pi/4)
  CHECK(s.coefficient(850.0) < s.coefficient(950.0));
}

TEST_CASE("sponge: lateral layers along x, the larger of the layers, none in the interior", "[physics]") {
  Sponge s{800.0, 1000.0, 0.1, 2.0, {0, 0, 0}};
  const Real inside[3] = {5000.0, 500.0, 900.0};
  CHECK(s.coefficient(inside) == s.coefficient(900.0));  // no lateral layers: the top one's bits
  s.side_width[0] = 1000.0, s.side_low[0] = 0.0, s.side_high[0] = 10000.0;
  s.side_low[1] = 0.0, s.side_high[1] = 1000.0;  // no layer along y (width 0)
  const Real centre[3] = {5000.0, 0.0, 100.0}, low[3] = {0.0, 0.0, 100.0}, high[3] = {10000.0, 999.0, 100.0};
  const Real halfway[3] = {9500.0, 0.0, 100.0}, edge[3] = {1000.0, 0.0, 100.0};
  CHECK(s.coefficient(centre) == 0.0);
  CHECK(s.coefficient(edge) == 0.0);
  CHECK(s.coefficient(low) == Approx(0.1));
  CHECK(s.coefficient(high) == Approx(0.1));
  CHECK(s.coefficient(halfway) == Approx(0.1 * 0.5));  // sin^2(pi/4)
  const Real corner[3] = {9500.0, 0.0, 950.0};          // the top layer's is larger there
  CHECK(s.coefficient(corner) == Approx(s.coefficient(950.0)));
  const Sponge sides_only{1000.0, 1000.0, 0.1, 2.0, {0, 0, 0}, {1000.0, 0}, {0.0, 0.0}, {10000.0, 1000.0}};
  const Real top_centre[3] = {5000.0, 0.0, 1000.0};
  CHECK(sides_only.coefficient(top_centre) == 0.0);  // z_start = z_top: no top layer
  CHECK(sides_only.coefficient(low) == Approx(0.1));
}

TEST_CASE("flux along a normal: an axis normal and the same vector normal agree", "[physics]") {
  const Cons q = sample(1.05, 10.0, -3.0, 2.0, 290.0, 300.0);
  const Prim w = eq.primitive(q, 300.0);
  for (int d = 0; d < 3; ++d) {
    VectorNormal n{{0, 0, 0}};
    n.n[d] = 1;
    const Cons axis = eq.flux(q, w, 9.9e4, d), vector = eq.flux(q, w, 9.9e4, n);
    for (int v = 0; v < nvar; ++v) CHECK(axis[v] == Approx(vector[v]).epsilon(1e-15));
    CHECK(eq.max_wave_speed(w, d) == eq.max_wave_speed(w, n));
  }
  // an oblique normal: F.n = sum_d n_d F_d
  const VectorNormal n{{0.6, 0.0, 0.8}};
  const Cons f = eq.flux(q, w, 9.9e4, n), f0 = eq.flux(q, w, 9.9e4, 0), f2 = eq.flux(q, w, 9.9e4, 2);
  for (int v = 0; v < nvar; ++v) CHECK(f[v] == Approx(0.6 * f0[v] + 0.8 * f2[v]).epsilon(1e-14));
}

TEST_CASE("two-point flux: consistent F#(q, q) = F(q), symmetric F#(a, b) = F#(b, a) bit for bit", "[physics]") {
  const Cons a = sample(1.2, 15.0, 2.0, -1.0, 300.0, 500.0), b = sample(0.9, -5.0, 1.0, 3.0, 280.0, 700.0);
  const Prim wa = eq.primitive(a, 500.0), wb = eq.primitive(b, 700.0);
  const SplitPoint pa = eq.split_point(a, wa, 9.8e4), pb = eq.split_point(b, wb, 9.7e4);
  for (int d = 0; d < 3; ++d) {
    const Cons consistent = eq.two_point_flux(pa, pa, d), f = eq.flux(a, wa, 9.8e4, d);
    for (int v = 0; v < nvar; ++v) CHECK(consistent[v] == Approx(f[v]).epsilon(1e-14));
    const Cons ab = eq.two_point_flux(pa, pb, d), ba = eq.two_point_flux(pb, pa, d);
    for (int v = 0; v < nvar; ++v) CHECK(ab[v] == ba[v]);
    // and it is not simply one side's flux
    CHECK(ab[i_rho] != f[i_rho]);
  }
  // the stored values of a split point give it back
  double values[Dry::nsplit];
  Dry::split_values(pb, values);
  const SplitPoint back = Dry::split_from([&](int v) { return values[v]; });
  CHECK(back.rho == pb.rho);
  CHECK(back.u[2] == pb.u[2]);
  CHECK(back.e == pb.e);
  CHECK(back.p_ref == pb.p_ref);
}

namespace {
Gradients heat_gradients() {
  Gradients g = gradients({{0.3, -1.2, 0.4}, {2.0, -0.1, 0.7}, {-0.5, 0.9, 0.2}});
  for (int d = 0; d < 3; ++d) g.dT[d] = 0.01 * (d + 1), g.dtheta[d] = 0.02 * (d + 1);
  return g;
}
}  // namespace

TEST_CASE("free-slip wall: mirror state, only the normal velocity jumps, no viscous flux", "[physics]") {
  const Cons q = sample(1.1, 3, -2, 1, 290, 100);
  const Prim w = eq.primitive(q, 100);
  const Grad g = eq.gradient_variables(w);
  const Aux aux{1.1, 9.5e4, 100};
  for (int d = 0; d < 3; ++d) {
    const Cons outer = FreeSlip{}.outer_state(eq, q, d);
    for (int v = 0; v < nvar; ++v) CHECK(outer[v] == (v == i_rhou + d ? -q[v] : q[v]));
    const Cons f = rusanov(eq, q, outer, aux, d);  // nothing but pressure passes
    CHECK(f[i_rho] == 0.0);
    CHECK(f[i_rhoe] == 0.0);
    const Grad jump = FreeSlip{}.gradient_jump(eq, g, w.p, d);
    for (int k = 0; k < ngrad; ++k) CHECK(jump[k] == (k == d ? -g[d] : 0.0));
    const Cons fw = FreeSlip{}.viscous_flux(eq, eq.viscous_flux(w, heat_gradients(), 5.0, 7.0, 0.0, d), w);
    for (int v = 0; v < nvar; ++v) CHECK(fw[v] == 0.0);
  }
}

TEST_CASE("no-slip adiabatic wall: u* = 0, interior stress, no work, no heat", "[physics]") {
  const Cons q = sample(1.1, 3, -2, 1, 290, 0);
  const Prim w = eq.primitive(q, 0);
  const Grad g = eq.gradient_variables(w);
  const NoSlipAdiabatic wall{};
  const Grad jump = wall.gradient_jump(eq, g, w.p, 2);
  for (int i = 0; i < 3; ++i) CHECK(g[i] + jump[i] == 0.0);
  CHECK(jump[Dry::g_T] == 0.0);
  CHECK(jump[Dry::g_theta] == 0.0);
  const Cons fv = eq.viscous_flux(w, heat_gradients(), 5.0, 7.0, 0.0, 2);
  const Cons fw = wall.viscous_flux(eq, fv, w);
  CHECK(fw[i_rho] == 0.0);
  for (int i = 0; i < 3; ++i) CHECK(fw[i_rhou + i] == fv[i_rhou + i]);
  CHECK(fw[i_rhoe] == 0.0);
  CHECK(fv[i_rhoe] != 0.0);
}

TEST_CASE("no-slip isothermal wall: u* = 0, T* = T_wall, the interior heat flux passes", "[physics]") {
  const Cons q = sample(1.1, 3, -2, 1, 290, 0);
  const Prim w = eq.primitive(q, 0);
  const Grad g = eq.gradient_variables(w);
  const NoSlipIsothermal wall{310};
  const Grad jump = wall.gradient_jump(eq, g, w.p, 2);
  for (int i = 0; i < 3; ++i) CHECK(g[i] + jump[i] == 0.0);
  CHECK(g[Dry::g_T] + jump[Dry::g_T] == Approx(310.0));
  CHECK(g[Dry::g_theta] + jump[Dry::g_theta] == Approx(310.0 / eq.exner(w.p)));
  for (int d = 0; d < 3; ++d) {
    const Gradients heat = heat_gradients();
    const Cons fv = eq.viscous_flux(w, heat, 5.0, 7.0, 0.0, d);
    const Cons fw = wall.viscous_flux(eq, fv, w);
    CHECK(fw[i_rho] == 0.0);
    for (int i = 0; i < 3; ++i) CHECK(fw[i_rhou + i] == fv[i_rhou + i]);
    CHECK(fw[i_rhoe] == Approx(w.rho * cp_d * 7.0 * heat.dT[d]).epsilon(1e-12));
  }
}

TEST_CASE("curved walls: free-slip removes the normal velocity, surface fluxes act along the terrain", "[physics]") {
  const Cons q = sample(1.1, 3, -2, 1, 290, 100);
  const Prim w = eq.primitive(q, 100);
  const Grad g = eq.gradient_variables(w);
  // The contravariant vector of a node on a slope: normal times the surface element.
  const VectorNormal ja{{-0.6, 0.2, 2.0}};
  const double area = std::sqrt(0.36 + 0.04 + 4.0);
  const VectorNormal n{{ja.n[0] / area, ja.n[1] / area, ja.n[2] / area}};
  const Grad jump = FreeSlip{}.gradient_jump(eq, g, w.p, n);
  double normal = 0, along = 0;
  for (int i = 0; i < 3; ++i) normal += (g[i] + jump[i]) * n.n[i];
  CHECK(std::fabs(normal) <= 1e-15);
  for (int k = 3; k < ngrad; ++k) CHECK(jump[k] == 0.0);
  SurfaceParameters surface;
  surface.heat_flux = 0.1, surface.friction_velocity = 0.3;
  const SurfaceFlux bc{surface, false, 2, -1};  // the ground: the low end of z
  const Cons fv = eq.viscous_flux(w, heat_gradients(), 5.0, 7.0, 0.0, 2);
  const Cons fw = wall_viscous_flux(bc, eq, fv, w, ja);
  double drag = 0;
  for (int i = 0; i < 3; ++i) along += fw[i_rhou + i] * n.n[i], drag += fw[i_rhou + i] * fw[i_rhou + i];
  CHECK(std::fabs(along) <= 1e-15 * std::sqrt(drag));  // the drag is tangential to the terrain
  CHECK(std::sqrt(drag) == Approx(area * w.rho * 0.09).epsilon(1e-14));  // rho u*^2 per unit area
  // against the tangential wind: F_v* = -(what enters), so along +u_t
  double ut[3], wind = 0;
  tangential_velocity(w.u, n, ut);
  for (int i = 0; i < 3; ++i) wind += fw[i_rhou + i] * ut[i];
  CHECK(wind > 0);
  CHECK(fw[i_rhoe] == Approx(-area * w.rho * cp_d * eq.exner(w.p) * 0.1).epsilon(1e-14));
  CHECK(fw[i_rho] == 0.0);
  // A level wall (J a^2 = e_z) gives the flat wall's flux bit for bit.
  const Cons level = wall_viscous_flux(bc, eq, fv, w, VectorNormal{{0, 0, 1}});
  const Cons flat = bc.viscous_flux(eq, fv, w);
  for (int v = 0; v < nvar; ++v) CHECK(level[v] == flat[v]);
  // The other kinds take the interior flux as on a flat wall.
  const Cons noslip = wall_viscous_flux(NoSlipAdiabatic{}, eq, fv, w, ja);
  const Cons expected = NoSlipAdiabatic{}.viscous_flux(eq, fv, w);
  for (int v = 0; v < nvar; ++v) CHECK(noslip[v] == expected[v]);
}

TEST_CASE("wall kinds: the registry names every kind once, and the dispatch builds its type", "[physics]") {
  CHECK(nwall_kinds == 5);
  CHECK(std::string(wall_kinds[free_slip].name) == "free_slip");
  CHECK(std::string(wall_kinds[no_slip_isothermal].name) == "no_slip_isothermal");
  CHECK(std::string(wall_kinds[surface_flux].name) == "surface_flux");
  CHECK(std::string(wall_kinds[bulk_aerodynamic].name) == "bulk_aerodynamic");
  CHECK(wall_kinds[no_slip_isothermal].has_temperature);
  CHECK(wall_kinds[surface_flux].surface);
  CHECK_FALSE(wall_kinds[no_slip_adiabatic].surface);
  CHECK_FALSE(wall_kinds[free_slip].no_slip);
  Walls walls;
  walls.kind[4] = no_slip_isothermal, walls.temperature[4] = 275;
  walls.kind[5] = no_slip_adiabatic;
  walls.kind[0] = surface_flux;
  walls.kind[3] = bulk_aerodynamic;
  int seen[5] = {0, 0, 0, 0, 0};
  Real temperature = 0, signs[6] = {0, 0, 0, 0, 0, 0};
  for (int wall = 0; wall < 6; ++wall)
    with_wall_condition(walls, wall, [&](const auto& bc) {
      using T = std::decay_t<decltype(bc)>;
      if constexpr (std::is_same_v<T, FreeSlip>) ++seen[0];
      if constexpr (std::is_same_v<T, NoSlipAdiabatic>) ++seen[1];
      if constexpr (std::is_same_v<T, NoSlipIsothermal>) ++seen[2], temperature = bc.temperature;
      if constexpr (std::is_same_v<T, SurfaceFlux>) {
        ++seen[bc.bulk ? 4 : 3];
        signs[wall] = bc.sign;
        CHECK(bc.direction == wall / 2);
      }
    });
  CHECK(seen[0] == 2);
  CHECK(seen[1] == 1);
  CHECK(seen[2] == 1);
  CHECK(seen[3] == 1);
  CHECK(seen[4] == 1);
  CHECK(temperature == 275);
  CHECK(signs[0] == -1.0);  // x_low: the inward flux is -F_v,x
  CHECK(signs[3] == 1.0);   // y_high: +F_v,y
}

TEST_CASE("sources: buoyancy in perturbation form, sponge on momentum only, off is nothing", "[physics]") {
  const Cons q = sample(1.2, 4, 0, 1, 300, 0);
  const Aux aux{1.0, 1e5, 0};
  const Real high[3] = {0, 0, 950}, low[3] = {0, 0, 100};
  Cons dq{};
  Buoyancy{9.81}.add(eq, q, aux, low, 0.0, dq);
  CHECK(dq[Dry::i_rhow] == -(1.2 - 1.0) * 9.81);
  const RayleighSponge sponge{{800.0, 1000.0, 0.1, 2.0, {1, 0, 0}}};
  Cons s{};
  sponge.add(eq, q, aux, low, 0.0, s);
  for (int v = 0; v < nvar; ++v) CHECK(s[v] == 0.0);
  sponge.add(eq, q, aux, high, 0.0, s);
  const Real alpha = sponge.layer.coefficient(950);
  CHECK(s[i_rhou] == -alpha * (q[i_rhou] - 1.2 * 1));
  CHECK(s[i_rho] == 0.0);
  CHECK(s[i_rhoe] == 0.0);
  Cons none{};
  NoSource{}.add(eq, q, aux, high, 0.0, none);
  SourcePair<NoSource, NoSource>{}.add(eq, q, aux, high, 0.0, none);
  for (int v = 0; v < nvar; ++v) CHECK(none[v] == 0.0);
}

TEST_CASE("tracers: passive, advected with the mass flux, diffused down their gradient", "[physics]") {
  using Wet = DryAir<2>;
  const Wet eq2{};
  const Real c[2] = {0.25, 3.0};
  const Wet::Cons q = eq2.conservative(1.1, 3.0, -4.0, 0.5, 287.3, 500.0, c);
  const Cons dry = eq.conservative(1.1, 3.0, -4.0, 0.5, 287.3, 500.0);
  for (int v = 0; v < Dry::nvar; ++v) CHECK(q[v] == dry[v]);  // the dry part is the dry state
  CHECK(q[Wet::i_tracer] == 1.1 * 0.25);
  const Wet::Prim w = eq2.primitive(q, 500.0);
  const Prim wd = eq.primitive(dry, 500.0);
  CHECK(w.T == wd.T);
  CHECK(w.p == wd.p);
  CHECK(w.c[0] == Approx(0.25).epsilon(1e-15));
  CHECK(w.c[1] == Approx(3.0).epsilon(1e-15));
  for (int d = 0; d < 3; ++d) {
    const Wet::Cons f = eq2.flux(q, w, 9.9e4, d);
    const Cons fd = eq.flux(dry, wd, 9.9e4, d);
    for (int v = 0; v < Dry::nvar; ++v) CHECK(f[v] == fd[v]);
    for (int k = 0; k < 2; ++k) CHECK(f[Wet::i_tracer + k] == Approx(c[k] * fd[i_rho]).epsilon(1e-14));
  }
  // two-point flux: consistent, symmetric, and a uniform mixing ratio rides on the mass flux exactly
  const Real c2[2] = {0.25, -1.0};
  const Wet::Cons b = eq2.conservative(0.9, -5.0, 1.0, 3.0, 280.0, 700.0, c2);
  const Wet::Prim wb = eq2.primitive(b, 700.0);
  const Wet::SplitPoint pa = eq2.split_point(q, w, 9.8e4), pb = eq2.split_point(b, wb, 9.7e4);
  for (int d = 0; d < 3; ++d) {
    const Wet::Cons aa = eq2.two_point_flux(pa, pa, d), f = eq2.flux(q, w, 9.8e4, d);
    for (int v = 0; v < Wet::nvar; ++v) CHECK(aa[v] == Approx(f[v]).epsilon(1e-14));
    const Wet::Cons ab = eq2.two_point_flux(pa, pb, d), ba = eq2.two_point_flux(pb, pa, d);
    for (int v = 0; v < Wet::nvar; ++v) CHECK(ab[v] == ba[v]);
    CHECK(ab[Wet::i_tracer] == ab[i_rho] * 0.25);  // both points carry c = 0.25 (to round-off of rho c / rho)
  }
  double values[Wet::nsplit];
  Wet::split_values(pb, values);
  const Wet::SplitPoint back = Wet::split_from([&](int v) { return values[v]; });
  CHECK(back.c[1] == pb.c[1]);
  // gradients and the viscous flux rho D dc/dx_d; walls pass no tracer
  const Wet::Grad g = eq2.gradient_variables(w);
  CHECK(g[Wet::g_tracer + 1] == w.c[1]);
  Wet::Gradients gr{};
  gr.dc[0][2] = 0.01, gr.dc[1][0] = -0.5;
  const Wet::Cons fv2 = eq2.viscous_flux(w, gr, 1.0, 1.0, 4.0, 2), fv0 = eq2.viscous_flux(w, gr, 1.0, 1.0, 4.0, 0);
  CHECK(fv2[Wet::i_tracer] == Approx(w.rho * 4.0 * 0.01));
  CHECK(fv2[Wet::i_tracer + 1] == 0.0);
  CHECK(fv0[Wet::i_tracer + 1] == Approx(w.rho * 4.0 * -0.5));
  for (int k = 0; k < 2; ++k) {
    CHECK(NoSlipIsothermal{300}.viscous_flux(eq2, fv2, w)[Wet::i_tracer + k] == 0.0);
    CHECK(FreeSlip{}.gradient_jump(eq2, g, w.p, 2)[Wet::g_tracer + k] == 0.0);
    CHECK(rusanov(eq2, q, FreeSlip{}.outer_state(eq2, q, 2), Aux{1.0, 9.9e4, 500.0}, 2)[Wet::i_tracer + k] == 0.0);
  }
  // names
  const VariableInfo info = Wet::describe({"smoke", "dye"});
  CHECK(info.conservative[Wet::i_tracer + 1].name == "rho_dye");
  CHECK(info.derived[Wet::f_tracer].name == "smoke");
  CHECK(info.budget_names.back() == "dye_mass");
  CHECK(info.conserved.back() == Wet::i_tracer + 1);
  double derived[Wet::nderived];
  eq2.derived(q, 500.0, derived);
  CHECK(derived[Wet::f_tracer + 1] == w.c[1]);
}

TEST_CASE("gas parameters: the derived constants are those of their definitions", "[physics]") {
  const GasParameters d{};
  const GasParameters g = GasParameters::of(R_d, cp_d, p_0, T_0);
  CHECK(g.cv_d == d.cv_d);
  CHECK(g.gamma_d == d.gamma_d);
  CHECK(g.kappa_d == d.kappa_d);
  CHECK(g.gamma_R_d == d.gamma_R_d);
  CHECK(d.kappa_d == R_d / cp_d);
  // another gas: its derived constants follow
  const GasParameters o = GasParameters::of(300.0, 1000.0, 1e5, 0.0);
  CHECK(o.cv_d == 700.0);
  CHECK(o.kappa_d == 0.3);
  const DryAir<0> air{o};
  CHECK(air.sound_speed(300.0) == Approx(std::sqrt(1000.0 / 700.0 * 300.0 * 300.0)).epsilon(1e-15));
  CHECK(air.exner(0.5e5) == Approx(std::pow(0.5, 0.3)).epsilon(1e-15));
}
