// Moist thermodynamics (physics/moist_thermodynamics.hpp): saturation vapour pressure
// against an independent fit, round trips T -> e_int -> T through the saturation
// adjustment, unsaturated and saturated, with and without ice, and the derived
// potential temperatures.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "physics/moist_thermodynamics.hpp"

using namespace squall;
using namespace squall::physics;

namespace {
MoistThermodynamics thermo(bool ice) {
  MoistThermodynamics t;
  t.water.ice = ice;
  return t;
}

// Murphy & Koop (2005), Q. J. R. Meteorol. Soc. 131, 1539-1565: eq. (10), vapour pressure
// over liquid water (123 K < T < 332 K), and eq. (7), over ice (T > 110 K) [Pa].
double murphy_koop_liquid(double T) {
  return std::exp(54.842763 - 6763.22 / T - 4.210 * std::log(T) + 0.000367 * T +
                  std::tanh(0.0415 * (T - 218.8)) * (53.878 - 1331.22 / T - 9.44523 * std::log(T) + 0.014025 * T));
}
double murphy_koop_ice(double T) { return std::exp(9.550426 - 5723.265 / T + 3.53068 * std::log(T) - 0.00728332 * T); }

// The state with temperature T, density rho and total water q_t in equilibrium: its
// internal energy (the equilibrium partition at T, then e_int(T, q)).
double equilibrium_energy(const MoistThermodynamics& t, double T, double rho, double q_t, PhasePartition* q = nullptr) {
  const PhasePartition p = t.equilibrium_partition(T, rho, q_t);
  if (q) *q = p;
  return t.internal_energy(T, p);
}
}  // namespace

TEST_CASE("saturation vapour pressure: the triple point and Murphy & Koop (2005)", "[moist]") {
  const MoistThermodynamics t = thermo(true);
  CHECK(t.saturation_vapor_pressure(t.water.T_triple, 1.0) == Approx(611.657).epsilon(1e-15));
  CHECK(t.saturation_vapor_pressure(t.water.T_triple, 0.0) == Approx(611.657).epsilon(1e-15));
  // The Clausius-Clapeyron form with constant dc_p against the fits to measurements:
  // over liquid within 0.34 % for 240-320 K (+0.25 % at 240 K, -0.34 % at 320 K); over
  // ice within 0.7 % for 220-273 K and 2.1 % down to 200 K (the heat capacity of ice
  // falls with T, which a constant c_i misses).
  double worst_liquid = 0, worst_ice = 0, worst_cold_ice = 0;
  for (double T = 240; T <= 320; T += 0.5)
    worst_liquid = std::max(worst_liquid, std::abs(t.saturation_vapor_pressure(T, 1.0) / murphy_koop_liquid(T) - 1));
  for (double T = 220; T <= 273; T += 0.5)
    worst_ice = std::max(worst_ice, std::abs(t.saturation_vapor_pressure(T, 0.0) / murphy_koop_ice(T) - 1));
  for (double T = 200; T <= 220; T += 0.5)
    worst_cold_ice = std::max(worst_cold_ice, std::abs(t.saturation_vapor_pressure(T, 0.0) / murphy_koop_ice(T) - 1));
  CHECK(worst_liquid < 3.5e-3);
  CHECK(worst_ice < 7e-3);
  CHECK(worst_cold_ice < 2.2e-2);
  // Over water at 300 K, 3536.8 Pa (Murphy & Koop, Table 6 values agree to 0.01 %).
  CHECK(t.saturation_vapor_pressure(300.0, 1.0) == Approx(murphy_koop_liquid(300.0)).epsilon(2e-3));
}

TEST_CASE("liquid fraction: liquid above freezing, a ramp to ice at T_icenuc", "[moist]") {
  const MoistThermodynamics t = thermo(true), warm = thermo(false);
  CHECK(t.liquid_fraction(280.0) == 1.0);
  CHECK(t.liquid_fraction(273.15) == 1.0);
  CHECK(t.liquid_fraction(233.0) == 0.0);
  CHECK(t.liquid_fraction(200.0) == 0.0);
  CHECK(t.liquid_fraction((273.15 + 233.0) / 2) == Approx(0.5));
  CHECK(warm.liquid_fraction(200.0) == 1.0);
}

TEST_CASE("internal energy: vapour carries e_v0, ice loses e_i0, T_0 is the zero", "[moist]") {
  const MoistThermodynamics t = thermo(true);
  CHECK(t.internal_energy(t.water.T_0, PhasePartition{0, 0, 0}) == 0.0);
  CHECK(t.internal_energy(t.water.T_0, PhasePartition{0.01, 0, 0}) == Approx(0.01 * t.e_int_v0()));
  CHECK(t.internal_energy(t.water.T_0, PhasePartition{0.01, 0, 0.01}) == Approx(-0.01 * t.e_int_i0()));
  // c_p - c_v = R for the mixture, and e_int inverts at a fixed partition.
  const PhasePartition q{0.02, 0.003, 0.001};
  CHECK(t.cp(q) - t.cv(q) == Approx(t.gas_constant(q)));
  CHECK(t.temperature(t.internal_energy(291.7, q), q) == Approx(291.7).epsilon(1e-14));
}

TEST_CASE("saturation adjustment: unsaturated states come back exactly", "[moist]") {
  const MoistThermodynamics t = thermo(false);
  for (double T : {250.0, 280.0, 300.0, 310.0})
    for (double rho : {0.5, 1.0, 1.2}) {
      const double q_t = 0.5 * t.q_vap_saturation(T, rho);
      const Equilibrium eq = t.saturation_adjustment(rho, equilibrium_energy(t, T, rho, q_t), q_t);
      CHECK(std::abs(eq.T - T) < 1e-10);
      CHECK(eq.q.liq == 0.0);
      CHECK(eq.q.ice == 0.0);
      CHECK(eq.q.tot == q_t);
    }
}

TEST_CASE("the cheap tests never claim air that the strict q_v* calls the other way", "[moist]") {
  // certainly_unsaturated lets the adjustment skip q_v* for clear air: it must never say
  // "unsaturated" where the strict comparison q_t > q_v*(T, rho) says saturated (that
  // would change the result), and it should say it wherever the humidity is clearly
  // below saturation (or it saves nothing).
  long wrong = 0, fast = 0, clear = 0, undecided_far = 0, clear_above = 0, undecided_above = 0;
  for (bool ice : {false, true}) {
    const MoistThermodynamics t = thermo(ice);
    for (double T = 180.0; T <= 330.0; T += 0.37)
      for (double rho : {0.05, 0.4, 1.0, 1.3})
        for (double rel : {0.0, 1e-6, 0.3, 0.9, 0.999, 0.99999, 1 - 1e-6, 1 - 1e-7, 1 - 1e-8, 1 - 1e-12, 1.0,
                           1 + 1e-12, 1 + 1e-8, 1 + 1e-6, 1.01, 2.0}) {
          const double q_vs = t.q_vap_saturation(T, rho);
          for (double q_t : {rel * q_vs, std::nextafter(rel * q_vs, 0.0), std::nextafter(rel * q_vs, 1.0)}) {
            const bool strict_unsaturated = !(q_t > q_vs);
            const bool cheap = t.certainly_unsaturated(T, rho, q_t);
            wrong += cheap && !strict_unsaturated;
            wrong += t.certainly_saturated(T, rho, q_t) && strict_unsaturated;
            const bool far_above = rel >= 1.01 && q_t > 1e-300;
            clear_above += far_above;
            undecided_above += far_above && !t.certainly_saturated(T, rho, q_t);
            fast += cheap;
            // (a subnormal q_t is left to the strict path)
            const bool far = rel <= 0.999 && (q_t == 0 || q_t > 1e-300);
            clear += far;
            undecided_far += far && !cheap;
          }
        }
  }
  CHECK(wrong == 0);
  CHECK(undecided_far == 0);
  CHECK(fast >= clear);
  CHECK(clear_above > 0);
  CHECK(undecided_above == 0);
  // Unphysical states and negative water: no claim but the safe one.
  const MoistThermodynamics t = thermo(false);
  CHECK(t.certainly_unsaturated(280, 1, -1e-3));
  CHECK(!t.certainly_unsaturated(280, -1, -1e-3));
  CHECK(!t.certainly_unsaturated(-5, 1, 1e-3));
  CHECK(!t.certainly_unsaturated(280, 1, std::nan("")));
  for (double q_t : {-1e-3, 0.0, std::nan("")}) CHECK(!t.certainly_saturated(280, 1, q_t));
  CHECK(!t.certainly_saturated(-5, 1, 1e-3));
}

TEST_CASE("the bounded q_v* is within 1e-8 of the strict one", "[moist]") {
  double worst = 0;
  for (bool ice : {false, true}) {
    const MoistThermodynamics t = thermo(ice);
    for (double T = 180.0; T <= 330.0; T += 0.13)
      for (double rho : {0.05, 0.4, 1.0, 1.3}) {
        const double strict = t.q_vap_saturation(T, rho);
        worst = std::max(worst, std::abs(t.q_vap_saturation_bounded(T, rho) / strict - 1));
      }
  }
  INFO("worst relative difference " << worst);
  CHECK(worst < 1e-8);
}

TEST_CASE("saturation adjustment: the bounded Newton steps end where strict ones alone do", "[moist]") {
  // The adjustment with the strict q_v* in every Newton step (as it was first written),
  // against the adjustment's bounded steps followed by strict ones: the same solution to
  // round-off of T.
  for (bool ice : {false, true}) {
    const MoistThermodynamics t = thermo(ice);
    double worst = 0;
    for (double T = 200.0; T <= 320.0; T += 0.7)
      for (double rho : {0.3, 1.1})
        for (double excess : {1e-7, 1e-4, 3e-3, 0.02}) {
          const double q_t = t.q_vap_saturation(T, rho) + excess;
          if (q_t > 0.1) continue;
          const double e = equilibrium_energy(t, T, rho, q_t);
          PhasePartition vapour;
          vapour.tot = q_t;
          double T_strict = t.temperature(e, vapour);
          for (int it = 0; it < 30; ++it) T_strict -= t.adjustment_step(T_strict, q_t, t.q_vap_saturation(T_strict, rho), e).dT;
          worst = std::max(worst, std::abs(t.saturation_adjustment(rho, e, q_t).T - T_strict));
        }
    INFO("ice " << ice << ": worst |dT| " << worst << " K");
    CHECK(worst < 1e-11);
  }
}

TEST_CASE("saturation adjustment: the same bits as deciding with the strict q_v* alone", "[moist]") {
  // The adjustment as it was before the cheap test: unsaturated exactly when
  // !(q_t > q_v*(T_1, rho)), T_1 the all-vapour temperature.
  for (bool ice : {false, true}) {
    const MoistThermodynamics t = thermo(ice);
    long differ = 0;
    for (double T = 200.0; T <= 320.0; T += 0.9)
      for (double rho : {0.3, 1.1})
        for (double rel : {0.2, 0.95, 1 - 1e-9, 1.0, 1 + 1e-9, 1.05}) {
          const double q_t = rel * t.q_vap_saturation(T, rho);
          PhasePartition vapour;
          vapour.tot = q_t;
          const double e = t.internal_energy(T, vapour);
          const double T1 = t.temperature(e, vapour);
          const Equilibrium eq = t.saturation_adjustment(rho, e, q_t);
          if (!(q_t > t.q_vap_saturation(T1, rho))) differ += eq.T != T1 || eq.q.liq != 0 || eq.q.ice != 0;
        }
    CHECK(differ == 0);
  }
}

TEST_CASE("Exner function near a reference pressure: within 3 ulp of the strict pow, the pow itself far away", "[moist]") {
  const MoistThermodynamics t = thermo(false);
  double worst = 0;
  long far = 0, far_exact = 0;
  for (double p_ref : {101500.0, 95000.0, 70000.0, 30000.0, 5000.0}) {
    const double pi_ref = t.exner(p_ref);
    for (double x = -0.0125; x <= 0.0125; x += 1.1e-6) {
      const double p = p_ref * (1 + x);
      const double got = t.exner_near(p, p_ref, pi_ref), want = t.exner(p);
      if (std::abs((p - p_ref) / p_ref) > 0.0078125) {
        ++far;
        far_exact += got == want;
      } else {
        worst = std::max(worst, std::abs(got - want) / (want * 0x1p-52));
      }
    }
  }
  std::printf("exner_near: worst %.2f ulp of exner(p) within 2^-7 of p_ref\n", worst);
  CHECK(worst <= 3.0);
  CHECK(far > 0);
  CHECK(far_exact == far);
  // No reference pressure (p_ref = 0): the strict pow.
  CHECK(t.exner_near(90000.0, 0.0, 0.0) == t.exner(90000.0));
}

TEST_CASE("saturation adjustment: saturated round trips to 1e-10 K with the fixed step count", "[moist]") {
  for (bool ice : {false, true}) {
    const MoistThermodynamics t = thermo(ice);
    double worst = 0, worst_ql = 0;
    int states = 0;
    // From barely saturated to 30 g/kg of condensate, over the troposphere's
    // temperatures (the freezing range included) and densities.
    for (double T = 200; T <= 320; T += 1.37)
      for (double rho : {0.2, 0.5, 0.8, 1.0, 1.25})
        for (double excess : {1e-6, 1e-4, 1e-3, 5e-3, 0.02}) {
          const double q_vs = t.q_vap_saturation(T, rho);
          const double q_t = q_vs + excess;
          if (q_t > 0.1) continue;
          PhasePartition q;
          const double e = equilibrium_energy(t, T, rho, q_t, &q);
          const Equilibrium eq = t.saturation_adjustment(rho, e, q_t);
          worst = std::max(worst, std::abs(eq.T - T));
          worst_ql = std::max(worst_ql, std::abs(eq.q.liq + eq.q.ice - (q.liq + q.ice)));
          ++states;
        }
    INFO("ice " << ice << ", " << states << " states, worst |dT| = " << worst << " K");
    CHECK(states > 1000);
    CHECK(worst < 1e-10);
    CHECK(worst_ql < 1e-13);
  }
}

TEST_CASE("saturation adjustment near the freezing range, where the liquid fraction bends", "[moist]") {
  const MoistThermodynamics t = thermo(true);
  double worst = 0;
  for (double T = 232.0; T <= 274.5; T += 0.0625)
    for (double excess : {1e-5, 2e-3}) {
      const double rho = 0.7;
      const double q_t = t.q_vap_saturation(T, rho) + excess;
      const Equilibrium eq = t.saturation_adjustment(rho, equilibrium_energy(t, T, rho, q_t), q_t);
      worst = std::max(worst, std::abs(eq.T - T));
    }
  INFO("worst |dT| = " << worst);
  CHECK(worst < 1e-10);
}

TEST_CASE("saturation adjustment conserves the total and keeps condensate non-negative", "[moist]") {
  const MoistThermodynamics t = thermo(true);
  const double rho = 1.1, q_t = 0.018;
  for (double e : {-5e4, 0.0, 2e4, 4e4, 6e4, 8e4}) {
    const Equilibrium eq = t.saturation_adjustment(rho, e, q_t);
    CHECK(eq.q.tot == q_t);
    CHECK(eq.q.liq >= 0);
    CHECK(eq.q.ice >= 0);
    CHECK(eq.q.vap() <= t.q_vap_saturation(eq.T, rho) * (1 + 1e-12));
    CHECK(t.internal_energy(eq.T, eq.q) == Approx(e).margin(1e-8));
  }
}

TEST_CASE("potential temperatures of moist air", "[moist]") {
  const MoistThermodynamics t = thermo(false);
  const double p = 8e4, T = 285.0, pi = std::pow(p / 1e5, t.dry.R_d / t.dry.cp_d);
  CHECK(t.exner(p) == Approx(pi).epsilon(1e-15));
  // Dry air: all three are theta.
  const PhasePartition dry{0, 0, 0};
  CHECK(t.liquid_ice_potential_temperature(T, pi, dry) == T / pi);  // exactly: no condensate, no factor
  CHECK(t.liquid_ice_potential_temperature(T, pi, {0.01, 0, 0}) == T / pi);
  CHECK(t.density_potential_temperature(T, pi, dry) == Approx(T / pi));
  // theta_rho = theta (1 + (R_v / R_d - 1) q_v - q_l): vapour is lighter, condensate loads.
  const PhasePartition cloud{0.02, 0.004, 0};
  const double theta = T / pi;
  CHECK(t.density_potential_temperature(T, pi, cloud) ==
        Approx(theta * (1 + (t.water.R_v / t.dry.R_d - 1) * 0.016 - 0.004)).epsilon(1e-14));
  CHECK(t.liquid_ice_potential_temperature(T, pi, cloud) ==
        Approx(theta * (1 - t.water.LH_v0 * 0.004 / (t.dry.cp_d * T))).epsilon(1e-14));
  // Relative humidity: 1 at saturation, q_v / q_v* below it.
  const double rho = p / (t.gas_constant(cloud) * T);
  const PhasePartition sat = t.equilibrium_partition(T, rho, 0.05);
  CHECK(t.relative_humidity(T, rho, sat) == Approx(1.0).epsilon(1e-14));
}

// The moist-air equation set (physics/moist_air.hpp).
#include "physics/closures.hpp"
#include "physics/moist_air.hpp"

namespace {
using Moist = MoistAir<0>;
Moist moist_air() { return Moist::make(GasParameters{}, WaterParameters{}); }
}  // namespace

TEST_CASE("moist air: conservative -> primitive recovers T, the partition and p = rho R_m T", "[moist]") {
  const Moist eq = moist_air();
  const double phi = 9.81 * 1500;
  for (double q_t : {0.0, 0.005, 0.02, 0.03}) {
    const double rho = 1.05, T = 288.0;
    const Moist::Cons q = eq.conservative(rho, 2.0, -1.0, 0.5, T, phi, q_t);
    const auto w = eq.primitive(q, phi);
    const PhasePartition p = eq.thermo.equilibrium_partition(T, rho, q_t);
    CHECK(std::abs(w.T - T) < 1e-10);
    CHECK(w.q_t == Approx(q_t).margin(1e-18));
    CHECK(w.q_l == Approx(p.liq).margin(1e-14));
    CHECK(w.q_i == 0.0);
    CHECK(w.p == Approx(rho * eq.thermo.gas_constant(p) * T).epsilon(1e-13));
    CHECK(w.u[0] == Approx(2.0));
    CHECK(eq.is_physical(q, w));
  }
  // 30 g/kg at 288 K and 1.05 kg/m3 is saturated (q_v* is about 12 g/kg): cloud water.
  CHECK(eq.primitive(eq.conservative(1.05, 0, 0, 0, 288.0, 0, 0.03), 0).q_l > 0.015);
}

TEST_CASE("moist air: the two-point flux is symmetric and consistent, and carries q_t with the mass", "[moist]") {
  const Moist eq = moist_air();
  const double phi = 9.81 * 800;
  const Moist::Cons qa = eq.conservative(1.1, 3.0, -2.0, 1.0, 290.0, phi, 0.018);
  const Moist::Cons qb = eq.conservative(1.0, -1.0, 0.5, 2.0, 285.0, phi, 0.009);
  const auto wa = eq.primitive(qa, phi), wb = eq.primitive(qb, phi);
  const auto sa = eq.split_point(qa, wa, 9e4), sb = eq.split_point(qb, wb, 8.9e4);
  for (int d = 0; d < 3; ++d) {
    const Moist::Cons fab = eq.two_point_flux(sa, sb, d), fba = eq.two_point_flux(sb, sa, d);
    const Moist::Cons faa = eq.two_point_flux(sa, sa, d), f = eq.flux(qa, wa, 9e4, d);
    for (int v = 0; v < Moist::nvar; ++v) {
      CHECK(fab[v] == fba[v]);
      CHECK(faa[v] == Approx(f[v]).margin(1e-12 * (std::abs(f[v]) + 1)));
    }
    CHECK(fab[Moist::i_rhoqt] == Approx(fab[Moist::i_rho] * 0.5 * (0.018 + 0.009)));
  }
  // The split values round trip.
  double values[Moist::nsplit];
  Moist::split_values(sa, values);
  const auto back = Moist::split_from([&](int v) { return values[v]; });
  CHECK(back.c[0] == sa.c[0]);
  CHECK(sa.c[0] == wa.q_t);
  CHECK(back.p == sa.p);
}

TEST_CASE("moist air: diffusion moves water down its gradient with its enthalpy; none in uniform air", "[moist]") {
  const Moist eq = moist_air();
  const Moist::Cons q = eq.conservative(1.0, 0, 0, 0, 295.0, 0, 0.012);
  const auto w = eq.primitive(q, 0);
  Moist::Gradients g{};
  for (int d = 0; d < 3; ++d) {
    const Moist::Cons f = eq.viscous_flux(w, g, 1e-3, 1e-3, 1e-3, d, true, eq.exner(w.p));
    for (int v = 0; v < Moist::nvar; ++v) CHECK(f[v] == 0.0);
  }
  g.dc[0][2] = -1e-5;  // q_t falls with height
  const Moist::Cons f = eq.viscous_flux(w, g, 0.0, 2.0, 0.0, 2, true, eq.exner(w.p));
  CHECK(f[Moist::i_rhoqt] == Approx(w.rho * 2.0 * -1e-5));
  // The energy flux is that water's enthalpy excess over dry air: h_v = c_pv (T - T_0) + L_v0
  // and h_d = c_pd (T - T_0) + R_d T_0 with the energies' zero at T_0.
  CHECK(f[Moist::i_rhoe] == Approx(eq.water_enthalpy_excess(w.T) * f[Moist::i_rhoqt]));
  CHECK(eq.water_enthalpy_excess(w.T) ==
        Approx(2.5008e6 + (1859.0 - 1004.0) * (w.T - 273.16) - 287.0 * 273.16).epsilon(1e-13));
}

namespace {
// A node's primitive variables in equilibrium at temperature T, pressure p and total
// water q_t (liquid only): vapour up to q_v*(T, p), the rest liquid.
Moist::Prim equilibrium_at_pressure(const Moist& eq, double T, double p, double q_t) {
  Moist::Prim w{};
  const double q_vs = eq.thermo.q_vap_saturation_from_pressure(T, p, q_t, 1.0);
  w.T = T, w.p = p, w.q_t = q_t, w.q_l = std::max(0.0, q_t - q_vs), w.q_i = 0;
  w.rho = p / (eq.thermo.gas_constant(w.partition()) * T);
  return w;
}
double theta_li_of(const Moist& eq, const Moist::Prim& w) {
  return eq.thermo.liquid_ice_potential_temperature(w.T, eq.exner(w.p), w.partition());
}
double theta_rho_of(const Moist& eq, const Moist::Prim& w) {
  return eq.thermo.density_potential_temperature(w.T, eq.exner(w.p), w.partition());
}
}  // namespace

TEST_CASE("moist air: N^2 from the gradients of theta_li and q_t, unsaturated and saturated", "[moist]") {
  // Two parcels at one pressure, T +- dT and q_t +- dq apart (1 m apart in z): the
  // change of theta_rho between them against N^2 theta_rho / g from the same changes of
  // theta_li and q_t. Phase changes happen at constant pressure in both, as in the
  // derivation; the residual is the second-order term and q_v*'s pressure form.
  const Moist eq = moist_air();
  const double p = 90000, dT = 0.01, dq = 2e-6;
  struct Case {
    double T, q_t;
    bool saturated;
  };
  for (const Case c : {Case{290.0, 0.010, false}, Case{290.0, 0.016, true}, Case{283.0, 0.012, true},
                       Case{300.0, 0.005, false}}) {
    for (const double sq : {1.0, -1.0, 0.0}) {
      const Moist::Prim w = equilibrium_at_pressure(eq, c.T, p, c.q_t);
      REQUIRE((w.q_l > 0) == c.saturated);
      const Moist::Prim hi = equilibrium_at_pressure(eq, c.T + dT, p, c.q_t + sq * dq);
      const Moist::Prim lo = equilibrium_at_pressure(eq, c.T - dT, p, c.q_t - sq * dq);
      REQUIRE((hi.q_l > 0) == c.saturated);
      REQUIRE((lo.q_l > 0) == c.saturated);
      Moist::Gradients g{};
      g.dtheta[2] = (theta_li_of(eq, hi) - theta_li_of(eq, lo)) / 2;
      g.dc[0][2] = (hi.q_t - lo.q_t) / 2;
      const double change = (theta_rho_of(eq, hi) - theta_rho_of(eq, lo)) / 2;
      const double n2 = eq.buoyancy_frequency_squared(w, eq.exner(p), g, 9.81);
      CHECK(n2 * theta_rho_of(eq, w) / 9.81 == Approx(change).epsilon(0.01).margin(1e-9 * std::abs(change)));
    }
  }
  // In a cloud, warming with height at a fixed q_t is far less stabilising than in clear
  // air: a saturated parcel lifted 1 m condenses and warms (A is about a half).
  Moist::Gradients stable{};
  stable.dtheta[2] = 3e-3;  // 3 K/km
  const double clear = eq.buoyancy_frequency_squared(equilibrium_at_pressure(eq, 290.0, p, 0.010), eq.exner(p), stable, 9.81);
  const double cloud = eq.buoyancy_frequency_squared(equilibrium_at_pressure(eq, 290.0, p, 0.016), eq.exner(p), stable, 9.81);
  CHECK(clear == Approx(9.81 / (290.0 / eq.exner(p)) * 3e-3).epsilon(0.01));  // g / theta dtheta/dz
  CHECK(cloud > 0.3 * clear);
  CHECK(cloud < 0.7 * clear);
  // Smagorinsky reads it: a shear whose Ri = N^2/|S|^2 is above Pr_t in clear air (off)
  // keeps an eddy viscosity in the cloud.
  const Smagorinsky smagorinsky{0.17 * 0.17 * 25 * 25, 1.0 / 3, 9.81};
  Moist::Gradients sheared = stable;
  sheared.du[0][2] = std::sqrt(3 * clear / 1.1);  // |S| = du/dz, so Ri = 1.1 Pr_t in clear air
  const double pi = eq.exner(p);
  CHECK(smagorinsky.nu_t(eq, equilibrium_at_pressure(eq, 290.0, p, 0.010), pi, sheared) == 0.0);
  CHECK(smagorinsky.nu_t(eq, equilibrium_at_pressure(eq, 290.0, p, 0.016), pi, sheared) > 0.0);

  // A cloudy node whose gradients span a capping inversion (theta_li up 8.5 K and q_t
  // down 7.5 g/kg over 50 m, DYCOMS-II RF01): unstable for saturated parcels, stable in
  // the unsaturated form, which a cloud's edge asks for.
  const Moist::Prim top = equilibrium_at_pressure(eq, 283.0, p, 0.012);
  REQUIRE(top.q_l > 0);
  Moist::Gradients inversion{};
  inversion.dtheta[2] = 8.5 / 50, inversion.dc[0][2] = -7.5e-3 / 50;
  const double saturated = eq.buoyancy_frequency_squared(top, pi, inversion, 9.81);
  const double edge = eq.buoyancy_frequency_squared(top, pi, inversion, 9.81, true);
  CHECK(saturated < 0);
  CHECK(edge > 0);
  // The unsaturated form: g / theta_rho ((1 + eps q_t) dtheta/dz + eps theta dq_t/dz).
  const double eps = eq.thermo.water.R_v / eq.gas.R_d - 1, theta = top.T / pi;
  CHECK(edge == Approx(9.81 / theta_rho_of(eq, top) *
                       ((1 + eps * top.q_t) * inversion.dtheta[2] + eps * theta * inversion.dc[0][2])));
  // Clear air is unchanged by it.
  const Moist::Prim clear_air = equilibrium_at_pressure(eq, 290.0, p, 0.010);
  CHECK(eq.buoyancy_frequency_squared(clear_air, pi, inversion, 9.81, true) ==
        eq.buoyancy_frequency_squared(clear_air, pi, inversion, 9.81));
  // Smagorinsky: an eddy viscosity across the inversion in the saturated form, none at
  // a cloud's edge with a weak shear.
  Moist::Gradients sheared_top = inversion;
  sheared_top.du[0][2] = 0.05;
  CHECK(smagorinsky.nu_t(eq, top, pi, sheared_top) > 0.0);
  CHECK(smagorinsky.nu_t(eq, top, pi, sheared_top, true) == 0.0);
}

TEST_CASE("moist air: derived fields; dry air's sound speed at q_t = 0", "[moist]") {
  const Moist eq = moist_air();
  const DryAir<0> dry{};
  const Moist::Cons q = eq.conservative(1.1, 0, 0, 0, 285.0, 0, 0.02);
  double out[Moist::nderived];
  eq.derived(q, 0, out);
  const auto w = eq.primitive(q, 0);
  CHECK(out[Moist::f_qt] == Approx(0.02));
  CHECK(out[Moist::f_ql] == w.q_l);
  CHECK(out[Moist::f_ql] > 0);
  CHECK(out[Moist::f_rh] == Approx(1.0).epsilon(1e-12));
  CHECK(out[Moist::f_theta_li] < out[Moist::f_theta]);   // condensate lowers theta_l
  CHECK(out[Moist::f_theta_rho] < out[Moist::f_theta]);  // and loads theta_rho
  const auto w0 = eq.primitive(eq.conservative(1.1, 0, 0, 0, 285.0, 0, 0.0), 0);
  CHECK(eq.max_wave_speed(w0, 0) == Approx(dry.sound_speed(285.0)).epsilon(1e-14));
  CHECK(Moist::describe({}).conserved_names.back() == "total_water");
  CHECK(Moist::describe({}).derived.size() == static_cast<size_t>(Moist::nderived));
}

// The positivity limiter (physics/positivity.hpp).
#include <vector>

#include "physics/positivity.hpp"

TEST_CASE("positivity limiter: negative values lifted to >= 0, the weighted mean kept", "[moist]") {
  const std::vector<double> w{0.1, 0.5, 0.8, 0.5, 0.1};
  const auto weighted_sum = [&](const std::vector<double>& v) {
    double s = 0;
    for (size_t i = 0; i < v.size(); ++i) s += w[i] * v[i];
    return s;
  };
  const auto run = [&](std::vector<double>& v) {
    return limit_toward_mean(
        5, [&](int i) { return v[i]; }, [&](int i, double x) { v[i] = x; }, [&](int i) { return w[i]; });
  };
  std::vector<double> v{-2e-4, 1e-3, 4e-3, 2e-3, 5e-4};
  const double before = weighted_sum(v);
  CHECK(run(v) == 1);
  for (double x : v) CHECK(x >= -1e-19);
  CHECK(*std::min_element(v.begin(), v.end()) == Approx(0.0).margin(1e-18));
  CHECK(weighted_sum(v) == Approx(before).epsilon(1e-15));
  // Non-negative values are left alone, bit for bit.
  std::vector<double> good{0.0, 1e-3, 4e-3, 2e-3, 5e-4};
  const std::vector<double> copy = good;
  CHECK(run(good) == 0);
  CHECK(good == copy);
  // A negative mean cannot be helped: left as it is, and said so.
  std::vector<double> bad{-1e-3, -1e-3, 1e-4, -1e-3, -1e-3};
  const std::vector<double> bad_copy = bad;
  CHECK(run(bad) == -1);
  CHECK(bad == bad_copy);
}
