#pragma once
/// The simulation driver: from a validated Config to a finished run and its
/// summary.json. Collective over `comm`; errors are thrown (InputError for problems with
/// the input discovered here, RunError otherwise) for the caller to agree on.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "io/summary.hpp"
#include "solver/case.hpp"

namespace squall {

/// Checks what can only be checked with the rank count (the mesh splits over the ranks).
void check_config_for_ranks(const Config& config, int ranks);

/// The memory a rank needs for its part of the mesh [bytes]: peak resident size per
/// degree of freedom measured on runs of this code (about 70 bytes per conserved variable
/// and node for the Euler equations, 125 with viscous terms, whose gradients and face
/// traces it keeps), for the largest part, plus 40 MB. An estimate, rounded up: at N = 4
/// on 8^3 and 24^3 elements the slopes measured 66 (rising bubble), 99 (Taylor-Green) and
/// 119 (BOMEX) bytes per variable and node, and the intercept 35-37 MiB.
/// With `copies`, a batch of that many members (squall ensemble --batch) on each rank.
std::uint64_t memory_per_rank(const Config& config, int variables, int ranks, int copies = 1);

/// Compares memory_per_rank times the ranks on this node (`node_ranks`) with the node's
/// memory: InputError when it exceeds the total, a warning (returned) when it exceeds
/// what is available now; "" otherwise.
std::string check_memory(const Config& config, int variables, int ranks, int node_ranks, int copies = 1);

/// Runs `config` for `case_info`, writing into `output_dir`; with `restart` (a
/// checkpoint path, or "latest" for the newest in output_dir) continues from it.
/// Returns the summary once summary.json is written. `member` (a member of an
/// ensemble) gives the summary's ensemble_member keys.
io::RunSummary run_simulation(const Config& config, const CaseInfo& case_info, const std::string& output_dir,
                              MPI_Comm comm, const std::string& restart = "", const io::RunSummary* member = nullptr);

/// A member of a batch: its config, output directory, checkpoint to continue from ("",
/// a path or "latest") and its ensemble keys (member_index, ensemble_file,
/// member_overrides).
struct BatchRun {
  const Config* config;
  std::string output_dir;
  std::string restart;
  io::RunSummary tag;
};

/// What run_batch gives of each member: its summary (in its summary.json) or, when it
/// failed while the others went on, the message (its last good state is in its newest
/// checkpoint).
struct BatchResult {
  io::RunSummary summary;
  std::string failure;
};

/// Runs the members of `runs` as one batch: one element list on each rank holding every
/// member's elements, so that each kernel launch covers them all, and each member's
/// outputs, ledger, checkpoints and summary its own, with the state_checksum it has when
/// run alone, each with its own time steps. The members must agree on everything but the
/// keys squall ensemble --batch lets them set (batch_may_differ: initial perturbations,
/// C_s, surface numbers, forcing and radiation values, time steps, end and output times;
/// docs/ensembles.md). Errors that are not one
/// member's own are thrown for all.
std::vector<BatchResult> run_batch(const std::vector<BatchRun>& runs, const CaseInfo& case_info, MPI_Comm comm);

}  // namespace squall
