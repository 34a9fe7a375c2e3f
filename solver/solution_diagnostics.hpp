#pragma once
/// Global quantities of a solution, computed at output times from host copies:
/// integrals with the DG quadrature (reproducible sums), error norms against an exact
/// solution, and a checksum of the state that does not depend on the partition.
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "solver/case.hpp"

namespace squall {

/// Quadrature weight of each volume node (w_i w_j w_k) times its element's Jacobian.
/// On curved elements the Jacobian is that of each node.
struct NodeWeights {
  std::vector<double> w;         ///< w_i w_j w_k of each node
  std::vector<double> jacobian;  ///< of each local element
  std::vector<double> node_jacobian;  ///< curved elements: of node n of element e at e * w.size() + n
  double at(std::size_t e, std::size_t n) const {
    return node_jacobian.empty() ? w[n] * jacobian[e] : w[n] * node_jacobian[e * w.size() + n];
  }
};

NodeWeights node_weights(const std::vector<double>& lgl_weights, const std::vector<double>& jacobian,
                         const std::vector<double>& node_jacobian = {});

/// Integrals over the domain of the state variables `conserved` (the equation set's
/// conserved quantities: mass, total energy, tracer masses), identical bits on any rank
/// count.
std::vector<double> conserved_integrals(const HostSolution& s, const std::vector<int>& conserved,
                                        const NodeWeights& weights, MPI_Comm comm);

/// L2 (sqrt of the domain mean of the squared error) and Linf error of each conservative
/// variable; `volume` is the domain volume. An empty `exact` (no data) measures q itself,
/// as against an exact solution of zeros.
void error_norms(const HostView<Real***>& q, const HostView<Real***>& exact, const NodeWeights& weights,
                 double volume, MPI_Comm comm, std::vector<double>& l2, std::vector<double>& linf);

/// Hex digest of the state: a 64-bit hash of each element's bytes seeded with its global
/// id, combined by XOR over elements, so it depends on the values and global numbering
/// only, not on which rank holds what.
std::string state_checksum(const HostSolution& s, MPI_Comm comm);

}  // namespace squall
