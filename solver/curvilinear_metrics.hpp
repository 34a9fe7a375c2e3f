#pragma once
/// Metric terms of a curved hexahedron given by the nodal interpolant of its mapping
/// X(xi) on the LGL nodes: the Jacobian J = X_xi1 . (X_xi2 x X_xi3) and the contravariant
/// vectors J a^i = J grad(xi_i), the latter in the invariant curl form of Kopriva (2006),
/// J. Sci. Comput. 26, 301, eq. (36):
///
///   (J a^i)_n = -[ curl_xi ( I^N( X_l grad_xi X_m ) ) ]_i,   (n, m, l) cyclic,
///
/// with every derivative the LGL differentiation matrix. Because discrete derivatives
/// along different directions of the tensor grid commute, the discrete divergence
/// sum_i D_i (J a^i)_n vanishes to round-off on any mapping (the metric identities), which
/// is what makes a uniform flow an exact steady state of the DG operator on curved
/// elements (free-stream preservation). The cross-product form (J a^1 = X_xi2 x X_xi3, ...)
/// of a polynomial mapping of degree N has products of degree 2N, and its divergence does
/// not vanish in 3-D.
///
/// On a face normal to xi_d, (J a^d) depends only on derivatives along the face of the face
/// nodes' coordinates, so two elements that see the same face nodes compute bitwise the
/// same normal vector for it (both sides use the same arithmetic in the same order).
///
/// Host functions over one element, for setting up the geometry once (solver/geometry.hpp);
/// not kernels.
#include <array>

#include "core/math.hpp"
#include "solver/basis.hpp"
#include "solver/dg_layout.hpp"

namespace squall::dg {

/// One element's metric terms: J(n) and ja[i][k][n], component k of J a^i at node n.
template <int N>
struct ElementMetrics {
  static constexpr int nodes = Layout<N>::nodes;
  std::array<double, nodes> jacobian{};
  std::array<std::array<std::array<double, nodes>, 3>, 3> ja{};
};

/// out(n) = d f / d xi_d at node n: the LGL derivative along d of nodal values f.
template <int N>
void derivative_along(const Basis<N>& b, const double* f, int d, double* out) {
  using L = Layout<N>;
  for (int n = 0; n < L::nodes; ++n) {
    const int i = L::index(n, d);
    double s = 0;
    for (int m = 0; m < L::n1; ++m) s += b.D[i][m] * f[L::along(n, d, m)];
    out[n] = s;
  }
}

/// The metric terms of an element whose node coordinates are x[k * nodes + n] (direction
/// k, node n: the order of a CoordView's (direction, node) slice).
template <int N>
ElementMetrics<N> curl_form_metrics(const Basis<N>& b, const double* x) {
  using L = Layout<N>;
  constexpr int nodes = L::nodes;
  // dx[k][j][n] = d X_k / d xi_j at node n.
  std::array<std::array<std::array<double, nodes>, 3>, 3> dx{};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j) derivative_along(b, x + k * nodes, j, dx[k][j].data());

  ElementMetrics<N> g;
  for (int n = 0; n < nodes; ++n) {
    const double a[3] = {dx[0][0][n], dx[1][0][n], dx[2][0][n]};  // X_xi1
    const double c[3] = {dx[0][1][n], dx[1][1][n], dx[2][1][n]};  // X_xi2
    const double e[3] = {dx[0][2][n], dx[1][2][n], dx[2][2][n]};  // X_xi3
    g.jacobian[n] = a[0] * (c[1] * e[2] - c[2] * e[1]) + a[1] * (c[2] * e[0] - c[0] * e[2]) +
                    a[2] * (c[0] * e[1] - c[1] * e[0]);
  }

  std::array<double, nodes> v{}, dv{};
  for (int k = 0; k < 3; ++k) {
    const int m = (k + 1) % 3, l = (k + 2) % 3;
    // V_j = X_l dX_m/dxi_j at the nodes (the interpolant I^N of the product), then
    // (J a^i)_k = -(curl V)_i: -(d V_{i+2}/d xi_{i+1} - d V_{i+1}/d xi_{i+2}).
    for (int i = 0; i < 3; ++i) g.ja[i][k].fill(0);
    for (int j = 0; j < 3; ++j) {
      for (int n = 0; n < nodes; ++n) v[n] = x[l * nodes + n] * dx[m][j][n];
      for (int t = 0; t < 3; ++t) {
        if (t == j) continue;
        derivative_along(b, v.data(), t, dv.data());
        // d V_j / d xi_t enters (curl V)_i for the i with (i, t, j) cyclic (+) or
        // anticyclic (-): i = 3 - t - j.
        const int i = 3 - t - j;
        const double sign = (t == (i + 1) % 3) ? 1.0 : -1.0;
        for (int n = 0; n < nodes; ++n) g.ja[i][k][n] -= sign * dv[n];
      }
    }
  }
  return g;
}

/// The outward unit normal and surface element |J a^d| at face node m of the element face
/// `local_face` (2d: low, 2d+1: high side of xi_d).
struct FaceMetric {
  std::array<double, 3> normal{};
  double area = 0;
};

template <int N>
FaceMetric face_metric(const ElementMetrics<N>& g, int local_face, int m) {
  const int d = local_face / 2, n = Layout<N>::volume_node_of(m, local_face);
  const double sign = local_face % 2 == 1 ? 1.0 : -1.0;
  FaceMetric f;
  const double v[3] = {g.ja[d][0][n], g.ja[d][1][n], g.ja[d][2][n]};
  f.area = math::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int k = 0; k < 3; ++k) f.normal[k] = sign * v[k] / f.area;
  return f;
}

}  // namespace squall::dg
