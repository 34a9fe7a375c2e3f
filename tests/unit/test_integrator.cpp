// Time integrators on an ODE with a known solution: the harmonic oscillator
// y'' = -y, as y0' = y1, y1' = -y0, exact y0 = cos t. Halving dt divides the error by
// 2^p; the observed order must be p within 0.2.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "solver/time_integrator.hpp"

using namespace squall;

namespace {

struct Oscillator {
  void operator()(Real, const FlatView& q, const FlatView& dq) const {
    parallel_for("test::oscillator", 1, KOKKOS_LAMBDA(const int) {
      dq(0) = q(1);
      dq(1) = -q(0);
    });
  }
};

double error_at_end(const std::string& scheme, int steps) {
  TimeIntegrator rk(scheme, 2);
  FlatView q("q", 2);
  Kokkos::deep_copy(q, 0.0);
  auto h = Kokkos::create_mirror_view(q);
  h(0) = 1, h(1) = 0;
  Kokkos::deep_copy(q, h);
  const double end = 2.0, dt = end / steps;
  Oscillator rhs;
  for (int s = 0; s < steps; ++s) rk.step(rhs, s * dt, dt, q);
  Kokkos::deep_copy(h, q);
  return std::hypot(h(0) - std::cos(end), h(1) + std::sin(end));
}

double observed_order(const std::string& scheme) {
  const double coarse = error_at_end(scheme, 20), fine = error_at_end(scheme, 40);
  return std::log2(coarse / fine);
}

}  // namespace

TEST_CASE("lsrk54 is fourth order", "[integrator]") {
  CHECK(TimeIntegrator("lsrk54", 1).stages() == 5);
  CHECK(observed_order("lsrk54") == Approx(4.0).margin(0.2));
}

TEST_CASE("lsrk144 is fourth order, with 14 stages", "[integrator]") {
  CHECK(TimeIntegrator("lsrk144", 1).stages() == 14);
  CHECK(observed_order("lsrk144") == Approx(4.0).margin(0.2));
}

namespace {
// y' = 4 t^3: the stage times c_s must be right for the exact answer y(1) = 1 (a fourth
// order scheme integrates a cubic in t exactly).
struct Quartic {
  void operator()(Real t, const FlatView&, const FlatView& dq) const {
    parallel_for("test::quartic", 1, KOKKOS_LAMBDA(const int) { dq(0) = 4 * t * t * t; });
  }
};
}  // namespace

TEST_CASE("the low-storage schemes' stage times integrate a cubic exactly", "[integrator]") {
  for (const char* scheme : {"lsrk54", "lsrk144"}) {
    TimeIntegrator rk(scheme, 1);
    FlatView q("q", 1);
    Kokkos::deep_copy(q, 0.0);
    Quartic rhs;
    for (int s = 0; s < 4; ++s) rk.step(rhs, 0.25 * s, 0.25, q);
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    INFO(scheme);
    // The published coefficients have 16 digits: exact to about 1e-14.
    CHECK(h(0) == Approx(1.0).margin(1e-13));
  }
}

TEST_CASE("ssprk33 is third order", "[integrator]") {
  CHECK(TimeIntegrator("ssprk33", 1).stages() == 3);
  CHECK(observed_order("ssprk33") == Approx(3.0).margin(0.2));
}

TEST_CASE("an unknown integrator is an input error", "[integrator]") {
  CHECK_THROWS_AS(TimeIntegrator("euler", 1), InputError);
}

namespace {

// y0' = y1, y1' = -y0, y2' = y0; the companion's rate is y0 at each stage, so it must
// follow y2 (= sin t) as the state does.
struct OscillatorWithIntegral {
  double rate = 0;
  void operator()(Real, const FlatView& q, const FlatView& dq) {
    parallel_for("test::oscillator_integral", 1, KOKKOS_LAMBDA(const int) {
      dq(0) = q(1);
      dq(1) = -q(0);
      dq(2) = q(0);
    });
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    rate = h(0);
  }
};

}  // namespace

TEST_CASE("a companion scalar is integrated with the state's weights", "[integrator]") {
  for (const char* scheme : {"lsrk54", "lsrk144", "ssprk33"}) {
    TimeIntegrator rk(scheme, 3);
    FlatView q("q", 3);
    auto h = Kokkos::create_mirror_view(q);
    h(0) = 1, h(1) = 0, h(2) = 0;
    Kokkos::deep_copy(q, h);
    OscillatorWithIntegral rhs;
    double integral = 0;
    const double dt = 0.05;
    for (int s = 0; s < 40; ++s) rk.step(rhs, s * dt, dt, q, Companion{&rhs.rate, &integral, 1});
    Kokkos::deep_copy(h, q);
    INFO(scheme);
    CHECK(integral == Approx(h(2)).epsilon(0).margin(1e-15));
    CHECK(integral == Approx(std::sin(2.0)).margin(1e-5));
  }
}

namespace {
// Each member of a batch: y' = -y + t on its own block of two values (y, and y's copy
// scaled by 2), and the rate 3 y of a companion per member. Its stage times are checked
// against the clock's.
struct Members {
  int members;
  const double* stage_t = nullptr;
  std::vector<double> rates;
  void operator()(Real, const FlatView& q, const FlatView& dq) {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), q);
    auto d = Kokkos::create_mirror_view(dq);
    rates.assign(members, 0.0);
    for (int m = 0; m < members; ++m) {
      const double t = stage_t ? stage_t[m] : 0.0;
      d(2 * m) = -h(2 * m) + t;
      d(2 * m + 1) = 2 * (-h(2 * m) + t);
      rates[m] = 3 * h(2 * m);
    }
    Kokkos::deep_copy(dq, d);
  }
};
}  // namespace

TEST_CASE("a batch's members each step with their own t and dt, bit for bit as alone", "[integrator]") {
  const double t0[3] = {0.0, 0.4, 1.1}, dt[3] = {0.1, 0.037, 0.1};
  for (const char* scheme : {"lsrk54", "lsrk144", "ssprk33"}) {
    INFO(scheme);
    // Alone: member m from y = 1 + m.
    std::vector<double> alone(3), alone_companion(3);
    for (int m = 0; m < 3; ++m) {
      TimeIntegrator rk(scheme, 2);
      FlatView q("q", 2);
      auto h = Kokkos::create_mirror_view(q);
      h(0) = 1 + m, h(1) = 2 * (1 + m);
      Kokkos::deep_copy(q, h);
      double t = t0[m], stage_t = 0;
      Members rhs{1, &stage_t, {}};
      for (int s = 0; s < 7; ++s) {
        rk.step(rhs, t, dt[m], q, Companion{}, MemberClock{&t, &dt[m], 1, 2, &stage_t});
        t += dt[m];
      }
      Kokkos::deep_copy(h, q);
      alone[m] = h(0);
      CHECK(h(1) == 2 * h(0));
    }
    // Together, the three blocks side by side.
    TimeIntegrator rk(scheme, 6);
    FlatView q("q", 6);
    auto h = Kokkos::create_mirror_view(q);
    for (int m = 0; m < 3; ++m) h(2 * m) = 1 + m, h(2 * m + 1) = 2 * (1 + m);
    Kokkos::deep_copy(q, h);
    double t[3] = {t0[0], t0[1], t0[2]}, stage_t[3] = {};
    Members rhs{3, stage_t, {}};
    for (int s = 0; s < 7; ++s) {
      rk.step(rhs, t[0], dt[0], q, Companion{}, MemberClock{t, dt, 3, 2, stage_t});
      for (int m = 0; m < 3; ++m) t[m] += dt[m];
    }
    Kokkos::deep_copy(h, q);
    for (int m = 0; m < 3; ++m) CHECK(h(2 * m) == alone[m]);  // bit for bit
    // The exact solution y = t - 1 + C e^-(t - t0) with C = y0 - t0 + 1: the stage times
    // matter (the rhs reads each member's own, stage_t[m]).
    for (int m = 0; m < 3; ++m) {
      const double tend = t0[m] + 7 * dt[m];
      const double exact = tend - 1 + (1 + m - t0[m] + 1) * std::exp(-(tend - t0[m]));
      CHECK(h(2 * m) == Approx(exact).margin(1e-4));  // ssprk33: third order
    }
  }
}

TEST_CASE("a batch's companions use each member's dt", "[integrator]") {
  // Companion m integrates the rate 3 y_m: with equal and with different steps, member m's
  // integral is what a run of its own accumulates.
  const double dt[2] = {0.05, 0.02};
  for (const char* scheme : {"lsrk54", "ssprk33"}) {
    INFO(scheme);
    double alone[2];
    for (int m = 0; m < 2; ++m) {
      TimeIntegrator rk(scheme, 2);
      FlatView q("q", 2);
      auto h = Kokkos::create_mirror_view(q);
      h(0) = 1, h(1) = 2;
      Kokkos::deep_copy(q, h);
      double t = 0, stage_t = 0, integral = 0;
      Members rhs{1, &stage_t, {}};
      rhs.rates.assign(1, 0.0);
      for (int s = 0; s < 5; ++s) {
        rk.step(rhs, t, dt[m], q, Companion{rhs.rates.data(), &integral, 1}, MemberClock{&t, &dt[m], 1, 2, &stage_t});
        t += dt[m];
      }
      alone[m] = integral;
    }
    TimeIntegrator rk(scheme, 4);
    FlatView q("q", 4);
    auto h = Kokkos::create_mirror_view(q);
    h(0) = 1, h(1) = 2, h(2) = 1, h(3) = 2;
    Kokkos::deep_copy(q, h);
    double t[2] = {0, 0}, stage_t[2] = {}, integral[2] = {0, 0};
    Members rhs{2, stage_t, {}};
    rhs.rates.assign(2, 0.0);
    for (int s = 0; s < 5; ++s) {
      rk.step(rhs, t[0], dt[0], q, Companion{rhs.rates.data(), integral, 2}, MemberClock{t, dt, 2, 2, stage_t});
      for (int m = 0; m < 2; ++m) t[m] += dt[m];
    }
    CHECK(integral[0] == alone[0]);
    CHECK(integral[1] == alone[1]);
    CHECK(integral[0] != integral[1]);
  }
}
