#pragma once
// Definition of run_dg<N>; included only by the solver/simulation_order*.cpp files.
#include <climits>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "io/csv_writer.hpp"
#include "solver/dg_operator.hpp"
#include "solver/field_output.hpp"
#include "solver/simulation.hpp"
#include "solver/solution_diagnostics.hpp"

namespace squall {
namespace detail {

std::string format_duration(double seconds);
std::string field_file_name(int index);

/// Throws RunError on every rank when any node holds a non-physical state (NaN/Inf,
/// non-positive density or temperature), naming the step, time, rank, element and node.
template <int N>
void check_physical(const dg::StateView& q, const dg::AuxView& aux, const dg::CoordView& x,
                    const mesh::LocalMesh& mesh, long step, double t, MPI_Comm comm) {
  using L = dg::Layout<N>;
  const long local = parallel_first("solver::check_state", mesh.element_count(), L::nodes,
                                    KOKKOS_LAMBDA(const int e, const int n) {
                                      return !physics::is_physical(dg::load(q, e, n), aux(e, 2, n));
                                    });
  long long global_id = local < 0 ? -1 : static_cast<long long>(mesh.global_element(local / L::nodes)) * L::nodes + local % L::nodes;
  long long candidate = global_id < 0 ? LLONG_MAX : global_id, first = 0;
  MPI_Allreduce(&candidate, &first, 1, MPI_LONG_LONG, MPI_MIN, comm);
  if (first == LLONG_MAX) return;
  const CollectiveOutcome outcome = collective(comm, [&] {
    if (global_id != first) return;
    const int e = static_cast<int>(local / L::nodes), n = static_cast<int>(local % L::nodes);
    auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(q, e, Kokkos::ALL, n));
    auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(x, e, Kokkos::ALL, n));
    const auto c = mesh.brick().element_coords(mesh.global_element(e));
    char text[512];
    std::snprintf(text, sizeof text,
                  "non-physical state at step %ld, t = %.9g s: element (%d, %d, %d), node %d at "
                  "(%.6g, %.6g, %.6g) m on rank %d: rho = %.6g, rho u = (%.6g, %.6g, %.6g), rho e = %.9g "
                  "(NaN/Inf, or density or temperature <= 0); try a smaller time.cfl",
                  step, t, c[0], c[1], c[2], n, xh(0), xh(1), xh(2), mesh.rank(), qh(0), qh(1), qh(2),
                  qh(3), qh(4));
    throw RunError(text);
  });
  throw RunError(outcome.message);
}

/// Largest |u_d| + c over all nodes, directions and ranks (a maximum is exact, hence
/// reproducible).
template <int N>
Real max_wave_speed(const dg::StateView& q, const dg::AuxView& aux, MPI_Comm comm) {
  using L = dg::Layout<N>;
  const Real local = parallel_max("solver::max_wave_speed", static_cast<int>(q.extent(0)), L::nodes,
                                  KOKKOS_LAMBDA(const int e, const int n) {
                                    const physics::Prim w = physics::primitive(dg::load(q, e, n), aux(e, 2, n));
                                    Real m = 0;
                                    for (int d = 0; d < 3; ++d) m = math::max(m, physics::max_wave_speed(w, d));
                                    return m;
                                  });
  Real global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

}  // namespace detail

template <int N>
void run_dg(const RunContext& ctx) {
  using L = dg::Layout<N>;
  const Config& config = ctx.config;
  const MPI_Comm comm = ctx.comm;
  const mesh::LocalMesh& mesh = ctx.mesh;
  const int rank = comm_rank(comm);
  const int elements = mesh.element_count();

  // Setup: basis, geometry, case, operator, integrator.
  const auto basis = dg::Basis<N>::make();
  const dg::Geometry geometry = dg::make_geometry<N>(mesh, basis);
  const std::unique_ptr<Case> the_case = ctx.case_info.make(config);
  const Real gravity = the_case->gravity();
  FlatView q_flat("dg::state", static_cast<std::size_t>(elements) * physics::nvar * L::nodes);
  const dg::StateView q(q_flat.data(), elements, physics::nvar, L::nodes);
  const dg::AuxView aux("dg::aux", elements, physics::naux, L::nodes);
  the_case->initialize(geometry.x, q, aux);
  dg::DgOperator<N> rhs(mesh, basis, geometry, aux, gravity, comm, ctx.timers,
                        config.dg.volume_flux == "kennedy_gruber");
  TimeIntegrator integrator(config.time.integrator, rhs.state_size());

  // Host copies for output and diagnostics (copied only at output times).
  HostSolution host;
  host.q = HostView<Real***>("host::state", elements, physics::nvar, L::nodes);
  host.aux = HostView<Real***>("host::aux", elements, physics::naux, L::nodes);
  host.x = HostView<Real***>("host::coordinates", elements, 3, L::nodes);
  host.global_elements = mesh.global_elements();
  Kokkos::deep_copy(host.aux, aux);
  Kokkos::deep_copy(host.x, geometry.x);
  const NodeWeights weights = node_weights(std::vector<double>(basis.w, basis.w + L::n1), geometry.jacobian);
  const std::vector<double> lgl_nodes(basis.x, basis.x + L::n1);

  const auto copy_to_host = [&](double t) {
    Kokkos::deep_copy(host.q, q);
    host.time = t;
  };
  copy_to_host(0.0);
  const auto initial = mass_and_energy(host, weights, comm);
  detail::check_physical<N>(q, aux, geometry.x, mesh, 0, 0.0, comm);

  io::CsvWriter csv;
  if (rank == 0)
    csv = io::CsvWriter(ctx.output_dir + "/diagnostics.csv",
                        {"time", "step", "dt", "mass", "total_energy", "mass_relative_change",
                         "total_energy_relative_change", "mass_budget_residual", "energy_budget_residual",
                         "max_speed", "max_cfl", "wall_seconds"});

  const Real min_spacing = geometry.min_node_spacing;
  const auto max_wave_speed = [&]() { return detail::max_wave_speed<N>(q, aux, comm); };

  double t = 0, dt = 0, loop_start = MPI_Wtime();
  long step = 0;
  int output_index = 0;
  double last_output_time = -1;

  // Diagnostics row and (optionally) a field file of the current state. The ledger's
  // boundary and source terms are zero: walls are impenetrable and adiabatic and no
  // case has mass or energy sources yet, so the budget residual is the change itself.
  const auto output = [&](bool fields) {
    ScopedTimer timer(ctx.timers, "output");
    copy_to_host(t);
    const auto now = mass_and_energy(host, weights, comm);
    const double mass_change = (now[0] - initial[0]) / initial[0];
    const double energy_change = (now[1] - initial[1]) / initial[1];
    double speed_local = 0;
    for (int e = 0; e < elements; ++e)
      for (int n = 0; n < L::nodes; ++n) {
        double s2 = 0;
        for (int d = 0; d < 3; ++d) s2 += std::pow(host.q(e, physics::i_rhou + d, n), 2);
        speed_local = std::max(speed_local, std::sqrt(s2) / host.q(e, physics::i_rho, n));
      }
    double max_speed = 0;
    MPI_Allreduce(&speed_local, &max_speed, 1, MPI_DOUBLE, MPI_MAX, comm);
    const double cfl = dt * max_wave_speed() / min_spacing;
    if (rank == 0)
      csv.row({t, double(step), dt, now[0], now[1], mass_change, energy_change, mass_change, energy_change,
               max_speed, cfl, MPI_Wtime() - loop_start});
    if (fields) {
      write_field_file(ctx.output_dir + "/" + detail::field_file_name(output_index++), host, lgl_nodes, mesh,
                       comm, ctx.case_info.name);
      last_output_time = t;
    }
  };

  const double end_time = config.time.end_time;
  const double interval = config.output.interval;
  double next_output = interval > 0 ? interval : end_time;
  output(true);
  log::info("time loop: end_time = " + std::to_string(end_time) + " s, " + integrator.name() + ", " +
            (config.time.dt > 0 ? "fixed dt = " + std::to_string(config.time.dt) + " s"
                                : "cfl = " + std::to_string(config.time.cfl)));

  loop_start = MPI_Wtime();
  double last_print = loop_start;
  double output_seconds_before = ctx.timers.seconds("output");
  const long warmup = config.time.warmup_steps;
  while (t < end_time && (config.time.max_steps == 0 || step < config.time.max_steps)) {
    if (warmup > 0 && step == warmup) {  // benchmarks: time from here on
      Kokkos::fence();
      ctx.timers.clear();
      output_seconds_before = 0;
      loop_start = MPI_Wtime();
    }
    dt = config.time.dt > 0 ? config.time.dt : config.time.cfl * min_spacing / max_wave_speed();
    bool at_output = false;
    if (t + dt >= next_output * (1 - 1e-14)) {  // land on the output time exactly
      dt = next_output - t;
      at_output = true;
    }
    integrator.step(rhs, t, dt, q_flat);
    ++step;
    t = at_output ? next_output : t + dt;
    detail::check_physical<N>(q, aux, geometry.x, mesh, step, t, comm);
    if (at_output) {
      output(true);
      next_output = std::min(end_time, next_output + (interval > 0 ? interval : end_time));
    }
    const double now = MPI_Wtime();
    if (now - last_print > 5.0 || at_output) {
      const double elapsed = now - loop_start;
      const double eta = t > 0 ? elapsed * (end_time - t) / t : 0;
      char line[256];
      std::snprintf(line, sizeof line, "step %6ld  t = %-10.6g s  dt = %-9.3g s  wall %s  ETA %s", step, t, dt,
                    detail::format_duration(elapsed).c_str(), detail::format_duration(eta).c_str());
      log::info(line);
      last_print = now;
    }
  }
  const double loop_seconds = MPI_Wtime() - loop_start - (ctx.timers.seconds("output") - output_seconds_before);
  if (t != last_output_time) output(true);

  // Summary.
  io::RunSummary& s = ctx.summary;
  copy_to_host(t);
  const auto final_integrals = mass_and_energy(host, weights, comm);
  s.steps = step;
  s.timed_steps = step > warmup ? step - warmup : 0;
  s.rk_stages = integrator.stages();
  s.final_time = t;
  s.wall_seconds = loop_seconds;
  s.has_solution = true;
  s.mass_relative_change = (final_integrals[0] - initial[0]) / initial[0];
  s.total_energy_relative_change = (final_integrals[1] - initial[1]) / initial[1];
  s.mass_budget_residual = s.mass_relative_change;
  s.energy_budget_residual = s.total_energy_relative_change;
  s.state_checksum = state_checksum(host, comm);
  double volume = 1;
  for (int d = 0; d < 3; ++d) volume *= config.mesh.domain[d][1] - config.mesh.domain[d][0];
  {
    std::vector<double> ignored;
    const HostView<Real***> zero("host::zero", elements, physics::nvar, L::nodes);
    error_norms(host.q, zero, weights, volume, comm, s.state_l2, ignored);
  }
  if (the_case->has_exact_solution()) {
    const dg::StateView exact("dg::exact", elements, physics::nvar, L::nodes);
    the_case->exact_solution(t, geometry.x, exact);
    auto exact_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), exact);
    s.error_variables = conservative_names();
    error_norms(host.q, exact_host, weights, volume, comm, s.l2_errors, s.linf_errors);
  }
  for (const auto& d : the_case->diagnostics(host, comm)) s.case_diagnostics.emplace_back(d.name, d.value);
  s.note.clear();
}

}  // namespace squall
