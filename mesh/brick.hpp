#pragma once
/// The global brick: nx x ny x nz axis-aligned hexahedra over a box, each direction
/// periodic or walled. Pure topology and geometry, the same on every rank.
///
/// Numbering (fixed, part of the checkpoint format):
/// - element (i, j, k) has global id e = i + nx * (j + ny * k);
/// - an element's six faces are numbered 0..5 = -x, +x, -y, +y, -z, +z (`LocalFace`);
/// - faces normal to direction d sit at positions s = 0..n_d (walled) or 0..n_d-1
///   (periodic); the face at s lies between element s-1 (its minus side, whose face
///   2d+1 it is) and element s (plus side, face 2d). Periodic: s = 0 joins n_d-1 and 0.
///   Walled: at s = 0 the minus side is the wall 2d, at s = n_d the plus side is the
///   wall 2d+1. Global face ids run over x-faces, then y-faces, then z-faces.
/// - Both sides of a face see its nodes in the same tangential order (all elements share
///   one orientation), so face node (a, b) of the minus side meets (a, b) of the plus side.
#include <array>
#include <vector>

#include "core/config.hpp"

namespace squall::mesh {

enum LocalFace : int { x_low = 0, x_high = 1, y_low = 2, y_high = 3, z_low = 4, z_high = 5 };

inline constexpr int face_direction(int local_face) { return local_face / 2; }
inline constexpr bool face_is_high(int local_face) { return local_face % 2 == 1; }

/// One global face. A side that is a wall has element -1 there; `wall` then says
/// which wall (numbered like the element face that touches it), else -1.
struct GlobalFace {
  int id = -1;
  int direction = -1;
  int element_minus = -1;
  int element_plus = -1;
  int wall = -1;
};

class Brick {
 public:
  /// `z_faces`: the heights of the element faces along z, bottom to top (nz + 1 values
  /// from domain[2][0] to domain[2][1], ascending); empty: equal element heights.
  Brick(std::array<int, 3> elements, std::array<std::array<double, 2>, 3> domain,
        std::array<bool, 3> periodic, std::vector<double> z_faces = {});
  explicit Brick(const MeshConfig& config);

  const std::array<int, 3>& elements() const { return n_; }
  const std::array<bool, 3>& periodic() const { return periodic_; }
  const std::array<std::array<double, 2>, 3>& domain() const { return domain_; }
  long element_count() const { return static_cast<long>(n_[0]) * n_[1] * n_[2]; }
  /// Whether all elements have the same edge length along d (x and y always do).
  bool uniform(int d) const { return d != 2 || z_faces_.empty(); }
  /// Edge length along d of the elements at index c along d [m].
  double element_size(int d, int c) const {
    return uniform(d) ? (domain_[d][1] - domain_[d][0]) / n_[d] : z_faces_[c + 1] - z_faces_[c];
  }
  /// The smallest edge length along d [m].
  double smallest_element_size(int d) const;
  /// The coordinate along d of the point at t (0 at the element's low face, 1 at its high
  /// face) of the elements at index c along d. Both elements of a face compute bitwise the
  /// same coordinate for it: lo + (c + t) h with equal sizes, (1 - t) z_c + t z_{c+1} with
  /// the listed faces (exactly z_c at t = 0 and z_{c+1} at t = 1).
  double node_position(int d, int c, double t) const {
    if (uniform(d)) return domain_[d][0] + (c + t) * element_size(d, c);
    return (1 - t) * z_faces_[c] + t * z_faces_[c + 1];
  }
  /// The face heights along z (empty: equal element heights).
  const std::vector<double>& z_faces() const { return z_faces_; }

  int element_id(int i, int j, int k) const { return i + n_[0] * (j + n_[1] * k); }
  std::array<int, 3> element_coords(int e) const {
    return {e % n_[0], (e / n_[0]) % n_[1], e / (n_[0] * n_[1])};
  }

  /// Number of face positions along d (n_d periodic, n_d + 1 walled).
  int face_positions(int d) const { return n_[d] + (periodic_[d] ? 0 : 1); }
  int face_count() const { return face_offset_[3]; }
  /// Global id of face `local_face` of element e.
  int face_of_element(int e, int local_face) const;
  GlobalFace face(int id) const;

 private:
  /// The two directions tangential to d, in increasing order.
  static std::array<int, 2> tangential(int d) {
    return d == 0 ? std::array<int, 2>{1, 2} : d == 1 ? std::array<int, 2>{0, 2} : std::array<int, 2>{0, 1};
  }
  int face_id(int d, int s, const std::array<int, 3>& c) const;

  std::array<int, 3> n_;
  std::array<std::array<double, 2>, 3> domain_;
  std::array<bool, 3> periodic_;
  std::vector<double> z_faces_;
  std::array<int, 4> face_offset_{};
};

}  // namespace squall::mesh
