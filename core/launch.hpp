#pragma once
/// Labelled launch helpers: every kernel in Squall goes through one of these, so every
/// launch has a name in profilers (Kokkos Tools) and one place decides the policy.
#include <string>

#include "core/types.hpp"

namespace squall {

/// for i in [0, n): body(i)
template <class Body>
void parallel_for(const std::string& label, int n, const Body& body) {
  Kokkos::parallel_for(label, Kokkos::RangePolicy<ExecSpace>(0, n), body);
}

/// for (i, j) in [0, n0) x [0, n1): body(i, j); the last index varies fastest.
template <class Body>
void parallel_for(const std::string& label, int n0, int n1, const Body& body) {
  using Policy = Kokkos::MDRangePolicy<ExecSpace, Kokkos::Rank<2>>;
  Kokkos::parallel_for(label, Policy({0, 0}, {n0, n1}), body);
}

/// Minimum of body(i) over i in [0, n). A minimum is exact, so it does not depend on
/// the order of evaluation and is reproducible.
template <class Body>
Real parallel_min(const std::string& label, int n, const Body& body) {
  Real result = 0;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<ExecSpace>(0, n),
      KOKKOS_LAMBDA(const int i, Real& m) {
        const Real v = body(i);
        if (v < m) m = v;
      },
      Kokkos::Min<Real>(result));
  return result;
}

}  // namespace squall
