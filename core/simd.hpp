#pragma once
/// Pack<W>: W doubles side by side, one per vector lane, for kernels that evaluate W
/// elements at once on host backends (one element per lane). Every operation is
/// lane-wise IEEE arithmetic (+, -, *, / and sqrt, correctly rounded), and the build
/// does not contract a * b + c into fused multiply-adds (-ffp-contract=off), so each lane
/// holds the bits the scalar code computes for its element. Comparisons give a Mask and
/// select(mask, a, b) takes a's lanes where the mask is set: the lane-wise form of
/// `cond ? a : b`, which the pointwise physics uses for its branches.
///
/// With GCC or Clang on the host the lanes are a vector type of the compiler's (one AVX2
/// register for W = 4 with -march=x86-64-v3); elsewhere a plain array. Device code does
/// not use packs: a GPU thread takes a node.
#include <cstdint>
#include <cstring>
#include <utility>
#include <type_traits>

#include "core/math.hpp"
#include "core/types.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__AVX__) || defined(__SSE2__)) && \
    !defined(__CUDACC__) && !defined(__HIPCC__)
#include <immintrin.h>
#endif

#ifndef SQUALL_VECTOR_EXTENSIONS  // -DSQUALL_VECTOR_EXTENSIONS=0 builds the plain arrays
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__) && !defined(__HIPCC__)
#define SQUALL_VECTOR_EXTENSIONS 1
#else
#define SQUALL_VECTOR_EXTENSIONS 0
#endif
#endif

namespace squall {

/// How many elements the host kernels take at once: 4 (an AVX2 register of doubles).
/// -DSQUALL_PACK_WIDTH=8 takes 8 (an AVX-512 register, with SQUALL_ARCH=native on such a
/// CPU): the same bits, but no faster on an AMD EPYC of the Zen 4 kind, whose 512-bit
/// operations take two 256-bit steps (docs/performance.md, sixteenth round).
#ifndef SQUALL_PACK_WIDTH
#define SQUALL_PACK_WIDTH 4
#endif
inline constexpr int pack_width = SQUALL_PACK_WIDTH;

template <int W>
struct Mask;

#if SQUALL_VECTOR_EXTENSIONS
/// The compiler's vector types of W doubles and of W 64-bit lane masks, one
/// specialisation per width in use (GCC does not take a vector size that depends on a
/// template parameter).
template <int W>
struct NativeVector;
template <>
struct NativeVector<pack_width> {
  typedef double type __attribute__((vector_size(sizeof(double) * pack_width)));
  typedef std::int64_t mask __attribute__((vector_size(sizeof(double) * pack_width)));
  typedef std::uint64_t bits __attribute__((vector_size(sizeof(double) * pack_width)));
};
#endif

template <int W>
struct Pack {
  static_assert(W > 0 && (W & (W - 1)) == 0, "a power of two");
#if SQUALL_VECTOR_EXTENSIONS
  using Native = typename NativeVector<W>::type;
  Native v;
  Pack() = default;
  Pack(Real x) {  // NOLINT: a scalar broadcasts (lane by lane: 0 + x would turn -0 into +0)
    for (int l = 0; l < W; ++l) v[l] = x;
  }
  static Pack of(Native n) {
    Pack p;
    p.v = n;
    return p;
  }
  Real operator[](int l) const { return v[l]; }
  /// The pack of f(0), ..., f(W - 1).
  template <class F>
  static Pack gather(const F& f) {
    Real a[W];
    for (int l = 0; l < W; ++l) a[l] = f(l);
    Pack p;
    std::memcpy(&p.v, a, sizeof a);
    return p;
  }
  /// The pack of p[0], ..., p[W - 1] (W consecutive values), and its store there.
  static Pack load(const Real* p) {
    Pack r;
    std::memcpy(&r.v, p, sizeof r.v);
    return r;
  }
  void store(Real* p) const { std::memcpy(p, &v, sizeof v); }
#else
  Real v[W];
  Pack() = default;
  Pack(Real x) {  // NOLINT: a scalar broadcasts
    for (int l = 0; l < W; ++l) v[l] = x;
  }
  Real operator[](int l) const { return v[l]; }
  template <class F>
  static Pack gather(const F& f) {
    Pack p;
    for (int l = 0; l < W; ++l) p.v[l] = f(l);
    return p;
  }
  static Pack load(const Real* p) {
    Pack r;
    for (int l = 0; l < W; ++l) r.v[l] = p[l];
    return r;
  }
  void store(Real* p) const {
    for (int l = 0; l < W; ++l) p[l] = v[l];
  }
#endif
};

template <int W>
struct Mask {
#if SQUALL_VECTOR_EXTENSIONS
  using Native = typename NativeVector<W>::mask;
  Native m;  // all ones where set
  bool operator[](int l) const { return m[l] != 0; }
  /// The mask set where f(l) is true, l = 0 ... W - 1.
  template <class F>
  static Mask gather(const F& f) {
    std::int64_t a[W];
    for (int l = 0; l < W; ++l) a[l] = f(l) ? -1 : 0;
    Mask r;
    std::memcpy(&r.m, a, sizeof a);
    return r;
  }
#else
  bool m[W];
  bool operator[](int l) const { return m[l]; }
  template <class F>
  static Mask gather(const F& f) {
    Mask r;
    for (int l = 0; l < W; ++l) r.m[l] = f(l);
    return r;
  }
#endif
};

// Lane by lane a OP b into the field F of a Result (a Pack's lanes v, a Mask's m); then
// the same with a scalar on either side, broadcast.
#if SQUALL_VECTOR_EXTENSIONS
#define SQUALL_PACK_LANES(OP, Result, F)                                   \
  template <int W>                                                         \
  inline Result<W> operator OP(const Pack<W>& a, const Pack<W>& b) {       \
    Result<W> r;                                                           \
    r.F = a.v OP b.v;                                                      \
    return r;                                                              \
  }
#else
#define SQUALL_PACK_LANES(OP, Result, F)                                   \
  template <int W>                                                         \
  inline Result<W> operator OP(const Pack<W>& a, const Pack<W>& b) {       \
    Result<W> r;                                                           \
    for (int l = 0; l < W; ++l) r.F[l] = a.v[l] OP b.v[l];                 \
    return r;                                                              \
  }
#endif
#define SQUALL_PACK_OPERATOR(OP, Result, F)                                                  \
  SQUALL_PACK_LANES(OP, Result, F)                                                           \
  template <int W>                                                                           \
  inline Result<W> operator OP(Real a, const Pack<W>& b) { return Pack<W>(a) OP b; }        \
  template <int W>                                                                           \
  inline Result<W> operator OP(const Pack<W>& a, Real b) { return a OP Pack<W>(b); }
SQUALL_PACK_OPERATOR(+, Pack, v)
SQUALL_PACK_OPERATOR(-, Pack, v)
SQUALL_PACK_OPERATOR(*, Pack, v)
SQUALL_PACK_OPERATOR(/, Pack, v)
SQUALL_PACK_OPERATOR(>, Mask, m)
SQUALL_PACK_OPERATOR(<, Mask, m)
#undef SQUALL_PACK_OPERATOR
#undef SQUALL_PACK_LANES

/// Negation flips the sign bit of each lane, as the scalar -x does.
template <int W>
inline Pack<W> operator-(const Pack<W>& a) {
#if SQUALL_VECTOR_EXTENSIONS
  return Pack<W>::of(-a.v);
#else
  Pack<W> r;
  for (int l = 0; l < W; ++l) r.v[l] = -a.v[l];
  return r;
#endif
}

template <int W>
inline Pack<W>& operator+=(Pack<W>& a, const Pack<W>& b) { return a = a + b; }

/// Both masks set.
template <int W>
inline Mask<W> operator&(const Mask<W>& a, const Mask<W>& b) {
#if SQUALL_VECTOR_EXTENSIONS
  return Mask<W>{a.m & b.m};
#else
  Mask<W> r;
  for (int l = 0; l < W; ++l) r.m[l] = a.m[l] && b.m[l];
  return r;
#endif
}

/// The lanes not set.
template <int W>
inline Mask<W> operator!(const Mask<W>& a) {
#if SQUALL_VECTOR_EXTENSIONS
  return Mask<W>{~a.m};
#else
  Mask<W> r;
  for (int l = 0; l < W; ++l) r.m[l] = !a.m[l];
  return r;
#endif
}
/// Whether any lane is set.
template <int W>
inline bool any(const Mask<W>& a) {
  bool set = false;
  for (int l = 0; l < W; ++l) set = set || a[l];
  return set;
}
/// a's lanes where the mask is set, b's elsewhere.
template <int W>
inline Pack<W> select(const Mask<W>& mask, const Pack<W>& a, const Pack<W>& b) {
#if SQUALL_VECTOR_EXTENSIONS
  return Pack<W>::of(mask.m ? a.v : b.v);
#else
  Pack<W> r;
  for (int l = 0; l < W; ++l) r.v[l] = mask.m[l] ? a.v[l] : b.v[l];
  return r;
#endif
}

/// T, in a parameter whose type is deduced from the other parameters only (a scalar
/// argument then converts to a pack).
template <class T>
using nondeduced = typename std::enable_if<true, T>::type;

/// Whether S is a Pack (or Real).
template <class S>
struct is_pack : std::false_type {};
template <int W>
struct is_pack<Pack<W>> : std::true_type {};

namespace math {

/// Lane-wise forms of the functions the pointwise physics calls; sqrt is correctly
/// rounded, max is `a > b ? a : b` lane by lane (NaNs as in the scalar form), abs clears
/// the sign bit, pow is the scalar math::pow of each lane.
template <int W>
inline Pack<W> sqrt(const Pack<W>& x) {
#if SQUALL_VECTOR_EXTENSIONS
  // The instruction that takes all lanes at once where the target has it: IEEE square
  // roots, correctly rounded, so each lane holds the bits of the scalar sqrtsd.
#if defined(__AVX512F__)
  if constexpr (W == 8) return Pack<W>::of(_mm512_sqrt_pd(x.v));
#endif
#if defined(__AVX__)
  if constexpr (W == 4) return Pack<W>::of(_mm256_sqrt_pd(x.v));
#endif
#if defined(__SSE2__)
  if constexpr (W == 2) return Pack<W>::of(_mm_sqrt_pd(x.v));
#endif
#endif
  return Pack<W>::gather([&](int l) { return math::sqrt(x[l]); });
}
template <int W>
inline Pack<W> max(const Pack<W>& a, const Pack<W>& b) { return select(a > b, a, b); }
/// |x| lane by lane: the sign bit cleared, as fabs does (-0 and NaNs included).
template <int W>
inline Pack<W> abs(const Pack<W>& x) {
#if SQUALL_VECTOR_EXTENSIONS
  typename NativeVector<W>::bits u;
  std::memcpy(&u, &x.v, sizeof u);
  u &= 0x7FFFFFFFFFFFFFFFull;
  Pack<W> r;
  std::memcpy(&r.v, &u, sizeof u);
  return r;
#else
  return Pack<W>::gather([&](int l) { return math::abs(x[l]); });
#endif
}
template <int W>
inline Pack<W> pow(const Pack<W>& x, Real y) {
  return Pack<W>::gather([&](int l) { return math::pow(x[l], y); });
}

namespace strict {

/// log_bounded (core/strict_math.hpp) lane by lane, with the same bits: each lane's
/// exponent and mantissa split as the scalar form makes it (with the compiler's vector
/// types, by integer operations on all lanes at once: a quarter of the instructions of
/// the split lane by lane), the division and the series in the lanes (the same operations
/// in the same order), NaN where the scalar form returns it.
template <int W>
inline Pack<W> log_bounded(const Pack<W>& x) {
#if SQUALL_VECTOR_EXTENSIONS
  // The exponent and mantissa in the lanes, with integer operations on the bits: e + 1023
  // (at most 2046) goes into the mantissa of 2^52, which then less 2^52 + 1023 is e as a
  // double, exactly; m * 0.5 and e + 1 are exact too. So each lane holds the scalar bits.
  using D = typename NativeVector<W>::type;
  using U = typename NativeVector<W>::bits;
  const auto valid = (x.v >= 2.2250738585072014e-308) & (x.v < detail::inf());
  const D one = Pack<W>(1.0).v;
  const D xs = valid ? x.v : one;
  U u;
  std::memcpy(&u, &xs, sizeof u);
  const U mantissa_bits = (u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull;  // [1, 2)
  const U exponent_bits = (u >> 52) | 0x4330000000000000ull;                     // 2^52 + e + 1023
  D mantissa, biased;
  std::memcpy(&mantissa, &mantissa_bits, sizeof mantissa);
  std::memcpy(&biased, &exponent_bits, sizeof biased);
  D exponent = biased - Pack<W>(4503599627371519.0).v;  // 2^52 + 1023
  const auto high = mantissa > Pack<W>(1.4142135623730951).v;
  mantissa = high ? mantissa * Pack<W>(0.5).v : mantissa;
  exponent = high ? exponent + one : exponent;
  const Pack<W> m = Pack<W>::of(mantissa), e = Pack<W>::of(exponent);
  const Mask<W> ok{valid};
#else
  Real exponent[W], mantissa[W];
  bool valid[W];
  for (int l = 0; l < W; ++l) {
    const double xl = x[l];
    valid[l] = xl >= 2.2250738585072014e-308 && xl < detail::inf();
    const std::uint64_t u = detail::bits(valid[l] ? xl : 1.0);
    int e = static_cast<int>(u >> 52) - 1023;
    double m = detail::from_bits((u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);  // [1, 2)
    if (m > 1.4142135623730951) {
      m *= 0.5;
      e += 1;
    }
    exponent[l] = static_cast<double>(e), mantissa[l] = m;
  }
  const Pack<W> m = Pack<W>::gather([&](int l) { return mantissa[l]; });
  const Pack<W> e = Pack<W>::gather([&](int l) { return exponent[l]; });
  const Mask<W> ok = Mask<W>::gather([&](int l) { return valid[l]; });
#endif
  const Pack<W> s = (m - 1.0) / (m + 1.0), z = s * s;
  const Pack<W> series = 1.0 + z * ((1.0 / 3.0) + z * ((1.0 / 5.0) + z * ((1.0 / 7.0) + z * (1.0 / 9.0))));
  const Pack<W> r = e * 0x1.62e42fefa39efp-1 + 2.0 * s * series;
  return select(ok, r, Pack<W>(detail::from_bits(0x7FF8000000000000ull)));
}

}  // namespace strict

}  // namespace math

}  // namespace squall
