#pragma once
/// Math functions usable inside kernels. Kokkos moved them from Kokkos::Experimental
/// (3.4) into Kokkos (3.7+); this is the one place that knows. Use squall::math::*
/// in kernels, never std:: or the Kokkos names directly.
#include <Kokkos_Core.hpp>

namespace squall::math {

#if KOKKOS_VERSION >= 30700
namespace kk = ::Kokkos;
#else
namespace kk = ::Kokkos::Experimental;
#endif

template <class T>
KOKKOS_INLINE_FUNCTION T sqrt(T x) { return kk::sqrt(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T abs(T x) { return kk::fabs(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T exp(T x) { return kk::exp(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T log(T x) { return kk::log(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T pow(T x, T y) { return kk::pow(x, y); }
template <class T>
KOKKOS_INLINE_FUNCTION T sin(T x) { return kk::sin(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T cos(T x) { return kk::cos(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T floor(T x) { return kk::floor(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T min(T a, T b) { return a < b ? a : b; }
template <class T>
KOKKOS_INLINE_FUNCTION T max(T a, T b) { return a > b ? a : b; }
template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) { return kk::isfinite(x); }

}  // namespace squall::math
