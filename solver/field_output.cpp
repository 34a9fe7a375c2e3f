#include "solver/field_output.hpp"

#include "core/version.hpp"
#include "io/netcdf_fields.hpp"
#include "physics/euler.hpp"
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

void write_field_file(const std::string& path, const HostSolution& s, const std::vector<double>& lgl_nodes,
                      const mesh::LocalMesh& mesh, MPI_Comm comm, const std::string& case_name) {
  const int n1 = static_cast<int>(lgl_nodes.size());
  std::vector<double> targets(n1);
  for (int p = 0; p < n1; ++p) targets[p] = -1.0 + (2.0 * p + 1.0) / n1;
  const std::vector<double> M = dg::lagrange_matrix(lgl_nodes, targets);

  const auto& brick = mesh.brick();
  io::FieldGrid grid;
  int local_elements[3];
  for (int d = 0; d < 3; ++d) {
    const int n = brick.elements()[d];
    const double h = brick.element_size(d), lo = brick.domain()[d][0];
    for (int e = 0; e < n; ++e)
      for (int p = 0; p < n1; ++p) grid.axes[d].push_back(lo + (e + (targets[p] + 1) / 2) * h);
    local_elements[d] = mesh.element_end(d) - mesh.element_begin(d);
    grid.start[d] = static_cast<size_t>(mesh.element_begin(d)) * n1;
    grid.count[d] = static_cast<size_t>(local_elements[d]) * n1;
  }
  const size_t points = grid.count[0] * grid.count[1] * grid.count[2];
  enum { f_rho, f_u, f_v, f_w, f_theta, f_p, f_T, n_fields };
  std::vector<std::vector<double>> fields(n_fields, std::vector<double>(points));

  const int nodes = n1 * n1 * n1;
  std::vector<double> in(nodes), out(nodes);
  std::vector<std::vector<double>> values(physics::nvar + 1, std::vector<double>(nodes));
  for (int e = 0; e < mesh.element_count(); ++e) {
    for (int v = 0; v <= physics::nvar; ++v) {  // the conservative variables and phi
      for (int n = 0; n < nodes; ++n) in[n] = v < physics::nvar ? s.q(e, v, n) : s.aux(e, 2, n);
      interpolate(M, n1, in.data(), values[v].data());
    }
    const int li = e % local_elements[0], lj = (e / local_elements[0]) % local_elements[1],
              lk = e / (local_elements[0] * local_elements[1]);
    for (int n = 0; n < nodes; ++n) {
      physics::Cons q;
      for (int v = 0; v < physics::nvar; ++v) q[v] = values[v][n];
      const physics::Prim w = physics::primitive(q, values[physics::nvar][n]);
      const size_t i = li * n1 + n % n1, j = lj * n1 + (n / n1) % n1, k = lk * n1 + n / (n1 * n1);
      const size_t at = i + grid.count[0] * (j + grid.count[1] * k);
      fields[f_rho][at] = w.rho;
      fields[f_u][at] = w.u[0];
      fields[f_v][at] = w.u[1];
      fields[f_w][at] = w.u[2];
      fields[f_theta][at] = physics::potential_temperature(w.T, w.p);
      fields[f_p][at] = w.p;
      fields[f_T][at] = w.T;
    }
  }
  const std::vector<io::FieldVariable> variables{
      {"rho", "air density", "air_density", "kg m-3", fields[f_rho].data()},
      {"u", "velocity along x", "eastward_wind", "m s-1", fields[f_u].data()},
      {"v", "velocity along y", "northward_wind", "m s-1", fields[f_v].data()},
      {"w", "velocity along z", "upward_air_velocity", "m s-1", fields[f_w].data()},
      {"theta", "potential temperature", "air_potential_temperature", "K", fields[f_theta].data()},
      {"p", "pressure", "air_pressure", "Pa", fields[f_p].data()},
      {"T", "temperature", "air_temperature", "K", fields[f_T].data()},
  };
  io::write_fields(path, comm, grid, s.time, variables,
                   {{"Conventions", "CF-1.8"},
                    {"title", "Squall " + case_name},
                    {"source", std::string("squall ") + version},
                    {"comment", "DG solution of order " + std::to_string(n1 - 1) +
                                    " interpolated to the centres of " + std::to_string(n1) +
                                    " equal sub-cells per element and direction"}});
}

}  // namespace squall
