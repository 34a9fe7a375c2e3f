// Column operations (solver/column_operations.hpp): integrals from the bottom and to the
// top exact for polynomials of degree <= N along z, column maxima, and the same bits on
// any partition, including columns split over ranks in z (the meshes here are tall, so
// the partition splits them in z).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>

#include "core/parallel_env.hpp"
#include "solver/column_operations.hpp"

using namespace squall;
using namespace squall::dg;

namespace {

constexpr int N = 3;
using L = Layout<N>;
constexpr double top = 3.0;  // the domain is [0, 2] x [0, 1] x [0, top]

/// The test field at (x, y, z): a polynomial of degree N in z (cubic), varying in x and y.
double field(double x, double y, double z) { return (1 + x + 0.5 * y) * (2 - z + 0.75 * z * z - 0.125 * z * z * z); }
/// Its integral from 0 to z.
double primitive(double x, double y, double z) {
  return (1 + x + 0.5 * y) * (2 * z - z * z / 2 + 0.25 * z * z * z - z * z * z * z / 32);
}

struct ColumnResult {
  std::map<std::pair<int, int>, std::array<double, 3>> node;  ///< (global element, node) -> below, above, max
  std::map<std::pair<int, int>, std::array<double, 3>> x;     ///< node coordinates
};

/// below, above and the column maximum of z where z < threshold, on the partition of
/// `comm` (collective). With copies > 1, a batch of that many copies of the rank's mesh
/// (mesh::LocalMesh::batch); copy m has the field shifted by s = shift + m and the
/// threshold lowered by 0.4 s. The result of copy `result_copy`.
ColumnResult run(const mesh::Brick& brick, MPI_Comm comm, double threshold, int copies = 1, int result_copy = 0,
                 int shift = 0) {
  const auto n = brick.elements();
  const auto part = mesh::CartesianPartition::choose(n, comm_size(comm));
  const mesh::LocalMesh member(brick, part, comm_rank(comm));
  const mesh::LocalMesh local = copies > 1 ? mesh::LocalMesh::batch(member, copies) : member;
  const int elements = local.element_count(), per_member = member.element_count();
  std::vector<Real> h_z(elements);
  for (int e = 0; e < elements; ++e)
    h_z[e] = brick.element_size(2, brick.element_coords(member.global_element(e % per_member))[2]);
  ColumnOperations<N> columns(local, h_z, comm);
  std::vector<double> nodes, weights;
  lgl_nodes_weights(N, nodes, weights);
  HostView<Real**> f("f", elements, L::nodes), zmask("zmask", elements, L::nodes);
  ColumnResult out;
  for (int e = 0; e < elements; ++e) {
    const int copy = e / per_member, g = member.global_element(e % per_member), s = shift + copy;
    const int index[3] = {g % n[0], (g / n[0]) % n[1], g / (n[0] * n[1])};
    for (int v = 0; v < L::nodes; ++v) {
      double x[3];
      for (int d = 0; d < 3; ++d) x[d] = brick.node_position(d, index[d], (nodes[L::index(v, d)] + 1) / 2);
      f(e, v) = field(x[0], x[1], x[2]) + s;
      zmask(e, v) = x[2] < threshold - 0.4 * s ? x[2] : ColumnOperations<N>::lowest;
      if (copy == result_copy) out.x[{g, v}] = {x[0], x[1], x[2]};
    }
  }
  const auto fd = Kokkos::create_mirror_view_and_copy(MemSpace(), f);
  const auto md = Kokkos::create_mirror_view_and_copy(MemSpace(), zmask);
  const DeviceView<Real**> below("below", elements, L::nodes), above("above", elements, L::nodes),
      highest("highest", elements, L::nodes);
  columns.integrals(fd, below, above);
  columns.column_max(md, highest);
  const auto b = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), below);
  const auto a = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), above);
  const auto m = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), highest);
  for (int e = result_copy * per_member; e < (result_copy + 1) * per_member; ++e)
    for (int v = 0; v < L::nodes; ++v) out.node[{member.global_element(e % per_member), v}] = {b(e, v), a(e, v), m(e, v)};
  return out;
}

/// `z_faces`: the element faces along z (empty: equal heights).
void check_columns(std::array<int, 3> n, std::vector<double> z_faces = {}) {
  const mesh::Brick brick(n, {{{0, 2}, {0, 1}, {0, top}}}, {true, true, false}, z_faces);
  const double threshold = 1.3;
  const ColumnResult here = run(brick, MPI_COMM_WORLD, threshold);
  const ColumnResult alone = run(brick, MPI_COMM_SELF, threshold);  // the whole mesh on one rank
  std::vector<double> nodes, weights;
  lgl_nodes_weights(N, nodes, weights);
  for (const auto& [key, value] : here.node) {
    const auto& x = here.x.at(key);
    // Exact for the cubic, up to rounding.
    CHECK(value[0] == Approx(primitive(x[0], x[1], x[2])).margin(1e-13).epsilon(1e-13));
    CHECK(value[1] ==
          Approx(primitive(x[0], x[1], top) - primitive(x[0], x[1], x[2])).margin(1e-13).epsilon(1e-13));
    // The highest node below the threshold: the last node of the levels below it.
    double expected = ColumnOperations<N>::lowest;
    for (int l = 0; l < n[2]; ++l)
      for (int k = 0; k <= N; ++k) {
        const double z = brick.node_position(2, l, (nodes[k] + 1) / 2);
        if (z < threshold) expected = std::max(expected, z);
      }
    CHECK(value[2] == expected);
    // The same bits as the whole mesh on one rank.
    const auto& one = alone.node.at(key);
    CHECK(value[0] == one[0]);
    CHECK(value[1] == one[1]);
    CHECK(value[2] == one[2]);
  }
  // A batch of 3 copies (each with its own field and threshold) on this partition: each
  // copy's columns are its own, with the bits of that copy alone on one rank.
  for (int copy = 0; copy < 3; ++copy) {
    const ColumnResult batched = run(brick, MPI_COMM_WORLD, threshold, 3, copy);
    const ColumnResult own = run(brick, MPI_COMM_SELF, threshold, 1, 0, copy);
    REQUIRE(batched.node.size() == here.node.size());
    for (const auto& [key, value] : batched.node) {
      const auto& alone_value = own.node.at(key);
      CHECK(value[0] == alone_value[0]);
      CHECK(value[1] == alone_value[1]);
      CHECK(value[2] == alone_value[2]);
    }
    if (copy > 0) CHECK(batched.node.begin()->second[1] != here.node.begin()->second[1]);  // the column total
  }
  // The top node of an element and the bottom node of the element above it agree bit for bit.
  for (const auto& [key, value] : alone.node) {
    const int g = key.first, v = key.second;
    if (L::index(v, 2) != N || g / (n[0] * n[1]) == n[2] - 1) continue;
    const auto& next = alone.node.at({g + n[0] * n[1], v - N * L::face_nodes});
    CHECK(value[0] == next[0]);
    CHECK(value[1] == next[1]);
  }
}

}  // namespace

TEST_CASE("column integration matrices", "[columns]") {
  for (int order = 1; order <= 8; ++order) {
    std::vector<double> up, down, nodes, weights;
    column_integration_matrices(order, up, down);
    lgl_nodes_weights(order, nodes, weights);
    const int n1 = order + 1;
    for (int k = 0; k < n1; ++k) {
      double su = 0, sd = 0, mu = 0;
      for (int j = 0; j < n1; ++j) su += up[k * n1 + j], sd += down[k * n1 + j], mu += up[k * n1 + j] * nodes[j];
      CHECK(su == Approx(nodes[k] + 1).margin(1e-14));       // int_{-1}^{x_k} 1
      CHECK(sd == Approx(1 - nodes[k]).margin(1e-14));       // int_{x_k}^{1} 1
      CHECK(mu == Approx((nodes[k] * nodes[k] - 1) / 2).margin(1e-14));  // int_{-1}^{x_k} x
    }
    for (int j = 0; j < n1; ++j) {
      CHECK(up[j] == 0);
      CHECK(down[order * n1 + j] == 0);
      CHECK(up[order * n1 + j] == weights[j]);
      CHECK(down[j] == weights[j]);
    }
  }
}

TEST_CASE("column integrals and maxima, columns split in z", "[mpi][columns]") {
  check_columns({2, 1, 6});
  check_columns({2, 2, 8});
  check_columns({1, 1, 5});
}

TEST_CASE("column integrals and maxima on element layers of different heights", "[mpi][columns]") {
  check_columns({2, 1, 6}, {0, 0.9, 1.2, 1.35, 1.5, 2.1, top});
  check_columns({1, 1, 4}, {0, 0.25, 1.0, 2.5, top});
}
