#pragma once
/// Geometry of the local elements of a brick: element sizes and the coordinates of
/// every volume node. Elements are axis-aligned boxes, equal along x and y; along z their
/// heights may differ from layer to layer (mesh.element_heights). A node's coordinate is
/// Brick::node_position, written so that the two elements of a face compute bitwise the
/// same coordinates for their shared face nodes (so the reference state there is the
/// same on both sides).
///
/// With a mapping (terrain, or a test's warped mesh) every node of the brick is moved to
/// X(x) and the elements are curved hexahedra: the geometry then also holds each node's
/// Jacobian J and contravariant vectors J a^i in the curl form
/// (solver/curvilinear_metrics.hpp), which the DG operator uses instead of the element
/// sizes. The mapping is a function of the flat point alone, so the elements of a face
/// (on any rank) see bitwise the same points; across a periodic boundary the high end's
/// points are those of the low end shifted by the period, so that they too agree (a
/// mapping must be periodic there). The curl form is not invariant under a shift in the
/// last bit, so the J a^d of a face's nodes are then taken from the face's minus side on
/// both sides (over MPI on faces between ranks): every face has one normal vector, the
/// same on any partition.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <vector>

#include "core/error.hpp"
#include "mesh/halo_exchange.hpp"
#include "mesh/local_mesh.hpp"
#include "solver/basis.hpp"
#include "solver/curvilinear_metrics.hpp"
#include "solver/dg_layout.hpp"

namespace squall::dg {

/// A map of the flat brick's points to the physical ones (curved elements).
using Mapping = std::function<std::array<double, 3>(const std::array<double, 3>&)>;

struct Geometry {
  std::array<Real, 2> h{};    ///< element edge lengths along x and y [m] (of the flat brick)
  std::vector<Real> hz;       ///< height of each local element [m] (of the flat brick)
  std::vector<Real> jacobian;  ///< of each local element: its volume over the reference volume 8 (flat brick)
  CoordView x;                 ///< node coordinates (element, direction, node)
  Real min_node_spacing = 0;   ///< smallest distance between neighbouring nodes [m] (of this rank's elements)
  /// Curved elements: the metric terms below replace h, hz and jacobian.
  bool curved = false;
  DeviceView<Real***> metrics;          ///< (element, 3 i + k, node): component k of J a^i
  DeviceView<Real**> inverse_jacobian;  ///< (element, node): 1 / J
  std::vector<Real> node_jacobian;      ///< J of node n of element e at e * nodes + n (host)
};

/// The plus side of every face takes the minus side's J a^d at the face's nodes (host
/// copy mh of Geometry::metrics). Collective.
template <int N, class Metrics>
void share_face_metrics(const mesh::LocalMesh& mesh, const Metrics& mh, MPI_Comm comm) {
  using L = Layout<N>;
  for (const auto& face : mesh.interior_faces()) {
    const int d = face.direction;
    for (int m = 0; m < L::face_nodes; ++m)
      for (int k = 0; k < 3; ++k)
        mh(face.element_plus, 3 * d + k, L::volume_node_of(m, 2 * d)) =
            mh(face.element_minus, 3 * d + k, L::volume_node_of(m, 2 * d + 1));
  }
  mesh::HaloExchange halo(mesh, 3 * L::face_nodes, comm);
  const auto& faces = mesh.mpi_faces();
  const auto send = Kokkos::create_mirror_view(halo.send_buffer());
  for (std::size_t f = 0; f < faces.size(); ++f)
    for (int m = 0; m < L::face_nodes; ++m)
      for (int k = 0; k < 3; ++k)
        send(f, k * L::face_nodes + m) =
            mh(faces[f].element, 3 * faces[f].direction + k, L::volume_node_of(m, faces[f].local_face));
  Kokkos::deep_copy(halo.send_buffer(), send);
  halo.start();
  halo.finish();
  const auto recv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), halo.recv_buffer());
  for (std::size_t f = 0; f < faces.size(); ++f)
    if (!faces[f].is_minus)
      for (int m = 0; m < L::face_nodes; ++m)
        for (int k = 0; k < 3; ++k)
          mh(faces[f].element, 3 * faces[f].direction + k, L::volume_node_of(m, faces[f].local_face)) =
              recv(f, k * L::face_nodes + m);
}

/// The geometry of this rank's elements; with a mapping, curved (collective over comm,
/// which shares the face metrics).
template <int N>
Geometry make_geometry(const mesh::LocalMesh& mesh, const Basis<N>& basis, const Mapping& mapping = {},
                       MPI_Comm comm = MPI_COMM_WORLD) {
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
    for (int n = 0; n < L::nodes; ++n) {
      std::array<double, 3> p, wrapped;
      for (int d = 0; d < 3; ++d) {
        p[d] = brick.node_position(d, c[d], (basis.x[L::index(n, d)] + 1) / 2);
        const bool high_end = brick.periodic()[d] && c[d] == brick.elements()[d] - 1 && L::index(n, d) == N;
        wrapped[d] = high_end ? brick.node_position(d, 0, 0) : p[d];
      }
      if (mapping) {
        const std::array<double, 3> mapped = mapping(wrapped);
        for (int d = 0; d < 3; ++d) p[d] = wrapped[d] == p[d] ? mapped[d] : mapped[d] + (p[d] - wrapped[d]);
      }
      for (int d = 0; d < 3; ++d) xh(e, d, n) = p[d];
    }
  }
  Kokkos::deep_copy(g.x, xh);
  if (!mapping) return g;

  g.curved = true;
  g.metrics = DeviceView<Real***>("dg::metric_terms", elements, 9, L::nodes);
  g.inverse_jacobian = DeviceView<Real**>("dg::inverse_jacobian", elements, L::nodes);
  g.node_jacobian.resize(static_cast<std::size_t>(elements) * L::nodes);
  const auto mh = Kokkos::create_mirror_view(g.metrics);
  const auto ih = Kokkos::create_mirror_view(g.inverse_jacobian);
  std::vector<double> x(3 * L::nodes);
  g.min_node_spacing = 1e300;
  for (int e = 0; e < elements; ++e) {
    // Relative to the element's first node: the curl form's products X_l dX_m are then
    // of the element's size, not of the coordinates', and so is their round-off.
    for (int d = 0; d < 3; ++d)
      for (int n = 0; n < L::nodes; ++n) x[d * L::nodes + n] = xh(e, d, n) - xh(e, d, 0);
    const ElementMetrics<N> m = curl_form_metrics(basis, x.data());
    for (int n = 0; n < L::nodes; ++n) {
      if (!(m.jacobian[n] > 0))
        throw InputError("the mapped mesh folds: the Jacobian of element " + std::to_string(mesh.global_element(e)) +
                         " is not positive at its node " + std::to_string(n) +
                         " (a steeper or higher terrain than the element layers can follow)");
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) mh(e, 3 * i + k, n) = m.ja[i][k][n];
      ih(e, n) = 1 / m.jacobian[n];
      g.node_jacobian[static_cast<std::size_t>(e) * L::nodes + n] = m.jacobian[n];
      for (int d = 0; d < 3; ++d) {  // the distance to the next node along each direction
        if (L::index(n, d) == N) continue;
        const int next = L::along(n, d, L::index(n, d) + 1);
        double s = 0;
        for (int k = 0; k < 3; ++k) s += (xh(e, k, next) - xh(e, k, n)) * (xh(e, k, next) - xh(e, k, n));
        g.min_node_spacing = std::min(g.min_node_spacing, std::sqrt(s));
      }
    }
  }
  share_face_metrics<N>(mesh, mh, comm);
  Kokkos::deep_copy(g.metrics, mh);
  Kokkos::deep_copy(g.inverse_jacobian, ih);
  return g;
}

}  // namespace squall::dg
