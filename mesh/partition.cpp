#include "mesh/partition.hpp"

#include <string>
#include <tuple>

#include "core/error.hpp"

namespace squall::mesh {

CartesianPartition::CartesianPartition(std::array<int, 3> elements, std::array<int, 3> ranks)
    : n_(elements), p_(ranks) {
  for (int d = 0; d < 3; ++d)
    if (p_[d] < 1 || p_[d] > n_[d])
      throw InputError("cannot split " + std::to_string(n_[d]) + " elements in direction " +
                       "xyz"[d] + " over " + std::to_string(p_[d]) + " ranks");
}

int CartesianPartition::block_begin(int d, int c) const {
  const int base = n_[d] / p_[d], extra = n_[d] % p_[d];
  return c * base + (c < extra ? c : extra);
}

int CartesianPartition::block_of(int d, int i) const {
  const int base = n_[d] / p_[d], extra = n_[d] % p_[d];
  const int split = extra * (base + 1);
  return i < split ? i / (base + 1) : extra + (i - split) / base;
}

CartesianPartition CartesianPartition::choose(std::array<int, 3> n, int nranks) {
  const long total = static_cast<long>(n[0]) * n[1] * n[2];
  if (nranks < 1 || nranks > total)
    throw InputError("the mesh has " + std::to_string(total) + " elements (" +
                     std::to_string(n[0]) + " x " + std::to_string(n[1]) + " x " +
                     std::to_string(n[2]) + "), fewer than the " + std::to_string(nranks) +
                     " ranks: set mesh.elements to at least one element per rank");
  bool found = false;
  std::array<int, 3> best{};
  std::tuple<long, long, int, int> best_cost{};
  for (int px = 1; px <= nranks; ++px) {
    if (nranks % px || px > n[0]) continue;
    for (int py = 1; py <= nranks / px; ++py) {
      if ((nranks / px) % py || py > n[1]) continue;
      const int pz = nranks / px / py;
      if (pz > n[2]) continue;
      const std::array<int, 3> p{px, py, pz};
      long busiest = 1, cuts = 0;
      for (int d = 0; d < 3; ++d) busiest *= (n[d] + p[d] - 1) / p[d];
      for (int d = 0; d < 3; ++d) cuts += static_cast<long>(p[d] - 1) * (total / n[d]);
      const std::tuple<long, long, int, int> cost{busiest, cuts, pz, py};
      if (!found || cost < best_cost) found = true, best = p, best_cost = cost;
    }
  }
  if (!found)
    throw InputError("cannot split " + std::to_string(n[0]) + " x " + std::to_string(n[1]) +
                     " x " + std::to_string(n[2]) + " elements into " +
                     std::to_string(nranks) +
                     " Cartesian blocks (each factor of the rank count must fit an element "
                     "count): change mesh.elements or the number of ranks");
  return CartesianPartition(n, best);
}

}  // namespace squall::mesh
