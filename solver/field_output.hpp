#pragma once
/// The solution on a rectilinear grid: interpolated from the LGL nodes to N+1 equispaced
/// points per element and direction (the centres of N+1 equal sub-cells, so no point is
/// duplicated on element faces and the grid is uniform). Used for fields_NNNNNN.nc (the
/// equation set's derived fields: rho, u, v, w, theta, p, T) and for the horizontal
/// means of profiles.nc.
#include <mpi.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "mesh/local_mesh.hpp"
#include "solver/case.hpp"

namespace squall {

/// The derived fields of the equation set (physics::VariableInfo::derived: the dry ones,
/// indexed by dg::Equations::Derived, then the tracers') on this rank's block of the
/// global grid.
struct GridValues {
  using Field = dg::Equations::Derived;
  std::array<std::vector<double>, 3> axes;  ///< global grid coordinates along x, y, z
  std::array<std::size_t, 3> start{};       ///< this rank's first point along x, y, z
  std::array<std::size_t, 3> size{};        ///< this rank's points along x, y, z
  std::vector<std::vector<double>> field;   ///< each: point i + sx (j + sy k)
  /// Curved elements (terrain): the axes are those of the flat brick, z the
  /// terrain-following coordinate; `altitude` holds the height of every point (indexed as
  /// `field`) and `surface` the terrain's height under every column (i + sx j) where this
  /// rank holds the bottom layer (else empty). Both empty on a brick.
  std::vector<double> altitude;
  std::vector<double> surface;
};

/// The derived fields of one point from its conservative state and geopotential.
using DeriveFields = std::function<void(const double* state, double phi, double* out)>;

GridValues grid_values(const physics::VariableInfo& info, const DeriveFields& derive, const HostSolution& s,
                       const std::vector<double>& lgl_nodes, const mesh::LocalMesh& mesh);

/// Values at the LGL nodes, v(element, quantity, node), interpolated to the same grid
/// points as grid_values, linearly between neighbouring nodes in each direction (no
/// overshoot: values that are non-negative at the nodes stay so): one vector per
/// quantity, indexed as GridValues::field.
std::vector<std::vector<double>> grid_node_values(const HostView<Real***>& v, const std::vector<double>& lgl_nodes,
                                                  const mesh::LocalMesh& mesh);

/// `time_units`: "seconds since <output.start_date>".
void write_field_file(const std::string& path, const physics::VariableInfo& info, const GridValues& g, double time,
                      int order, MPI_Comm comm, const std::string& case_name, const std::string& time_units);

}  // namespace squall
