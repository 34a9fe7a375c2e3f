#pragma once
/// The positivity-preserving limiter of Zhang & Shu (2010), J. Comput. Phys. 229,
/// 3091-3120, doi:10.1016/j.jcp.2009.12.030, eq. (3.4)-(3.5), for one non-negative
/// quantity of one element: the nodal values v_i are pulled toward the element's
/// quadrature mean m = sum w_i v_i / sum w_i,
///   v_i <- m + t (v_i - m),  t = min(1, m / (m - min_i v_i)),
/// which keeps the mean (hence the element's integral, to round-off) and makes every
/// value >= 0 when m >= 0. An element whose values are all >= 0 is left as it is, bit for
/// bit; one with a negative mean cannot be helped without changing its integral and is
/// left too (the caller may count it). Sums run over the nodes in a fixed order, so the
/// result is the same on every backend and rank count.
#include "core/types.hpp"

namespace squall::physics {

/// Limits v(0..n) (get(i), set(i, x)) with quadrature weights w(i); returns 1 when it
/// changed the element, -1 when the mean is negative (left as it is), 0 otherwise.
template <class Get, class Set, class Weight>
KOKKOS_INLINE_FUNCTION int limit_toward_mean(int n, const Get& get, const Set& set, const Weight& w) {
  Real low = get(0);
  for (int i = 1; i < n; ++i) low = get(i) < low ? get(i) : low;
  if (!(low < 0)) return 0;
  Real sum = 0, weights = 0;
  for (int i = 0; i < n; ++i) sum += w(i) * get(i), weights += w(i);
  const Real mean = sum / weights;
  if (!(mean >= 0)) return -1;
  const Real t = mean / (mean - low);
  for (int i = 0; i < n; ++i) set(i, mean + t * (get(i) - mean));
  return 1;
}

}  // namespace squall::physics
