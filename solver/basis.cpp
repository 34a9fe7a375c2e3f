#include "solver/basis.hpp"

#include <cmath>

#include "core/math.hpp"

namespace squall::dg {
namespace {

/// Legendre polynomial P_N(x) and its derivative (three-term recurrence).
void legendre(int N, double x, double& p, double& dp) {
  double p0 = 1, p1 = x, d0 = 0, d1 = 1;
  if (N == 0) { p = 1; dp = 0; return; }
  for (int k = 2; k <= N; ++k) {
    const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
    const double d2 = d0 + (2 * k - 1) * p1;
    p0 = p1, p1 = p2, d0 = d1, d1 = d2;
  }
  p = p1;
  dp = d1;
}

std::vector<double> barycentric_weights(const std::vector<double>& x) {
  const size_t n = x.size();
  std::vector<double> b(n, 1.0);
  for (size_t j = 0; j < n; ++j)
    for (size_t k = 0; k < n; ++k)
      if (k != j) b[j] /= (x[j] - x[k]);
  return b;
}

}  // namespace

void lgl_nodes_weights(int N, std::vector<double>& nodes, std::vector<double>& weights) {
  const int n = N + 1;
  nodes.assign(n, 0.0);
  weights.assign(n, 0.0);
  nodes[0] = -1, nodes[N] = 1;
  weights[0] = weights[N] = 2.0 / (N * (N + 1));
  for (int j = 1; j <= (n + 1) / 2 - 1; ++j) {
    // Interior nodes are the roots of P_N'; start from Chebyshev-Gauss-Lobatto points
    // and iterate Newton on q(x) = P_{N+1} - P_{N-1} (proportional to (1 - x^2) P_N').
    double x = -math::cos((j + 0.25) * M_PI / N - 3.0 / (8.0 * N * M_PI * (j + 0.25)));
    for (int it = 0; it < 100; ++it) {
      double pp, dpp, pm, dpm;
      legendre(N + 1, x, pp, dpp);
      legendre(N - 1, x, pm, dpm);
      const double delta = -(pp - pm) / (dpp - dpm);
      x += delta;
      if (std::fabs(delta) <= 1e-16 * std::fabs(x) + 1e-300) break;
    }
    double p, dp;
    legendre(N, x, p, dp);
    nodes[j] = x;
    nodes[N - j] = -x;
    weights[j] = weights[N - j] = 2.0 / (N * (N + 1) * p * p);
  }
  if (N % 2 == 0) {
    double p, dp;
    legendre(N, 0.0, p, dp);
    nodes[N / 2] = 0.0;
    weights[N / 2] = 2.0 / (N * (N + 1) * p * p);
  }
}

std::vector<double> lagrange_matrix(const std::vector<double>& nodes,
                                    const std::vector<double>& targets) {
  const size_t n = nodes.size();
  const auto b = barycentric_weights(nodes);
  std::vector<double> m(targets.size() * n, 0.0);
  for (size_t t = 0; t < targets.size(); ++t) {
    bool on_node = false;
    for (size_t j = 0; j < n; ++j)
      if (targets[t] == nodes[j]) m[t * n + j] = 1.0, on_node = true;
    if (on_node) continue;
    double denominator = 0;
    for (size_t j = 0; j < n; ++j) denominator += b[j] / (targets[t] - nodes[j]);
    for (size_t j = 0; j < n; ++j) m[t * n + j] = b[j] / (targets[t] - nodes[j]) / denominator;
  }
  return m;
}

std::vector<double> differentiation_matrix(const std::vector<double>& x) {
  const size_t n = x.size();
  const auto b = barycentric_weights(x);
  std::vector<double> d(n * n, 0.0);
  for (size_t i = 0; i < n; ++i) {
    double diagonal = 0;
    for (size_t j = 0; j < n; ++j) {
      if (j == i) continue;
      d[i * n + j] = b[j] / b[i] / (x[i] - x[j]);
      diagonal -= d[i * n + j];  // rows sum to zero: derivative of a constant
    }
    d[i * n + i] = diagonal;
  }
  return d;
}

}  // namespace squall::dg
