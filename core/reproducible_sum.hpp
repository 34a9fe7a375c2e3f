#pragma once
/// Reproducible global sums: the same bits on any number of ranks, in any order.
///
/// Method: every double is added *exactly* into a wide fixed-point accumulator (an
/// integer with 2304 bits, held as 72 base-2^32 digits in int64 words, one "long
/// accumulator" in the sense of Kulisch & Miranker, Computer Arithmetic in Theory and
/// Practice, 1981). Integer addition is associative, so the accumulated value is the
/// exact mathematical sum whatever the order or split over ranks; the ranks' digits are
/// combined with an integer MPI_SUM and the exact result is rounded once, to nearest
/// (ties to even) for every result in the normal range; results in the subnormal range
/// may be rounded twice (still deterministic). NaN, +Inf and -Inf are counted apart and
/// give NaN / ±Inf as IEEE addition would.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace squall {

class ExactSum {
 public:
  static constexpr int digits = 72;

  void add(double x);
  void add(const double* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) add(x[i]);
  }
  /// Adds another accumulator (exact).
  void merge(const ExactSum& other);
  /// The exact sum rounded once to double.
  double value() const;
  /// Sums the accumulators of all ranks of `comm` into each (collective, exact).
  void allreduce(MPI_Comm comm);

 private:
  friend void allreduce(MPI_Comm comm, std::vector<ExactSum>& sums);
  void normalize();
  /// digits_[0..digits-1] then nan, +inf, -inf counters: one flat block for MPI.
  static constexpr int words = digits + 3;
  std::array<std::int64_t, words> w_{};
  std::int64_t pending_ = 0;  ///< additions since the last normalize()
};

/// Allreduces several accumulators in one MPI call (collective, exact).
void allreduce(MPI_Comm comm, std::vector<ExactSum>& sums);

/// Reproducible sum of the values x[0..n) held on this rank and those on all other ranks.
double global_sum(MPI_Comm comm, const double* x, std::size_t n);

}  // namespace squall
