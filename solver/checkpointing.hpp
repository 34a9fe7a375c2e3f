#pragma once
/// Checkpoints of a DG run: what is saved besides the state, how a rank's block maps to
/// the file, and the checks a restart makes before it trusts a file.
#include <mpi.h>

#include <string>
#include <vector>

#include "core/config.hpp"
#include "mesh/local_mesh.hpp"
#include "physics/dry_air.hpp"
#include "solver/case.hpp"

namespace squall {

/// Where a run is: enough, with the state, to continue it bit for bit.
struct RunState {
  double t = 0;
  long step = 0;
  long output_count = 0;  ///< interval outputs written so far
  double dt = 0;
  /// Per conserved quantity of the equation set (mass, energy, tracer masses): its
  /// integral at t = 0, and what entered through the walls since (time integral of the
  /// boundary rates, with the integrator's weights).
  std::vector<double> initial, boundary_inflow;
  std::vector<double> case_state;  ///< Case::saved_state()
  double max_diffusivity = 0;  ///< largest nu + nu_t of the last stage, for the next dt
  /// Time of the newest diagnostics row and profile record that the output schedule
  /// wrote; the records a run writes when it stops between output times (max_steps, a
  /// signal) come after it. A restart drops every record after this time, so that the
  /// files continue as the uninterrupted run wrote them.
  double records_time = 0;
};

/// Writes host.q as checkpoint_<step>.h5 in `dir` and keeps the newest
/// output.checkpoint_keep. Collective. Returns the path.
std::string save_checkpoint(const std::string& dir, MPI_Comm comm, const Config& config, const std::string& case_name,
                            const mesh::LocalMesh& mesh, const physics::VariableInfo& info,
                            const HostSolution& host, const RunState& state);

/// Reads `path` into host.q after checking it belongs to this configuration (case, order,
/// mesh, domain, periodicity) and that the data match their checksum. Collective;
/// InputError (exit status 2) when the file is refused.
RunState load_checkpoint(const std::string& path, MPI_Comm comm, const Config& config, const std::string& case_name,
                         const mesh::LocalMesh& mesh, const physics::VariableInfo& info, std::size_t case_values,
                         HostSolution& host);

/// A run that starts at `start_step`, from the checkpoint `restart_path` or ("") from its
/// initial state, moves the checkpoints in `dir` with a later step (all of them for a
/// fresh run), left by an earlier or abandoned run, into dir/superseded_checkpoints and
/// says so: otherwise they would outrank the new run's own checkpoints in pruning and in
/// `--restart latest`. Collective; RunError when they cannot be moved.
/// Field files of times after `t` (the run's starting time: 0 for a fresh run), or that
/// cannot be read, were written by an earlier run or by the abandoned part of the run
/// being restarted; this run would overwrite only those it reaches again under the same
/// numbers. Moves them into dir/superseded_fields (which keeps only the last set moved
/// there) and says so. Collective; RunError when they cannot be moved.
void set_aside_later_fields(const std::string& dir, MPI_Comm comm, double t);

void set_aside_later_checkpoints(const std::string& dir, MPI_Comm comm, long start_step,
                                 const std::string& restart_path);

/// A restart's first act on the output files: drops the rows of `csv_path` and the
/// records of `profiles_path` after `records_time` (RunState::records_time of the
/// checkpoint), which an interrupted run wrote after its checkpoint or when it stopped,
/// and says how many. Rank 0 edits the files; collective; RunError when it cannot.
void drop_later_records(const std::string& csv_path, const std::string& profiles_path, double records_time,
                        MPI_Comm comm);

}  // namespace squall
