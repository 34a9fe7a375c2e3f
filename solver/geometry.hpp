#pragma once
/// Geometry of the local elements of an affine brick: element sizes and the coordinates
/// of every volume node. A node's coordinate along d is x0_d + (c_d + (xi + 1) / 2) h_d,
/// written so that the two elements of a face compute bitwise the same coordinates for
/// their shared face nodes (so the reference state there is the same on both sides).
#include <array>

#include "mesh/local_mesh.hpp"
#include "solver/basis.hpp"
#include "solver/dg_layout.hpp"

namespace squall::dg {

struct Geometry {
  std::array<Real, 3> h{};  ///< element edge lengths [m]
  CoordView x;              ///< node coordinates (element, direction, node)
  Real min_node_spacing = 0;  ///< smallest distance between neighbouring nodes [m]
  Real jacobian = 0;          ///< volume of an element over the reference volume 8
};

template <int N>
Geometry make_geometry(const mesh::LocalMesh& mesh, const Basis<N>& basis) {
  using L = Layout<N>;
  const auto& brick = mesh.brick();
  Geometry g;
  for (int d = 0; d < 3; ++d) g.h[d] = brick.element_size(d);
  g.jacobian = g.h[0] * g.h[1] * g.h[2] / 8;
  g.min_node_spacing = 1e300;
  for (int d = 0; d < 3; ++d)
    for (int i = 0; i < N; ++i)
      g.min_node_spacing = std::min(g.min_node_spacing, (basis.x[i + 1] - basis.x[i]) / 2 * g.h[d]);

  g.x = CoordView("dg::coordinates", mesh.element_count(), 3, L::nodes);
  auto xh = Kokkos::create_mirror_view(g.x);
  for (int e = 0; e < mesh.element_count(); ++e) {
    const auto c = brick.element_coords(mesh.global_element(e));
    for (int n = 0; n < L::nodes; ++n)
      for (int d = 0; d < 3; ++d)
        xh(e, d, n) = brick.domain()[d][0] + (c[d] + (basis.x[L::index(n, d)] + 1) / 2) * g.h[d];
  }
  Kokkos::deep_copy(g.x, xh);
  return g;
}

}  // namespace squall::dg
