#pragma once
/// The time loop's jobs that do not depend on the order N or the equation set: when
/// outputs, profiles and checkpoints are due, the time step, the conservation ledger,
/// the diagnostics.csv row layout, the progress line and the end-of-run summary
/// numbers. run_equations (solver/simulation_impl.hpp) calls them; each is a small
/// function of the run's state.
#include <mpi.h>

#include <array>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "io/summary.hpp"
#include "physics/dry_air.hpp"
#include "solver/case.hpp"
#include "solver/checkpointing.hpp"

namespace squall {

/// The ledger at one time, per conserved quantity of the equation set (mass, energy,
/// tracers): relative change since t = 0 and budget residual.
struct Ledger {
  std::vector<double> change, residual;
};

/// Change and budget residual (change less run.boundary_inflow: what entered through the
/// walls and what sources added, integrated with the time integrator's weights) of each
/// conserved quantity whose integrals are now `now`, relative to the initial integral,
/// or absolute where that is 0 (a tracer that starts nowhere).
Ledger ledger(const RunState& run, const std::vector<double>& now);

/// The summary's conservation keys from the ledger.
void set_conservation(io::RunSummary& s, const physics::VariableInfo& info, const Ledger& l);

/// When outputs, profiles and checkpoints are due. Output times are exact multiples
/// k * interval (never accumulated sums), so a restart lands on the same times, and so
/// on the same time steps, as the uninterrupted run.
struct Schedule {
  explicit Schedule(const Config& config);
  /// The next output time after run.output_count outputs (end_time without an interval).
  double next_output_time(const RunState& run) const;
  /// Whether the step from t_before to run.t crossed a profiles time.
  bool profiles_due(const RunState& run, double t_before) const;
  /// Whether the step from t_before to run.t crossed a checkpoint time or ended a
  /// checkpoint_steps interval.
  bool checkpoint_due(const RunState& run, double t_before) const;
  /// Number of the field file written at the output time run.t reached by a step:
  /// k for the k-th interval output (counted in run), the next number at the end.
  long field_file_at_output(RunState& run) const;
  /// On a restart, where output.interval may have changed: counts the outputs as if the
  /// run had always had this interval (k-th output at k * interval), so that the next
  /// output time is after run.t. Leaves the count alone when the interval is unchanged.
  void resume(RunState& run) const;

  double end_time, interval, profiles_interval, checkpoint_interval;
  long checkpoint_steps;
};

/// The next time step (also run.dt; run.max_diffusivity from the last stage evaluated):
/// a fixed time.dt, or the acoustic limit cfl dx / max(|u| + c) and the explicit
/// diffusion limit cfl dx^2 / (2 nu_max), nu_max the largest nu + nu_t (or kappa +
/// kappa_t, D + D_t) of the last stage evaluated (kept in checkpoints, so a restart takes
/// the same steps). `maxima` = {largest wave speed, largest diffusivity}. It is then
/// shortened to land exactly on `next_output`; returns whether it does.
bool next_time_step(const Config& config, RunState& run, const std::array<Real, 2>& maxima, Real min_spacing,
                    bool evaluated, double next_output);

/// The columns of diagnostics.csv.
std::vector<std::string> diagnostics_columns(const physics::VariableInfo& info, const Case& the_case);

/// Largest |u| over the host copy of the state (all ranks).
double max_speed(const HostSolution& host, MPI_Comm comm);

/// The progress line of the terminal.
std::string progress_line(const RunState& run, double elapsed, double eta);

}  // namespace squall
