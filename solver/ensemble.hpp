#pragma once
/// `squall ensemble`: the ranks form groups of ranks_per_member ranks that run side by
/// side, each group its share of the members one after another, each member exactly as
/// `squall run` runs its config (the same state_checksum, any rank count), into
/// <ensemble output>/member_NNN with its own fields, profiles, diagnostics, checkpoints
/// and summary.json; a member that fails is reported and the others go on. The
/// ensemble's record is <ensemble output>/ensemble_summary.json (per-member status,
/// checksum, wall time and cost), rewritten after every member. docs/ensembles.md.
#include <mpi.h>

#include <string>
#include <vector>

#include "core/config.hpp"
#include "io/ensemble_file.hpp"
#include "solver/case.hpp"

namespace squall {

/// A validated ensemble: its file, one config per member (the base config with the
/// common and the member's overrides) and the members' shared case.
struct EnsemblePlan {
  io::EnsembleSpec spec;
  std::vector<Config> configs;
  const CaseInfo* case_info = nullptr;
  std::string output_dir;
  int ranks_per_member = 1;  ///< ranks of one member (a divisor of the rank count)
  bool batch = false;        ///< each group runs its members as one batch (run_batch)
  int batch_members = 0;     ///< at most this many members per batch (0: a group's all)
};

/// Keys a member of a batch may set to its own value: its initial perturbation, C_s, its
/// surface numbers, the forcing's and the radiation's values, its time steps, end and
/// output times.
bool batch_may_differ(const std::string& key);

/// InputError, naming the file, the member and the key, unless the members can run as one
/// batch: they differ in no key but those batch_may_differ allows, the forcing (and its
/// subsidence, and the radiation's diagnosed inversion) is on for all of them or for none.
void check_batch(const EnsemblePlan& plan);

/// Ranks per member: `requested` when > 0 (InputError unless it divides `ranks`), else
/// the fewest that still divide the ranks into at most `members` groups (whole members
/// per rank when there are at least as many members as ranks).
int ranks_per_member(int ranks, int members, int requested);

/// Runs the members (collective over `comm`; member m on group m modulo the groups). With `restart_latest`, members that ended
/// (done or failed) are kept as they are, a member with checkpoints continues from its
/// newest and the others start. A stop signal ends the member running with a checkpoint
/// and starts no other. Returns the exit status: 0 when every member that ran is done
/// (or stopped by a signal), 1 when one failed.
int run_ensemble(const EnsemblePlan& plan, MPI_Comm comm, bool restart_latest);

}  // namespace squall
