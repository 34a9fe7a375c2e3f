#pragma once
/// summary.json: the machine-readable record of a run (DESIGN.md §8) that scripts and
/// tests read. Written by rank 0 at the end of every run, atomically.
#include <array>
#include <string>
#include <vector>

#include "core/timers.hpp"

namespace squall::io {

struct RunSummary {
  std::string case_name;
  std::string config_file;
  std::string version;
  std::string backend;  ///< Kokkos execution space
  int ranks = 1;
  std::array<int, 3> rank_grid{};
  int polynomial_order = 0;
  std::array<int, 3> elements{};
  long long dof = 0;
  long steps = 0;
  long timed_steps = 0;  ///< steps after time.warmup_steps: those wall_seconds measures
  int rk_stages = 0;
  double final_time = 0;
  double wall_seconds = 0;  ///< time loop only
  std::array<long long, 3> face_counts{};  ///< interior, boundary, MPI (MPI faces counted once)
  long long peak_rss_bytes = 0;           ///< peak resident memory, summed over ranks
  long long peak_rss_bytes_max_rank = 0;  ///< the largest of one rank
  std::vector<TimerSummary> timers;
  std::string note;  ///< free text, e.g. what the run did not do

  bool has_solution = false;  ///< conservation and checksum below are meaningful
  double mass_relative_change = 0;
  double total_energy_relative_change = 0;
  double mass_budget_residual = 0;
  double energy_budget_residual = 0;
  /// The ledger of further conserved quantities (tracer masses), by key.
  std::vector<std::pair<std::string, double>> other_conservation;
  std::string state_checksum;
  /// Domain-mean L2 norm of each conservative variable (regression tests compare them),
  /// with the variables' names.
  std::vector<std::string> state_variables;
  std::vector<double> state_l2;
  /// Errors against the exact solution (empty without one): variable names and norms.
  std::vector<std::string> error_variables;
  std::vector<double> l2_errors, linf_errors;
  std::vector<std::pair<std::string, double>> case_diagnostics;
  int stop_signal = 0;         ///< the signal that stopped the run early (0: none)
  std::string restarted_from;  ///< checkpoint the run continued from ("" if none)
  /// A member of an ensemble (squall ensemble): its index (-1: a run of its own), the
  /// ensemble file and the member's own overrides.
  int member_index = -1;
  std::string ensemble_file;
  std::vector<std::string> member_overrides;
  /// Run in a batch of this many members (squall ensemble --batch; 0: not batched); the
  /// wall time and timers are then the batch's.
  int batch_members = 0;
};

/// Writes `dir`/summary.json (atomically); RunError naming the file on failure.
void write_summary(const std::string& dir, const RunSummary& summary);

}  // namespace squall::io
