#include "cases/moist_les.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include "cases/sounding.hpp"
#include "core/error.hpp"
#include "core/math.hpp"
#include "core/reproducible_sum.hpp"
#include "physics/moist_air.hpp"

namespace squall::cases {
namespace {

using Moist = physics::MoistAir<0>;
constexpr Real cloud_threshold = 1e-5;  ///< q_l of a cloudy point [kg/kg]

/// The bits of a double (keys of exact lookups).
std::uint64_t bits_of(Real x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

/// A uniform number in [-1, 1) from the bits of a node's coordinates, a stream index
/// and the seed (splitmix64 finaliser over each word).
Real random_sign(const Real* x, int stream, std::uint64_t seed) {
  const auto mix = [](std::uint64_t h) {
    h ^= h >> 30, h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27, h *= 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
  };
  std::uint64_t h = mix(seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(stream));
  for (int d = 0; d < 3; ++d) h = mix(h ^ bits_of(x[d]));
  return static_cast<Real>(h >> 11) * (2.0 / 9007199254740992.0) - 1;  // 53 bits
}

}  // namespace

MoistLes::MoistLes(const Config& c, MoistSounding sounding, Real theta_perturbation, Real qt_perturbation)
    : sounding_(std::move(sounding)),
      bottom_(c.mesh.domain[2][0]),
      height_(c.mesh.domain[2][1] - c.mesh.domain[2][0]),
      elements_(c.mesh.elements),
      theta_amplitude_(
          case_number(c, "theta_perturbation", theta_perturbation, 0, 2, "a number of K in [0, 2]")),
      // Smaller than the least q_t of the profiles: q_t stays positive everywhere.
      qt_amplitude_(case_number(c, "qt_perturbation", qt_perturbation, 0, 1e-3, "a number of kg/kg in [0, 0.001]")) {
  const Real seed = case_number(c, "seed", 1, 0, 2147483647.0, "an integer in [0, 2147483647]");
  if (seed != std::floor(seed)) throw InputError(c.source + ": 'case.seed': expected an integer in [0, 2147483647]");
  seed_ = static_cast<std::uint64_t>(seed);
}

void MoistLes::initialize(const dg::CoordView& x, const dg::StateView& q, const dg::AuxView& aux) const {
  const Moist eq = Moist::make(equations().gas, water());
  const physics::MoistThermodynamics& t = eq.thermo;
  // T of air with theta_l and q_t at p (theta_l increases with T, saturated or not).
  const auto temperature = [&](Real theta_l, Real q_t, Real p) {
    const Real pi = t.exner(p);
    return bisect_temperature([&](Real T) {
      const Real q_l = std::max(Real(0), q_t - t.q_vap_saturation_from_pressure(T, p, q_t, 1));
      return t.liquid_ice_potential_temperature(T, pi, {q_t, q_l, 0}) - theta_l;
    });
  };
  const auto density = [&](Real T, Real q_t, Real p) {
    const Real q_v = std::min(q_t, t.q_vap_saturation_from_pressure(T, p, q_t, 1));
    return p / (t.gas_constant({q_t, q_t - q_v, 0}) * T);
  };
  const MoistSounding& m = sounding_;
  const HydrostaticSounding sounding(
      [&](Real z, Real p) {
        const Real q_t = m.q_t(z);
        return density(temperature(m.theta_l(z), q_t, p), q_t, p);
      },
      m.surface_pressure, gravity(), height_);
  auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  auto qh = Kokkos::create_mirror_view(q);
  auto ah = Kokkos::create_mirror_view(aux);
  int n1 = 1;  // nodes per direction
  while (static_cast<size_t>(n1 * n1 * n1) < q.extent(2)) ++n1;
  std::map<std::pair<std::uint64_t, std::uint64_t>, Moist::Cons> backgrounds;
  for (size_t e = 0; e < q.extent(0); ++e)
    for (size_t n = 0; n < q.extent(2); ++n) {
      const Real position[3] = {xh(e, 0, n), xh(e, 1, n), xh(e, 2, n)};
      const Real z = position[2] - bottom_, phi = gravity() * position[2], p = sounding.pressure(z);
      // The profiles' height: at a jump on an element face, just inside this element.
      Real zp = z;
      const int k = static_cast<int>(n) / (n1 * n1);
      for (const Real jump : m.jumps)
        if (math::abs(z - jump) <= 1e-9 * height_ && (k == 0 || k == n1 - 1)) zp = jump + (k == 0 ? 1e-6 : -1e-6);
      const Real u = m.u(zp), v = m.v(zp);
      Real theta_l = m.theta_l(zp), q_t = m.q_t(zp);
      const auto state = [&](Real th, Real qt) {
        const Real T = temperature(th, qt, p);
        return eq.conservative(density(T, qt, p), u, v, 0, T, phi, qt);
      };
      // The background depends on the node's height alone (z, and zp at a jump): form it
      // once per height, the same bits at every node of a level.
      const std::pair<std::uint64_t, std::uint64_t> level{bits_of(position[2]), bits_of(zp)};
      auto found = backgrounds.find(level);
      if (found == backgrounds.end()) found = backgrounds.emplace(level, state(theta_l, q_t)).first;
      const Moist::Cons background = found->second;
      Moist::Cons s = background;
      if (z < m.perturbation_top) {
        theta_l += theta_amplitude_ * random_sign(position, 0, seed_);
        q_t += qt_amplitude_ * random_sign(position, 1, seed_);
        s = state(theta_l, q_t);
      }
      store_node(eq, qh, ah, e, n, s, background, phi);
    }
  Kokkos::deep_copy(q, qh);
  Kokkos::deep_copy(aux, ah);
}

std::vector<std::string> MoistLes::time_series_columns() const {
  std::vector<std::string> c{"lwp", "cloud_cover", "cloud_base", "cloud_top", "max_ql", "max_w"};
  if (sounding_.inversion_qt > 0) c.push_back("inversion_height");
  return c;
}

std::vector<double> MoistLes::time_series(const HostSolution& s, MPI_Comm comm) const {
  const CloudStatistics c = statistics(s, comm);
  std::vector<double> v{c.lwp, c.cover, c.base, c.top, c.max_ql, c.max_w};
  if (sounding_.inversion_qt > 0) v.push_back(c.inversion);
  return v;
}

std::vector<CaseDiagnostic> MoistLes::diagnostics(const HostSolution& s, MPI_Comm comm) const {
  const std::vector<std::string> names = time_series_columns();
  const std::vector<double> values = time_series(s, comm);
  std::vector<CaseDiagnostic> d;
  for (size_t i = 0; i < names.size(); ++i) d.push_back({names[i], values[i]});
  return d;
}

/// The highest height in one element's line of nodes (i, j) along z where q_t falls
/// through the inversion threshold going up: between two nodes, linearly interpolated;
/// the top node itself where q_t there is still at or above it (the crossing is then at
/// or above the element's top face, and the element above, if it has one, finds it).
/// -inf where no node reaches the threshold. It depends on this element alone, so a
/// column's maximum over its elements is the same on any partition.
double MoistLes::highest_crossing(const std::vector<double>& q_t, const std::vector<double>& z, int i, int j,
                                  int n1) const {
  const double threshold = sounding_.inversion_qt;
  const auto node = [&](int k) { return static_cast<size_t>((k * n1 + j) * n1 + i); };
  double highest = -std::numeric_limits<double>::infinity();
  if (q_t[node(n1 - 1)] >= threshold) highest = z[node(n1 - 1)];
  for (int k = n1 - 2; k >= 0 && highest == -std::numeric_limits<double>::infinity(); --k) {
    const double below = q_t[node(k)], above = q_t[node(k + 1)];
    if (below >= threshold && above < threshold)
      highest = z[node(k)] + (below - threshold) / (below - above) * (z[node(k + 1)] - z[node(k)]);
  }
  return highest;
}

/// The cloud statistics of the current solution (collective): each column of LGL nodes
/// of each element column is cloudy where any of its nodes is; cloud cover is their area
/// fraction with the quadrature weights, LWP the quadrature of rho q_l over the domain
/// per unit area (exact sums), z_i the area-weighted mean of the columns' highest height
/// where q_t falls through the threshold, linearly interpolated between the two nodes
/// around it (highest_crossing; columns without a node at or above it left out; NaN if
/// none has one).
MoistLes::CloudStatistics MoistLes::statistics(const HostSolution& s, MPI_Comm comm) const {
  const Moist eq = Moist::make(equations().gas, water());
  const int n1 = static_cast<int>(s.lgl_weights.size()), nx = elements_[0], ny = elements_[1];
  const double lowest = -std::numeric_limits<double>::infinity();
  const size_t ncolumns = static_cast<size_t>(nx) * ny * n1 * n1;
  std::vector<int> cloudy(ncolumns, 0);
  std::vector<double> inversion(sounding_.inversion_qt > 0 ? ncolumns : 0, lowest);
  std::vector<double> water(s.q.extent(2)), height(s.q.extent(2));  // one element's q_t and z
  ExactSum water_path;
  double base = std::numeric_limits<double>::infinity(), top = -base, max_ql = 0, max_w = -base;
  for (size_t e = 0; e < s.q.extent(0); ++e) {
    const int g = s.global_elements[e], ex = g % nx, ey = (g / nx) % ny;
    const double jacobian = s.jacobian(e);
    for (size_t n = 0; n < s.q.extent(2); ++n) {
      const int i = static_cast<int>(n) % n1, j = (static_cast<int>(n) / n1) % n1, k = static_cast<int>(n) / (n1 * n1);
      Moist::Cons c;
      for (int v = 0; v < Moist::nvar; ++v) c[v] = s.q(e, v, n);
      const physics::MoistPrim w = eq.primitive(c, s.aux(e, Moist::a_phi, n));
      const double z = s.x(e, 2, n) - bottom_;
      const size_t column = ((static_cast<size_t>(ey) * nx + ex) * n1 + j) * n1 + i;
      water_path.add(s.lgl_weights[i] * s.lgl_weights[j] * s.lgl_weights[k] * jacobian * w.rho * w.q_l);
      max_ql = std::max(max_ql, static_cast<double>(w.q_l));
      max_w = std::max(max_w, static_cast<double>(w.u[2]));
      if (w.q_l > cloud_threshold) {
        cloudy[column] = 1;
        base = std::min(base, z), top = std::max(top, z);
      }
      if (!inversion.empty()) water[n] = w.q_t, height[n] = z;
    }
    if (!inversion.empty()) {
      for (int j = 0; j < n1; ++j)
        for (int i = 0; i < n1; ++i) {
          const size_t column = ((static_cast<size_t>(ey) * nx + ex) * n1 + j) * n1 + i;
          inversion[column] = std::max(inversion[column], highest_crossing(water, height, i, j, n1));
        }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, cloudy.data(), static_cast<int>(cloudy.size()), MPI_INT, MPI_MAX, comm);
  if (!inversion.empty())
    MPI_Allreduce(MPI_IN_PLACE, inversion.data(), static_cast<int>(inversion.size()), MPI_DOUBLE, MPI_MAX, comm);
  double maxima[4] = {-base, top, max_ql, max_w};
  MPI_Allreduce(MPI_IN_PLACE, maxima, 4, MPI_DOUBLE, MPI_MAX, comm);
  std::vector<ExactSum> sums{water_path};
  allreduce(comm, sums);
  double covered = 0, total = 0, inversion_sum = 0, inversion_area = 0;  // the same order on every rank
  for (size_t col = 0; col < cloudy.size(); ++col) {
    const int i = static_cast<int>(col % n1), j = static_cast<int>((col / n1) % n1);
    const double a = s.lgl_weights[i] * s.lgl_weights[j];
    total += a;
    if (cloudy[col]) covered += a;
    if (!inversion.empty() && inversion[col] > lowest) inversion_sum += a * inversion[col], inversion_area += a;
  }
  const double area = nx * s.element_size[0] * ny * s.element_size[1];
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool any = maxima[1] > -std::numeric_limits<double>::infinity();
  return {sums[0].value() / area,
          covered / total,
          any ? -maxima[0] : nan,
          any ? maxima[1] : nan,
          maxima[2],
          maxima[3],
          inversion_area > 0 ? inversion_sum / inversion_area : nan};
}

}  // namespace squall::cases
