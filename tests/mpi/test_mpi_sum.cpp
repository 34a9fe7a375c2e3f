// Reproducible global sum: the same bits on 1, 2, 3, 4 ranks for the same global data,
// however it is split, and equal to the exact sum rounded once.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/parallel_env.hpp"
#include "core/reproducible_sum.hpp"

using namespace squall;

namespace {

/// Adversarial global data: values over 600 orders of magnitude that cancel pairwise,
/// plus a small exactly known remainder (3 + 1000 * 2^-40) that naive sums lose.
std::vector<double> global_data() {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-300, 300);
  std::vector<double> v;
  for (int i = 0; i < 2000; ++i) {
    const double x = std::ldexp(mantissa(rng), exponent(rng));
    v.push_back(x);
    v.push_back(-x);
  }
  for (int i = 0; i < 1000; ++i) v.push_back(std::ldexp(1.0, -40));
  v.push_back(1.0);
  v.push_back(2.0);
  std::shuffle(v.begin(), v.end(), rng);  // the pairs end up far apart, on different ranks
  return v;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

TEST_CASE("global sum is exact and independent of the rank count", "[mpi][sum]") {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = comm_rank(comm), size = comm_size(comm);
  const std::vector<double> v = global_data();
  const double exact = 3.0 + 1000 * std::ldexp(1.0, -40);

  // Contiguous uneven blocks.
  const size_t n = v.size();
  const size_t begin = n * rank / size + (rank > 0 ? 7 : 0);
  const size_t end = rank + 1 == size ? n : n * (rank + 1) / size + 7;
  const double blocked = global_sum(comm, v.data() + begin, end - begin);
  CHECK(same_bits(blocked, exact));

  // Round-robin split: a different grouping of the same numbers.
  std::vector<double> mine;
  for (size_t i = static_cast<size_t>(rank); i < n; i += static_cast<size_t>(size)) mine.push_back(v[i]);
  CHECK(same_bits(global_sum(comm, mine.data(), mine.size()), exact));

  // Naive summation really does fail on this data (the test is not trivial).
  double naive = 0;
  for (double x : v) naive += x;
  CHECK(naive != exact);

  // Several sums in one collective call.
  std::vector<ExactSum> sums(2);
  sums[0].add(mine.data(), mine.size());
  for (double x : mine) sums[1].add(-2 * x);
  allreduce(comm, sums);
  CHECK(same_bits(sums[0].value(), exact));
  CHECK(same_bits(sums[1].value(), -2 * exact));
}
