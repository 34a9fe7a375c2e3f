// Packs of elements (core/simd.hpp): each lane of a pack computation has the bits of the
// scalar computation of that lane, for the arithmetic and for the pointwise physics the
// host kernels evaluate on packs (dry air's primitive variables, inviscid and viscous
// fluxes and wave speed, the three closures with their branches as lane-wise selections;
// moist air's primitive variables from the stored thermodynamic values, its saturated and
// unsaturated N^2 with the cloud-edge lanes, its inviscid and viscous fluxes and wave
// speed).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/simd.hpp"
#include "physics/closures.hpp"
#include "physics/moist_air.hpp"

using namespace squall;
using namespace squall::physics;

namespace {
constexpr int W = pack_width;
using P = Pack<W>;
/// The test points: lane l of a pack holds point l % points (W = 4 or 8).
constexpr int points = 4;

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

P pack(const double (&x)[points]) {
  return P::gather([&](int l) { return x[l % points]; });
}

/// The gradients of lane l of a pack of gradients.
template <class G, class GP>
G lane(const GP& g, int l) {
  G s{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) s.du[i][j] = g.du[i][j][l];
    s.dT[i] = g.dT[i][l];
    s.dtheta[i] = g.dtheta[i][l];
  }
  return s;
}
}  // namespace

TEST_CASE("packs: load and store W consecutive values", "[simd]") {
  double x[2 * W], y[2 * W] = {};
  for (int i = 0; i < 2 * W; ++i) x[i] = 0.5 + i;
  const P p = P::load(x + 1);
  for (int l = 0; l < W; ++l) CHECK(same_bits(p[l], x[1 + l]));
  p.store(y + W - 1);
  for (int i = 0; i < 2 * W; ++i) CHECK(same_bits(y[i], i >= W - 1 && i < 2 * W - 1 ? x[i - W + 2] : 0.0));
}

TEST_CASE("packs: lane-wise arithmetic has the scalar bits", "[simd]") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double a_points[points] = {1.5, -0.0, 3e-310, inf};
  const double b_points[points] = {-2.25, 0.0, 7.0 / 3, nan};
  const P pa = pack(a_points), pb = pack(b_points);
  double a[W], b[W];
  for (int l = 0; l < W; ++l) a[l] = a_points[l % points], b[l] = b_points[l % points];
  for (int l = 0; l < W; ++l) {
    INFO("lane " << l);
    CHECK(same_bits((pa + pb)[l], a[l] + b[l]));
    CHECK(same_bits((pa - pb)[l], a[l] - b[l]));
    CHECK(same_bits((pa * pb)[l], a[l] * b[l]));
    CHECK(same_bits((pa / pb)[l], a[l] / b[l]));
    CHECK(same_bits((-pa)[l], -a[l]));
    CHECK(same_bits((0.5 * (pb - pa))[l], 0.5 * (b[l] - a[l])));
    CHECK(same_bits(math::sqrt(pa * pa + 2.0)[l], math::sqrt(a[l] * a[l] + 2.0)));
    CHECK(same_bits(math::max(pa, pb)[l], math::max(a[l], b[l])));  // NaN as the scalar form
    CHECK(same_bits(math::pow(pa * pa + 1.0, 0.2857)[l], math::pow(a[l] * a[l] + 1.0, 0.2857)));
    CHECK(same_bits(select(pa > pb, pa, pb)[l], a[l] > b[l] ? a[l] : b[l]));
    CHECK(same_bits(select((pa > 0.0) & (pb < 1.0), pa, P(-1.0))[l], (a[l] > 0 && b[l] < 1) ? a[l] : -1.0));
  }
  // A broadcast keeps the sign of zero (0 + x would not).
  CHECK(std::signbit(P(-0.0)[0]));
  CHECK(std::signbit(P(-0.0)[W - 1]));
}

TEST_CASE("packs: the square root and the absolute value of every lane have the scalar bits", "[simd]") {
  // Pack sqrt takes all lanes in one instruction where the target has it, and pack abs
  // clears the sign bits of all lanes at once: the special values, subnormals and a sweep
  // over the binades, each value in every lane, of both signs.
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> x = {0.0, -0.0, 1.0, 2.0, -1.0, inf, -inf, nan, -nan,
                           std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::max(), 1e-300, 4.9406564584124654e-320};
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  for (int e = -1074; e <= 1023; e += 3) x.push_back(std::ldexp(mantissa(random), e));
  for (int e = -1074; e <= 1023; e += 7) x.push_back(-std::ldexp(mantissa(random), e));
  int checked = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (int shift = 0; shift < W; ++shift) {
      const P p = P::gather([&](int l) { return x[(i + l + shift) % x.size()]; });
      const P r = math::sqrt(p);
      for (int l = 0; l < W; ++l) {
        const double v = x[(i + l + shift) % x.size()];
        INFO("sqrt(" << v << ") in lane " << l);
        CHECK(same_bits(r[l], math::sqrt(v)));
        CHECK(same_bits(math::abs(p)[l], math::abs(v)));
        ++checked;
      }
    }
  CHECK(checked > 2000);
}

TEST_CASE("packs: dry air and the closures, lane by lane as the scalar code", "[simd]") {
  using Eq = DryAir<0>;
  const Eq eq{};
  // Four points: no strain at all, strong stable stratification (Smagorinsky off), pure
  // shear (Vreman's B = 0), and a general strain with a weak stratification.
  const double rho[points] = {1.2, 1.0, 0.9, 1.1}, u[points] = {0, 3, -2, 1.5}, T[points] = {300, 290, 310, 295};
  const double phi[points] = {0, 9.81 * 100, 9.81 * 700, 9.81 * 2000};
  const double du[points][3][3] = {{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
                              {{0, 0, 0.01}, {0, 0, 0}, {0, 0, 0}},
                              {{0, 0, 0.2}, {0, 0, 0}, {0, 0, 0}},
                              {{0.1, 0.2, 0}, {0, -0.1, 0.3}, {0.2, 0, -0.05}}};
  const double dtheta_z[points] = {-0.003, 0.05, 0, 1e-4};  // lane 0 unstable: N^2 / |S|^2 = -inf there
  Eq::Cons q[W];
  for (int l = 0; l < W; ++l) {
    const int x = l % points;
    q[l] = eq.conservative(rho[x], u[x], -0.5 * u[x], 0.25, T[x], phi[x]);
  }
  Eq::ConsOf<P> qp;
  for (int v = 0; v < Eq::nvar; ++v) qp[v] = P::gather([&](int l) { return q[l][v]; });
  const P phip = pack(phi);
  const auto wp = eq.primitive(qp, phip);
  Eq::GradientsOf<P> gp{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) gp.du[i][j] = P::gather([&](int l) { return du[l % points][i][j]; });
    gp.dT[i] = P::gather([&](int l) { return 0.001 * (i + 1) * l; });
    gp.dtheta[i] = i == 2 ? pack(dtheta_z) : P(0.0);
  }
  const P exner_p = eq.exner(wp.p);
  const Smagorinsky smagorinsky{0, 1.0 / 3, grav};
  const Vreman vreman{0, 0, 1.0 / 3};
  const ConstantViscosity none{1.0 / 3};
  const P width = pack({25, 30, 35, 40}), cs2 = P(0.17 * 0.17);
  const auto smag_p = smagorinsky.at_element(width, cs2).nu_t(eq, wp, exner_p, gp);
  const auto vreman_p = vreman.at_element(width, 2.5 * cs2).nu_t(eq, wp, exner_p, gp);
  const auto none_p = none.at_element(width, cs2).nu_t(eq, wp, exner_p, gp);
  int off = 0, on = 0;
  for (int l = 0; l < W; ++l) {
    INFO("lane " << l);
    const Eq::Prim w = eq.primitive(q[l], phi[l % points]);
    CHECK(same_bits(wp.rho[l], w.rho));
    CHECK(same_bits(wp.T[l], w.T));
    CHECK(same_bits(wp.p[l], w.p));
    for (int d = 0; d < 3; ++d) CHECK(same_bits(wp.u[d][l], w.u[d]));
    const Eq::Gradients g = lane<Eq::Gradients>(gp, l);
    const double pi = eq.exner(w.p);
    CHECK(same_bits(exner_p[l], pi));
    const double smag = smagorinsky.at_element(width[l], cs2[l]).nu_t(eq, w, pi, g);
    CHECK(same_bits(smag_p[l], smag));
    (smag == 0 ? off : on) += 1;
    CHECK(same_bits(vreman_p[l], vreman.at_element(width[l], 2.5 * cs2[l]).nu_t(eq, w, pi, g)));
    CHECK(same_bits(none_p[l], 0.0));
    for (const bool theta_diffusion : {false, true})
      for (int d = 0; d < 3; ++d) {
        const P nu = 1e-3 + smag_p, kappa = 2e-3 + smag_p / 0.33;
        const auto fp = eq.viscous_flux(wp, gp, nu, kappa, P(0.0), d, theta_diffusion, exner_p);
        const Eq::Cons f = eq.viscous_flux(w, g, nu[l], kappa[l], 0.0, d, theta_diffusion, pi);
        for (int v = 0; v < Eq::nvar; ++v) CHECK(same_bits(fp[v][l], f[v]));
      }
    for (int d = 0; d < 3; ++d) {  // the face kernels' inviscid flux and wave speed
      const P p_ref = 0.9 * wp.p;
      const auto fp = eq.flux(qp, wp, p_ref, AxisNormal{d});
      const Eq::Cons f = eq.flux(q[l], w, p_ref[l], d);
      for (int v = 0; v < Eq::nvar; ++v) CHECK(same_bits(fp[v][l], f[v]));
      CHECK(same_bits(eq.max_wave_speed(wp, AxisNormal{d})[l], eq.max_wave_speed(w, d)));
    }
  }
  // The branches were taken both ways across the lanes.
  CHECK(off == W / 2);  // no strain; Ri above Pr_t
  CHECK(on == W / 2);
  CHECK(vreman_p[0] == 0.0);
  CHECK(vreman_p[2] == 0.0);  // pure shear
  CHECK(vreman_p[3] > 0.0);
}

TEST_CASE("packs: moist air, lane by lane as the scalar code", "[simd]") {
  using Eq = MoistAir<0>;
  const Eq eq = Eq::make(GasParameters{}, WaterParameters{});
  // Four points: clear air, a cloudy node, a cloudy node at a cloud's edge (N^2 in the
  // unsaturated form), and clear air with a stable theta_li gradient.
  const double rho[points] = {1.15, 1.1, 1.1, 1.0}, T[points] = {299, 285, 285.5, 290};
  const double q_t[points] = {0.016, 0.02, 0.019, 0.004};
  const double phi[points] = {9.81 * 50, 9.81 * 800, 9.81 * 820, 9.81 * 1600};
  const bool edge_of_point[points] = {false, false, true, false};
  bool edge[W];
  Eq::Cons q[W];
  Eq::Prim w[W];
  for (int l = 0; l < W; ++l) {
    const int x = l % points;
    q[l] = eq.conservative(rho[x], 2.0 - l, 0.5 * l, 0.1, T[x], phi[x], q_t[x]);
    w[l] = eq.primitive(q[l], phi[x]);  // by saturation adjustment
    edge[l] = edge_of_point[x];
  }
  REQUIRE(w[0].q_l == 0.0);
  REQUIRE(w[1].q_l > 1e-3);
  REQUIRE(w[2].q_l > 1e-3);
  REQUIRE(w[3].q_l == 0.0);
  Eq::ConsOf<P> qp;
  for (int v = 0; v < Eq::nvar; ++v) qp[v] = P::gather([&](int l) { return q[l][v]; });
  double thermo[W][Eq::nthermo];
  for (int l = 0; l < W; ++l) Eq::thermo_values(w[l], thermo[l]);
  // Without ice the operator keeps T and q_l alone: a value past thermo_count() is NaN
  // here, and the comparisons below fail if primitive_from reads it.
  REQUIRE(eq.thermo_count() == 2);
  for (int l = 0; l < W; ++l)
    for (int k = eq.thermo_count(); k < Eq::nthermo; ++k) thermo[l][k] = std::nan("");
  const auto wp = eq.primitive_from(qp, pack(phi), [&](int k) { return P::gather([&](int l) { return thermo[l][k]; }); });
  Eq::GradientsOf<P> gp{};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) gp.du[i][j] = P::gather([&](int l) { return 0.01 * (1 + i + 2 * j) * (l + 1); });
    gp.dT[i] = P::gather([&](int l) { return -0.0065 * (i == 2) + 1e-4 * l; });
    gp.dtheta[i] = P::gather([&](int l) { return i == 2 ? 0.003 * (l - 1) : 1e-5 * l; });
    gp.dc[0][i] = P::gather([&](int l) { return i == 2 ? -2e-6 * (l + 1) : 1e-7; });
  }
  const P exner_p = eq.exner(wp.p);
  const Mask<W> edges = Mask<W>::gather([&](int l) { return edge[l]; });
  const P n2p = eq.buoyancy_frequency_squared(wp, exner_p, gp, grav, edges);
  const Smagorinsky smagorinsky{0, 1.0 / 3, grav};
  const P width = pack({50, 50, 50, 60}), cs2 = P(0.17 * 0.17);
  const auto smag_p = smagorinsky.at_element(width, cs2).nu_t(eq, wp, exner_p, gp, edges);
  int edge_differs = 0;
  for (int l = 0; l < W; ++l) {
    INFO("lane " << l);
    CHECK(same_bits(wp.rho[l], w[l].rho));
    CHECK(same_bits(wp.T[l], w[l].T));
    CHECK(same_bits(wp.p[l], w[l].p));
    CHECK(same_bits(wp.q_t[l], w[l].q_t));
    CHECK(same_bits(wp.q_l[l], w[l].q_l));
    CHECK(same_bits(wp.q_i[l], w[l].q_i));
    for (int d = 0; d < 3; ++d) CHECK(same_bits(wp.u[d][l], w[l].u[d]));
    Eq::Gradients g = {};
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) g.du[i][j] = gp.du[i][j][l];
      g.dT[i] = gp.dT[i][l];
      g.dtheta[i] = gp.dtheta[i][l];
      g.dc[0][i] = gp.dc[0][i][l];
    }
    const double pi = eq.exner(w[l].p);
    CHECK(same_bits(exner_p[l], pi));
    const double n2 = eq.buoyancy_frequency_squared(w[l], pi, g, grav, edge[l]);
    CHECK(same_bits(n2p[l], n2));
    if (!same_bits(n2, eq.buoyancy_frequency_squared(w[l], pi, g, grav, !edge[l]))) ++edge_differs;
    const double smag = smagorinsky.at_element(width[l], cs2[l]).nu_t(eq, w[l], pi, g, edge[l]);
    CHECK(same_bits(smag_p[l], smag));
    for (const bool theta_diffusion : {false, true})
      for (int d = 0; d < 3; ++d) {
        const P nu = 1e-5 + smag_p, kappa = 2e-5 + smag_p / 0.33;
        const auto fp = eq.viscous_flux(wp, gp, nu, kappa, P(0.0), d, theta_diffusion, exner_p);
        const Eq::Cons f = eq.viscous_flux(w[l], g, nu[l], kappa[l], 0.0, d, theta_diffusion, pi);
        for (int v = 0; v < Eq::nvar; ++v) CHECK(same_bits(fp[v][l], f[v]));
      }
    for (int d = 0; d < 3; ++d) {  // the face kernels' inviscid flux and wave speed
      const P p_ref = 0.9 * wp.p;
      const auto fp = eq.flux(qp, wp, p_ref, AxisNormal{d});
      const Eq::Cons f = eq.flux(q[l], w[l], p_ref[l], d);
      for (int v = 0; v < Eq::nvar; ++v) CHECK(same_bits(fp[v][l], f[v]));
      CHECK(same_bits(eq.max_wave_speed(wp, AxisNormal{d})[l], eq.max_wave_speed(w[l], d)));
    }
  }
  // The cloudy lanes' N^2 depends on the edge: both forms were taken and told apart.
  CHECK(edge_differs == 2 * W / points);
}

TEST_CASE("packs: the bounded logarithm and moist air's primitive variables with the saturation adjustment",
          "[simd]") {
  // log_bounded lane by lane: ordinary values on both sides of the mantissa split, and
  // the values the scalar form returns NaN for.
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double values[] = {1.0, 1.4142135623730951, 1.4142135623730954, 0.7, 3e-5, 2.2250738585072014e-308,
                           1e300, 288.15 / 273.16, 0.0, -1.0, 1e-310, inf, nan, -0.0, 0.5, 1e-7};
  constexpr int count = sizeof values / sizeof values[0];
  for (int first = 0; first < count; first += W) {
    const P x = P::gather([&](int l) { return values[(first + l) % count]; });
    const P y = math::strict::log_bounded(x);
    for (int l = 0; l < W; ++l) {
      INFO("x = " << x[l]);
      CHECK(same_bits(y[l], math::strict::log_bounded(x[l])));
    }
  }
  // And a sweep: every binade of the normal range (mantissas on both sides of sqrt 2 and
  // at its edges), the subnormals below it and the ratios the saturation test takes.
  {
    std::mt19937_64 random(20261207);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    int differing = 0, checked = 0;
    for (int binade = -1080; binade <= 1024; ++binade) {
      const double lanes[] = {std::ldexp(1.0, binade), std::ldexp(1.0 + unit(random), binade),
                              std::ldexp(1.4142135623730951, binade), std::ldexp(1.4142135623730954, binade),
                              std::ldexp(1.9999999999999998, binade), std::ldexp(0.3 + 1.7 * unit(random), 0),
                              0.9 + 0.2 * unit(random), -std::ldexp(1.0 + unit(random), binade)};
      constexpr int n = sizeof lanes / sizeof lanes[0];
      for (int first = 0; first < n; first += W) {
        const P x = P::gather([&](int l) { return lanes[(first + l) % n]; });
        const P y = math::strict::log_bounded(x);
        for (int l = 0; l < W; ++l, ++checked)
          if (!same_bits(y[l], math::strict::log_bounded(x[l]))) ++differing;
      }
    }
    INFO(checked << " values");
    CHECK(checked > 8000);
    CHECK(differing == 0);
  }
  // primitives: clear air far from and near saturation, cloudy air, air that is neither
  // clearly one nor the other, no water, negative water, and the same with ice (the
  // freezing range), against eq.primitive point by point.
  for (const bool ice : {false, true}) {
    INFO("ice " << ice);
    WaterParameters water;
    water.ice = ice;
    using Eq = MoistAir<1>;
    const Eq eq = Eq::make(GasParameters{}, water);
    const double rho[] = {1.15, 1.1, 1.1, 1.0, 0.9, 0.7, 1.2, 0.6};
    const double T[] = {299, 285, 285.5, 290, 300, 255, 295, 250};
    const double q_t[] = {0.016, 0.02, 0.0101, 0.004, 0.0, 0.003, -1e-5, 0.0008};
    constexpr int n = sizeof rho / sizeof rho[0];
    Eq::Cons q[n];
    double phi[n];
    int saturated = 0, clear = 0;
    for (int i = 0; i < n; ++i) {
      phi[i] = 9.81 * 300 * i;
      q[i] = eq.conservative(rho[i], 2.0 - i, 0.5 * i, 0.1, T[i], phi[i], std::max(q_t[i], 0.0));
      q[i][Eq::i_rhoqt] = rho[i] * q_t[i];
      q[i][Eq::i_tracer] = 1e-3 * rho[i] * i;
      // The third point: all vapour at T_1 = T, short of saturation by less than the
      // bounded test's margin (the test cannot settle it; the strict comparison says
      // unsaturated).
      if (i == 2) {
        const double q_v = eq.thermo.q_vap_saturation(T[i], rho[i]) * (1 - 2e-8);
        const PhasePartition vapour{q_v, 0, 0};
        const double u[3] = {q[i][Eq::i_rhou] / rho[i], q[i][Eq::i_rhov] / rho[i], q[i][Eq::i_rhow] / rho[i]};
        q[i][Eq::i_rhoqt] = rho[i] * q_v;
        q[i][Eq::i_rhoe] =
            rho[i] * (eq.thermo.internal_energy(T[i], vapour) + 0.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) + phi[i]);
        const Eq::Prim w = eq.primitive(q[i], phi[i]);
        CHECK(w.q_l + w.q_i == 0.0);
        CHECK_FALSE(eq.thermo.certainly_unsaturated(w.T, w.rho, w.q_t));
      }
      const Eq::Prim w = eq.primitive(q[i], phi[i]);
      if (w.q_l + w.q_i > 0) ++saturated;
      if (w.q_l + w.q_i == 0) ++clear;
    }
    CHECK(saturated >= 1);
    CHECK(clear >= 4);
    for (int first = 0; first < n; first += W) {
      Eq::ConsOf<P> qp;
      for (int v = 0; v < Eq::nvar; ++v) qp[v] = P::gather([&](int l) { return q[(first + l) % n][v]; });
      Eq::Prim w[W];
      eq.primitives(qp, P::gather([&](int l) { return phi[(first + l) % n]; }), w);
      for (int l = 0; l < W; ++l) {
        const int i = (first + l) % n;
        INFO("point " << i);
        const Eq::Prim s = eq.primitive(q[i], phi[i]);
        CHECK(same_bits(w[l].rho, s.rho));
        for (int d = 0; d < 3; ++d) CHECK(same_bits(w[l].u[d], s.u[d]));
        CHECK(same_bits(w[l].T, s.T));
        CHECK(same_bits(w[l].p, s.p));
        CHECK(same_bits(w[l].q_t, s.q_t));
        CHECK(same_bits(w[l].q_l, s.q_l));
        CHECK(same_bits(w[l].q_i, s.q_i));
        CHECK(same_bits(w[l].c[0], s.c[0]));
      }
    }
    // Pi(p) near the reference pressure: in the series' range and beyond it.
    const double p[] = {95000, 95000 * (1 + 0.0078), 95000 * (1 - 0.0078125), 95000 * 1.01, 80000, 95000 * (1 + 1e-9)};
    constexpr int np = sizeof p / sizeof p[0];
    for (int first = 0; first < np; first += W) {
      const P pp = P::gather([&](int l) { return p[(first + l) % np]; });
      const P pe = eq.exner_near(pp, P(95000.0), P(eq.exner(95000.0)));
      for (int l = 0; l < W; ++l) CHECK(same_bits(pe[l], eq.exner_near(pp[l], 95000.0, eq.exner(95000.0))));
    }
    // N^2 of a pack of clear air only (the saturated form is not formed).
    Eq::ConsOf<P> qp;
    const int clear_points[] = {0, 3, 4, 6};
    for (int v = 0; v < Eq::nvar; ++v) qp[v] = P::gather([&](int l) { return q[clear_points[l % 4]][v]; });
    Eq::Prim w[W];
    eq.primitives(qp, P::gather([&](int l) { return phi[clear_points[l % 4]]; }), w);
    Eq::GradientsOf<P> gp{};
    for (int i = 0; i < 3; ++i) {
      gp.dtheta[i] = P::gather([&](int l) { return 0.003 * (l + 1) * (i == 2); });
      gp.dc[0][i] = P::gather([&](int l) { return -2e-6 * (l + 1) * (i == 2); });
    }
    const auto wp = eq.primitive_from(qp, P(0.0), [&](int k) {
      return P::gather([&](int l) {
        double t[Eq::nthermo];
        Eq::thermo_values(w[l], t);
        return t[k];
      });
    });
    const P pi = P::gather([&](int l) { return eq.exner(w[l].p); });
    const P n2 = eq.buoyancy_frequency_squared(wp, pi, gp, grav, Mask<W>::gather([](int) { return false; }));
    for (int l = 0; l < W; ++l) {
      REQUIRE(w[l].q_l + w[l].q_i == 0.0);
      Eq::Gradients g{};
      for (int i = 0; i < 3; ++i) g.dtheta[i] = gp.dtheta[i][l], g.dc[0][i] = gp.dc[0][i][l];
      CHECK(same_bits(n2[l], eq.buoyancy_frequency_squared(w[l], pi[l], g, grav, false)));
    }
  }
}
