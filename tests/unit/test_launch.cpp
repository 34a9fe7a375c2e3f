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

TEST_CASE("parallel_max_groups: each group's maximum, one after another or as teams", "[core]") {
  // 5 groups of 203 items; group g's largest is at item (37 g) % 203; group 3 has an
  // infinite item, as a non-physical node's wave speed is.
  const int groups = 5, n = 203;
  const auto body = KOKKOS_LAMBDA(const int g, const int i) {
    if (g == 3 && i == 100) return Real(INFINITY);
    return i == (37 * g) % n ? Real(1000 + g) : Real(g) + Real(i) / n;
  };
  for (const bool teams : {false, true}) {
    DeviceView<Real*> out("out", groups);
    parallel_max_groups("test::max_groups", n, out, body, teams);
    const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int g = 0; g < groups; ++g) CHECK(h(g) == (g == 3 ? Real(INFINITY) : Real(1000 + g)));
  }
  DeviceView<Real*> none("none", 2);  // no items: the lowest value, as parallel_max gives
  parallel_max_groups("test::max_groups_empty", 0, none, body, true);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), none);
  CHECK(h(0) == parallel_max("test::max_empty", 0, KOKKOS_LAMBDA(const int) { return Real(0); }));
}
