// core/strict_math.hpp: accuracy against long double over millions of arguments, the
// special values of C99 Annex F, exact cases, and the same bits in a kernel as on the
// host (on a GPU build that is the CPU-vs-GPU check of the elementary functions).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/math.hpp"

namespace sm = squall::math::strict;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
const double nan_value = std::numeric_limits<double>::quiet_NaN();

std::uint64_t bits_of(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

/// The same IEEE value: bitwise equal, or both NaN.
bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || bits_of(a) == bits_of(b); }

/// |got - exact| in units in the last place of the exact value (its binade; 2^-1074
/// below the normal range). Infinite or zero exact values must be met exactly.
double ulps(double got, long double exact) {
  if (std::isnan(static_cast<double>(exact))) return std::isnan(got) ? 0 : inf;
  const double rounded = static_cast<double>(exact);
  if (std::isinf(rounded)) return got == rounded ? 0 : inf;  // the exact value overflows
  if (exact == 0) return got == 0 ? 0 : inf;
  int e = 0;
  std::frexp(static_cast<double>(std::fabs(exact)) == 0 ? 1e-320 : static_cast<double>(exact), &e);
  // frexp of the rounded value can be one binade off at a power of two: take the smaller
  const long double ulp = std::ldexp(1.0L, std::max(e - 54, -1074));
  const long double ulp_exact = std::fabs(exact) >= std::ldexp(1.0L, e - 1) ? 2 * ulp : ulp;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp_exact);
}

/// Largest ulp error of f against reference over args, and how often it differs from
/// the C library's own function (printed only: glibc is not the reference).
struct Errors {
  double worst = 0, at = 0;
  long differs_from_libc = 0, count = 0;
};

template <class F, class R, class L>
Errors measure(const std::vector<double>& args, F f, R reference, L libc) {
  Errors e;
  for (double x : args) {
    const double got = f(x);
    const double err = ulps(got, reference(static_cast<long double>(x)));
    if (!(err <= e.worst)) e.worst = err, e.at = x;
    e.differs_from_libc += !same(got, libc(x));
    ++e.count;
  }
  return e;
}

void report(const char* what, const Errors& e) {
  std::printf("%-34s max %.3f ulp (at %.17g), differs from libm in %ld of %ld\n", what, e.worst, e.at,
              e.differs_from_libc, e.count);
}

std::vector<double> uniform(std::mt19937_64& g, double lo, double hi, int n) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = d(g);
  return v;
}

/// Doubles with uniformly random bit patterns between two positive values.
std::vector<double> random_bits(std::mt19937_64& g, double lo, double hi, int n) {
  std::uniform_int_distribution<std::uint64_t> d(bits_of(lo), bits_of(hi));
  std::vector<double> v(n);
  for (double& x : v) {
    const std::uint64_t u = d(g);
    std::memcpy(&x, &u, sizeof x);
  }
  return v;
}

}  // namespace

TEST_CASE("strict exp within 1 ulp", "[strict_math]") {
  std::mt19937_64 g(1);
  auto f = [](double x) { return sm::exp(x); };
  auto ref = [](long double x) { return std::exp(x); };
  auto libc = [](double x) { return std::exp(x); };
  for (auto [what, args] : {std::pair{"exp on [-745.2, 709.8]", uniform(g, -745.2, 709.8, 1000000)},
                            std::pair{"exp on [-1, 1]", uniform(g, -1, 1, 1000000)},
                            std::pair{"exp on |x| in [2^-60, 1e-3]", random_bits(g, 0x1p-60, 1e-3, 200000)},
                            std::pair{"exp near underflow [-745.2, -700]", uniform(g, -745.2, -700, 200000)}}) {
    const Errors e = measure(args, f, ref, libc);
    report(what, e);
    CHECK(e.worst <= 1.0);
  }
}

TEST_CASE("strict log within 1 ulp", "[strict_math]") {
  std::mt19937_64 g(2);
  auto f = [](double x) { return sm::log(x); };
  auto ref = [](long double x) { return std::log(x); };
  auto libc = [](double x) { return std::log(x); };
  for (auto [what, args] : {std::pair{"log on all positive doubles", random_bits(g, 4.9e-324, 1.7e308, 1000000)},
                            std::pair{"log on [0.7, 1.5]", uniform(g, 0.7, 1.5, 1000000)},
                            std::pair{"log on 1 +- 2^-20", uniform(g, 1 - 0x1p-20, 1 + 0x1p-20, 200000)},
                            std::pair{"log on subnormals", random_bits(g, 4.9e-324, 2.2e-308, 200000)}}) {
    const Errors e = measure(args, f, ref, libc);
    report(what, e);
    CHECK(e.worst <= 1.0);
  }
}

TEST_CASE("strict pow within 1 ulp", "[strict_math]") {
  std::mt19937_64 g(3);
  // The exponents the physics uses: R/c_p, c_p/R, 1/(gamma-1), gamma/(gamma-1), and others
  const double kappa = 287.04 / 1004.64;
  const std::vector<double> exponents = {kappa, 1 / kappa, 2.5, 3.5, 0.5, 2, -1, 1.0 / 3, 1.4, -0.2857};
  std::vector<double> xs = uniform(g, 0.01, 1.5, 1000000);
  Errors physics;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double y = exponents[i % exponents.size()];
    const Errors e = measure({xs[i]}, [y](double x) { return sm::pow(x, y); },
                             [y](long double x) { return std::pow(x, static_cast<long double>(y)); },
                             [y](double x) { return std::pow(x, y); });
    if (!(e.worst <= physics.worst)) physics.worst = e.worst, physics.at = xs[i];
    physics.differs_from_libc += e.differs_from_libc, ++physics.count;
  }
  report("pow, x in [0.01, 1.5], physics y", physics);
  CHECK(physics.worst <= 1.0);

  // General arguments: x log-uniform in [1e-3, 1e3], y in [-20, 20]; and |y log x| up to
  // 700, where the result is near overflow or underflow.
  for (double z_max : {20.0 * 6.9, 700.0}) {
    Errors general;
    std::uniform_real_distribution<double> lx(-6.9, 6.9), uz(-z_max, z_max);
    for (int i = 0; i < 500000; ++i) {
      const double x = std::exp(lx(g)), z = uz(g);
      const double y = z / std::log(x);
      const double got = sm::pow(x, y);
      const double err = ulps(got, std::pow(static_cast<long double>(x), static_cast<long double>(y)));
      if (!(err <= general.worst)) general.worst = err, general.at = x;
      general.differs_from_libc += !same(got, std::pow(x, y)), ++general.count;
    }
    report(z_max > 500 ? "pow, |y log x| <= 700" : "pow, |y log x| <= 138", general);
    CHECK(general.worst <= 1.0);
  }
}

TEST_CASE("strict sin and cos within 1 ulp", "[strict_math]") {
  std::mt19937_64 g(4);
  std::vector<double> near_half_pi;  // the doubles nearest k pi/2 and their neighbours
  for (int k = 1; k <= 100000; k += 7) {
    const long double a = k * 1.5707963267948966192313216916397514L;
    const double x = static_cast<double>(a);
    near_half_pi.insert(near_half_pi.end(), {x, std::nextafter(x, 0.0), std::nextafter(x, 1e300), -x});
  }
  for (auto [what, args] : {std::pair{"on [-2 pi, 2 pi]", uniform(g, -6.3, 6.3, 1000000)},
                            std::pair{"on [-1e5, 1e5]", uniform(g, -1e5, 1e5, 1000000)},
                            std::pair{"on [-6.5e6, 6.5e6]", uniform(g, -6.5e6, 6.5e6, 200000)},
                            std::pair{"next to k pi/2, k < 1e5", near_half_pi},
                            std::pair{"on |x| in [2^-40, 0.1]", random_bits(g, 0x1p-40, 0.1, 200000)}}) {
    const Errors s = measure(args, [](double x) { return sm::sin(x); },
                             [](long double x) { return std::sin(x); }, [](double x) { return std::sin(x); });
    const Errors c = measure(args, [](double x) { return sm::cos(x); },
                             [](long double x) { return std::cos(x); }, [](double x) { return std::cos(x); });
    report((std::string("sin ") + what).c_str(), s);
    report((std::string("cos ") + what).c_str(), c);
    CHECK(s.worst <= 1.0);
    CHECK(c.worst <= 1.0);
  }
}

TEST_CASE("strict cbrt within 1 ulp", "[strict_math]") {
  std::mt19937_64 g(5);
  auto f = [](double x) { return sm::cbrt(x); };
  auto ref = [](long double x) { return std::cbrt(x); };
  auto libc = [](double x) { return std::cbrt(x); };
  std::vector<double> negative = uniform(g, -10, 10, 200000);
  for (auto [what, args] : {std::pair{"cbrt on all positive doubles", random_bits(g, 4.9e-324, 1.7e308, 1000000)},
                            std::pair{"cbrt on [-10, 10]", negative},
                            std::pair{"cbrt on [1, 8]", uniform(g, 1, 8, 1000000)}}) {
    const Errors e = measure(args, f, ref, libc);
    report(what, e);
    CHECK(e.worst <= 1.0);
  }
}

TEST_CASE("strict functions: the special values of C99 Annex F", "[strict_math]") {
  const double big = 1e300, tiny = 4.9e-324;
  const std::vector<double> specials = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.5, -1.5, big, -big,
                                        tiny, -tiny, inf, -inf, nan_value, 709.78, -745.1, 710, -746, 1e-20};
  // exact where the result is special (0, Inf, NaN, or an exact value such as exp(0)),
  // within 1 ulp elsewhere (glibc's cbrt, for one, is not correctly rounded)
  auto agrees = [](double got, double libc, long double exact) {
    if (std::isnan(libc) || std::isinf(libc) || libc == 0 || static_cast<long double>(libc) == exact)
      return same(got, libc);
    return ulps(got, exact) <= 1.0;
  };
  for (double x : specials) {
    INFO("x = " << x);
    const long double lx = x;
    CHECK(agrees(sm::exp(x), std::exp(x), std::exp(lx)));
    CHECK(agrees(sm::log(x), std::log(x), std::log(lx)));
    CHECK(agrees(sm::cbrt(x), std::cbrt(x), std::cbrt(lx)));
    if (!(std::fabs(x) > 6.5e6)) {  // beyond the range of sin and cos: the same bits everywhere, not 1 ulp
      CHECK(agrees(sm::sin(x), std::sin(x), std::sin(lx)));
      CHECK(agrees(sm::cos(x), std::cos(x), std::cos(lx)));
    }
    for (double y : specials) {
      INFO("pow(" << x << ", " << y << ")");
      const double want = std::pow(x, y);
      const double got = sm::pow(x, y);
      if (std::isnan(want) || std::isinf(want) || want == 0 || std::isnan(x) || std::isnan(y))
        CHECK(same(got, want));  // the special cases: exactly as Annex F says, signs of zero included
      else
        CHECK(ulps(got, std::pow(static_cast<long double>(x), static_cast<long double>(y))) <= 1.0);
    }
  }
}

TEST_CASE("strict functions are exact where the result is representable", "[strict_math]") {
  for (int k = -1074; k <= 1023; ++k) CHECK(sm::pow(2.0, k) == std::ldexp(1.0, k));
  for (int k = -300; k <= 300; ++k) CHECK(sm::cbrt(std::ldexp(1.0, 3 * k)) == std::ldexp(1.0, k));
  for (double x : {0.3, 1.7, 287.04, 1e5, 1e-7, 12345.678}) {
    CHECK(sm::pow(x, 1.0) == x);
    CHECK(sm::pow(x, 0.0) == 1.0);
  }
  for (int i = 1; i <= 1000; ++i) CHECK(sm::cbrt(double(i) * i * i) == i);
  CHECK(sm::exp(0.0) == 1.0);
  CHECK(sm::log(1.0) == 0.0);
  CHECK(sm::pow(10.0, 3.0) == 1000.0);
  CHECK(sm::pow(-2.0, 3.0) == -8.0);
}

TEST_CASE("squall::math routes to the strict functions in a strict build", "[strict_math]") {
  for (double x : {0.1, 1.3, 17.5, -3.25, 700.0}) {
    CHECK(same(squall::math::exp(x), squall::math::strict_math ? sm::exp(x) : std::exp(x)));
    CHECK(same(squall::math::sin(x), squall::math::strict_math ? sm::sin(x) : std::sin(x)));
    CHECK(same(squall::math::cos(x), squall::math::strict_math ? sm::cos(x) : std::cos(x)));
    CHECK(same(squall::math::cbrt(x), squall::math::strict_math ? sm::cbrt(x) : std::cbrt(x)));
    const double a = std::fabs(x);
    CHECK(same(squall::math::log(a), squall::math::strict_math ? sm::log(a) : std::log(a)));
    CHECK(same(squall::math::pow(a, 0.2857), squall::math::strict_math ? sm::pow(a, 0.2857) : std::pow(a, 0.2857)));
  }
}

namespace {
/// The six functions of args[i] on the default execution space (a GPU in a CUDA build).
/// LayoutRight on both sides: a CUDA view's default layout is LayoutLeft, whose host
/// mirror would not convert to the host's default.
Kokkos::View<double* [6], Kokkos::LayoutRight, Kokkos::HostSpace> evaluate_in_kernel(const std::vector<double>& args) {
  const int n = static_cast<int>(args.size());
  Kokkos::View<double*> x("x", n);
  Kokkos::View<double* [6], Kokkos::LayoutRight> y("y", n);
  auto x_host = Kokkos::create_mirror_view(x);
  for (int i = 0; i < n; ++i) x_host(i) = args[i];
  Kokkos::deep_copy(x, x_host);
  Kokkos::parallel_for(
      "test::strict_math", n, KOKKOS_LAMBDA(const int i) {
        const double v = x(i);
        y(i, 0) = sm::exp(v);
        y(i, 1) = sm::log(v);
        y(i, 2) = sm::pow(v, 0.28571428571428571);
        y(i, 3) = sm::sin(v);
        y(i, 4) = sm::cos(v);
        y(i, 5) = sm::cbrt(v);
      });
  auto y_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), y);
  return y_host;
}
}  // namespace

TEST_CASE("log_bounded keeps its stated error bound, and is NaN outside the normal range", "[strict_math]") {
  std::mt19937_64 g(9);
  double worst = 0;  // the largest error in units of the bound 7.2e-10 + 2.3e-16 |ln x|
  for (const auto& args : {random_bits(g, 2.3e-308, 1.7e308, 1000000), uniform(g, 0.5, 2.0, 1000000),
                           uniform(g, 1.4142, 1.4143, 100000), uniform(g, 0.7071, 0.7072, 100000)})
    for (double x : args) {
      const long double exact = std::log(static_cast<long double>(x));
      const double err = static_cast<double>(std::fabs(sm::log_bounded(x) - exact));
      worst = std::max(worst, err / (7.2e-10 + 2.3e-16 * static_cast<double>(std::fabs(exact))));
    }
  std::printf("log_bounded: worst error %.3f of its bound\n", worst);
  CHECK(worst <= 1.0);
  CHECK(worst > 0.5);  // the bound is tight: the series really is cut at s^9
  for (double x : {0.0, -0.0, -1.0, 4.9e-324, 2.2e-308, inf, -inf, nan_value}) CHECK(std::isnan(sm::log_bounded(x)));
}

TEST_CASE("exp_bounded keeps its stated error bound, and is NaN outside [-700, 700]", "[strict_math]") {
  std::mt19937_64 g(10);
  double worst = 0;  // the largest relative error in units of the bound 2e-14
  for (const auto& args : {uniform(g, -700.0, 700.0, 1000000), uniform(g, -1.0, 1.0, 1000000),
                           uniform(g, -30.0, 5.0, 1000000), uniform(g, 0.3465, 0.3467, 100000)})
    for (double x : args) {
      const long double exact = std::exp(static_cast<long double>(x));
      const double err = static_cast<double>(std::fabs((sm::exp_bounded(x) - exact) / exact));
      worst = std::max(worst, err / 2e-14);
    }
  std::printf("exp_bounded: worst error %.3f of its bound\n", worst);
  CHECK(worst <= 1.0);
  CHECK(sm::exp_bounded(0.0) == 1.0);
  for (double x : {-700.5, 700.5, inf, -inf, nan_value}) CHECK(std::isnan(sm::exp_bounded(x)));
}

TEST_CASE("strict functions give the same bits in a kernel as on the host", "[strict_math]") {
  std::mt19937_64 g(6);
  std::vector<double> args = uniform(g, -20, 20, 100000);
  const std::vector<double> more = random_bits(g, 1e-300, 1e300, 100000);
  args.insert(args.end(), more.begin(), more.end());
  args.insert(args.end(), {0.0, -0.0, inf, -inf, nan_value, 4.9e-324, 709.7, -745.0});
  const auto y = evaluate_in_kernel(args);
  long mismatches = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const double v = args[i];
    const double host[6] = {sm::exp(v), sm::log(v), sm::pow(v, 0.28571428571428571), sm::sin(v), sm::cos(v),
                            sm::cbrt(v)};
    for (int f = 0; f < 6; ++f) mismatches += !same(y(i, f), host[f]);
  }
  std::printf("kernel (%s) vs host: %ld mismatches in %zu values\n",
              Kokkos::DefaultExecutionSpace::name(), mismatches, 6 * args.size());
  CHECK(mismatches == 0);
}
