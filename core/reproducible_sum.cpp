#include "core/reproducible_sum.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace squall {
namespace {

constexpr int digit_bits = 32;
constexpr std::int64_t digit_base = std::int64_t{1} << digit_bits;
constexpr std::int64_t digit_mask = digit_base - 1;
/// Bit position 0 of the accumulator has weight 2^-bias. frexp of the smallest
/// subnormal gives mantissa 2^52 times 2^-1126, so every double's 53-bit integer
/// mantissa starts at bit >= 0; the largest ends below bit 2150, leaving 150 bits of
/// headroom for carries in 72 x 32 = 2304 bits.
constexpr int bias = 1126;
/// Each add puts at most 2^32 - 1 into a digit; normalising before 2^30 adds keeps
/// every int64 digit far from overflow.
constexpr std::int64_t max_pending = std::int64_t{1} << 30;

constexpr int nan_slot = ExactSum::digits;
constexpr int pinf_slot = ExactSum::digits + 1;
constexpr int ninf_slot = ExactSum::digits + 2;

}  // namespace

void ExactSum::add(double x) {
  if (!std::isfinite(x)) {
    if (std::isnan(x)) w_[nan_slot] += 1;
    else if (x > 0) w_[pinf_slot] += 1;
    else w_[ninf_slot] += 1;
    return;
  }
  if (x == 0.0) return;
  if (pending_ >= max_pending) normalize();
  ++pending_;

  // x = +-mantissa 2^(position - bias), mantissa a 53-bit integer with its top bit set
  // (what frexp and ldexp(fraction, 53) give). Normal numbers read it from their bits,
  // which is several times faster than frexp and ldexp and gives the same two numbers.
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>((bits >> 52) & 0x7FF);
  std::uint64_t mantissa;
  int position;
  if (biased != 0) {
    mantissa = (bits & 0x000FFFFFFFFFFFFFull) | 0x0010000000000000ull;
    position = biased - 1075 + bias;  // frexp's exponent is biased - 1022
  } else {  // subnormal
    int exponent = 0;
    const double fraction = std::frexp(std::fabs(x), &exponent);  // in [0.5, 1)
    mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 53));  // exact
    position = exponent - 53 + bias;  // weight of bit 0
  }
  const int digit = position / digit_bits;
  const int shift = position % digit_bits;
  const unsigned __int128 shifted = static_cast<unsigned __int128>(mantissa) << shift;
  const std::int64_t sign = x < 0 ? -1 : 1;
  w_[digit] += sign * static_cast<std::int64_t>(shifted & digit_mask);
  w_[digit + 1] += sign * static_cast<std::int64_t>((shifted >> digit_bits) & digit_mask);
  w_[digit + 2] += sign * static_cast<std::int64_t>(shifted >> (2 * digit_bits));
}

void ExactSum::merge(const ExactSum& other) {
  ExactSum a = other;
  a.normalize();
  normalize();
  for (int i = 0; i < words; ++i) w_[i] += a.w_[i];
  normalize();
}

void ExactSum::normalize() {
  // Carry so that digits 0..digits-2 lie in [0, 2^32); the top digit keeps the sign.
  for (int i = 0; i < digits - 1; ++i) {
    const std::int64_t carry = w_[i] >> digit_bits;  // arithmetic shift: floor division
    w_[i] -= carry * digit_base;
    w_[i + 1] += carry;
  }
  pending_ = 0;
}

void ExactSum::allreduce(MPI_Comm comm) {
  std::vector<ExactSum> one{*this};
  squall::allreduce(comm, one);
  *this = one[0];
}

void allreduce(MPI_Comm comm, std::vector<ExactSum>& sums) {
  constexpr int words = ExactSum::words;
  std::vector<std::int64_t> in(sums.size() * words), out(sums.size() * words);
  for (std::size_t s = 0; s < sums.size(); ++s) {
    sums[s].normalize();
    for (int i = 0; i < words; ++i) in[s * words + i] = sums[s].w_[i];
  }
  // Normalised digits are < 2^32, so up to 2^30 ranks cannot overflow an int64.
  MPI_Allreduce(in.data(), out.data(), static_cast<int>(in.size()), MPI_INT64_T, MPI_SUM, comm);
  for (std::size_t s = 0; s < sums.size(); ++s) {
    for (int i = 0; i < words; ++i) sums[s].w_[i] = out[s * words + i];
    sums[s].normalize();
  }
}

double ExactSum::value() const {
  if (w_[nan_slot] > 0 || (w_[pinf_slot] > 0 && w_[ninf_slot] > 0))
    return std::numeric_limits<double>::quiet_NaN();
  if (w_[pinf_slot] > 0) return std::numeric_limits<double>::infinity();
  if (w_[ninf_slot] > 0) return -std::numeric_limits<double>::infinity();

  ExactSum a = *this;
  a.normalize();
  double sign = 1.0;
  if (a.w_[digits - 1] < 0) {  // negative: take the magnitude
    sign = -1.0;
    for (int i = 0; i < digits; ++i) a.w_[i] = -a.w_[i];
    a.normalize();
  }
  int top = digits - 1;
  while (top >= 0 && a.w_[top] == 0) --top;
  if (top < 0) return 0.0;

  // Gather the 64 most significant bits into `window`; OR every lower bit into its
  // lowest bit (sticky), so converting the 64-bit window rounds the whole value
  // correctly (64 > 53 + 2 bits).
  const auto d = [&](int i) -> std::uint64_t {
    return i >= 0 ? static_cast<std::uint64_t>(a.w_[i]) : 0;
  };
  unsigned __int128 head = (static_cast<unsigned __int128>(d(top)) << 64) |
                           (static_cast<unsigned __int128>(d(top - 1)) << 32) | d(top - 2);
  int lead = 127;
  while (((head >> lead) & 1) == 0) --lead;  // leading one of the 96-bit head
  const int drop = lead - 63;                // bits of head below the window
  std::uint64_t window = static_cast<std::uint64_t>(head >> drop);
  bool sticky = (head & ((static_cast<unsigned __int128>(1) << drop) - 1)) != 0;
  for (int i = top - 3; i >= 0 && !sticky; --i) sticky = a.w_[i] != 0;
  if (sticky) window |= 1;
  // Bit 0 of `head` has accumulator position 32 * (top - 2).
  const int exponent = 32 * (top - 2) + drop - bias;
  return sign * std::ldexp(static_cast<double>(window), exponent);
}

double global_sum(MPI_Comm comm, const double* x, std::size_t n) {
  ExactSum s;
  s.add(x, n);
  s.allreduce(comm);
  return s.value();
}

}  // namespace squall
