#pragma once
/// Operations along vertical columns of nodes: cumulative integrals from the bottom and
/// to the top at every node, and maxima over a column. Radiation schemes need them
/// (the liquid water path above and below a node), and so do diagnostics of the
/// boundary layer (inversion height, cloud base and top).
///
/// A column is one horizontal node position (x, y) of one element column: its nodes are
/// the (N+1) nodes of each element along z at that position, bottom to top. Integrals
/// are exact for each element's polynomial: within an element,
///   int_{-1}^{xi_k} f dxi = sum_j up[k][j] f_j,   int_{xi_k}^{1} f dxi = sum_j down[k][j] f_j,
/// with up[N][j] = down[0][j] = w_j (the LGL weights) and up[0][j] = down[N][j] = 0
/// exactly. The integral from the bottom at node k of element m is
///   (((T_0 + T_1) + ...) + T_{m-1}) + (h/2) sum_j up[k][j] f_j,
/// T_l = (h/2) sum_j w_j f_j the whole-element integrals, summed bottom to top in this
/// order whatever the partition: when a column is split over ranks in z, every rank of
/// the column gets all its elements' T_l (MPI_Allgatherv over the ranks of the column)
/// and sums them itself. So the result has the same bits on any rank count, and the
/// top node of an element and the bottom node of the one above it get the same value.
/// The integral to the top sums from the top down the same way. Maxima are exact.
#include <mpi.h>

#include <vector>

#include "core/launch.hpp"
#include "mesh/local_mesh.hpp"
#include "solver/basis.hpp"
#include "solver/dg_layout.hpp"

namespace squall::dg {

/// up[k][j] = int_{-1}^{x_k} l_j and down[k][j] = int_{x_k}^{1} l_j for the LGL nodes of
/// order N (row-major, (N+1)^2 each), by LGL quadrature mapped onto [-1, x_k] (exact:
/// l_j has degree N <= 2N - 1); the end rows are set exactly as above.
void column_integration_matrices(int N, std::vector<double>& up, std::vector<double>& down);

template <int N>
struct ColumnBasis {
  static constexpr int n1 = N + 1;
  Real up[n1][n1], down[n1][n1], w[n1];
  static ColumnBasis make() {
    std::vector<double> u, d, nodes, weights;
    column_integration_matrices(N, u, d);
    lgl_nodes_weights(N, nodes, weights);
    ColumnBasis b{};
    for (int k = 0; k < n1; ++k) {
      b.w[k] = weights[k];
      for (int j = 0; j < n1; ++j) b.up[k][j] = u[k * n1 + j], b.down[k][j] = d[k * n1 + j];
    }
    return b;
  }
};

/// Where a column's elements are: local element e = c + columns * l for column c of the
/// rank's columns (x fastest) and local level l; in a batch (mesh::LocalMesh::batch) the
/// members' elements follow one another, and column C = m * columns + c is column c of
/// member m, whose elements start at m * columns * levels. One member: the identity.
struct ColumnIndex {
  int columns;  ///< of each member on this rank
  int levels;   ///< local levels
  KOKKOS_INLINE_FUNCTION int element(int column, int level) const {
    const int m = column / columns;
    return m * columns * levels + (column - m * columns) + columns * level;
  }
  KOKKOS_INLINE_FUNCTION int column(int e) const {
    const int per_member = columns * levels, m = e / per_member;
    return m * columns + (e - m * per_member) % columns;
  }
  KOKKOS_INLINE_FUNCTION int level(int e) const { return (e % (columns * levels)) / columns; }
};

/// How a rank's elements form columns (ColumnIndex), the columns of every member of a
/// batch counted; the ranks that share this rank's columns (the same x and y blocks) in
/// a communicator ordered bottom to top. Host code; collective to construct
/// (MPI_Comm_split).
class ColumnLayout {
 public:
  ColumnLayout(const mesh::LocalMesh& mesh, MPI_Comm comm);
  ~ColumnLayout();
  ColumnLayout(const ColumnLayout&) = delete;
  ColumnLayout& operator=(const ColumnLayout&) = delete;

  int columns() const { return columns_; }            ///< element columns on this rank (all members')
  ColumnIndex index() const { return {columns_ / members_, local_levels_}; }
  int local_levels() const { return local_levels_; }  ///< elements of each column on this rank
  int levels() const { return levels_; }              ///< elements of each column in the mesh
  int first_level() const { return first_level_; }    ///< mesh level of local level 0
  MPI_Comm column_comm() const { return column_comm_; }
  bool split() const { return column_ranks_ > 1; }

  /// local (column, local level, k) -> all (column, level, k) with the values of every
  /// rank of the column (host views; collective over the column's ranks).
  void gather_levels(const HostView<Real***>& local, const HostView<Real***>& all) const;
  /// v(c, k) = the maximum of v(c, k) over the column's ranks (host view; collective).
  void max_over_column(const HostView<Real**>& v) const;

 private:
  int columns_ = 0, local_levels_ = 0, levels_ = 0, first_level_ = 0, members_ = 1;
  int column_ranks_ = 1;
  MPI_Comm column_comm_ = MPI_COMM_NULL;
  std::vector<int> rank_levels_, rank_first_level_;  ///< of each rank of the column
};

/// Column operations on the nodal fields (element, node) of order N, on a brick whose
/// local element e is h_z[e] high.
template <int N>
class ColumnOperations {
 public:
  using L = Layout<N>;
  static constexpr Real lowest = -1.7976931348623157e308;  ///< the lowest double
  ColumnOperations(const mesh::LocalMesh& mesh, const std::vector<Real>& h_z, MPI_Comm comm)
      : layout_(mesh, comm),
        basis_(ColumnBasis<N>::make()),
        half_h_(half_heights(h_z)),
        totals_("columns::totals", layout_.columns(), layout_.local_levels(), L::face_nodes),
        all_("columns::all", layout_.columns(), layout_.levels(), L::face_nodes),
        bases_("columns::bases", layout_.columns(), layout_.levels(), L::face_nodes),
        extreme_("columns::extreme", layout_.columns(), L::face_nodes) {}

  const ColumnLayout& layout() const { return layout_; }

  /// below(e, n) = int from the bottom of the domain to node n of f, above(e, n) = int
  /// from node n to the top (f: per unit height, e.g. rho q_l; results per unit area).
  /// Collective over the ranks of each column.
  void integrals(const DeviceView<Real**>& f, const DeviceView<Real**>& below, const DeviceView<Real**>& above) {
    element_totals(f);
    scan(false);
    add_within(f, below, false);
    scan(true);
    add_within(f, above, true);
  }

  /// out(e, n) = the maximum of f over the column of node n (every node of the column
  /// gets it; the lowest double where the column's values are all that). Collective.
  void column_max(const DeviceView<Real**>& f, const DeviceView<Real**>& out) {
    const int columns = layout_.columns(), levels = layout_.local_levels();
    const ColumnIndex index = layout_.index();
    const auto m = extreme_;
    parallel_for("columns::max", columns, L::face_nodes, KOKKOS_LAMBDA(const int c, const int ab) {
      const int a = ab % L::n1, b = ab / L::n1;
      Real v = lowest;
      for (int l = 0; l < levels; ++l)
        for (int k = 0; k < L::n1; ++k) {
          const Real x = f(index.element(c, l), L::node(a, b, k));
          v = x > v ? x : v;
        }
      m(c, ab) = v;
    });
    if (layout_.split()) {
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m);
      layout_.max_over_column(host);
      Kokkos::deep_copy(m, host);
    }
    parallel_for("columns::max_spread", columns * levels, L::nodes, KOKKOS_LAMBDA(const int e, const int n) {
      out(e, n) = m(index.column(e), L::face_node_of(n, 2));
    });
  }

  // The phases of integrals(); public because CUDA does not allow device lambdas in
  // private member functions.
  /// T(c, l, ab) = (h/2) sum_j w_j f_j along the column of face node ab.
  void element_totals(const DeviceView<Real**>& f) {
    const int columns = layout_.columns();
    const ColumnIndex index = layout_.index();
    const auto t = totals_;
    const auto b = basis_;
    const auto hh = half_h_;
    parallel_for("columns::totals", columns * layout_.local_levels(), L::face_nodes,
                 KOKKOS_LAMBDA(const int e, const int ab) {
                   t(index.column(e), index.level(e), ab) = hh(e) * weighted(b.w, f, e, ab);
                 });
    if (layout_.split()) {
      const auto local = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), totals_);
      const auto all = Kokkos::create_mirror_view(all_);
      layout_.gather_levels(local, all);
      Kokkos::deep_copy(all_, all);
    } else {
      Kokkos::deep_copy(all_, totals_);
    }
  }

  /// bases(c, l, ab) = the sum of the totals below level l (downward: above it), in
  /// order from the bottom (from the top).
  void scan(bool downward) {
    const int levels = layout_.levels();
    const auto all = all_;
    const auto bases = bases_;
    parallel_for("columns::scan", layout_.columns(), L::face_nodes, KOKKOS_LAMBDA(const int c, const int ab) {
      Real sum = 0;
      for (int i = 0; i < levels; ++i) {
        const int l = downward ? levels - 1 - i : i;
        bases(c, l, ab) = sum;
        sum += all(c, l, ab);
      }
    });
  }

  /// out(e, n) = the base of node n's element and level plus the integral within the
  /// element up to node n (downward: from node n to the element's top).
  void add_within(const DeviceView<Real**>& f, const DeviceView<Real**>& out, bool downward) {
    const int columns = layout_.columns(), first = layout_.first_level();
    const ColumnIndex index = layout_.index();
    const auto bases = bases_;
    const auto b = basis_;
    const auto hh = half_h_;
    parallel_for("columns::within", columns * layout_.local_levels(), L::nodes, KOKKOS_LAMBDA(const int e, const int n) {
      const int ab = L::face_node_of(n, 2), k = L::index(n, 2);
      const Real part = hh(e) * weighted(downward ? b.down[k] : b.up[k], f, e, ab);
      out(e, n) = bases(index.column(e), first + index.level(e), ab) + part;
    });
  }

  /// sum_j c[j] f(e, node (a, b, j)), j ascending.
  /// h_z / 2 of each element, on the device.
  static DeviceView<Real*> half_heights(const std::vector<Real>& h_z) {
    DeviceView<Real*> out("columns::half_heights", h_z.size());
    const auto host = Kokkos::create_mirror_view(out);
    for (std::size_t e = 0; e < h_z.size(); ++e) host(e) = h_z[e] / 2;
    Kokkos::deep_copy(out, host);
    return out;
  }

  KOKKOS_INLINE_FUNCTION static Real weighted(const Real* c, const DeviceView<Real**>& f, int e, int ab) {
    const int a = ab % L::n1, b = ab / L::n1;
    Real sum = 0;
    for (int j = 0; j < L::n1; ++j) sum += c[j] * f(e, L::node(a, b, j));
    return sum;
  }

 private:
  ColumnLayout layout_;
  ColumnBasis<N> basis_;
  DeviceView<Real*> half_h_;    ///< h_z / 2 per element
  DeviceView<Real***> totals_;  ///< (column, local level, face node)
  DeviceView<Real***> all_;     ///< (column, level, face node): every level's totals
  DeviceView<Real***> bases_;   ///< (column, level, face node)
  DeviceView<Real**> extreme_;  ///< (column, face node)
};

}  // namespace squall::dg
