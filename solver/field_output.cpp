#include "solver/field_output.hpp"

#include "core/version.hpp"
#include "io/netcdf_fields.hpp"
#include "solver/basis.hpp"

namespace squall {
namespace {

/// out = (M x M x M) in for one element's nodal values (x fastest), M: n1 x n1.
void interpolate(const std::vector<double>& M, int n1, const double* in, double* out) {
  std::vector<double> a(n1 * n1 * n1), b(n1 * n1 * n1);
  for (int k = 0; k < n1; ++k)  // along x
    for (int j = 0; j < n1; ++j)
      for (int p = 0; p < n1; ++p) {
        double sum = 0;
        for (int i = 0; i < n1; ++i) sum += M[p * n1 + i] * in[i + n1 * (j + n1 * k)];
        a[p + n1 * (j + n1 * k)] = sum;
      }
  for (int k = 0; k < n1; ++k)  // along y
    for (int p = 0; p < n1; ++p)
      for (int i = 0; i < n1; ++i) {
        double sum = 0;
        for (int j = 0; j < n1; ++j) sum += M[p * n1 + j] * a[i + n1 * (j + n1 * k)];
        b[i + n1 * (p + n1 * k)] = sum;
      }
  for (int p = 0; p < n1; ++p)  // along z
    for (int j = 0; j < n1; ++j)
      for (int i = 0; i < n1; ++i) {
        double sum = 0;
        for (int k = 0; k < n1; ++k) sum += M[p * n1 + k] * b[i + n1 * (j + n1 * k)];
        out[i + n1 * (j + n1 * p)] = sum;
      }
}

}  // namespace

namespace {

/// Where the points of this rank's elements lie on the global grid of grid_values: the
/// axes, this rank's block, and the grid index of point n of local element e.
struct ElementGrid {
  int n1;
  int local_elements[3];
  GridValues layout;  ///< axes, start and size filled; no fields
  ElementGrid(const std::vector<double>& lgl_nodes, const mesh::LocalMesh& mesh, std::vector<double>& targets)
      : n1(static_cast<int>(lgl_nodes.size())) {
    targets.resize(n1);
    for (int p = 0; p < n1; ++p) targets[p] = -1.0 + (2.0 * p + 1.0) / n1;
    const auto& brick = mesh.brick();
    for (int d = 0; d < 3; ++d) {
      const int n = brick.elements()[d];
      for (int e = 0; e < n; ++e)
        for (int p = 0; p < n1; ++p) layout.axes[d].push_back(brick.node_position(d, e, (targets[p] + 1) / 2));
      local_elements[d] = mesh.element_end(d) - mesh.element_begin(d);
      layout.start[d] = static_cast<size_t>(mesh.element_begin(d)) * n1;
      layout.size[d] = static_cast<size_t>(local_elements[d]) * n1;
    }
  }
  size_t points() const { return layout.size[0] * layout.size[1] * layout.size[2]; }
  size_t at(int e, int n) const {
    const int li = e % local_elements[0], lj = (e / local_elements[0]) % local_elements[1],
              lk = e / (local_elements[0] * local_elements[1]);
    const size_t i = li * n1 + n % n1, j = lj * n1 + (n / n1) % n1, k = lk * n1 + n / (n1 * n1);
    return i + layout.size[0] * (j + layout.size[1] * k);
  }
};

/// The height of every grid point (the mapping's z, interpolated as the fields are: the
/// polynomial through the node positions) and, on ranks that hold the bottom layer, the
/// terrain under every column: the bottom face's node heights, interpolated along x and y.
void terrain_heights(const HostSolution& s, const std::vector<double>& M, const ElementGrid& grid,
                     const mesh::LocalMesh& mesh, GridValues& g) {
  const int n1 = grid.n1, nodes = n1 * n1 * n1;
  std::vector<double> in(nodes), out(nodes);
  g.altitude.assign(grid.points(), 0.0);
  const bool bottom = mesh.element_begin(2) == 0;
  if (bottom) g.surface.assign(grid.layout.size[0] * grid.layout.size[1], 0.0);
  const int layer = grid.local_elements[0] * grid.local_elements[1];
  for (int e = 0; e < mesh.element_count(); ++e) {
    for (int n = 0; n < nodes; ++n) in[n] = s.x(e, 2, n);
    interpolate(M, n1, in.data(), out.data());
    for (int n = 0; n < nodes; ++n) g.altitude[grid.at(e, n)] = out[n];
    if (!bottom || e >= layer) continue;
    for (int n = 0; n < nodes; ++n) in[n] = n < n1 * n1 ? s.x(e, 2, n) : 0.0;  // the face, copied up
    for (int n = n1 * n1; n < nodes; ++n) in[n] = in[n % (n1 * n1)];
    interpolate(M, n1, in.data(), out.data());
    for (int n = 0; n < n1 * n1; ++n) g.surface[grid.at(e, n)] = out[n];
  }
}

}  // namespace

GridValues grid_values(const physics::VariableInfo& info, const DeriveFields& derive, const HostSolution& s,
                       const std::vector<double>& lgl_nodes, const mesh::LocalMesh& mesh) {
  const int nvar = static_cast<int>(info.conservative.size()), nderived = static_cast<int>(info.derived.size());
  std::vector<double> targets;
  const ElementGrid grid(lgl_nodes, mesh, targets);
  const int n1 = grid.n1;
  const std::vector<double> M = dg::lagrange_matrix(lgl_nodes, targets);
  GridValues g = grid.layout;
  g.field.assign(nderived, std::vector<double>(grid.points(), 0.0));

  const int nodes = n1 * n1 * n1;
  std::vector<double> in(nodes);
  std::vector<std::vector<double>> values(nvar + 1, std::vector<double>(nodes));
  std::vector<double> q(nvar), derived(nderived);
  if (s.curved) terrain_heights(s, M, grid, mesh, g);
  for (int e = 0; e < mesh.element_count(); ++e) {
    for (int v = 0; v <= nvar; ++v) {  // the conservative variables and phi
      for (int n = 0; n < nodes; ++n) in[n] = v < nvar ? s.q(e, v, n) : s.aux(e, dg::Equations::a_phi, n);
      interpolate(M, n1, in.data(), values[v].data());
    }
    for (int n = 0; n < nodes; ++n) {
      for (int v = 0; v < nvar; ++v) q[v] = values[v][n];
      derive(q.data(), values[nvar][n], derived.data());
      const size_t at = grid.at(e, n);
      for (int f = 0; f < nderived; ++f) g.field[f][at] = derived[f];
    }
  }
  return g;
}

std::vector<std::vector<double>> grid_node_values(const HostView<Real***>& v, const std::vector<double>& lgl_nodes,
                                                  const mesh::LocalMesh& mesh) {
  std::vector<double> targets;
  const ElementGrid grid(lgl_nodes, mesh, targets);
  const int n1 = grid.n1, nodes = n1 * n1 * n1, count = static_cast<int>(v.extent(1));
  // Linear between neighbouring nodes: the values need not be smooth (an eddy viscosity
  // is 0 wherever the flow is stable), and the Lagrange polynomial through them would
  // over- and undershoot (a negative nu_t between nodes).
  std::vector<double> M(n1 * n1, 0.0);
  for (int p = 0; p < n1; ++p) {
    int i = 0;
    while (i + 2 < n1 && lgl_nodes[i + 1] < targets[p]) ++i;
    const double s = (targets[p] - lgl_nodes[i]) / (lgl_nodes[i + 1] - lgl_nodes[i]);
    M[p * n1 + i] = 1 - s, M[p * n1 + i + 1] = s;
  }
  std::vector<std::vector<double>> out(count, std::vector<double>(grid.points(), 0.0));
  std::vector<double> in(nodes), values(nodes);
  for (int e = 0; e < mesh.element_count(); ++e)
    for (int c = 0; c < count; ++c) {
      for (int n = 0; n < nodes; ++n) in[n] = v(e, c, n);
      interpolate(M, n1, in.data(), values.data());
      for (int n = 0; n < nodes; ++n) out[c][grid.at(e, n)] = values[n];
    }
  return out;
}

void write_field_file(const std::string& path, const physics::VariableInfo& info, const GridValues& g, double time,
                      int order, MPI_Comm comm, const std::string& case_name, const std::string& time_units) {
  io::FieldGrid grid;
  grid.axes = g.axes;
  grid.start = g.start;
  grid.count = g.size;
  grid.altitude = g.altitude.empty() ? nullptr : g.altitude.data();
  grid.surface = g.surface.empty() ? nullptr : g.surface.data();
  std::vector<io::FieldVariable> variables;
  for (std::size_t f = 0; f < info.derived.size(); ++f) {
    const physics::FieldInfo& d = info.derived[f];
    variables.push_back({d.name, d.long_name, d.standard_name, d.units, g.field[f].data()});
  }
  io::write_fields(path, comm, grid, time, time_units, variables,
                   {{"Conventions", "CF-1.8"},
                    {"title", "Squall " + case_name},
                    {"source", std::string("squall ") + version},
                    {"comment", "DG solution of order " + std::to_string(order) + " interpolated to the centres of " +
                                    std::to_string(order + 1) + " equal sub-cells per element and direction"}});
}

}  // namespace squall
