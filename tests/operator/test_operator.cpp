// The DG operator: free-stream preservation, exact rest of a balanced atmosphere, and
// discrete conservation of mass and energy in a closed box.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "cases/registry.hpp"
#include "core/reproducible_sum.hpp"
#include "solver/dg_operator.hpp"
#include "solver/pointwise_fill.hpp"
#include "tests/operator/operator_states.hpp"

using namespace squall;
using namespace squall::dg;
using squall::test::UniformFlow;
using squall::test::Wavy;

namespace {

/// Smooth mixing ratios for tracer k.
struct WavyTracers {
  KOKKOS_INLINE_FUNCTION Real operator()(int k, Real x, Real y, Real z) const {
    return Real(0.5) + Real(0.3) * math::sin(Real(0.004) * (k + 1) * x - Real(0.002) * y + Real(0.005) * z);
  }
};

/// A uniform mixing ratio c = 0.3 (tracer k: 0.3 (k + 1)).
struct UniformTracers {
  KOKKOS_INLINE_FUNCTION Real operator()(int k, Real, Real, Real) const { return Real(0.3) * (k + 1); }
};

template <int N, class Eq = Equations>
struct Setup {
  static constexpr int nvar = Eq::nvar;
  mesh::Brick brick;
  mesh::LocalMesh mesh;
  Basis<N> basis = Basis<N>::make();
  Geometry geometry;
  Timers timers;
  FlatView q, dq;
  AuxView aux;

  /// `elements` elements of 500 m along each direction.
  explicit Setup(std::array<bool, 3> periodic, std::array<int, 3> elements = {3, 2, 2})
      : brick(elements, {{{0, 500.0 * elements[0]}, {0, 500.0 * elements[1]}, {0, 500.0 * elements[2]}}}, periodic),
        mesh(brick, mesh::CartesianPartition::choose(elements, 1), 0),
        geometry(make_geometry<N>(mesh, basis)) {
    const std::size_t size = static_cast<std::size_t>(mesh.element_count()) * nvar * Layout<N>::nodes;
    q = FlatView("q", size);
    dq = FlatView("dq", size);
    aux = AuxView("aux", mesh.element_count(), Equations::naux, Layout<N>::nodes);
  }
  StateView state() const { return StateView(q.data(), mesh.element_count(), nvar, Layout<N>::nodes); }
  HostView<Real***> rhs(Real gravity, bool split, Real viscosity = 0, const physics::Sponge* sponge = nullptr) {
    OperatorOptions options;
    if (sponge) options.sponge = true, options.sponge_layer = *sponge;
    options.gravity = gravity;
    options.split_form = split;
    options.viscosity = viscosity;
    DgOperator<N, Eq> op(mesh, basis, geometry, aux, options, MPI_COMM_WORLD, timers);
    op(0.0, q, dq);
    // A copy of its own (a mirror of host memory would alias dq).
    HostView<Real***> result("rhs", mesh.element_count(), nvar, Layout<N>::nodes);
    Kokkos::deep_copy(result, op.state_view(dq));
    return result;
  }
};

double max_abs(const HostView<Real***>& v) {
  double m = 0;
  for (size_t i = 0; i < v.size(); ++i) m = std::max(m, std::fabs(v.data()[i]));
  return m;
}

template <int N>
void check_free_stream(bool split) {
  INFO("N = " << N << (split ? ", split form" : ", standard form"));
  Setup<N> s({true, true, true});
  fill_pointwise("test::uniform", Equations{}, s.geometry.x, s.state(), s.aux, 0.0, UniformFlow{});
  // The largest flux is about rho e u ~ 1.2 * 2.2e5 * 10; its derivative through D has
  // entries ~ (N+1)^2 * 2/h: round-off there is ~1e-16 of that.
  const double scale = 1.2 * 2.2e5 * 10 * (N + 1) * (N + 1) * 2 / 500.0;
  CHECK(max_abs(s.rhs(0.0, split)) <= 1e-13 * scale);
}

template <int N>
void check_rest(bool split) {
  INFO("N = " << N << (split ? ", split form" : ", standard form"));
  Setup<N> s({true, true, false});
  Config config;
  cases::make_rest_atmosphere(config)->initialize(s.geometry.x, s.state(), s.aux);
  // The reference state is the discrete state, so every flux and source term is an exact
  // zero: the right-hand side vanishes bitwise, not just to round-off.
  CHECK(max_abs(s.rhs(physics::grav, split)) == 0.0);
}

template <int N>
void check_conservation(bool split) {
  INFO("N = " << N << (split ? ", split form" : ", standard form"));
  Setup<N> s({true, true, false});
  fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
  const auto dq = s.rhs(physics::grav, split);
  std::vector<double> w;
  std::vector<double> lgl(s.basis.w, s.basis.w + N + 1);
  // d/dt of the integrals: sum of quadrature weight x tendency, exactly summed.
  ExactSum mass, energy;
  double mass_scale = 0, energy_scale = 0;
  for (size_t e = 0; e < dq.extent(0); ++e)
    for (int n = 0; n < Layout<N>::nodes; ++n) {
      const double weight = lgl[Layout<N>::index(n, 0)] * lgl[Layout<N>::index(n, 1)] * lgl[Layout<N>::index(n, 2)];
      mass.add(weight * dq(e, Equations::i_rho, n));
      energy.add(weight * dq(e, Equations::i_rhoe, n));
      mass_scale += weight * std::fabs(dq(e, Equations::i_rho, n));
      energy_scale += weight * std::fabs(dq(e, Equations::i_rhoe, n));
    }
  REQUIRE(mass_scale > 0);  // the state really evolves
  CHECK(std::fabs(mass.value()) <= 1e-13 * mass_scale);
  CHECK(std::fabs(energy.value()) <= 1e-13 * energy_scale);
}

}  // namespace

TEST_CASE("free stream is preserved to round-off", "[operator]") {
  for (const bool split : {false, true}) {
    check_free_stream<1>(split);
    check_free_stream<2>(split);
    check_free_stream<4>(split);
  }
}

TEST_CASE("the resting atmosphere has an exactly zero right-hand side", "[operator]") {
  for (const bool split : {false, true}) {
    check_rest<1>(split);
    check_rest<3>(split);
    check_rest<4>(split);
  }
}

TEST_CASE("mass and total energy are conserved discretely in a closed box", "[operator]") {
  for (const bool split : {false, true}) {
    check_conservation<2>(split);
    check_conservation<3>(split);
    check_conservation<5>(split);
  }
}

TEST_CASE("with viscosity: free stream kept, mass and energy conserved behind free-slip walls", "[operator]") {
  {
    Setup<3> s({true, true, true});
    fill_pointwise("test::uniform", Equations{}, s.geometry.x, s.state(), s.aux, 0.0, UniformFlow{});
    const double scale = 1.2 * 2.2e5 * 10 * 16 * 2 / 500.0;
    CHECK(max_abs(s.rhs(0.0, true, 75.0)) <= 1e-13 * scale);
  }
  for (const bool split : {false, true}) {
    Setup<3> s({true, true, false});
    fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
    const auto inviscid = s.rhs(physics::grav, split);
    const auto viscous = s.rhs(physics::grav, split, 75.0);
    ExactSum mass, energy;
    double mass_scale = 0, energy_scale = 0, change = 0;
    for (size_t e = 0; e < viscous.extent(0); ++e)
      for (int n = 0; n < Layout<3>::nodes; ++n) {
        const auto& b = s.basis;
        const double w = b.w[Layout<3>::index(n, 0)] * b.w[Layout<3>::index(n, 1)] * b.w[Layout<3>::index(n, 2)];
        mass.add(w * viscous(e, Equations::i_rho, n));
        energy.add(w * viscous(e, Equations::i_rhoe, n));
        mass_scale += w * std::fabs(viscous(e, Equations::i_rho, n));
        energy_scale += w * std::fabs(viscous(e, Equations::i_rhoe, n));
        change = std::max(change, std::fabs(viscous(e, Equations::i_rhou, n) - inviscid(e, Equations::i_rhou, n)));
      }
    CHECK(change > 0);  // the viscous terms act
    // Each bounded by its own scale (the sum of the magnitudes of its terms).
    CHECK(mass_scale > 0);
    CHECK(std::fabs(mass.value()) <= 1e-13 * mass_scale);
    CHECK(std::fabs(energy.value()) <= 1e-13 * energy_scale);
  }
}

TEST_CASE("the sponge relaxes momentum near the top and nothing else", "[operator]") {
  Setup<2> s({true, true, true});
  fill_pointwise("test::uniform", Equations{}, s.geometry.x, s.state(), s.aux, 0.0, UniformFlow{});
  const physics::Sponge sponge{600.0, 1000.0, 0.5, 2.0, {0, 0, 0}};
  const auto dq = s.rhs(0.0, true, 0.0, &sponge);
  const auto x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.geometry.x);
  const auto q = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.state());
  for (size_t e = 0; e < dq.extent(0); ++e)
    for (int n = 0; n < Layout<2>::nodes; ++n) {
      const double alpha = sponge.coefficient(x(e, 2, n));
      for (int d = 0; d < 3; ++d)  // free stream: the sponge is all there is
        CHECK(dq(e, Equations::i_rhou + d, n) == Approx(-alpha * q(e, Equations::i_rhou + d, n)).margin(1e-9));
      CHECK(std::fabs(dq(e, Equations::i_rho, n)) < 1e-9);
      CHECK(std::fabs(dq(e, Equations::i_rhoe, n)) < 1e-6);
    }
}

TEST_CASE("the split form agrees with the standard form to truncation error", "[operator]") {
  // Both discretise the same equations: on a smooth state their right-hand sides differ
  // by far less than the right-hand side itself, but they do differ (the option works).
  Setup<4> s({true, true, false});
  fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
  const auto standard = s.rhs(physics::grav, false);
  const auto split = s.rhs(physics::grav, true);
  double difference = 0;
  for (size_t i = 0; i < standard.size(); ++i)
    difference = std::max(difference, std::fabs(standard.data()[i] - split.data()[i]));
  CHECK(difference > 0);
  CHECK(difference < 1e-2 * max_abs(standard));
}

/// The right-hand side and the largest diffusivity with the given kernel layout (and
/// with the element layout's packs or without).
template <int N, class Eq>
std::pair<HostView<Real***>, Real> rhs_with_layout(Setup<N, Eq>& s, OperatorOptions options, KernelLayout layout,
                                                   bool packs = true) {
  options.kernel_layout = layout;
  options.element_packs = packs;
  DgOperator<N, Eq> op(s.mesh, s.basis, s.geometry, s.aux, options, MPI_COMM_WORLD, s.timers);
  op(0.0, s.q, s.dq);
  HostView<Real***> result("rhs", s.mesh.element_count(), Eq::nvar, Layout<N>::nodes);
  Kokkos::deep_copy(result, op.state_view(s.dq));
  return {result, op.max_diffusivity()};
}

template <int N, class Eq = Equations>
void check_layouts_agree(Real viscosity, Closure closure, bool no_slip) {
  INFO("N = " << N << ", viscosity " << viscosity << ", closure " << static_cast<int>(closure)
              << (no_slip ? ", no-slip walls" : "") << ", tracers " << Eq::ntracers);
  // 18 elements: on host backends four packs of four elements and two elements alone.
  Setup<N, Eq> s({true, true, false}, {3, 3, 2});
  fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
  fill_tracers("test::tracers", s.geometry.x, s.state(), Eq::i_tracer, Eq::ntracers, WavyTracers{});
  OperatorOptions options;
  options.gravity = physics::grav;
  options.split_form = true;
  options.viscosity = viscosity;
  options.closure = closure;
  if (no_slip) {
    options.walls.kind[4] = physics::no_slip_isothermal, options.walls.temperature[4] = 310;
    options.walls.kind[5] = physics::no_slip_adiabatic;
  }
  const auto elements = rhs_with_layout(s, options, KernelLayout::elements, false);
  REQUIRE(max_abs(elements.first) > 0);
  for (const int other : {-1, static_cast<int>(KernelLayout::nodes), static_cast<int>(KernelLayout::teams)}) {
    INFO("against layout " << other << " (-1: elements by packs)");
    const auto result = other < 0 ? rhs_with_layout(s, options, KernelLayout::elements, true)
                                  : rhs_with_layout(s, options, static_cast<KernelLayout>(other));
    long differing = 0;
    for (size_t i = 0; i < elements.first.size(); ++i)
      if (std::memcmp(&elements.first.data()[i], &result.first.data()[i], sizeof(Real)) != 0) ++differing;
    CHECK(differing == 0);
    CHECK(elements.second == result.second);
  }
}

TEST_CASE("the kernel layouts (elements, packs, nodes, teams) give the same bits", "[operator]") {
  // Split form, inviscid and viscous: the line kernel of the volume term and the fused
  // lifting with the viscous volume term against the same taking packs of elements (one
  // per vector lane), against the per-node kernels devices use, and against the team
  // kernel of the lifting and viscous volume term.
  for (const Closure closure : {Closure::constant, Closure::smagorinsky, Closure::vreman}) {
    const Real nu = closure == Closure::constant ? 0.0 : 15.0;  // subgrid models alone, then with nu
    check_layouts_agree<1>(nu, closure, false);
    check_layouts_agree<2>(15.0, closure, true);
    check_layouts_agree<3>(nu, closure, false);
    check_layouts_agree<4>(15.0, closure, true);
    check_layouts_agree<5>(nu, closure, false);
    check_layouts_agree<3, physics::DryAir<2>>(15.0, closure, true);  // with tracers
  }
}

TEST_CASE("the operator reports the largest total diffusivity, subgrid viscosity included", "[operator]") {
  const auto max_diffusivity = [](const auto& fill, Closure closure) {
    Setup<3> s({true, true, fill.periodic});
    fill(s);
    OperatorOptions options;
    options.viscosity = 2.0;
    options.prandtl = 0.5;  // kappa = 4
    options.closure = closure;
    options.smagorinsky_cs = 0.5;
    DgOperator<3, Equations> op(s.mesh, s.basis, s.geometry, s.aux, options, MPI_COMM_WORLD, s.timers);
    CHECK_FALSE(op.evaluated());
    CHECK(op.max_diffusivity() == 4.0);  // before any call: the molecular one
    op(0.0, s.q, s.dq);
    CHECK(op.evaluated());
    return op.max_diffusivity();
  };
  struct {
    bool periodic = true;  // uniform flow through walls would be sheared there
    void operator()(Setup<3>& s) const {
      fill_pointwise("test::uniform", Equations{}, s.geometry.x, s.state(), s.aux, 0.0, UniformFlow{});
    }
  } uniform;
  struct {
    bool periodic = false;
    void operator()(Setup<3>& s) const { fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, 0.0, Wavy{}); }
  } wavy;
  CHECK(max_diffusivity(wavy, Closure::constant) == 4.0);
  CHECK(max_diffusivity(uniform, Closure::smagorinsky) == Approx(4.0).epsilon(1e-9));  // no strain, no nu_t
  CHECK(max_diffusivity(wavy, Closure::smagorinsky) > 4.0);      // kappa + nu_t / Pr_t
  CHECK(max_diffusivity(wavy, Closure::vreman) > 4.0);
}

TEST_CASE("tracers: a uniform mixing ratio stays uniform, tracer mass is conserved, the dry part is untouched",
          "[operator]") {
  using Eq = physics::DryAir<2>;
  constexpr int N = 3;
  for (const bool split : {false, true})
    for (const Real viscosity : {0.0, 40.0}) {
      INFO((split ? "split form" : "standard form") << ", viscosity " << viscosity);
      // A wavy flow behind walls carrying uniform tracers: d(rho c)/dt = c d(rho)/dt.
      Setup<N, Eq> s({true, true, false});
      fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
      fill_tracers("test::uniform_tracers", s.geometry.x, s.state(), Eq::i_tracer, 2, UniformTracers{});
      const auto dq = s.rhs(physics::grav, split, viscosity);
      double rho_scale = 0, worst = 0;
      for (size_t e = 0; e < dq.extent(0); ++e)
        for (int n = 0; n < Layout<N>::nodes; ++n) {
          rho_scale = std::max(rho_scale, std::fabs(dq(e, Eq::i_rho, n)));
          for (int k = 0; k < 2; ++k)
            worst = std::max(worst, std::fabs(dq(e, Eq::i_tracer + k, n) - 0.3 * (k + 1) * dq(e, Eq::i_rho, n)));
        }
      CHECK(rho_scale > 0);
      CHECK(worst <= 1e-12 * rho_scale);
      // Wavy tracers: their masses are conserved in the closed box, and the dry part of the
      // right-hand side is bit for bit the one without tracers.
      fill_tracers("test::wavy_tracers", s.geometry.x, s.state(), Eq::i_tracer, 2, WavyTracers{});
      const auto wavy = s.rhs(physics::grav, split, viscosity);
      Setup<N> dry({true, true, false});
      fill_pointwise("test::wavy", Equations{}, dry.geometry.x, dry.state(), dry.aux, physics::grav, Wavy{});
      const auto dry_rhs = dry.rhs(physics::grav, split, viscosity);
      long differing = 0;
      for (size_t e = 0; e < wavy.extent(0); ++e)
        for (int v = 0; v < Equations::nvar; ++v)
          for (int n = 0; n < Layout<N>::nodes; ++n)
            if (std::memcmp(&wavy(e, v, n), &dry_rhs(e, v, n), sizeof(Real)) != 0) ++differing;
      CHECK(differing == 0);
      for (int k = 0; k < 2; ++k) {
        ExactSum mass;
        double scale = 0;
        for (size_t e = 0; e < wavy.extent(0); ++e)
          for (int n = 0; n < Layout<N>::nodes; ++n) {
            const auto& b = s.basis;
            const double w = b.w[Layout<N>::index(n, 0)] * b.w[Layout<N>::index(n, 1)] * b.w[Layout<N>::index(n, 2)];
            mass.add(w * wavy(e, Eq::i_tracer + k, n));
            scale += w * std::fabs(wavy(e, Eq::i_tracer + k, n));
          }
        CHECK(scale > 0);
        CHECK(std::fabs(mass.value()) <= 1e-13 * scale);
      }
    }
}

namespace {

/// Values offset + [-1, 1) from a generator seeded with `seed`, into every entry of v.
template <class View>
void fill_random(const View& v, unsigned seed, Real offset = 0) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<Real> uniform(-1, 1);
  const auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < h.span(); ++i) h.data()[i] = offset + uniform(random);
  Kokkos::deep_copy(v, h);
}

}  // namespace

TEST_CASE("the surface lift: the same bits node by node and face by face, and with the viscous faces folded in",
          "[operator]") {
  constexpr int N = 4, nv = 6, first_viscous = 1, elements = 3;
  using L = Layout<N>;
  const Basis<N> basis = Basis<N>::make();
  SurfaceLift<N, nv> lift;
  lift.S = DeviceView<Real****>("S", elements, 6, nv, L::face_nodes);
  lift.two_over_hz = DeviceView<Real*>("two_over_hz", elements);
  lift.inverse_jacobian = DeviceView<Real**>("inverse_jacobian", elements, L::nodes);
  fill_random(lift.S, 1);
  fill_random(lift.two_over_hz, 2, 3);
  fill_random(lift.inverse_jacobian, 3, 3);
  lift.w0 = basis.w[0];
  lift.l0 = Real(0.004) / lift.w0;
  lift.l1 = Real(0.003) / lift.w0;
  DeviceView<Real****> traces("traces", elements, 6, nv - first_viscous, L::face_nodes);
  fill_random(traces, 4);
  DeviceView<int* [6]> neighbors("neighbors", elements);
  {
    // Element 0 and 1 neighbours along x (0's high face, 1's low face), 2 its own
    // neighbour along z (periodic, one element); the other faces have none on this rank.
    const auto h = Kokkos::create_mirror_view(neighbors);
    for (int e = 0; e < elements; ++e)
      for (int lf = 0; lf < 6; ++lf) h(e, lf) = -1;
    h(0, 1) = 1, h(1, 0) = 0, h(2, 4) = 2, h(2, 5) = 2;
    Kokkos::deep_copy(neighbors, h);
  }
  StateView start("dq", elements, nv, L::nodes);
  fill_random(start, 5);
  const auto by_nodes = [&](const SurfaceLift<N, nv>& l) {
    StateView dq("dq_nodes", elements, nv, L::nodes);
    Kokkos::deep_copy(dq, start);
    parallel_for_nodes<L::n1>("test::lift_nodes", elements, KOKKOS_LAMBDA(const int e, const int i, const int j,
                                                                          const int k) { l.add_node(e, i, j, k, dq); });
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dq);
  };
  const auto by_faces = [&](const SurfaceLift<N, nv>& l) {
    StateView dq("dq_faces", elements, nv, L::nodes);
    Kokkos::deep_copy(dq, start);
    parallel_for("test::lift_faces", elements, KOKKOS_LAMBDA(const int e) { l.add_element(e, dq); });
    return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dq);
  };
  const auto same_bits = [](const auto& a, const auto& b) {
    int differ = 0;
    for (std::size_t i = 0; i < a.span(); ++i) differ += std::memcmp(a.data() + i, b.data() + i, sizeof(Real)) != 0;
    return differ;
  };
  const auto start_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), start);
  for (const bool curved : {false, true}) {
    lift.curved = curved;
    const auto a = by_nodes(lift), b = by_faces(lift);
    CHECK(same_bits(a, b) == 0);
    CHECK(same_bits(a, start_host) > 0);  // the lift did something
    // Folded: the same as S less the central viscous flux on the faces with a
    // neighbour, formed first (what the pass over the interior faces stores).
    SurfaceLift<N, nv> folded = lift;
    folded.traces = traces;
    folded.neighbors = neighbors;
    folded.first_viscous = first_viscous;
    SurfaceLift<N, nv> corrected = lift;
    corrected.S = DeviceView<Real****>("S_corrected", elements, 6, nv, L::face_nodes);
    Kokkos::deep_copy(corrected.S, lift.S);
    {
      const auto s = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), corrected.S);
      const auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), traces);
      const auto nb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), neighbors);
      for (int e = 0; e < elements; ++e)
        for (int lf = 0; lf < 6; ++lf)
          for (int v = first_viscous; v < nv; ++v)
            for (int m = 0; m < L::face_nodes; ++m)
              if (nb(e, lf) >= 0)
                s(e, lf, v, m) -= central_minus_own(t(e, lf, v - 1, m), t(nb(e, lf), lf ^ 1, v - 1, m));
      Kokkos::deep_copy(corrected.S, s);
    }
    const auto c = by_faces(folded), d = by_nodes(corrected);
    CHECK(same_bits(c, d) == 0);
    CHECK(same_bits(c, b) > 0);  // the fold did something
  }
}
