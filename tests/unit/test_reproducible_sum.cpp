// ExactSum: the exact sum, rounded once, whatever the order of the additions.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/reproducible_sum.hpp"

using squall::ExactSum;

namespace {
double sum_of(const std::vector<double>& v) {
  ExactSum s;
  s.add(v.data(), v.size());
  return s.value();
}
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("exact sum survives catastrophic cancellation", "[sum]") {
  CHECK(sum_of({1e20, 1.0, -1e20}) == 1.0);
  CHECK(sum_of({1e308, 1e308, -1e308, -1e308, 3.0}) == 3.0);  // would overflow naively
  CHECK(sum_of({std::ldexp(1.0, -1074), std::ldexp(1.0, -1074)}) == std::ldexp(1.0, -1073));
  CHECK(sum_of({1e300, 1e-300, -1e300}) == 1e-300);
  CHECK(sum_of({}) == 0.0);
  CHECK(sum_of({-2.5, 0.5}) == -2.0);
}

TEST_CASE("the exact value is rounded once, to nearest even", "[sum]") {
  const double ulp_half = std::ldexp(1.0, -53);  // half an ulp of 1
  // a tie rounds to even ...
  CHECK(sum_of({1.0, ulp_half}) == 1.0);
  CHECK(sum_of({1.0 + 2 * ulp_half, ulp_half}) == 1.0 + 4 * ulp_half);
  // ... but anything beyond the tie, however far below, rounds up
  CHECK(sum_of({1.0, ulp_half, std::ldexp(1.0, -400)}) == 1.0 + 2 * ulp_half);
  CHECK(sum_of({1.0, ulp_half, -std::ldexp(1.0, -400)}) == 1.0);
  CHECK(sum_of({-1.0, -ulp_half, -std::ldexp(1.0, -400)}) == -(1.0 + 2 * ulp_half));
}

TEST_CASE("the result does not depend on the order of additions", "[sum]") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-60, 60);
  std::vector<double> v(5000);
  for (double& x : v) x = std::ldexp(mantissa(rng), exponent(rng));
  const double reference = sum_of(v);
  for (int trial = 0; trial < 5; ++trial) {
    std::shuffle(v.begin(), v.end(), rng);
    CHECK(same_bits(sum_of(v), reference));
  }
  // Split into pieces and merged: same bits.
  ExactSum a, b;
  a.add(v.data(), 1234);
  b.add(v.data() + 1234, v.size() - 1234);
  b.merge(a);
  CHECK(same_bits(b.value(), reference));
  // And it is closer to the truth than the naive sum in long double
  long double naive = 0;
  for (double x : v) naive += x;
  CHECK(std::fabs(static_cast<double>(naive) - reference) <= 1e-10 * std::fabs(reference) + 1e-12);
}

TEST_CASE("repeated additions are exact", "[sum]") {
  // n copies of x sum to exactly n * x, which one multiplication rounds once, as the
  // accumulator must.
  for (const double x : {std::ldexp(1.0, 53) - 1, 0.1, -1.0 / 3.0, 1e-310}) {
    ExactSum s;
    const long n = 1000003;
    for (long i = 0; i < n; ++i) s.add(x);
    CHECK(s.value() == x * n);
  }
}

TEST_CASE("non-finite values behave as in IEEE addition", "[sum]") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(sum_of({1.0, inf}) == inf);
  CHECK(sum_of({1.0, -inf}) == -inf);
  CHECK(std::isnan(sum_of({inf, -inf})));
  CHECK(std::isnan(sum_of({1.0, std::nan("")})));
  CHECK(sum_of({std::numeric_limits<double>::max(), std::numeric_limits<double>::max()}) == inf);
}

TEST_CASE("every double comes back alone, cancels with its negative, and sums pairwise as IEEE does", "[sum]") {
  // Normal numbers are placed from their bits, subnormal ones by frexp: both must put
  // every bit of the value in its place.
  std::mt19937_64 g(11);
  long wrong = 0;
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t u = g() & 0x7FEFFFFFFFFFFFFFull;  // finite, positive
    if (i % 8 == 0) u &= 0x000FFFFFFFFFFFFFull;      // subnormal
    double x;
    std::memcpy(&x, &u, sizeof x);
    const double y = (i % 2 ? -1 : 1) * std::ldexp(x, -(static_cast<int>(g() % 60)));
    wrong += !same_bits(sum_of({x}), x) || sum_of({x, -x}) != 0.0 || sum_of({-x}) != -x;
    // x + y where it is exact in double (Sterbenz, or the same binade cancelling)
    if (std::isfinite(x + y) && (x + y) - x == y && (x + y) - y == x) wrong += !same_bits(sum_of({x, y}), x + y);
  }
  CHECK(wrong == 0);
}
