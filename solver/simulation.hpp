#pragma once
/// The time loop of one DG run at compile-time order N: set up the case, integrate,
/// write fields and diagnostics at output times, stop on a non-physical state, and fill
/// the run summary. Instantiated for N = 1..8 in solver/simulation_order*.cpp.
#include <mpi.h>

#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/timers.hpp"
#include "io/summary.hpp"
#include "mesh/local_mesh.hpp"
#include "solver/case.hpp"

namespace squall {

/// A member of a batch (squall ensemble --batch): what it has of its own.
struct BatchMember {
  const Config* config;
  std::string output_dir;
  io::RunSummary* summary;
  std::string restart_path;  ///< checkpoint to continue from ("" for a new run)
  std::string failure;       ///< set when the member failed (the batch went on without it)
};

struct RunContext {
  const Config& config;  ///< a batch: its first member's (time.* and output.* are every member's)
  const CaseInfo& case_info;
  std::string output_dir;
  MPI_Comm comm;
  const mesh::LocalMesh& mesh;
  Timers& timers;
  io::RunSummary& summary;
  std::string restart_path;  ///< checkpoint to continue from ("" for a new run)
  /// A batch: its members and the mesh of all their elements (mesh is one member's);
  /// output_dir, summary and restart_path above are unused then.
  std::vector<BatchMember>* batch = nullptr;
  const mesh::LocalMesh* batch_mesh = nullptr;
};

template <int N>
void run_dg(const RunContext& ctx);

extern template void run_dg<1>(const RunContext&);
extern template void run_dg<2>(const RunContext&);
extern template void run_dg<3>(const RunContext&);
extern template void run_dg<4>(const RunContext&);
extern template void run_dg<5>(const RunContext&);
extern template void run_dg<6>(const RunContext&);
extern template void run_dg<7>(const RunContext&);
extern template void run_dg<8>(const RunContext&);

}  // namespace squall
