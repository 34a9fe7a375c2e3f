// The moist cases' temperature inversion (cases/sounding.hpp): bisect_temperature gives
// the bits of the plain 64 halvings, with far fewer evaluations, for the cases'
// theta_l(T) at random pressures and water contents (saturated and not), and where the
// root lies outside [150 K, 400 K] or on a halving's midpoint.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdio>
#include <random>

#include "cases/sounding.hpp"
#include "physics/moist_thermodynamics.hpp"

using namespace squall;

namespace {
// The plain and the fast inversion of f, with their counts of evaluations.
template <class F>
void compare(const F& f, long& plain_calls, long& fast_calls) {
  long calls = 0;
  const auto counted = [&](Real T) {
    ++calls;
    return f(T);
  };
  const Real plain = cases::bisect_temperature_plain(counted);
  plain_calls += calls;
  calls = 0;
  const Real fast = cases::bisect_temperature(counted);
  fast_calls += calls;
  if (fast != plain) std::printf("fast %.17g plain %.17g\n", fast, plain);
  CHECK(fast == plain);
}
}  // namespace

TEST_CASE("bisect_temperature: the plain bisection's bits for theta_l(T) = theta_l", "[cases]") {
  physics::MoistThermodynamics t;
  std::mt19937_64 random(20261207);
  std::uniform_real_distribution<Real> theta(285, 330), water(0, 0.025), pressure(5e4, 1.02e5);
  long plain_calls = 0, fast_calls = 0;
  int saturated = 0;
  for (int i = 0; i < 2000; ++i) {
    const Real theta_l = theta(random), q_t = water(random), p = pressure(random), pi = t.exner(p);
    const auto f = [&](Real T) {
      const Real q_l = std::max(Real(0), q_t - t.q_vap_saturation_from_pressure(T, p, q_t, 1));
      return t.liquid_ice_potential_temperature(T, pi, {q_t, q_l, 0}) - theta_l;
    };
    compare(f, plain_calls, fast_calls);
    const Real T = cases::bisect_temperature(f);
    if (q_t > t.q_vap_saturation_from_pressure(T, p, q_t, 1)) ++saturated;
  }
  std::printf("theta_l inversions: %d of 2000 saturated, %ld evaluations plain, %ld fast\n", saturated,
              plain_calls, fast_calls);
  CHECK(saturated > 200);  // both branches of f are exercised
  CHECK(fast_calls < plain_calls / 2);
}

TEST_CASE("bisect_temperature: roots outside the range and on a midpoint", "[cases]") {
  long plain_calls = 0, fast_calls = 0;
  for (const Real root : {100.0, 150.0, 275.0, 337.5, 400.0, 500.0, 212.5 + 1e-9})
    compare([&](Real T) { return T - root; }, plain_calls, fast_calls);
  compare([](Real) { return 1.0; }, plain_calls, fast_calls);
  compare([](Real) { return -1.0; }, plain_calls, fast_calls);
  compare([](Real) { return 0.0; }, plain_calls, fast_calls);
  // Steep and flat slopes, and a kink (the saturation point's) at the root.
  for (const Real slope : {1e-3, 1.0, 1e3})
    compare([&](Real T) { return slope * (T - 293.15); }, plain_calls, fast_calls);
  compare([](Real T) { return T < 280 ? 4 * (T - 280) : (T - 280) / 4; }, plain_calls, fast_calls);
}
