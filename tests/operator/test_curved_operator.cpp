// The DG operator on curved elements (a mapped brick: terrain, or a strongly warped
// random mapping): free-stream preservation, the exact rest of a balanced atmosphere over
// curved walls, discrete conservation of mass and energy, agreement with the brick's
// operator under the identity mapping, and the same bits from both kernel layouts; each
// for the Euler operator and with the viscous terms (BR1, a subgrid model, walls of
// every kind along the curved normal).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "cases/registry.hpp"
#include "core/reproducible_sum.hpp"
#include "mesh/terrain.hpp"
#include "solver/dg_operator.hpp"
#include "solver/pointwise_fill.hpp"
#include "tests/operator/operator_states.hpp"

using namespace squall;
using namespace squall::dg;
using squall::test::UniformFlow;
using squall::test::Wavy;

namespace {

constexpr double pi = 3.14159265358979323846;
const std::array<std::array<double, 2>, 3> box{{{0, 1500}, {0, 1000}, {0, 1000}}};

/// A strongly curved mapping of the box onto itself: each coordinate displaced by a sum
/// of sines with random integer wave numbers (periodic over the box, so periodic images
/// still coincide) and random phases, amplitudes up to 20 m on elements of 500 m. Where z
/// is not periodic the bottom and top walls are curved by the same displacement.
Mapping random_mapping(unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> phase(0, 2 * pi), amplitude(5, 20);
  std::uniform_int_distribution<int> wave(0, 2);
  struct Mode {
    int k[3];
    double phase, amplitude;
  };
  std::array<std::array<Mode, 3>, 3> modes;
  for (auto& per_direction : modes)
    for (Mode& m : per_direction) {
      for (int& k : m.k) k = wave(random);
      if (m.k[0] + m.k[1] + m.k[2] == 0) m.k[random() % 3] = 1;
      m.phase = phase(random), m.amplitude = amplitude(random);
    }
  return [modes](const std::array<double, 3>& p) {
    std::array<double, 3> out = p;
    for (int d = 0; d < 3; ++d)
      for (const Mode& m : modes[d]) {
        double arg = m.phase;
        for (int k = 0; k < 3; ++k) arg += 2 * pi * m.k[k] * (p[k] - box[k][0]) / (box[k][1] - box[k][0]);
        out[d] += m.amplitude * std::sin(arg);
      }
    return out;
  };
}


template <int N>
struct Setup {
  mesh::Brick brick;
  mesh::LocalMesh mesh;
  Basis<N> basis = Basis<N>::make();
  Geometry geometry;
  Timers timers;
  FlatView q, dq;
  AuxView aux;

  Setup(std::array<bool, 3> periodic, const Mapping& mapping)
      : brick({3, 2, 2}, box, periodic),
        mesh(brick, mesh::CartesianPartition::choose({3, 2, 2}, 1), 0),
        geometry(make_geometry<N>(mesh, basis, mapping)) {
    const std::size_t size = static_cast<std::size_t>(mesh.element_count()) * Equations::nvar * Layout<N>::nodes;
    q = FlatView("q", size);
    dq = FlatView("dq", size);
    aux = AuxView("aux", mesh.element_count(), Equations::naux, Layout<N>::nodes);
  }
  std::array<double, Equations::nconserved> ledger{};  ///< the operator's ledger rates of the last rhs

  StateView state() const { return StateView(q.data(), mesh.element_count(), Equations::nvar, Layout<N>::nodes); }
  HostView<Real***> rhs(Real gravity, KernelLayout layout = OperatorOptions{}.kernel_layout) {
    OperatorOptions options;
    options.gravity = gravity;
    options.kernel_layout = layout;
    return rhs(options);
  }
  HostView<Real***> rhs(const OperatorOptions& options) {
    DgOperator<N, Equations> op(mesh, basis, geometry, aux, options, MPI_COMM_WORLD, timers);
    op(0.0, q, dq);
    for (int c = 0; c < Equations::nconserved; ++c) ledger[c] = op.ledger_rates_of_last_call()[c];
    HostView<Real***> result("rhs", mesh.element_count(), Equations::nvar, Layout<N>::nodes);
    Kokkos::deep_copy(result, op.state_view(dq));
    return result;
  }
};

/// Viscous options: a molecular viscosity and Smagorinsky's closure with its buoyancy
/// term (gravity g), heat down grad theta unless `temperature`, and the given walls in z.
OperatorOptions viscous_options(Real g, int z_low = physics::free_slip, int z_high = physics::free_slip,
                                bool temperature = false) {
  OperatorOptions o;
  o.gravity = g;
  o.viscosity = 15;
  o.closure = Closure::smagorinsky;
  o.theta_diffusion = !temperature;
  o.walls.kind[4] = z_low, o.walls.kind[5] = z_high;
  o.walls.temperature[4] = o.walls.temperature[5] = 310;
  o.walls.surface.heat_flux = 0.3;
  o.walls.surface.friction_velocity = 0.4;
  o.walls.surface.heat_transfer = 1.5e-3;  // bulk_aerodynamic: C_h and T_s
  o.walls.surface.temperature = 305;
  return o;
}

double max_abs(const HostView<Real***>& v) {
  double m = 0;
  for (size_t i = 0; i < v.size(); ++i) m = std::max(m, std::fabs(v.data()[i]));
  return m;
}

template <int N>
void check_free_stream(unsigned seed, bool viscous = false) {
  INFO("N = " << N << ", mapping seed " << seed << (viscous ? ", viscous" : ""));
  Setup<N> s({true, true, true}, random_mapping(seed));
  fill_pointwise("test::uniform", Equations{}, s.geometry.x, s.state(), s.aux, 0.0, UniformFlow{});
  // As the brick's test: round-off of the largest flux's derivative, rho e u (N+1)^2 2/h.
  // The viscous terms of the round-off gradients of a uniform state add far less.
  const double scale = 1.2 * 2.2e5 * 10 * (N + 1) * (N + 1) * 2 / 500.0;
  const double largest = max_abs(viscous ? s.rhs(viscous_options(0)) : s.rhs(0.0));
  INFO("largest |dq/dt| = " << largest << ", scale " << scale);
  CHECK(largest <= 1e-13 * scale);
}

template <int N>
void check_rest(const Mapping& mapping) {
  INFO("N = " << N);
  Setup<N> s({true, true, false}, mapping);
  Config config;
  cases::make_rest_atmosphere(config)->initialize(s.geometry.x, s.state(), s.aux);
  // The reference state is the discrete state at the curved nodes, the walls mirror a
  // zero velocity: every term is an exact zero.
  CHECK(max_abs(s.rhs(physics::grav)) == 0.0);
}

/// d/dt of the mass and energy integrals, sum of w J dq exactly summed, and the sum of
/// their absolute values (the scale round-off is measured against).
template <int N>
std::array<double, 4> budget(const Setup<N>& s, const HostView<Real***>& dq) {
  ExactSum mass, energy;
  double mass_scale = 0, energy_scale = 0;
  const double* w = s.basis.w;
  for (size_t e = 0; e < dq.extent(0); ++e)
    for (int n = 0; n < Layout<N>::nodes; ++n) {
      const double weight = w[Layout<N>::index(n, 0)] * w[Layout<N>::index(n, 1)] * w[Layout<N>::index(n, 2)] *
                            s.geometry.node_jacobian[e * Layout<N>::nodes + n];
      mass.add(weight * dq(e, Equations::i_rho, n));
      energy.add(weight * dq(e, Equations::i_rhoe, n));
      mass_scale += std::fabs(weight * dq(e, Equations::i_rho, n));
      energy_scale += std::fabs(weight * dq(e, Equations::i_rhoe, n));
    }
  return {mass.value(), energy.value(), mass_scale, energy_scale};
}

template <int N>
void check_conservation(unsigned seed, const OperatorOptions& options) {
  INFO("N = " << N << ", mapping seed " << seed << ", viscous " << options.viscous() << ", walls "
               << options.walls.kind[4] << " " << options.walls.kind[5]);
  Setup<N> s({true, true, false}, random_mapping(seed));
  fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
  const auto b = budget(s, s.rhs(options));
  REQUIRE(b[2] > 0);  // the state really evolves
  INFO("mass " << b[0] << " of " << b[2] << ", energy " << b[1] << " of " << b[3] << "; ledger "
               << s.ledger[0] << ", " << s.ledger[1]);
  // What the box holds changes by what the ledger says crossed the walls (nothing
  // through free-slip and adiabatic walls), to round-off.
  CHECK(std::fabs(b[0] - s.ledger[0]) <= 1e-13 * b[2]);
  CHECK(std::fabs(b[1] - s.ledger[1]) <= 1e-13 * b[3]);
}
template <int N>
void check_conservation(unsigned seed) {
  OperatorOptions options;
  options.gravity = physics::grav;
  check_conservation<N>(seed, options);
}

}  // namespace

TEST_CASE("curved elements: a uniform flow over a strongly curved random mapping stays uniform", "[operator]") {
  for (const unsigned seed : {1u, 2u}) {
    check_free_stream<1>(seed);
    check_free_stream<2>(seed);
    check_free_stream<3>(seed);
    check_free_stream<4>(seed);
  }
}

TEST_CASE("curved elements: with the viscous terms a uniform flow stays uniform", "[operator]") {
  check_free_stream<2>(1, true);
  check_free_stream<3>(2, true);
  check_free_stream<4>(1, true);
}

TEST_CASE("curved elements: the metric terms of a face are bitwise the same from both of its elements",
          "[operator]") {
  constexpr int N = 3;
  using L = Layout<N>;
  Setup<N> s({true, true, true}, random_mapping(3));
  const auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), s.geometry.metrics);
  long compared = 0, differing = 0;
  for (const auto& face : s.mesh.interior_faces()) {
    const int d = face.direction;
    for (int f = 0; f < L::face_nodes; ++f) {
      const int nm = L::volume_node_of(f, 2 * d + 1), np = L::volume_node_of(f, 2 * d);
      for (int k = 0; k < 3; ++k, ++compared)
        if (std::memcmp(&m(face.element_minus, 3 * d + k, nm), &m(face.element_plus, 3 * d + k, np), sizeof(Real)))
          ++differing;
    }
  }
  REQUIRE(compared > 0);
  CHECK(differing == 0);
}

TEST_CASE("curved elements: a balanced atmosphere at rest over curved walls has an exactly zero right-hand side",
          "[operator]") {
  check_rest<2>(random_mapping(4));
  check_rest<4>(random_mapping(5));
  // A steep Witch of Agnesi (h = 400 m, a = 300 m) in the 1000 m deep box.
  mesh::Hill hill;
  hill.shape = mesh::Hill::Shape::agnesi, hill.height = 400, hill.half_width = 300, hill.x_c = 750;
  const mesh::TerrainMapping terrain(hill, mesh::Decay::linear, 0, 1000);
  const Mapping over_hill = [terrain](const std::array<double, 3>& p) {
    return std::array<double, 3>{p[0], p[1], terrain.height(p[0], p[1], p[2])};
  };
  check_rest<3>(over_hill);
  check_rest<4>(over_hill);
}

TEST_CASE("curved elements: mass and total energy are conserved discretely between curved walls", "[operator]") {
  check_conservation<2>(6);
  check_conservation<3>(7);
  check_conservation<4>(8);
}

TEST_CASE("curved elements: with the viscous terms mass and energy change by what crosses the curved walls",
          "[operator]") {
  using namespace physics;
  const Real g = grav;
  check_conservation<2>(6, viscous_options(g));
  check_conservation<3>(7, viscous_options(g, no_slip_adiabatic, no_slip_adiabatic));
  check_conservation<4>(8, viscous_options(g, no_slip_isothermal, no_slip_adiabatic));
  check_conservation<3>(10, viscous_options(g, surface_flux, free_slip));
  check_conservation<4>(11, viscous_options(g, bulk_aerodynamic, no_slip_isothermal));
}

TEST_CASE("curved elements: with the viscous terms a resting isothermal atmosphere over a hill stays at rest",
          "[operator]") {
  // Heat down grad T (isothermal: no heat flux), no-slip ground: no stress, no flux.
  constexpr int N = 3;
  mesh::Hill hill;
  hill.shape = mesh::Hill::Shape::agnesi, hill.height = 400, hill.half_width = 300, hill.x_c = 750;
  const mesh::TerrainMapping terrain(hill, mesh::Decay::linear, 0, 1000);
  const Mapping over_hill = [terrain](const std::array<double, 3>& p) {
    return std::array<double, 3>{p[0], p[1], terrain.height(p[0], p[1], p[2])};
  };
  Setup<N> s({true, true, false}, over_hill);
  Config config;
  cases::make_rest_atmosphere(config)->initialize(s.geometry.x, s.state(), s.aux);
  const auto dq = s.rhs(viscous_options(physics::grav, physics::no_slip_adiabatic, physics::free_slip, true));
  double momentum = 0, other = 0;
  for (size_t e = 0; e < dq.extent(0); ++e)
    for (int n = 0; n < Layout<N>::nodes; ++n) {
      for (int i = 0; i < 3; ++i) momentum = std::max(momentum, std::fabs(dq(e, Equations::i_rhou + i, n)));
      other = std::max({other, std::fabs(dq(e, Equations::i_rho, n)), std::fabs(dq(e, Equations::i_rhoe, n))});
    }
  CHECK(momentum == 0.0);  // u = 0 exactly: no strain, no stress
  INFO("largest |d(rho e)/dt| " << other);
  CHECK(other <= 1e-9);  // the round-off derivative of a constant temperature, diffused [W m^-3]
}

TEST_CASE("curved elements: the identity mapping gives the brick's right-hand side to round-off", "[operator]") {
  constexpr int N = 3;
  const Mapping identity = [](const std::array<double, 3>& p) { return p; };
  Setup<N> curved({true, true, false}, identity), brick({true, true, false}, Mapping{});
  REQUIRE(curved.geometry.curved);
  REQUIRE(!brick.geometry.curved);
  for (Setup<N>* s : {&curved, &brick})
    fill_pointwise("test::wavy", Equations{}, s->geometry.x, s->state(), s->aux, physics::grav, Wavy{});
  using namespace physics;
  for (const OperatorOptions& options :
       {OperatorOptions{}, viscous_options(grav, no_slip_isothermal, surface_flux),
        viscous_options(grav, bulk_aerodynamic, no_slip_adiabatic, true)}) {
    OperatorOptions o = options;
    o.gravity = grav;
    INFO("viscous " << o.viscous() << ", walls " << o.walls.kind[4] << " " << o.walls.kind[5]);
    const auto a = curved.rhs(o), b = brick.rhs(o);
    double largest = 0, difference = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      largest = std::max(largest, std::fabs(b.data()[i]));
      difference = std::max(difference, std::fabs(a.data()[i] - b.data()[i]));
    }
    REQUIRE(largest > 0);
    INFO("largest |dq/dt| " << largest << ", largest difference " << difference);
    CHECK(difference <= 1e-11 * largest);
    // What crossed the walls, against the scale of the budget's terms.
    const auto scale = budget(curved, a);
    INFO("ledger: curved " << curved.ledger[0] << ", " << curved.ledger[1] << "; brick " << brick.ledger[0] << ", "
                           << brick.ledger[1]);
    CHECK(std::fabs(curved.ledger[0] - brick.ledger[0]) <= 1e-11 * scale[2]);
    CHECK(std::fabs(curved.ledger[1] - brick.ledger[1]) <= 1e-11 * scale[3]);
  }
}

TEST_CASE("curved elements: the kernel layouts (elements, nodes, teams) give the same bits", "[operator]") {
  constexpr int N = 4;
  Setup<N> s({true, true, false}, random_mapping(9));
  fill_pointwise("test::wavy", Equations{}, s.geometry.x, s.state(), s.aux, physics::grav, Wavy{});
  using namespace physics;
  for (OperatorOptions o : {OperatorOptions{}, viscous_options(grav, surface_flux, no_slip_isothermal)}) {
    o.gravity = grav;
    INFO("viscous " << o.viscous());
    o.kernel_layout = KernelLayout::elements;
    const auto elements = s.rhs(o);
    for (const KernelLayout other : {KernelLayout::nodes, KernelLayout::teams}) {
      INFO("against layout " << static_cast<int>(other));
      o.kernel_layout = other;
      const auto result = s.rhs(o);
      long differing = 0;
      for (size_t i = 0; i < elements.size(); ++i)
        if (std::memcmp(&elements.data()[i], &result.data()[i], sizeof(Real)) != 0) ++differing;
      CHECK(differing == 0);
    }
  }
}
