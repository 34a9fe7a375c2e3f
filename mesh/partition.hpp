#pragma once
/// Cartesian block partition of the brick's elements over ranks: the ranks form a
/// px x py x pz grid (rank r = cx + px * (cy + py * cz)), and direction d's n_d
/// elements are split into p_d contiguous blocks whose sizes differ by at most one
/// (the first n_d mod p_d blocks get the extra element).
#include <array>

namespace squall::mesh {

class CartesianPartition {
 public:
  CartesianPartition(std::array<int, 3> elements, std::array<int, 3> ranks);

  /// The rank grid for `nranks` ranks over `elements`: among all factorisations
  /// px * py * pz = nranks with p_d <= n_d, the one with the fewest elements on the
  /// busiest rank, then the smallest total area of cuts between ranks (communication),
  /// then the fewest splits in z, then in y (columns stay whole where it costs nothing,
  /// which suits horizontal means and vertical sponges). MPI_Dims_create is not used: it balances the
  /// rank grid but ignores the element counts. Throws InputError when no factorisation
  /// fits (e.g. 7 ranks on 2 x 2 x 2 elements).
  static CartesianPartition choose(std::array<int, 3> elements, int nranks);

  const std::array<int, 3>& ranks() const { return p_; }
  int rank_count() const { return p_[0] * p_[1] * p_[2]; }

  std::array<int, 3> rank_coords(int rank) const {
    return {rank % p_[0], (rank / p_[0]) % p_[1], rank / (p_[0] * p_[1])};
  }
  int rank_of(const std::array<int, 3>& c) const { return c[0] + p_[0] * (c[1] + p_[1] * c[2]); }

  /// First element index along d owned by rank coordinate c (c = p_d gives n_d).
  int block_begin(int d, int c) const;
  /// Rank coordinate along d owning element index i.
  int block_of(int d, int i) const;
  /// Rank owning the element with coordinates (i, j, k).
  int owner(const std::array<int, 3>& element) const {
    return rank_of({block_of(0, element[0]), block_of(1, element[1]), block_of(2, element[2])});
  }

 private:
  std::array<int, 3> n_;
  std::array<int, 3> p_;
};

}  // namespace squall::mesh
