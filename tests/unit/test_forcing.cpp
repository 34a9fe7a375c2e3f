// Large-scale forcing and surface fluxes, pointwise: profiles, Coriolis and its work,
// the geostrophic sponge, heating at constant pressure, subsidence, and the fluxes the
// surface_flux and bulk_aerodynamic walls pass (physics/large_scale_forcing.hpp,
// physics/surface_fluxes.hpp).
#include <catch2/catch.hpp>
#include <cmath>

#include "physics/boundary_conditions.hpp"
#include "physics/large_scale_forcing.hpp"
#include "physics/moist_air.hpp"

using namespace squall;
using namespace squall::physics;

namespace {
using Moist = MoistAir<0>;
const Moist moist = Moist::make(GasParameters{}, WaterParameters{});
const DryAir<0> dry{};

Profile make_profile(std::initializer_list<std::array<double, 2>> points) {
  Profile p;
  for (const auto& [z, v] : points) p.z[p.points] = z, p.value[p.points] = v, ++p.points;
  return p;
}
}  // namespace

TEST_CASE("piecewise-linear profiles interpolate and hold their end values", "[forcing]") {
  const Profile w = make_profile({{0, 0}, {1500, -0.0065}, {2100, 0}});  // BOMEX subsidence
  CHECK(w(-10) == 0.0);
  CHECK(w(0) == 0.0);
  CHECK(w(750) == Approx(-0.00325).epsilon(1e-14));
  CHECK(w(1500) == -0.0065);
  CHECK(w(1800) == Approx(-0.00325).epsilon(1e-14));
  CHECK(w(2100) == 0.0);
  CHECK(w(2900) == 0.0);
  CHECK(Profile{}(100) == 0.0);
  CHECK(!Profile{}.active());
}

TEST_CASE("Coriolis turns the wind, the geostrophic wind balances it, and the work is u . S", "[forcing]") {
  LargeScaleForcing f;
  f.coriolis = 1e-4;
  f.geostrophic[0] = make_profile({{0, -10}, {3000, -4.6}});
  const double rho = 1.1, z = 1000;
  double factors[ForcingFactors::count];
  forcing_factors(f, z, z, 0.97, factors);
  const double ug = factors[ForcingFactors::u_g], vg = factors[ForcingFactors::v_g];
  CHECK(ug == Approx(-10 + 1.8e-3 * z).epsilon(1e-14));
  CHECK(vg == 0.0);
  {  // in geostrophic balance: no tendency
    const double u[3] = {ug, 0, 0.3};
    double s[4] = {0, 0, 0, 0};
    add_coriolis(f.coriolis, ug, vg, rho, u, s);
    CHECK(std::abs(s[0]) < 1e-18);
    CHECK(std::abs(s[1]) < 1e-18);
    CHECK(s[2] == 0.0);
    CHECK(std::abs(s[3]) < 1e-16);
  }
  {  // an ageostrophic wind: S = f (rho v, -rho (u - u_g)), energy u . S
    const double u[3] = {2.0, 3.0, 0.5};
    double s[4] = {0, 0, 0, 0};
    add_coriolis(f.coriolis, ug, vg, rho, u, s);
    CHECK(s[0] == Approx(1e-4 * rho * 3.0));
    CHECK(s[1] == Approx(-1e-4 * rho * (2.0 - ug)));
    CHECK(s[3] == Approx(u[0] * s[0] + u[1] * s[1]).epsilon(1e-13));
  }
}

TEST_CASE("the geostrophic sponge relaxes to (u_g, v_g, 0) above its height only", "[forcing]") {
  LargeScaleForcing f;
  f.geostrophic[0] = make_profile({{0, -10}, {3000, -4.6}});
  f.geostrophic_sponge = true;
  f.sponge = Sponge{2400, 3000, 0.75, 2, {0, 0, 0}};
  const auto factors_at = [&](const LargeScaleForcing& g, double z) {
    std::array<double, ForcingFactors::count> v{};
    forcing_factors(g, z, z, 1.0, v.data());
    return v;
  };
  const double u[3] = {1, 2, 3};
  const auto low = factors_at(f, 2000), top = factors_at(f, 3000);
  CHECK(low[ForcingFactors::sponge] == 0.0);
  CHECK(top[ForcingFactors::sponge] == Approx(0.75));
  double s[4] = {0, 0, 0, 0};
  add_geostrophic_sponge(top[ForcingFactors::sponge], top[ForcingFactors::u_g], 0.0, 1.0, u, s);
  const double ug = f.geostrophic[0](3000);
  CHECK(s[0] == Approx(-0.75 * (1 - ug)));
  CHECK(s[1] == Approx(-0.75 * 2));
  CHECK(s[2] == Approx(-0.75 * 3));
  LargeScaleForcing off = f;
  off.geostrophic_sponge = false;
  CHECK(factors_at(off, 3000)[ForcingFactors::sponge] == 0.0);
}

TEST_CASE("the forcing's factors of a node: Pi Q_theta, Q_q, w_s", "[forcing]") {
  LargeScaleForcing f;  // BOMEX's
  f.subsidence = make_profile({{0, 0}, {1500, -0.0065}, {2100, 0}});
  f.heating = make_profile({{0, -2.0 / 86400}, {1500, -2.0 / 86400}, {3000, 0}});
  f.drying = make_profile({{0, -1.2e-8}, {300, -1.2e-8}, {500, 0}});
  double v[ForcingFactors::count];
  forcing_factors(f, 400, 400, 0.99, v);
  CHECK(v[ForcingFactors::heating] == Approx(0.99 * -2.0 / 86400));
  CHECK(v[ForcingFactors::drying] == Approx(-0.6e-8));
  CHECK(v[ForcingFactors::subsidence] == Approx(-0.0065 * 400 / 1500));
  forcing_factors(f, 2250, 2250, 0.8, v);
  CHECK(v[ForcingFactors::heating] == Approx(0.8 * -1.0 / 86400));
  CHECK(v[ForcingFactors::drying] == 0.0);
  CHECK(v[ForcingFactors::subsidence] == 0.0);
}

TEST_CASE("heating at constant pressure raises T by Pi Q dt in the limit of a small step", "[forcing]") {
  // rho c_pm Pi Q dt of energy, added at constant pressure (the column expands), raises
  // the enthalpy c_pm T by c_pm Pi Q dt: theta_l rises by Q dt for unsaturated air.
  const double rho = 1.15, T = 299.0, q_t = 0.016, p = rho * moist.thermo.gas_constant({q_t, 0, 0}) * T;
  const double Q = -2.0 / 86400, pi = moist.exner(p);
  const double cp = moist.thermo.cp({q_t, 0, 0});
  const double s = heating_energy(rho, cp, pi, Q);
  CHECK(s == Approx(rho * cp * pi * Q));
  const double dT = s / (rho * cp);  // enthalpy per unit mass / c_p
  CHECK(dT / pi == Approx(Q).epsilon(1e-14));
}

TEST_CASE("subsidence: -rho w_s dphi/dz; descent over a stable profile warms and dries", "[forcing]") {
  CHECK(subsidence_tendency(1.1, -0.0065, 0.004) == Approx(1.1 * 0.0065 * 0.004));
  CHECK(subsidence_tendency(1.1, -0.0065, -5.8e-6) < 0);  // q_t falls with height: drying
  CHECK(subsidence_tendency(1.1, 0, 3.0) == 0.0);
}

TEST_CASE("prescribed surface fluxes: drag rho u*^2 along the wind, heat and water into the domain", "[forcing]") {
  SurfaceParameters sp;
  sp.heat_flux = 8e-3, sp.water_flux = 5.2e-5, sp.friction_velocity = 0.28;
  const Moist::Cons q = moist.conservative(1.16, -8.75, 1.0, 0.0, 299.5, 0.0, 0.017);
  const Moist::Prim w = moist.primitive(q, 0.0);
  const SurfaceExchange x = surface_exchange(moist, sp, false, w, 2);
  const double speed = std::hypot(-8.75, 1.0);
  CHECK(x.momentum[0] == Approx(-w.rho * 0.28 * 0.28 * -8.75 / speed).epsilon(1e-14));
  CHECK(x.momentum[1] == Approx(-w.rho * 0.28 * 0.28 * 1.0 / speed).epsilon(1e-14));
  CHECK(x.momentum[2] == 0.0);
  CHECK(std::hypot(x.momentum[0], x.momentum[1]) == Approx(w.rho * 0.28 * 0.28));
  const double pi = moist.exner(w.p), cp = moist.thermo.cp(w.partition());
  CHECK(x.sensible == Approx(w.rho * cp * pi * 8e-3));
  CHECK(x.sensible == Approx(9.5).margin(0.3));  // the paper's ~9.5 W m^-2
  CHECK(x.water == Approx(w.rho * 5.2e-5));
  // The wall: F_v,z* = -H at the bottom (the total flux F - F_v is upward +H), +H at the top.
  const SurfaceFlux bottom{sp, false, 2, -1}, top{sp, false, 2, 1};
  const Moist::Cons fb = bottom.viscous_flux(moist, Moist::Cons{}, w), ft = top.viscous_flux(moist, Moist::Cons{}, w);
  CHECK(fb[Moist::i_rhoqt] == Approx(-w.rho * 5.2e-5));
  CHECK(ft[Moist::i_rhoqt] == -fb[Moist::i_rhoqt]);
  const double latent = moist.water_enthalpy_excess(w.T) * w.rho * 5.2e-5;
  CHECK(latent == Approx(147.2).margin(8.0));  // the paper's ~147 W m^-2 (L_v rho w'q')
  CHECK(-fb[Moist::i_rhoe] == Approx(x.sensible + latent));
  CHECK(fb[Moist::i_rho] == 0.0);
  CHECK(fb[Moist::i_rhow] == 0.0);
  CHECK(fb[Moist::i_rhou] == Approx(w.rho * 0.28 * 0.28 * -8.75 / speed));  // tau_xz = rho u*^2 u / |u|
  // The lifting sees a free-slip wall.
  const Moist::Grad g = moist.gradient_variables(w);
  const Moist::Grad jb = bottom.gradient_jump(moist, g, w.p, 2), jf = FreeSlip{}.gradient_jump(moist, g, w.p, 2);
  for (int i = 0; i < Moist::ngrad; ++i) CHECK(jb[i] == jf[i]);
  // Calm air: no drag, no division by zero.
  const Moist::Prim calm = moist.primitive(moist.conservative(1.16, 0, 0, 0.2, 299.5, 0.0, 0.017), 0.0);
  const SurfaceExchange c = surface_exchange(moist, sp, false, calm, 2);
  CHECK((c.momentum[0] == 0.0 && c.momentum[1] == 0.0));
}

TEST_CASE("a drag coefficient gives rho C_d |u| u", "[forcing]") {
  SurfaceParameters sp;
  sp.drag_coefficient = 1.2e-3;
  const DryAir<0>::Prim w = dry.primitive(dry.conservative(1.2, 3.0, 4.0, 0.0, 290.0, 0.0), 0.0);
  const SurfaceExchange x = surface_exchange(dry, sp, false, w, 2);
  CHECK(x.momentum[0] == Approx(-1.2 * 1.2e-3 * 5.0 * 3.0));
  CHECK(x.momentum[1] == Approx(-1.2 * 1.2e-3 * 5.0 * 4.0));
  CHECK(x.sensible == 0.0);
  CHECK(x.water == 0.0);  // dry air carries no water
}

TEST_CASE("bulk aerodynamic fluxes: C_h |u| (theta_s - theta), C_q |u| (q_s - q_t)", "[forcing]") {
  SurfaceParameters sp;
  sp.drag_coefficient = 1.2e-3, sp.heat_transfer = 1.1e-3, sp.moisture_transfer = 1.2e-3, sp.temperature = 300.4;
  const Moist::Prim w = moist.primitive(moist.conservative(1.16, -8.0, 0.0, 0.0, 299.0, 0.0, 0.015), 0.0);
  const SurfaceExchange x = surface_exchange(moist, sp, true, w, 2);
  const double cp = moist.thermo.cp(w.partition());
  CHECK(x.sensible == Approx(w.rho * cp * 1.1e-3 * 8.0 * (300.4 - w.T)));
  const double r_s = moist.thermo.q_vap_saturation_from_pressure(300.4, w.p, 0, 1);
  const double q_s = r_s / (1 + r_s);
  CHECK(q_s == Approx(0.0225).margin(0.002));  // saturated at 300 K, ~1000 hPa
  CHECK(x.water == Approx(w.rho * 1.2e-3 * 8.0 * (q_s - 0.015)));
  CHECK(x.momentum[0] == Approx(1.16 * 1.2e-3 * 8.0 * 8.0));
  // Air at the surface temperature and saturated: no heat or water exchange.
  const Moist::Prim sat = moist.primitive(moist.conservative(1.16, -8.0, 0.0, 0.0, 300.4, 0.0, 0.0), 0.0);
  CHECK(surface_exchange(moist, sp, true, sat, 2).sensible == 0.0);
}
