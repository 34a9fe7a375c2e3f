#pragma once
/// The simulation driver: from a validated Config to a finished run and its
/// summary.json. Collective over `comm`; errors are thrown (InputError for problems with
/// the input discovered here, RunError otherwise) for the caller to agree on.
#include <mpi.h>

#include <string>

#include "core/config.hpp"
#include "solver/case.hpp"

namespace squall {

/// Checks what can only be checked with the rank count (the mesh splits over the ranks).
void check_config_for_ranks(const Config& config, int ranks);

/// Runs `config` for `case_info`, writing into `output_dir`; with `restart` (a
/// checkpoint path, or "latest" for the newest in output_dir) continues from it.
/// Returns when summary.json is written.
void run_simulation(const Config& config, const CaseInfo& case_info, const std::string& output_dir,
                    MPI_Comm comm, const std::string& restart = "");

}  // namespace squall
