#pragma once
/// Geometry of the local elements of a brick: element sizes and the coordinates of
/// every volume node. Elements are axis-aligned boxes, equal along x and y; along z their
/// heights may differ from layer to layer (mesh.element_heights). A node's coordinate is
/// Brick::node_position, written so that the two elements of a face compute bitwise the
/// same coordinates for their shared face nodes (so the reference state there is the
/// same on both sides).
#include <algorithm>
#include <array>
#include <vector>

#include "mesh/local_mesh.hpp"
#include "solver/basis.hpp"
#include "solver/dg_layout.hpp"

namespace squall::dg {

struct Geometry {
  std::array<Real, 2> h{};    ///< element edge lengths along x and y [m]
  std::vector<Real> hz;       ///< height of each local element [m]
  std::vector<Real> jacobian;  ///< of each local element: its volume over the reference volume 8
  CoordView x;                 ///< node coordinates (element, direction, node)
  Real min_node_spacing = 0;   ///< smallest distance between neighbouring nodes [m]
};

template <int N>
Geometry make_geometry(const mesh::LocalMesh& mesh, const Basis<N>& basis) {
  using L = Layout<N>;
  const auto& brick = mesh.brick();
  Geometry g;
  for (int d = 0; d < 2; ++d) g.h[d] = brick.element_size(d, 0);
  const int elements = mesh.element_count();
  g.hz.resize(elements);
  g.jacobian.resize(elements);
  for (int e = 0; e < elements; ++e) {
    g.hz[e] = brick.element_size(2, brick.element_coords(mesh.global_element(e))[2]);
    g.jacobian[e] = g.h[0] * g.h[1] * g.hz[e] / 8;
  }
  const Real smallest[3] = {g.h[0], g.h[1], brick.smallest_element_size(2)};
  g.min_node_spacing = 1e300;
  for (int d = 0; d < 3; ++d)
    for (int i = 0; i < N; ++i)
      g.min_node_spacing = std::min(g.min_node_spacing, (basis.x[i + 1] - basis.x[i]) / 2 * smallest[d]);

  g.x = CoordView("dg::coordinates", elements, 3, L::nodes);
  auto xh = Kokkos::create_mirror_view(g.x);
  for (int e = 0; e < elements; ++e) {
    const auto c = brick.element_coords(mesh.global_element(e));
    for (int n = 0; n < L::nodes; ++n)
      for (int d = 0; d < 3; ++d) xh(e, d, n) = brick.node_position(d, c[d], (basis.x[L::index(n, d)] + 1) / 2);
  }
  Kokkos::deep_copy(g.x, xh);
  return g;
}

}  // namespace squall::dg
