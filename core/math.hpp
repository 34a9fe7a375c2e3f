#pragma once
/// Math functions usable inside kernels, and the one place that names a library's
/// elementary functions. Use squall::math::* in kernels (and in the host code of
/// physics/, solver/, mesh/ and cases/), never std:: or the Kokkos names directly: the
/// build fails if one does (cmake/check_kernel_math.py).
///
/// exp, log, pow, sin, cos and cbrt are squall::math::strict's when SQUALL_STRICT_MATH
/// is 1 (the default, -DSQUALL_STRICT_MATH=ON): the same bits on every CPU and GPU,
/// within 1 ulp. With -DSQUALL_STRICT_MATH=OFF they are the vendor's (glibc, CUDA,
/// ROCm), which round differently from one another in the last bit. sqrt, fabs and
/// floor are correctly rounded or exact everywhere and always the library's.
/// Kokkos moved its math functions from Kokkos::Experimental (3.4) into Kokkos (3.7+).
#include <Kokkos_Core.hpp>

#include "core/strict_math.hpp"

#ifndef SQUALL_STRICT_MATH
#define SQUALL_STRICT_MATH 1
#endif

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
/// True when exp, log, pow, sin, cos and cbrt are the strict ones.
constexpr bool strict_math = SQUALL_STRICT_MATH != 0;

#if SQUALL_STRICT_MATH
namespace elementary = ::squall::math::strict;
#else
namespace elementary = kk;
#endif
KOKKOS_INLINE_FUNCTION double exp(double x) { return elementary::exp(x); }
KOKKOS_INLINE_FUNCTION double log(double x) { return elementary::log(x); }
KOKKOS_INLINE_FUNCTION double pow(double x, double y) { return elementary::pow(x, y); }
KOKKOS_INLINE_FUNCTION double sin(double x) { return elementary::sin(x); }
KOKKOS_INLINE_FUNCTION double cos(double x) { return elementary::cos(x); }
KOKKOS_INLINE_FUNCTION double cbrt(double x) { return elementary::cbrt(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T floor(T x) { return kk::floor(x); }
template <class T>
KOKKOS_INLINE_FUNCTION T min(T a, T b) { return a < b ? a : b; }
template <class T>
KOKKOS_INLINE_FUNCTION T max(T a, T b) { return a > b ? a : b; }
template <class T>
KOKKOS_INLINE_FUNCTION bool isfinite(T x) { return kk::isfinite(x); }

}  // namespace squall::math
