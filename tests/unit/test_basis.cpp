// LGL basis: known nodes and weights, quadrature exact to degree 2N-1, differentiation
// exact to degree N, interpolation reproducing polynomials.
#include <catch2/catch.hpp>
#include <cmath>

#include "solver/basis.hpp"

using namespace squall::dg;

namespace {
double power(double x, int k) { return k == 0 ? 1.0 : std::pow(x, k); }
}  // namespace

TEST_CASE("LGL nodes and weights match known values", "[basis]") {
  std::vector<double> x, w;
  lgl_nodes_weights(1, x, w);
  CHECK(x == std::vector<double>{-1, 1});
  CHECK(w == std::vector<double>{1, 1});
  lgl_nodes_weights(2, x, w);
  CHECK(x[1] == Approx(0.0).margin(1e-16));
  CHECK(w[0] == Approx(1.0 / 3));
  CHECK(w[1] == Approx(4.0 / 3));
  lgl_nodes_weights(4, x, w);  // +-1, +-sqrt(3/7), 0; weights 1/10, 49/90, 32/45
  CHECK(x[3] == Approx(std::sqrt(3.0 / 7)).epsilon(1e-15));
  CHECK(x[1] == Approx(-std::sqrt(3.0 / 7)).epsilon(1e-15));
  CHECK(w[0] == Approx(0.1).epsilon(1e-15));
  CHECK(w[1] == Approx(49.0 / 90).epsilon(1e-15));
  CHECK(w[2] == Approx(32.0 / 45).epsilon(1e-15));
}

TEST_CASE("LGL quadrature is exact to degree 2N-1, and only that far", "[basis]") {
  for (int N = 1; N <= 8; ++N) {
    INFO("N = " << N);
    std::vector<double> x, w;
    lgl_nodes_weights(N, x, w);
    for (int i = 1; i <= N; ++i) CHECK(x[i] > x[i - 1]);
    for (int k = 0; k <= 2 * N - 1; ++k) {
      double integral = 0;
      for (int i = 0; i <= N; ++i) integral += w[i] * power(x[i], k);
      const double exact = k % 2 ? 0.0 : 2.0 / (k + 1);
      CHECK(integral == Approx(exact).margin(1e-14));
    }
    double even = 0;  // degree 2N is not integrated exactly
    for (int i = 0; i <= N; ++i) even += w[i] * power(x[i], 2 * N);
    CHECK(std::fabs(even - 2.0 / (2 * N + 1)) > 1e-6);
  }
}

TEST_CASE("the differentiation matrix is exact to degree N", "[basis]") {
  for (int N = 1; N <= 8; ++N) {
    INFO("N = " << N);
    std::vector<double> x, w;
    lgl_nodes_weights(N, x, w);
    const auto D = differentiation_matrix(x);
    for (int k = 0; k <= N; ++k)
      for (int i = 0; i <= N; ++i) {
        double derivative = 0;
        for (int j = 0; j <= N; ++j) derivative += D[i * (N + 1) + j] * power(x[j], k);
        const double exact = k == 0 ? 0.0 : k * power(x[i], k - 1);
        CHECK(derivative == Approx(exact).margin(1e-12));
      }
  }
}

TEST_CASE("interpolation reproduces polynomials of degree N", "[basis]") {
  const int N = 5;
  std::vector<double> x, w;
  lgl_nodes_weights(N, x, w);
  const std::vector<double> targets{-0.9, -0.25, 0.0, 0.3333, 0.99, 1.0};
  const auto M = lagrange_matrix(x, targets);
  for (size_t t = 0; t < targets.size(); ++t) {
    double value = 0;
    for (int j = 0; j <= N; ++j) value += M[t * (N + 1) + j] * (power(x[j], 5) - 2 * x[j]);
    CHECK(value == Approx(power(targets[t], 5) - 2 * targets[t]).margin(1e-14));
  }
}

TEST_CASE("the compile-time Basis holds the same values", "[basis]") {
  const auto b = Basis<3>::make();
  std::vector<double> x, w;
  lgl_nodes_weights(3, x, w);
  for (int i = 0; i < 4; ++i) {
    CHECK(b.x[i] == x[i]);
    CHECK(b.w[i] == w[i]);
  }
  double row_sum = 0;
  for (int j = 0; j < 4; ++j) row_sum += b.D[2][j];
  CHECK(row_sum == Approx(0).margin(1e-14));
}
