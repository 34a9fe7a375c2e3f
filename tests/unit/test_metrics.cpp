// Curvilinear metric terms (solver/curvilinear_metrics.hpp) and terrain-following
// mappings (mesh/terrain.hpp): affine elements get the affine metrics, polynomial mappings
// their exact cofactors, the curl form satisfies the discrete metric identities on a
// strongly curved mapping (where the cross-product form does not), elements that share a
// face compute bitwise the same points and normals for it, and the terrain mappings put
// the surface and the flat top exactly where they belong.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "mesh/brick.hpp"
#include "mesh/terrain.hpp"
#include "solver/curvilinear_metrics.hpp"

using namespace squall;
using namespace squall::dg;

namespace {

template <int N>
using Coords = std::vector<double>;  // x[k * nodes + n]

/// Node coordinates of a mapping f(xi) -> X on the reference element.
template <int N, class F>
Coords<N> map_nodes(const Basis<N>& b, F f) {
  using L = Layout<N>;
  Coords<N> x(3 * L::nodes);
  for (int n = 0; n < L::nodes; ++n) {
    const double xi[3] = {b.x[L::index(n, 0)], b.x[L::index(n, 1)], b.x[L::index(n, 2)]};
    double X[3];
    f(xi, X);
    for (int k = 0; k < 3; ++k) x[k * L::nodes + n] = X[k];
  }
  return x;
}

/// Largest |sum_i D_i (J a^i)_k| over nodes and components, over the largest |J a^i_k|.
template <int N>
double metric_identity_defect(const Basis<N>& b, const ElementMetrics<N>& g) {
  using L = Layout<N>;
  double defect = 0, scale = 0;
  std::array<double, L::nodes> d{};
  for (int k = 0; k < 3; ++k) {
    std::array<double, L::nodes> sum{};
    for (int i = 0; i < 3; ++i) {
      derivative_along(b, g.ja[i][k].data(), i, d.data());
      for (int n = 0; n < L::nodes; ++n) {
        sum[n] += d[n];
        scale = std::max(scale, std::abs(g.ja[i][k][n]));
      }
    }
    for (int n = 0; n < L::nodes; ++n) defect = std::max(defect, std::abs(sum[n]));
  }
  return defect / scale;
}

/// The cross-product metrics J a^1 = X_xi2 x X_xi3 (cyclic) of the same nodal mapping.
template <int N>
ElementMetrics<N> cross_product_metrics(const Basis<N>& b, const Coords<N>& x) {
  using L = Layout<N>;
  std::array<std::array<std::array<double, L::nodes>, 3>, 3> dx{};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) derivative_along(b, x.data() + k * L::nodes, j, dx[k][j].data());
  ElementMetrics<N> g;
  for (int i = 0; i < 3; ++i) {
    const int p = (i + 1) % 3, q = (i + 2) % 3;
    for (int n = 0; n < L::nodes; ++n)
      for (int k = 0; k < 3; ++k) {
        const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
        g.ja[i][k][n] = dx[k1][p][n] * dx[k2][q][n] - dx[k2][p][n] * dx[k1][q][n];
      }
  }
  return g;
}

/// A strongly curved mapping of the reference cube: every coordinate displaced by a
/// smooth function of all three (not a polynomial of any degree).
void warped(const double* xi, double* X) {
  const double s = 0.15;
  X[0] = 2 * xi[0] + s * std::sin(1.3 * xi[1] + 0.4) * std::cos(0.9 * xi[2]) + 0.1 * xi[1] * xi[2];
  X[1] = 1.5 * xi[1] + s * std::sin(1.1 * xi[2] + 0.7 * xi[0]) + 0.2 * xi[0] * xi[0];
  X[2] = xi[2] + s * std::cos(0.8 * xi[0] - 1.2 * xi[1]) * std::exp(0.3 * xi[2]);
}

template <int N>
void check_affine() {
  const Basis<N> b = Basis<N>::make();
  const double lo[3] = {-3.0, 2.0, 100.0}, h[3] = {250.0, 125.0, 40.0};
  const auto x = map_nodes(b, [&](const double* xi, double* X) {
    for (int k = 0; k < 3; ++k) X[k] = lo[k] + (xi[k] + 1) / 2 * h[k];
  });
  const auto g = curl_form_metrics(b, x.data());
  const double J = h[0] * h[1] * h[2] / 8;
  // Round-off only: the rows of D sum to zero within a few ulps, which the offsets lo
  // (up to 2.5 element sizes) turn into relative errors of about 1e-14 at N = 7.
  for (int n = 0; n < Layout<N>::nodes; ++n) {
    CHECK(g.jacobian[n] == Approx(J).epsilon(5e-14));
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k) {
        // J a^i = J grad(xi_i) = (J 2 / h_i) e_i
        const double exact = i == k ? J * 2 / h[i] : 0.0;
        CHECK(g.ja[i][k][n] == Approx(exact).margin(1e-12 * J).epsilon(1e-13));
      }
  }
}

template <int N>
void check_polynomial() {
  // x = xi1 + c xi2 xi3, y = xi2 + c xi1^2, z = xi3 + c xi1 xi2: products X_l dX_m of degree
  // <= 2 <= N in each direction, so the interpolated curl form is exact (N >= 2).
  const Basis<N> b = Basis<N>::make();
  const double c = 0.2;
  const auto x = map_nodes(b, [&](const double* xi, double* X) {
    X[0] = xi[0] + c * xi[1] * xi[2];
    X[1] = xi[1] + c * xi[0] * xi[0];
    X[2] = xi[2] + c * xi[0] * xi[1];
  });
  const auto g = curl_form_metrics(b, x.data());
  using L = Layout<N>;
  for (int n = 0; n < L::nodes; ++n) {
    const double p = b.x[L::index(n, 0)], q = b.x[L::index(n, 1)], r = b.x[L::index(n, 2)];
    // Columns of the Jacobian matrix: X_xi1, X_xi2, X_xi3.
    const double a1[3] = {1, 2 * c * p, c * q}, a2[3] = {c * r, 1, c * p}, a3[3] = {c * q, 0, 1};
    const double* col[3] = {a1, a2, a3};
    for (int i = 0; i < 3; ++i) {
      const double* u = col[(i + 1) % 3];
      const double* w = col[(i + 2) % 3];
      const double cross[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
      for (int k = 0; k < 3; ++k) CHECK(g.ja[i][k][n] == Approx(cross[k]).margin(1e-13));
    }
    const double J = a1[0] * (a2[1] * a3[2] - a2[2] * a3[1]) + a1[1] * (a2[2] * a3[0] - a2[0] * a3[2]) +
                     a1[2] * (a2[0] * a3[1] - a2[1] * a3[0]);
    CHECK(g.jacobian[n] == Approx(J).epsilon(1e-13));
  }
}

template <int N>
void check_identities(double* curl_defect, double* cross_defect) {
  const Basis<N> b = Basis<N>::make();
  const auto x = map_nodes(b, warped);
  *curl_defect = metric_identity_defect(b, curl_form_metrics(b, x.data()));
  *cross_defect = metric_identity_defect(b, cross_product_metrics(b, x));
}

}  // namespace

TEST_CASE("Curl-form metrics of an affine element are the affine metrics", "[metrics]") {
  check_affine<1>();
  check_affine<2>();
  check_affine<4>();
  check_affine<7>();
}

TEST_CASE("Curl-form metrics of a low-degree polynomial mapping are its exact cofactors", "[metrics]") {
  check_polynomial<2>();
  check_polynomial<3>();
  check_polynomial<5>();
}

TEST_CASE("Curl-form metrics satisfy the discrete metric identities on a curved mapping", "[metrics]") {
  double curl[5], cross[5];
  check_identities<2>(&curl[0], &cross[0]);
  check_identities<3>(&curl[1], &cross[1]);
  check_identities<4>(&curl[2], &cross[2]);
  check_identities<5>(&curl[3], &cross[3]);
  check_identities<6>(&curl[4], &cross[4]);
  for (int i = 0; i < 5; ++i) {
    INFO("N = " << i + 2 << ": curl form " << curl[i] << ", cross-product form " << cross[i]);
    CHECK(curl[i] < 1e-13);
    // The test can fail: the cross-product form of the same mapping misses the identities
    // by the interpolation error of the products.
    CHECK(cross[i] > 1e-8);
  }
}

namespace {

/// Node coordinates of element e of `brick` mapped by `terrain`.
template <int N>
Coords<N> terrain_nodes(const Basis<N>& b, const mesh::Brick& brick, const mesh::TerrainMapping& terrain, int e) {
  using L = Layout<N>;
  const auto c = brick.element_coords(e);
  Coords<N> x(3 * L::nodes);
  for (int n = 0; n < L::nodes; ++n) {
    double p[3];
    for (int d = 0; d < 3; ++d) p[d] = brick.node_position(d, c[d], (b.x[L::index(n, d)] + 1) / 2);
    x[0 * L::nodes + n] = p[0];
    x[1 * L::nodes + n] = p[1];
    x[2 * L::nodes + n] = terrain.height(p[0], p[1], p[2]);
  }
  return x;
}

}  // namespace

TEST_CASE("Elements sharing a face compute bitwise the same points and normals over terrain", "[metrics]") {
  constexpr int N = 4;
  using L = Layout<N>;
  const Basis<N> b = Basis<N>::make();
  const mesh::Brick brick({3, 3, 2}, {{{-6000.0, 6000.0}, {-6000.0, 6000.0}, {0.0, 8000.0}}}, {true, true, false});
  mesh::Hill bell;
  bell.shape = mesh::Hill::Shape::bell;
  bell.height = 1500;
  bell.half_width = 2500;
  const mesh::TerrainMapping terrain(bell, mesh::Decay::smooth, 0.0, 8000.0, 4000.0);
  std::vector<Coords<N>> x;
  std::vector<ElementMetrics<N>> g;
  for (int e = 0; e < brick.element_count(); ++e) {
    x.push_back(terrain_nodes(b, brick, terrain, e));
    g.push_back(curl_form_metrics(b, x.back().data()));
    for (int n = 0; n < L::nodes; ++n) REQUIRE(g.back().jacobian[n] > 0);
  }
  int faces = 0;
  for (int f = 0; f < brick.face_count(); ++f) {
    const mesh::GlobalFace face = brick.face(f);
    if (face.element_minus < 0 || face.element_plus < 0) continue;
    const int d = face.direction;
    if (brick.periodic()[d] && brick.element_coords(face.element_minus)[d] == brick.elements()[d] - 1)
      continue;  // a periodic seam: the two sides sit a period apart
    ++faces;
    for (int m = 0; m < L::face_nodes; ++m) {
      const int nm = L::volume_node_of(m, 2 * d + 1), np = L::volume_node_of(m, 2 * d);
      for (int k = 0; k < 3; ++k) REQUIRE(x[face.element_minus][k * L::nodes + nm] == x[face.element_plus][k * L::nodes + np]);
      const FaceMetric a = face_metric(g[face.element_minus], 2 * d + 1, m);
      const FaceMetric c = face_metric(g[face.element_plus], 2 * d, m);
      REQUIRE(a.area == c.area);
      for (int k = 0; k < 3; ++k) REQUIRE(a.normal[k] == -c.normal[k]);
    }
  }
  CHECK(faces == 2 * 3 * 2 + 3 * 2 * 2 + 3 * 3 * 1);  // inner x-, y- and z-faces (no seams)
}

TEST_CASE("Terrain mappings place the surface and the top exactly", "[metrics][terrain]") {
  mesh::Hill schar;
  schar.shape = mesh::Hill::Shape::schar;
  schar.height = 250;
  schar.half_width = 5000;
  schar.wavelength = 4000;
  for (const mesh::Decay decay : {mesh::Decay::linear, mesh::Decay::smooth}) {
    const mesh::TerrainMapping t(schar, decay, 0.0, 21000.0, 6000.0);
    for (double x : {-12000.0, -3000.0, -1000.0, 0.0, 1234.5, 7000.0}) {
      CHECK(t.height(x, 0.0, 0.0) == t.surface(x, 0.0));
      CHECK(t.height(x, 0.0, 21000.0) == 21000.0);
      // Monotone in zeta: the mapping does not fold.
      double below = t.height(x, 0.0, 0.0);
      for (int k = 1; k <= 50; ++k) {
        const double z = t.height(x, 0.0, 21000.0 * k / 50);
        CHECK(z > below);
        below = z;
      }
    }
    CHECK(t.surface(0.0, 0.0) == 250.0);
    // Schär's mountain has its troughs at x = lambda/2 (cos^2 = 0 there).
    CHECK(t.surface(2000.0, 0.0) == Approx(0.0).margin(1e-9));
  }
  mesh::Hill agnesi;
  agnesi.shape = mesh::Hill::Shape::agnesi;
  agnesi.height = 1;
  agnesi.half_width = 10000;
  const mesh::TerrainMapping a(agnesi, mesh::Decay::linear, 0.0, 30000.0);
  CHECK(a.surface(0.0, 5.0) == 1.0);
  CHECK(a.surface(10000.0, -3.0) == Approx(0.5).epsilon(1e-15));
  CHECK(a.height(0.0, 0.0, 15000.0) == Approx(15000.5).epsilon(1e-15));
}

TEST_CASE("The bottom face's normal over a hill approaches the terrain's normal", "[metrics][terrain]") {
  // One element spanning a 2-D Agnesi hill: the outward normal of its bottom face at the
  // LGL nodes against -(-h_x, 0, 1)/|.|, which the interpolant reaches as N grows.
  mesh::Hill agnesi;
  agnesi.shape = mesh::Hill::Shape::agnesi;
  agnesi.height = 300;
  agnesi.half_width = 1000;
  const mesh::TerrainMapping t(agnesi, mesh::Decay::linear, 0.0, 2000.0);
  const mesh::Brick brick({1, 1, 1}, {{{-1000.0, 1000.0}, {0.0, 1000.0}, {0.0, 2000.0}}}, {true, true, false});
  auto error = [&](auto basis) {
    using B = decltype(basis);
    constexpr int N = B::order;
    using L = Layout<N>;
    const auto x = terrain_nodes(basis, brick, t, 0);
    const auto g = curl_form_metrics(basis, x.data());
    double worst = 0;
    for (int m = 0; m < L::face_nodes; ++m) {
      const FaceMetric f = face_metric(g, mesh::z_low, m);
      const double px = x[L::volume_node_of(m, mesh::z_low)];
      const double a2 = 1000.0 * 1000.0, hx = -300.0 * a2 * 2 * px / ((px * px + a2) * (px * px + a2));
      const double norm = std::sqrt(hx * hx + 1);
      const double exact[3] = {hx / norm, 0, -1 / norm};
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(f.normal[k] - exact[k]));
    }
    return worst;
  };
  const double e4 = error(Basis<4>::make()), e8 = error(Basis<8>::make());
  INFO("normal error N = 4: " << e4 << ", N = 8: " << e8);
  CHECK(e4 < 0.1);  // 0.059 measured: five nodes across a hill as wide as the element
  CHECK(e8 < e4 / 5);  // 0.0044 measured
}

TEST_CASE("Terrain mappings that would fold are refused", "[metrics][terrain]") {
  mesh::Hill hill;
  hill.shape = mesh::Hill::Shape::bell;
  hill.height = 1000;
  hill.half_width = 500;
  CHECK_THROWS_AS(mesh::TerrainMapping(hill, mesh::Decay::linear, 0.0, 900.0), InputError);
  CHECK_THROWS_AS(mesh::TerrainMapping(hill, mesh::Decay::smooth, 0.0, 9000.0, 800.0), InputError);
  CHECK_NOTHROW(mesh::TerrainMapping(hill, mesh::Decay::smooth, 0.0, 9000.0, 3000.0));
  hill.height = 10;
  CHECK_THROWS_WITH(mesh::TerrainMapping(hill, mesh::Decay::smooth, 0.0, 9000.0, 20.0), Catch::Contains("1/300"));
  hill.height = 1000;
  hill.half_width = 0;
  CHECK_THROWS_AS(mesh::TerrainMapping(hill, mesh::Decay::linear, 0.0, 9000.0), InputError);
  CHECK_THROWS_AS(mesh::hill_shape("gaussian"), InputError);
  CHECK(mesh::hill_shape("schar") == mesh::Hill::Shape::schar);
}
