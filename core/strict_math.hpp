#pragma once
/// Elementary functions built from IEEE 754 basic operations only (+, -, *, /, exact
/// comparisons and bit moves), so that every CPU and GPU computes the same bits: exp,
/// log, pow, sin, cos and cbrt. The vendor libraries (glibc, CUDA's libdevice, ROCm's
/// ocml) round differently from one another in the last bit, and a single bit in a
/// kernel spreads through a whole run.
///
/// How they are built. Each function reduces its argument exactly (or into a
/// double-double, a pair hi + lo with |lo| <= ulp(hi)/2), evaluates a Taylor or
/// atanh series whose leading terms are carried in double-double (Dekker's exact
/// product by Veltkamp splitting, Knuth's exact sum; no fused multiply-add, which the
/// build forbids), and rounds once at the end. The result is within 1 ulp of the exact
/// value (measured in tests/unit/test_strict_math.cpp against long double: max 0.59 ulp,
/// see docs/solver.md "Strict math"). Every loop has a fixed trip count and every
/// branch depends on the argument alone, so no backend can take another path.
///
/// Ranges. exp, log, cbrt: all doubles (subnormals, 0, Inf, NaN as C99 Annex F).
/// pow(x, y): all doubles, Annex F special cases; within 1 ulp wherever the result is a
/// normal double. sin, cos: within 1 ulp for |x| < 2^22 pi/2 (about 6.6e6); beyond that
/// the argument reduction loses accuracy (still the same bits everywhere).
///
/// Requires: no contraction (-ffp-contract=off / -fmad=false) and no fast-math, both
/// enforced by CMakeLists.txt when SQUALL_STRICT_MATH is on.
#include <Kokkos_Core.hpp>
#include <cstdint>

#if KOKKOS_VERSION >= 40100
#include <Kokkos_BitManipulation.hpp>
#endif

namespace squall::math::strict {

namespace detail {

KOKKOS_FORCEINLINE_FUNCTION std::uint64_t bits(double x) {
#if KOKKOS_VERSION >= 40100
  return Kokkos::bit_cast<std::uint64_t>(x);
#else
  std::uint64_t u;
  __builtin_memcpy(&u, &x, sizeof u);
  return u;
#endif
}

KOKKOS_FORCEINLINE_FUNCTION double from_bits(std::uint64_t u) {
#if KOKKOS_VERSION >= 40100
  return Kokkos::bit_cast<double>(u);
#else
  double x;
  __builtin_memcpy(&x, &u, sizeof x);
  return x;
#endif
}

/// 2^j for -1022 <= j <= 1023.
KOKKOS_FORCEINLINE_FUNCTION double two_to(int j) { return from_bits(std::uint64_t(j + 1023) << 52); }

KOKKOS_FORCEINLINE_FUNCTION double inf() { return from_bits(0x7FF0000000000000ull); }
KOKKOS_FORCEINLINE_FUNCTION bool is_nan(double x) { return x != x; }
KOKKOS_FORCEINLINE_FUNCTION bool sign_bit(double x) { return (bits(x) >> 63) != 0; }
KOKKOS_FORCEINLINE_FUNCTION double magnitude(double x) { return from_bits(bits(x) & ~(std::uint64_t(1) << 63)); }

constexpr double two_54 = 18014398509481984.0;  // 2^54
/// 1.5 * 2^52: adding it to |t| < 2^51 leaves round-to-nearest(t) in the low bits.
constexpr double round_shifter = 6755399441055744.0;

/// An unevaluated sum hi + lo with |lo| <= ulp(hi) / 2.
struct DD {
  double hi, lo;
};

/// a + b exactly (Knuth).
KOKKOS_FORCEINLINE_FUNCTION DD two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  return {s, (a - (s - bb)) + (b - bb)};
}

/// a + b exactly, for |a| >= |b| or a == 0 (Dekker).
KOKKOS_FORCEINLINE_FUNCTION DD fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

/// a * b exactly (Dekker, with Veltkamp's splitting; |a|, |b| < 2^995).
KOKKOS_FORCEINLINE_FUNCTION DD two_prod(double a, double b) {
  constexpr double splitter = 134217729.0;  // 2^27 + 1
  const double p = a * b;
  const double ca = splitter * a, cb = splitter * b;
  const double a_hi = ca - (ca - a), b_hi = cb - (cb - b);
  const double a_lo = a - a_hi, b_lo = b - b_hi;
  return {p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo};
}

/// For finite a >= 0: 0 if a is not an integer, 1 if it is odd, 2 if even.
KOKKOS_FORCEINLINE_FUNCTION int integer_kind(double a) {
  const std::uint64_t u = bits(a);
  const int e = static_cast<int>(u >> 52) - 1023;  // a = 1.f * 2^e
  if (a == 0) return 2;
  if (e < 0) return 0;
  if (e > 52) return 2;
  const std::uint64_t significand = (u & 0x000FFFFFFFFFFFFFull) | 0x0010000000000000ull;
  const int fraction_bits = 52 - e;
  if (fraction_bits > 0 && (significand & ((std::uint64_t(1) << fraction_bits) - 1)) != 0) return 0;
  return ((significand >> fraction_bits) & 1) ? 1 : 2;
}

/// x rounded to the nearest integer, for |x| < 2^51 (ties to even).
KOKKOS_FORCEINLINE_FUNCTION double round_to_integer(double x) { return (x + round_shifter) - round_shifter; }

/// c0 + c1 z + ... + c7 z^7 by Estrin's scheme: the same operations in the same order
/// on every backend (nothing here may be reassociated), with a dependency chain of four
/// multiply-add steps instead of Horner's seven.
KOKKOS_FORCEINLINE_FUNCTION double estrin8(double z, double z2, double z4, double c0, double c1, double c2,
                                           double c3, double c4, double c5, double c6, double c7) {
  const double p0 = c0 + c1 * z, p1 = c2 + c3 * z, p2 = c4 + c5 * z, p3 = c6 + c7 * z;
  return (p0 + p1 * z2) + (p2 + p3 * z2) * z4;
}

/// c0 + c1 z + ... + c11 z^11 by Estrin's scheme.
KOKKOS_FORCEINLINE_FUNCTION double estrin12(double z, double c0, double c1, double c2, double c3, double c4,
                                            double c5, double c6, double c7, double c8, double c9, double c10,
                                            double c11) {
  const double z2 = z * z, z4 = z2 * z2;
  const double low = estrin8(z, z2, z4, c0, c1, c2, c3, c4, c5, c6, c7);
  const double high = (c8 + c9 * z) + (c10 + c11 * z) * z2;
  return low + high * (z4 * z4);
}

// ln 2 = ln2_hi + ln2_lo, ln2_hi with its low 11 bits zero so that k ln2_hi is exact for
// |k| < 2^11.
constexpr double ln2_hi = 0x1.62e42fefa3800p-1;
constexpr double ln2_lo = 0x1.ef35793c76730p-45;  // ln 2 - ln2_hi, rounded
constexpr double inv_ln2 = 0x1.71547652b82fep+0;

/// exp(xh + xl) for |xl| <= ulp(xh) and xh in [-746, 710]; overflow and underflow
/// come out of the final scaling as IEEE multiplication gives them.
KOKKOS_INLINE_FUNCTION double exp_dd(double xh, double xl) {
  const double k = round_to_integer(xh * inv_ln2);
  // r = x - k ln 2 as a double-double: xh - k ln2_hi is exact (Sterbenz).
  const double a = xh - k * ln2_hi;
  const DD r = two_sum(a, xl - k * ln2_lo);
  const double rh = r.hi, rl = r.lo;  // |rh| <= 0.3466
  // exp(r) = 1 + r + r^2/2 + r^3 (1/3! + r/4! + ... + r^11/14!), remainder < 2^-63
  double tail = estrin12(rh, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0, 1.0 / 5040.0, 1.0 / 40320.0,
                         1.0 / 362880.0, 1.0 / 3628800.0, 1.0 / 39916800.0, 1.0 / 479001600.0,
                         1.0 / 6227020800.0, 1.0 / 87178291200.0);
  const DD sq = two_prod(rh, rh);
  tail = tail * sq.hi * rh;
  const DD u = two_sum(1.0, rh);
  const DD v = two_sum(u.hi, 0.5 * sq.hi);
  // rl enters through d/dr exp(r) = exp(r) ~ 1 + r + r^2/2
  const double low = u.lo + v.lo + (0.5 * sq.lo + (tail + (rl + rl * rh * (1.0 + 0.5 * rh))));
  const double m = v.hi + low;  // in [0.70, 1.42]
  const int ki = static_cast<int>(k);
  if (ki > 1000) return m * two_to(ki - 600) * two_to(600);
  if (ki < -1000) return m * two_to(ki + 600) * two_to(-600);
  return m * two_to(ki);
}

/// log(x) as a double-double, absolute error below 2^-70 |log x| + 2^-75, for finite x > 0.
KOKKOS_INLINE_FUNCTION DD log_dd(double x) {
  int e = 0;
  if (x < 2.2250738585072014e-308) {  // subnormal: scale into the normal range
    x *= two_54;
    e = -54;
  }
  const std::uint64_t u = bits(x);
  e += static_cast<int>(u >> 52) - 1023;
  double m = from_bits((u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);  // [1, 2)
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  const double f = m - 1.0;  // exact, |f| <= 0.4143
  // s = f / (2 + f) as a double-double; log(1 + f) = 2 atanh(s) = 2s + 2s^3/3 + 2s^5/5 + ...
  const DD d = two_sum(2.0, f);
  const double inv = 1.0 / d.hi;
  const double sh = f * inv;  // any nearby value: sl corrects it
  const DD p = two_prod(sh, d.hi);
  const double sl = (((f - p.hi) - p.lo) - sh * d.lo) * inv;
  // s^2 and s^3 as double-doubles
  DD s2 = two_prod(sh, sh);
  s2.lo += 2.0 * sh * sl;
  DD s3 = two_prod(s2.hi, sh);
  s3.lo += s2.lo * sh + s2.hi * sl;
  // (2/3) s^3 and (2/5) s^5 with 2/3 and 2/5 as double-doubles
  constexpr double two_thirds_hi = 0x1.5555555555555p-1;
  constexpr double two_thirds_lo = 0x1.5555555555555p-55;
  constexpr double two_fifths_hi = 0x1.999999999999ap-2;
  constexpr double two_fifths_lo = -0x1.999999999999ap-56;
  DD q3 = two_prod(two_thirds_hi, s3.hi);
  q3.lo += two_thirds_hi * s3.lo + two_thirds_lo * s3.hi;
  DD s5 = two_prod(s3.hi, s2.hi);
  s5.lo += s3.lo * s2.hi + s3.hi * s2.lo;
  DD q5 = two_prod(two_fifths_hi, s5.hi);
  q5.lo += two_fifths_hi * s5.lo + two_fifths_lo * s5.hi;
  // 2 s^7 (1/7 + s^2/9 + ... + s^22/29): |s^2| <= 0.0295, remainder < 2^-75 relative;
  // the terms carried in double (at most 2^-13 of the result) are good to 2^-64
  const double z = s2.hi;
  double t = estrin12(z, 2.0 / 7.0, 2.0 / 9.0, 2.0 / 11.0, 2.0 / 13.0, 2.0 / 15.0, 2.0 / 17.0, 2.0 / 19.0,
                      2.0 / 21.0, 2.0 / 23.0, 2.0 / 25.0, 2.0 / 27.0, 2.0 / 29.0);
  t = t * (s5.hi * z);
  // e ln 2 + 2s + q3 + q5 + t; e ln2_hi is exact for |e| <= 1078
  const double ed = static_cast<double>(e);
  const DD a = two_sum(ed * ln2_hi, 2.0 * sh);
  const DD b = two_sum(a.hi, q3.hi);
  const DD c = two_sum(b.hi, q5.hi);
  const double low = (a.lo + b.lo) + (c.lo + (ed * ln2_lo + (2.0 * sl + ((q3.lo + q5.lo) + t))));
  return fast_two_sum(c.hi, low);
}

// pi/2 = pio2_1 + pio2_2 + pio2_3 + pio2_4, the first three with 30 significant bits so
// that k pio2_i is exact for |k| < 2^23.
constexpr double pio2_1 = 0x1.921fb54800000p+0;
constexpr double pio2_2 = -0x1.de973dc800000p-31;
constexpr double pio2_3 = -0x1.9d9cceb800000p-62;
constexpr double pio2_4 = -0x1.1fc8f8cbb5bf7p-93;  // pi/2 - the above, rounded
constexpr double two_over_pi = 0x1.45f306dc9c883p-1;

/// x = k pi/2 + r, |r| <= pi/4 (slightly more near the boundary); returns k mod 4.
KOKKOS_INLINE_FUNCTION int reduce_half_pi(double x, DD& r) {
  const double k = round_to_integer(x * two_over_pi);
  const double a1 = x - k * pio2_1;  // exact (Sterbenz, or k = 0)
  const DD a2 = two_sum(a1, -(k * pio2_2));
  const DD a3 = two_sum(a2.hi, -(k * pio2_3));
  const double low = a2.lo + a3.lo - k * pio2_4;
  r = fast_two_sum(a3.hi, low);
  return static_cast<int>(static_cast<long long>(k) & 3);
}

/// sin(rh + rl) for |rh| <= 0.786.
KOKKOS_INLINE_FUNCTION double sin_kernel(double rh, double rl) {
  const DD r2 = two_prod(rh, rh);
  DD r3 = two_prod(r2.hi, rh);
  r3.lo += r2.lo * rh;
  // r^3 / 6 with 1/6 as a double-double
  constexpr double sixth_hi = 0x1.5555555555555p-3;
  constexpr double sixth_lo = 0x1.5555555555555p-57;
  DD c = two_prod(sixth_hi, r3.hi);
  c.lo += sixth_hi * r3.lo + sixth_lo * r3.hi;
  // r^5 (1/5! - r^2/7! + ... - r^14/19!), remainder < 2^-64 relative
  const double z = r2.hi;
  const double z2 = z * z, z4 = z2 * z2;
  double t = estrin8(z, z2, z4, 1.0 / 120.0, -1.0 / 5040.0, 1.0 / 362880.0, -1.0 / 39916800.0,
                     1.0 / 6227020800.0, -1.0 / 1307674368000.0, 1.0 / 355687428096000.0,
                     -1.0 / 121645100408832000.0);
  t = t * (r3.hi * z);
  const DD h = two_sum(rh, -c.hi);
  return h.hi + (h.lo + ((t - c.lo) + rl * (1.0 - 0.5 * z)));
}

/// cos(rh + rl) for |rh| <= 0.786.
KOKKOS_INLINE_FUNCTION double cos_kernel(double rh, double rl) {
  const DD r2 = two_prod(rh, rh);
  const double z = r2.hi;
  // r^4 (1/4! - r^2/6! + ... + r^16/20!), remainder < 2^-64 relative
  const double z2 = z * z, z4 = z2 * z2;
  double t = estrin8(z, z2, z4, 1.0 / 24.0, -1.0 / 720.0, 1.0 / 40320.0, -1.0 / 3628800.0, 1.0 / 479001600.0,
                     -1.0 / 87178291200.0, 1.0 / 20922789888000.0, -1.0 / 6402373705728000.0);
  t = t + (1.0 / 2432902008176640000.0) * (z4 * z4);
  t = t * (z * z);
  const DD h = two_sum(1.0, -0.5 * z);
  return h.hi + (h.lo + ((t - 0.5 * r2.lo) - rl * rh));
}

}  // namespace detail

/// A cheap natural logarithm with a proven error bound, for decisions that only need to
/// know on which side of a threshold a value lies (the caller falls back to the strict
/// functions when the answer is within the bound). For normal x > 0:
///   |log_bounded(x) - ln x| <= 7.2e-10 + 2.3e-16 |ln x|.
/// x = 2^e m, m in [sqrt(1/2), sqrt(2)], ln m = 2 atanh(s), s = (m - 1) / (m + 1),
/// |s| <= 0.1716, summed to s^9: the remainder is at most 2 |s|^11 / (11 (1 - s^2)) <=
/// 7.1e-10, and the dozen roundings (relative 2^-53 each, on terms below 0.35, and on
/// e ln 2) add the rest. Basic operations only, so the same bits everywhere; not
/// correctly rounded, and not for values (only for comparisons with a margin).
/// Subnormal, zero, negative, infinite or NaN x: returns NaN, which fails every
/// comparison, so a caller that asks "is it certainly below?" takes its strict path.
KOKKOS_INLINE_FUNCTION double log_bounded(double x) {
  if (!(x >= 2.2250738585072014e-308 && x < detail::inf())) return detail::from_bits(0x7FF8000000000000ull);  // NaN
  const std::uint64_t u = detail::bits(x);
  int e = static_cast<int>(u >> 52) - 1023;
  double m = detail::from_bits((u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);  // [1, 2)
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  const double s = (m - 1.0) / (m + 1.0), z = s * s;
  const double series = 1.0 + z * ((1.0 / 3.0) + z * ((1.0 / 5.0) + z * ((1.0 / 7.0) + z * (1.0 / 9.0))));
  return static_cast<double>(e) * 0x1.62e42fefa39efp-1 + 2.0 * s * series;
}

/// A cheap e^x with a proven error bound, for iterations whose last step uses the strict
/// functions (the saturation adjustment's first Newton steps): for |x| <= 700,
///   |exp_bounded(x) / e^x - 1| <= 2e-14.
/// x = k ln 2 + r with k = round(x / ln 2), r = (x - k ln2_hi) - k ln2_lo (the first
/// difference exact), |r| <= 0.3466; e^r by its Taylor series to r^11 (remainder below
/// |r|^12 e^|r| / 12! < 9e-15 relative) in Estrin's scheme, a dozen roundings of terms
/// below 1.5 (relative 2^-53 each, 2e-15 in all); then times 2^k, exact. Basic operations
/// only, so the same bits everywhere; not correctly rounded. |x| > 700 or NaN: NaN.
KOKKOS_INLINE_FUNCTION double exp_bounded(double x) {
  if (!(x >= -700.0 && x <= 700.0)) return detail::from_bits(0x7FF8000000000000ull);  // NaN
  const double k = detail::round_to_integer(x * detail::inv_ln2);
  const double r = (x - k * detail::ln2_hi) - k * detail::ln2_lo;
  const double series = detail::estrin12(r, 1.0, 1.0, 1.0 / 2.0, 1.0 / 6.0, 1.0 / 24.0, 1.0 / 120.0, 1.0 / 720.0,
                                         1.0 / 5040.0, 1.0 / 40320.0, 1.0 / 362880.0, 1.0 / 3628800.0,
                                         1.0 / 39916800.0);
  return series * detail::two_to(static_cast<int>(k));
}

/// e^x.
KOKKOS_INLINE_FUNCTION double exp(double x) {
  if (detail::is_nan(x)) return x + x;
  if (x > 709.8) return detail::inf();
  if (x < -745.2) return 0.0;
  if (detail::magnitude(x) < 5.551115123125783e-17) return 1.0 + x;  // |x| < 2^-54
  return detail::exp_dd(x, 0.0);
}

/// Natural logarithm.
KOKKOS_INLINE_FUNCTION double log(double x) {
  if (!(x >= 0)) return detail::is_nan(x) ? x + x : (x - x) / (x - x);  // NaN, x < 0: NaN
  if (x == 0) return -detail::inf();
  if (x == detail::inf()) return x;
  return detail::log_dd(x).hi;
}

/// x^y, with the special cases of C99 Annex F (pow(x, 0) = 1 for any x, pow(1, y) = 1
/// for any y, negative x only with integer y).
KOKKOS_INLINE_FUNCTION double pow(double x, double y) {
  const double infinity = detail::inf();
  if (y == 0 || x == 1.0) return 1.0;
  if (detail::is_nan(x) || detail::is_nan(y)) return x + y;
  const double ay = detail::magnitude(y);
  if (ay == infinity) {
    const double ax = detail::magnitude(x);
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0) ? infinity : 0.0;
  }
  const int kind = detail::integer_kind(ay);
  const bool y_integer = kind != 0, y_odd = kind == 1;
  const bool x_negative = detail::sign_bit(x);
  if (x == 0) {
    const double zero = x_negative && y_odd ? -0.0 : 0.0;
    if (y > 0) return zero;
    return x_negative && y_odd ? -infinity : infinity;
  }
  const double sign = x_negative && y_odd ? -1.0 : 1.0;
  const double ax = detail::magnitude(x);
  if (ax == infinity) return sign * (y > 0 ? infinity : 0.0);
  if (x_negative && !y_integer) return (x - x) / (x - x);  // NaN
  const detail::DD l = detail::log_dd(ax);
  // y log|x| as a double-double
  const double zh_guess = y * l.hi;
  if (zh_guess > 709.8) return sign * infinity;
  if (zh_guess < -745.2) return sign * 0.0;
  const detail::DD p = detail::two_prod(y, l.hi);
  const detail::DD z = detail::fast_two_sum(p.hi, p.lo + y * l.lo);
  return sign * detail::exp_dd(z.hi, z.lo);
}

/// sin x.
KOKKOS_INLINE_FUNCTION double sin(double x) {
  if (!(detail::magnitude(x) < detail::inf())) return x - x;  // NaN for NaN, +-Inf
  if (detail::magnitude(x) < 7.450580596923828e-09) return x;   // |x| < 2^-27
  detail::DD r{0, 0};
  const int n = detail::reduce_half_pi(x, r);
  switch (n) {
    case 0: return detail::sin_kernel(r.hi, r.lo);
    case 1: return detail::cos_kernel(r.hi, r.lo);
    case 2: return -detail::sin_kernel(r.hi, r.lo);
    default: return -detail::cos_kernel(r.hi, r.lo);
  }
}

/// cos x.
KOKKOS_INLINE_FUNCTION double cos(double x) {
  if (!(detail::magnitude(x) < detail::inf())) return x - x;
  if (detail::magnitude(x) < 7.450580596923828e-09) return 1.0;
  detail::DD r{0, 0};
  const int n = detail::reduce_half_pi(x, r);
  switch (n) {
    case 0: return detail::cos_kernel(r.hi, r.lo);
    case 1: return -detail::sin_kernel(r.hi, r.lo);
    case 2: return -detail::cos_kernel(r.hi, r.lo);
    default: return detail::sin_kernel(r.hi, r.lo);
  }
}

/// Cube root (of negative numbers too).
KOKKOS_INLINE_FUNCTION double cbrt(double x) {
  if (x == 0 || !(detail::magnitude(x) < detail::inf())) return x + x;  // +-0, +-Inf, NaN
  double a = detail::magnitude(x);
  int e = 0;
  if (a < 2.2250738585072014e-308) {  // subnormal: scale by 2^54
    a *= detail::two_54;
    e = -54;
  }
  const std::uint64_t u = detail::bits(a);
  e += static_cast<int>(u >> 52) - 1023;
  // e = 3 q + j, j in {0, 1, 2}; cbrt(x) = 2^q cbrt(m 2^j), m in [1, 2)
  const int q = e >= 0 ? e / 3 : -((2 - e) / 3);
  const int j = e - 3 * q;
  const double m = detail::from_bits((u & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull) * detail::two_to(j);
  // Halley's iteration from a linear guess on [1, 8): errors 0.11, 3e-4, 1e-11, round-off
  double y = 1.0 + (m - 1.0) * (1.0 / 7.0);
  for (int it = 0; it < 4; ++it) {
    const double y3 = y * y * y;
    y = y * (y3 + 2.0 * m) / (2.0 * y3 + m);
  }
  // one Newton step with the residual y^3 - m in double-double: within 1 ulp
  const detail::DD y2 = detail::two_prod(y, y);
  detail::DD y3 = detail::two_prod(y2.hi, y);
  y3.lo += y2.lo * y;
  const double residual = (y3.hi - m) + y3.lo;  // y3.hi - m exact (Sterbenz)
  y = y - residual / (3.0 * y2.hi);
  y *= detail::two_to(q);
  return detail::sign_bit(x) ? -y : y;
}

}  // namespace squall::math::strict
