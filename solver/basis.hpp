#pragma once
/// Legendre-Gauss-Lobatto (LGL) nodal basis of order N on [-1, 1]: nodes, quadrature
/// weights, differentiation matrix. N is a compile-time parameter; a Basis is plain data
/// passed by value into kernels.
#include <vector>

#include "core/types.hpp"

namespace squall::dg {

/// LGL nodes (ascending) and weights of order N (N + 1 points), by Newton iteration on
/// (1 - x^2) P_N'(x) (Kopriva, Implementing Spectral Methods for PDEs, 2009, Alg. 25).
void lgl_nodes_weights(int N, std::vector<double>& nodes, std::vector<double>& weights);

/// Matrix M (targets x nodes, row-major) with M[t][j] = l_j(target_t), l_j the Lagrange
/// polynomials of `nodes` (barycentric form; Berrut & Trefethen, SIAM Rev. 46 (2004) 501).
std::vector<double> lagrange_matrix(const std::vector<double>& nodes,
                                    const std::vector<double>& targets);

/// Differentiation matrix D[i][j] = l_j'(x_i) (Kopriva 2009, Alg. 37), row-major.
std::vector<double> differentiation_matrix(const std::vector<double>& nodes);

template <int N>
struct Basis {
  static constexpr int order = N;
  static constexpr int n = N + 1;  ///< points per direction
  Real x[n];                       ///< nodes
  Real w[n];                       ///< weights
  Real D[n][n];                    ///< D[i][j] = l_j'(x_i)

  static Basis make() {
    std::vector<double> nodes, weights;
    lgl_nodes_weights(N, nodes, weights);
    const auto d = differentiation_matrix(nodes);
    Basis b{};
    for (int i = 0; i < n; ++i) {
      b.x[i] = nodes[i];
      b.w[i] = weights[i];
      for (int j = 0; j < n; ++j) b.D[i][j] = d[i * n + j];
    }
    return b;
  }
};

}  // namespace squall::dg
