#pragma once
/// The time loop of one DG run at compile-time order N: set up the case, integrate,
/// write fields and diagnostics at output times, stop on a non-physical state, and fill
/// the run summary. Instantiated for N = 1..8 in solver/simulation_order*.cpp.
#include <mpi.h>

#include <string>

#include "core/config.hpp"
#include "core/timers.hpp"
#include "io/summary.hpp"
#include "mesh/local_mesh.hpp"
#include "solver/case.hpp"

namespace squall {

struct RunContext {
  const Config& config;
  const CaseInfo& case_info;
  std::string output_dir;
  MPI_Comm comm;
  const mesh::LocalMesh& mesh;
  Timers& timers;
  io::RunSummary& summary;
  std::string restart_path;  ///< checkpoint to continue from ("" for a new run)
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
