#pragma once
/// What one rank owns of the brick: its elements (ascending global id, so local order
/// is global order restricted to the rank) and its faces split into
/// - interior faces: both sides on this rank,
/// - boundary faces: one side on a wall,
/// - MPI faces: the other side on another rank.
/// Every list is sorted by global face id; MPI faces are grouped by neighbour rank
/// (ascending) and sorted by global face id within a neighbour, which both ranks of a
/// pair agree on, so slot i of one rank's block to a neighbour matches slot i of the
/// neighbour's block back. Minus/plus sides are those of the global mesh (Brick), never
/// of the rank, so face fluxes do not depend on the partition.
#include <vector>

#include "mesh/brick.hpp"
#include "mesh/partition.hpp"

namespace squall::mesh {

struct InteriorFace {
  int id;             ///< global face id
  int direction;      ///< normal direction 0, 1, 2 (normal points from minus to plus)
  int element_minus;  ///< local element index; its face 2*direction+1
  int element_plus;   ///< local element index; its face 2*direction
};

struct BoundaryFace {
  int id;
  int element;     ///< local element index
  int local_face;  ///< which face of the element lies on the wall (also the wall's number)
};

struct MpiFace {
  int id;
  int direction;
  int element;        ///< local element index
  int local_face;     ///< the element's face on this face
  bool is_minus;      ///< this rank holds the global minus side
  int neighbor_rank;  ///< rank holding the other side
};

/// Contiguous run of MPI faces shared with one neighbour rank.
struct Neighbor {
  int rank;
  int first_face;  ///< index into LocalMesh::mpi_faces()
  int face_count;
};

class LocalMesh {
 public:
  LocalMesh(const Brick& brick, const CartesianPartition& partition, int rank);

  /// A batch: `copies` disjoint copies of `member` (an ensemble's members, which share one
  /// mesh) as one element list, member-major: local element l of copy m is m *
  /// member.element_count() + l. No face joins two copies; copy m's faces are member's
  /// with the ids moved by m times the brick's face count, so every list keeps the order
  /// rules above (on both ranks of an MPI face) and each copy's faces are in the order of
  /// the member's. global_element() gives the member's global id (the same for every
  /// copy); element_begin/end are the member's.
  static LocalMesh batch(const LocalMesh& member, int copies);
  /// Copies in a batch (1 for a mesh of its own), and the elements of each.
  int members() const { return members_; }
  int member_element_count() const { return element_count() / members_; }

  const Brick& brick() const { return brick_; }
  int rank() const { return rank_; }

  int element_count() const { return static_cast<int>(global_elements_.size()); }
  /// Owned element index range [element_begin(d), element_end(d)) along direction d;
  /// local element (li, lj, lk) is li + nx_local (lj + ny_local lk).
  int element_begin(int d) const { return begin_[d]; }
  int element_end(int d) const { return end_[d]; }
  /// Global id of local element l.
  int global_element(int l) const { return global_elements_[l]; }
  const std::vector<int>& global_elements() const { return global_elements_; }
  /// Local index of global element e (in the first copy of a batch), or -1 when another
  /// rank owns it.
  int local_element(int e) const;

  const std::vector<InteriorFace>& interior_faces() const { return interior_; }
  const std::vector<BoundaryFace>& boundary_faces() const { return boundary_; }
  const std::vector<MpiFace>& mpi_faces() const { return mpi_; }
  const std::vector<Neighbor>& neighbors() const { return neighbors_; }

 private:
  Brick brick_;
  CartesianPartition partition_;
  int rank_;
  int members_ = 1;
  std::array<int, 3> begin_{}, end_{};  ///< owned element index range per direction
  std::vector<int> global_elements_;
  std::vector<InteriorFace> interior_;
  std::vector<BoundaryFace> boundary_;
  std::vector<MpiFace> mpi_;
  std::vector<Neighbor> neighbors_;
};

}  // namespace squall::mesh
