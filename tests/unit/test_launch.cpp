// Labelled launch helpers and kernel math wrappers: they run the body over the whole
// range, and the minimum reduction is exact.
#include <catch2/catch.hpp>

#include "core/launch.hpp"
#include "core/math.hpp"

using namespace squall;

TEST_CASE("parallel_for covers 1D and 2D ranges exactly once", "[core]") {
  DeviceView<int*> a("a", 37);
  parallel_for("test::fill_1d", 37, KOKKOS_LAMBDA(const int i) { a(i) += i + 1; });
  DeviceView<int**> b("b", 5, 7);
  parallel_for("test::fill_2d", 5, 7, KOKKOS_LAMBDA(const int i, const int j) { b(i, j) += 10 * i + j; });
  const auto ah = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a);
  const auto bh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), b);
  for (int i = 0; i < 37; ++i) CHECK(ah(i) == i + 1);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) CHECK(bh(i, j) == 10 * i + j);
}

TEST_CASE("parallel_min and math wrappers", "[core]") {
  const Real m = parallel_min("test::min", 100, KOKKOS_LAMBDA(const int i) {
    return math::abs(Real(i) - Real(41.5)) + math::sqrt(Real(4));
  });
  CHECK(m == 2.5);
  CHECK(math::max(1.0, 2.0) == 2.0);
  CHECK(math::min(1.0, 2.0) == 1.0);
  CHECK(math::isfinite(1.0));
  CHECK(math::pow(2.0, 10.0) == 1024.0);
}
