#include "mesh/brick.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace squall::mesh {

Brick::Brick(std::array<int, 3> elements, std::array<std::array<double, 2>, 3> domain,
             std::array<bool, 3> periodic, std::vector<double> z_faces)
    : n_(elements), domain_(domain), periodic_(periodic), z_faces_(std::move(z_faces)) {
  if (!z_faces_.empty() &&
      (z_faces_.size() != static_cast<std::size_t>(n_[2]) + 1 || z_faces_.front() != domain_[2][0] ||
       z_faces_.back() != domain_[2][1]))
    throw std::invalid_argument("Brick: z_faces must hold nz + 1 heights from the bottom to the top of the domain");
  for (std::size_t k = 1; k < z_faces_.size(); ++k)
    if (!(z_faces_[k] > z_faces_[k - 1])) throw std::invalid_argument("Brick: z_faces must ascend");
  for (int d = 0; d < 3; ++d) {
    const auto t = tangential(d);
    face_offset_[d + 1] = face_offset_[d] + face_positions(d) * n_[t[0]] * n_[t[1]];
  }
}

Brick::Brick(const MeshConfig& config) : Brick(config.elements, config.domain, config.periodic, config.z_faces) {}

double Brick::smallest_element_size(int d) const {
  double h = element_size(d, 0);
  for (int c = 1; c < n_[d]; ++c) h = std::min(h, element_size(d, c));
  return h;
}

int Brick::face_id(int d, int s, const std::array<int, 3>& c) const {
  const auto t = tangential(d);
  return face_offset_[d] + s + face_positions(d) * (c[t[0]] + n_[t[0]] * c[t[1]]);
}

int Brick::face_of_element(int e, int local_face) const {
  const auto c = element_coords(e);
  const int d = face_direction(local_face);
  int s = c[d] + (face_is_high(local_face) ? 1 : 0);
  if (periodic_[d]) s %= n_[d];
  return face_id(d, s, c);
}

GlobalFace Brick::face(int id) const {
  GlobalFace f;
  f.id = id;
  int d = 0;
  while (id >= face_offset_[d + 1]) ++d;
  f.direction = d;
  const auto t = tangential(d);
  int rest = id - face_offset_[d];
  const int s = rest % face_positions(d);
  rest /= face_positions(d);
  std::array<int, 3> c{};
  c[t[0]] = rest % n_[t[0]];
  c[t[1]] = rest / n_[t[0]];

  if (periodic_[d]) {
    c[d] = (s + n_[d] - 1) % n_[d];
    f.element_minus = element_id(c[0], c[1], c[2]);
    c[d] = s;
    f.element_plus = element_id(c[0], c[1], c[2]);
    return f;
  }
  if (s > 0) {
    c[d] = s - 1;
    f.element_minus = element_id(c[0], c[1], c[2]);
  } else {
    f.wall = 2 * d;
  }
  if (s < n_[d]) {
    c[d] = s;
    f.element_plus = element_id(c[0], c[1], c[2]);
  } else {
    f.wall = 2 * d + 1;
  }
  return f;
}

}  // namespace squall::mesh
