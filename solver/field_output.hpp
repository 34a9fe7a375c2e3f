#pragma once
/// fields_NNNNNN.nc: the solution interpolated from the LGL nodes to N+1 equispaced
/// points per element and direction (the centres of N+1 equal sub-cells, so no point is
/// duplicated on element faces and the global grid is rectilinear and uniform), with
/// rho, u, v, w, theta, p, T.
#include <mpi.h>

#include <string>
#include <vector>

#include "mesh/local_mesh.hpp"
#include "solver/case.hpp"

namespace squall {

void write_field_file(const std::string& path, const HostSolution& s, const std::vector<double>& lgl_nodes,
                      const mesh::LocalMesh& mesh, MPI_Comm comm, const std::string& case_name);

}  // namespace squall
