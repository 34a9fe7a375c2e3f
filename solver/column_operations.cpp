#include "solver/column_operations.hpp"

#include <algorithm>

#include "core/error.hpp"
#include "core/parallel_env.hpp"

namespace squall::dg {

void column_integration_matrices(int N, std::vector<double>& up, std::vector<double>& down) {
  const int n1 = N + 1;
  std::vector<double> nodes, weights;
  lgl_nodes_weights(N, nodes, weights);
  up.assign(static_cast<size_t>(n1) * n1, 0.0);
  down.assign(static_cast<size_t>(n1) * n1, 0.0);
  for (int k = 0; k < n1; ++k) {
    // LGL quadrature on [-1, x_k] and on [x_k, 1].
    const double below = (nodes[k] + 1) / 2, above = (1 - nodes[k]) / 2;
    std::vector<double> lower(n1), upper(n1);
    for (int q = 0; q < n1; ++q) {
      lower[q] = -1 + below * (nodes[q] + 1);
      upper[q] = nodes[k] + above * (nodes[q] + 1);
    }
    const auto l = lagrange_matrix(nodes, lower), u = lagrange_matrix(nodes, upper);
    for (int j = 0; j < n1; ++j) {
      double a = 0, b = 0;
      for (int q = 0; q < n1; ++q) a += weights[q] * l[q * n1 + j], b += weights[q] * u[q * n1 + j];
      up[k * n1 + j] = below * a;
      down[k * n1 + j] = above * b;
    }
  }
  for (int j = 0; j < n1; ++j) {
    up[j] = 0, up[N * n1 + j] = weights[j];
    down[j] = weights[j], down[N * n1 + j] = 0;
  }
}

ColumnLayout::ColumnLayout(const mesh::LocalMesh& mesh, MPI_Comm comm) {
  const int nx = mesh.element_end(0) - mesh.element_begin(0), ny = mesh.element_end(1) - mesh.element_begin(1);
  members_ = mesh.members();
  columns_ = nx * ny * members_;  // every member's (ColumnIndex)
  local_levels_ = mesh.element_end(2) - mesh.element_begin(2);
  first_level_ = mesh.element_begin(2);
  // The ranks that own the same x and y blocks, ordered by their first level.
  const int colour = mesh.element_begin(0) + mesh.brick().elements()[0] * mesh.element_begin(1);
  MPI_Comm_split(comm, colour, first_level_, &column_comm_);
  column_ranks_ = comm_size(column_comm_);
  rank_levels_.resize(column_ranks_);
  rank_first_level_.resize(column_ranks_);
  MPI_Allgather(&local_levels_, 1, MPI_INT, rank_levels_.data(), 1, MPI_INT, column_comm_);
  MPI_Allgather(&first_level_, 1, MPI_INT, rank_first_level_.data(), 1, MPI_INT, column_comm_);
  levels_ = 0;
  for (int r = 0; r < column_ranks_; ++r) {
    if (rank_first_level_[r] != levels_)
      throw RunError("column operations: the ranks of a column do not hold contiguous levels");
    levels_ += rank_levels_[r];
  }
}

ColumnLayout::~ColumnLayout() {
  if (column_comm_ != MPI_COMM_NULL) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&column_comm_);
  }
}

void ColumnLayout::gather_levels(const HostView<Real***>& local, const HostView<Real***>& all) const {
  const int nk = static_cast<int>(local.extent(2));
  // Each rank's block is (column, its levels, k), contiguous; gathered rank after rank.
  std::vector<int> counts(column_ranks_), displs(column_ranks_);
  for (int r = 0, offset = 0; r < column_ranks_; ++r) {
    counts[r] = columns_ * rank_levels_[r] * nk;
    displs[r] = offset;
    offset += counts[r];
  }
  std::vector<Real> gathered(static_cast<size_t>(columns_) * levels_ * nk);
  MPI_Allgatherv(local.data(), counts[comm_rank(column_comm_)], MPI_DOUBLE, gathered.data(), counts.data(),
                 displs.data(), MPI_DOUBLE, column_comm_);
  for (int r = 0; r < column_ranks_; ++r)
    for (int c = 0; c < columns_; ++c)
      for (int l = 0; l < rank_levels_[r]; ++l)
        for (int k = 0; k < nk; ++k)
          all(c, rank_first_level_[r] + l, k) =
              gathered[static_cast<size_t>(displs[r]) + (static_cast<size_t>(c) * rank_levels_[r] + l) * nk + k];
}

void ColumnLayout::max_over_column(const HostView<Real**>& v) const {
  MPI_Allreduce(MPI_IN_PLACE, v.data(), static_cast<int>(v.size()), MPI_DOUBLE, MPI_MAX, column_comm_);
}

}  // namespace squall::dg
