// Moist thermodynamics (physics/moist_thermodynamics.hpp): saturation vapour pressure
// against an independent fit, round trips T -> e_int -> T through the saturation
// adjustment, unsaturated and saturated, with and without ice, and the derived
// potential temperatures.
#include <catch2/catch.hpp>
#include <cmath>

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
  CHECK(t.liquid_ice_potential_temperature(T, pi, dry) == Approx(T / pi));
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
