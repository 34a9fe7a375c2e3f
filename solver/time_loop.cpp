#include "solver/time_loop.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace squall {
namespace detail {
std::string format_duration(double seconds);
}

Ledger ledger(const RunState& run, const std::vector<double>& now) {
  const std::size_t nc = now.size();
  Ledger l{std::vector<double>(nc), std::vector<double>(nc)};
  for (std::size_t c = 0; c < nc; ++c) {
    const double scale = run.initial[c] != 0 ? run.initial[c] : 1.0;
    l.change[c] = (now[c] - run.initial[c]) / scale;
    l.residual[c] = (now[c] - run.initial[c] - run.boundary_inflow[c]) / scale;
  }
  return l;
}

void set_conservation(io::RunSummary& s, const physics::VariableInfo& info, const Ledger& l) {
  for (std::size_t c = 0; c < l.change.size(); ++c) {
    const std::string& name = info.budget_names[c];
    if (name == "mass") {
      s.mass_relative_change = l.change[c];
      s.mass_budget_residual = l.residual[c];
    } else if (name == "energy") {
      s.total_energy_relative_change = l.change[c];
      s.energy_budget_residual = l.residual[c];
    } else {  // tracers: <name>_mass_relative_change, <name>_mass_budget_residual
      s.other_conservation.emplace_back(info.conserved_names[c] + "_relative_change", l.change[c]);
      s.other_conservation.emplace_back(name + "_budget_residual", l.residual[c]);
    }
  }
}

Schedule::Schedule(const Config& config)
    : end_time(config.time.end_time),
      interval(config.output.interval),
      profiles_interval(config.output.profiles_interval),
      checkpoint_interval(config.output.checkpoint_interval),
      checkpoint_steps(config.output.checkpoint_steps) {}

double Schedule::next_output_time(const RunState& run) const {
  return interval > 0 ? std::min(end_time, (run.output_count + 1) * interval) : end_time;
}

bool Schedule::profiles_due(const RunState& run, double t_before) const {
  const double pi = profiles_interval;
  return pi > 0 && std::floor(run.t / pi) > std::floor(t_before / pi);
}

bool Schedule::checkpoint_due(const RunState& run, double t_before) const {
  const double ci = checkpoint_interval;
  const bool by_time = ci > 0 && std::floor(run.t / ci) > std::floor(t_before / ci);
  const bool by_steps = checkpoint_steps > 0 && run.step % checkpoint_steps == 0;
  return by_time || by_steps;
}

long Schedule::field_file_at_output(RunState& run) const {
  if (interval > 0 && run.t < end_time) ++run.output_count;
  return run.t < end_time ? run.output_count : run.output_count + 1;
}

void Schedule::resume(RunState& run) const {
  if (interval <= 0) return;
  while ((run.output_count + 1) * interval <= run.t) ++run.output_count;
  while (run.output_count > 0 && run.output_count * interval > run.t) --run.output_count;
}

bool next_time_step(const Config& config, RunState& run, const std::array<Real, 2>& maxima, Real min_spacing,
                    bool evaluated, double next_output) {
  if (config.time.dt > 0) {
    run.dt = config.time.dt;
  } else {
    if (evaluated) run.max_diffusivity = maxima[1];
    run.dt = config.time.cfl * min_spacing / maxima[0];
    if (run.max_diffusivity > 0)
      run.dt = std::min(run.dt, config.time.cfl * min_spacing * min_spacing / (2 * run.max_diffusivity));
  }
  if (run.t + run.dt >= next_output * (1 - 1e-14)) {  // land on the output time exactly
    run.dt = next_output - run.t;
    return true;
  }
  return false;
}

std::vector<std::string> diagnostics_columns(const physics::VariableInfo& info, const Case& the_case) {
  std::vector<std::string> columns{"time", "step", "dt"};
  for (const auto& name : info.conserved_names) columns.push_back(name);
  for (const auto& name : info.conserved_names) columns.push_back(name + "_relative_change");
  for (const auto& name : info.budget_names) columns.push_back(name + "_budget_residual");
  for (const char* name : {"max_speed", "max_cfl", "wall_seconds"}) columns.emplace_back(name);
  for (const auto& c : the_case.time_series_columns()) columns.push_back(c);
  return columns;
}

double max_speed(const HostSolution& host, MPI_Comm comm) {
  using Eq = dg::Equations;
  double local = 0;
  for (std::size_t e = 0; e < host.q.extent(0); ++e)
    for (std::size_t n = 0; n < host.q.extent(2); ++n) {
      double s2 = 0;
      for (int d = 0; d < 3; ++d) s2 += host.q(e, Eq::i_rhou + d, n) * host.q(e, Eq::i_rhou + d, n);
      local = std::max(local, std::sqrt(s2) / host.q(e, Eq::i_rho, n));
    }
  double global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

std::string progress_line(const RunState& run, double elapsed, double eta) {
  char line[256];
  std::snprintf(line, sizeof line, "step %6ld  t = %-10.6g s  dt = %-9.3g s  wall %s  ETA %s", run.step, run.t,
                run.dt, detail::format_duration(elapsed).c_str(), detail::format_duration(eta).c_str());
  return line;
}

}  // namespace squall
