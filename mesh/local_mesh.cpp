#include "mesh/local_mesh.hpp"

#include <algorithm>

namespace squall::mesh {

LocalMesh::LocalMesh(const Brick& brick, const CartesianPartition& partition, int rank)
    : brick_(brick), partition_(partition), rank_(rank) {
  const auto c = partition_.rank_coords(rank_);
  for (int d = 0; d < 3; ++d) {
    begin_[d] = partition_.block_begin(d, c[d]);
    end_[d] = partition_.block_begin(d, c[d] + 1);
  }
  for (int k = begin_[2]; k < end_[2]; ++k)
    for (int j = begin_[1]; j < end_[1]; ++j)
      for (int i = begin_[0]; i < end_[0]; ++i) global_elements_.push_back(brick_.element_id(i, j, k));

  // Visit every face of every owned element once; a face joining two owned elements is
  // met twice, and kept from its minus side.
  for (int l = 0; l < element_count(); ++l) {
    const int e = global_elements_[l];
    for (int lf = 0; lf < 6; ++lf) {
      const GlobalFace f = brick_.face(brick_.face_of_element(e, lf));
      const bool here_is_minus = face_is_high(lf);  // an element's high face is its minus side
      if (f.wall >= 0) {
        boundary_.push_back({f.id, l, lf});
        continue;
      }
      const int other = here_is_minus ? f.element_plus : f.element_minus;
      const int other_local = local_element(other);
      if (other_local >= 0) {
        if (here_is_minus) interior_.push_back({f.id, f.direction, l, other_local});
        continue;
      }
      const int other_rank = partition_.owner(brick_.element_coords(other));
      mpi_.push_back({f.id, f.direction, l, lf, here_is_minus, other_rank});
    }
  }
  const auto by_id = [](const auto& a, const auto& b) { return a.id < b.id; };
  std::sort(interior_.begin(), interior_.end(), by_id);
  std::sort(boundary_.begin(), boundary_.end(), by_id);
  std::sort(mpi_.begin(), mpi_.end(), [](const MpiFace& a, const MpiFace& b) {
    return a.neighbor_rank != b.neighbor_rank ? a.neighbor_rank < b.neighbor_rank : a.id < b.id;
  });
  for (int i = 0; i < static_cast<int>(mpi_.size()); ++i) {
    if (neighbors_.empty() || neighbors_.back().rank != mpi_[i].neighbor_rank)
      neighbors_.push_back({mpi_[i].neighbor_rank, i, 0});
    ++neighbors_.back().face_count;
  }
}

LocalMesh LocalMesh::batch(const LocalMesh& member, int copies) {
  LocalMesh b = member;
  if (copies <= 1) return b;
  b.members_ = member.members_ * copies;
  b.global_elements_.clear();
  b.interior_.clear();
  b.boundary_.clear();
  b.mpi_.clear();
  b.neighbors_.clear();
  const int elements = member.element_count(), faces = member.brick_.face_count();
  for (int m = 0; m < copies; ++m) {
    const int e0 = m * elements, f0 = m * faces;
    b.global_elements_.insert(b.global_elements_.end(), member.global_elements_.begin(),
                              member.global_elements_.end());
    for (InteriorFace f : member.interior_) {
      f.id += f0, f.element_minus += e0, f.element_plus += e0;
      b.interior_.push_back(f);
    }
    for (BoundaryFace f : member.boundary_) {
      f.id += f0, f.element += e0;
      b.boundary_.push_back(f);
    }
  }
  // MPI faces by neighbour, then copy: each neighbour's block is the member's block of
  // every copy in turn, which the neighbour's batch orders the same way.
  for (const Neighbor& n : member.neighbors_) {
    b.neighbors_.push_back({n.rank, static_cast<int>(b.mpi_.size()), n.face_count * copies});
    for (int m = 0; m < copies; ++m)
      for (int i = n.first_face; i < n.first_face + n.face_count; ++i) {
        MpiFace f = member.mpi_[static_cast<size_t>(i)];
        f.id += m * faces, f.element += m * elements;
        b.mpi_.push_back(f);
      }
  }
  return b;
}

int LocalMesh::local_element(int e) const {
  const auto c = brick_.element_coords(e);
  for (int d = 0; d < 3; ++d)
    if (c[d] < begin_[d] || c[d] >= end_[d]) return -1;
  const int li = c[0] - begin_[0], lj = c[1] - begin_[1], lk = c[2] - begin_[2];
  return li + (end_[0] - begin_[0]) * (lj + (end_[1] - begin_[1]) * lk);
}

}  // namespace squall::mesh
