#pragma once
// Definition of run_dg<N>; included only by the solver/simulation_order*.cpp files.
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "core/signals.hpp"
#include "io/csv_writer.hpp"
#include "solver/checkpointing.hpp"
#include "solver/dg_operator.hpp"
#include "solver/field_output.hpp"
#include "solver/profiles.hpp"
#include "solver/simulation.hpp"
#include "solver/solution_diagnostics.hpp"

namespace squall {

/// The ledger at one time, per conserved quantity of the equation set (mass, energy,
/// tracers): relative change since t = 0 and budget residual.
struct Ledger {
  std::vector<double> change, residual;
};

namespace detail {

std::string format_duration(double seconds);
dg::OperatorOptions operator_options(const Config& config, Real gravity);
std::string field_file_name(int index);
/// The summary's conservation keys from the ledger.
void set_conservation(io::RunSummary& s, const physics::VariableInfo& info, const Ledger& l);

/// Empty when every node holds a physical state (Eq::is_physical: finite, positive
/// density and temperature); otherwise, on every rank, a message naming the step, time,
/// rank, element and node of the first bad node in global order. Collective.
template <int N, class Eq>
std::string check_physical(const Eq& eq, const dg::StateView& q, const dg::AuxView& aux, const dg::CoordView& x,
                           const mesh::LocalMesh& mesh, long step, double t, MPI_Comm comm) {
  using L = dg::Layout<N>;
  const long local = parallel_first("solver::check_state", mesh.element_count(), L::nodes,
                                    KOKKOS_LAMBDA(const int e, const int n) {
                                      return !eq.is_physical(dg::load<Eq>(q, e, n), aux(e, Eq::a_phi, n));
                                    });
  const long long global_id =
      local < 0 ? -1 : static_cast<long long>(mesh.global_element(local / L::nodes)) * L::nodes + local % L::nodes;
  long long candidate = global_id < 0 ? LLONG_MAX : global_id, first = 0;
  MPI_Allreduce(&candidate, &first, 1, MPI_LONG_LONG, MPI_MIN, comm);
  if (first == LLONG_MAX) return {};
  const CollectiveOutcome outcome = collective(comm, [&] {
    if (global_id != first) return;
    const int e = static_cast<int>(local / L::nodes), n = static_cast<int>(local % L::nodes);
    auto qh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(q, e, Kokkos::ALL, n));
    auto xh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(x, e, Kokkos::ALL, n));
    const auto c = mesh.brick().element_coords(mesh.global_element(e));
    char text[512];
    std::snprintf(text, sizeof text,
                  "non-physical state at step %ld, t = %.9g s: element %d (%d, %d, %d), node %d at "
                  "(%.6g, %.6g, %.6g) m on rank %d: rho = %.6g, rho u = (%.6g, %.6g, %.6g), rho e = %.9g "
                  "(NaN/Inf, or density or temperature <= 0); try a smaller time.cfl",
                  step, t, mesh.global_element(e), c[0], c[1], c[2], n, xh(0), xh(1), xh(2), mesh.rank(), qh(0), qh(1), qh(2),
                  qh(3), qh(4));
    throw RunError(text);
  });
  return outcome.message;
}

/// Largest |u_d| + c over all nodes, directions and ranks (a maximum is exact, hence
/// reproducible), and the largest over ranks of `other` (one allreduce for both). The
/// same pass checks the state: a non-physical node (check_physical's test) makes the
/// wave speed +infinity, so one pass per step serves both the check and the next dt.
template <int N, class Eq>
std::array<Real, 2> max_wave_speed_and(const Eq& eq, const dg::StateView& q, const dg::AuxView& aux, Real other, MPI_Comm comm) {
  using L = dg::Layout<N>;
  const Real wave = parallel_max("solver::max_wave_speed", static_cast<int>(q.extent(0)), L::nodes,
                                  KOKKOS_LAMBDA(const int e, const int n) {
                                    const typename Eq::Cons s = dg::load<Eq>(q, e, n);
                                    const typename Eq::Prim w = eq.primitive(s, aux(e, Eq::a_phi, n));
                                    if (!eq.is_physical(s, w)) return Real(INFINITY);
                                    Real m = 0;
                                    for (int d = 0; d < 3; ++d) m = math::max(m, eq.max_wave_speed(w, d));
                                    return m;
                                  });
  const Real local[2] = {wave, other};
  std::array<Real, 2> global{};
  MPI_Allreduce(local, global.data(), 2, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

}  // namespace detail

/// run_dg<N> with the equation set Eq.
template <int N, class Eq>
void run_equations(const RunContext& ctx) {
  using L = dg::Layout<N>;
  const Config& config = ctx.config;
  const MPI_Comm comm = ctx.comm;
  const mesh::LocalMesh& mesh = ctx.mesh;
  const int rank = comm_rank(comm);
  const int elements = mesh.element_count();
  const std::string& case_name = ctx.case_info.name;

  // Setup: basis, geometry, case, operator, integrator.
  const auto basis = dg::Basis<N>::make();
  const dg::Geometry geometry = dg::make_geometry<N>(mesh, basis);
  const std::unique_ptr<Case> the_case = ctx.case_info.make(config);
  const Real gravity = the_case->gravity();
  constexpr int nc = Eq::nconserved;
  const physics::VariableInfo info = Eq::describe(config.physics.tracers);
  FlatView q_flat("dg::state", static_cast<std::size_t>(elements) * Eq::nvar * L::nodes);
  FlatView q_last_good("dg::last_good_state", q_flat.extent(0));
  const dg::StateView q(q_flat.data(), elements, Eq::nvar, L::nodes);
  const dg::AuxView aux("dg::aux", elements, Eq::naux, L::nodes);
  the_case->initialize(geometry.x, q, aux);
  the_case->initialize_tracers(geometry.x, q, Eq::ntracers);
  dg::OperatorOptions options = detail::operator_options(config, gravity);
  options.gas = the_case->equations().gas;
  options.walls = the_case->walls(options.walls);
  if (the_case->has_sources())
    options.case_sources = [c = the_case.get()](const SourceArgs& a) { c->add_sources(a); };
  const Eq eq{options.gas};
  dg::DgOperator<N, Eq> rhs(mesh, basis, geometry, aux, options, comm, ctx.timers);
  TimeIntegrator integrator(config.time.integrator, rhs.state_size());

  // Host copies for output, diagnostics and checkpoints (copied only at those times).
  HostSolution host;
  host.q = HostView<Real***>("host::state", elements, Eq::nvar, L::nodes);
  host.aux = HostView<Real***>("host::aux", elements, Eq::naux, L::nodes);
  host.x = HostView<Real***>("host::coordinates", elements, 3, L::nodes);
  host.global_elements = mesh.global_elements();
  host.lgl_weights.assign(basis.w, basis.w + L::n1);
  host.lgl_derivative.resize(L::n1 * L::n1);
  for (int i = 0; i < L::n1; ++i)
    for (int j = 0; j < L::n1; ++j) host.lgl_derivative[i * L::n1 + j] = basis.D[i][j];
  for (int d = 0; d < 3; ++d) host.element_size[d] = geometry.h[d];
  host.domain_volume = 1;
  for (int d = 0; d < 3; ++d) host.domain_volume *= config.mesh.domain[d][1] - config.mesh.domain[d][0];
  Kokkos::deep_copy(host.aux, aux);
  Kokkos::deep_copy(host.x, geometry.x);
  const NodeWeights weights = node_weights(std::vector<double>(basis.w, basis.w + L::n1), geometry.jacobian);
  const std::vector<double> lgl_nodes(basis.x, basis.x + L::n1);
  // The derived output fields of one point (host code).
  const auto derive = [eq](const double* state, double phi, double* out) {
    typename Eq::Cons c;
    for (int v = 0; v < Eq::nvar; ++v) c[v] = state[v];
    eq.derived(c, phi, out);
  };
  const auto copy_to_host = [&](double time) {
    Kokkos::deep_copy(host.q, q);
    host.time = time;
  };

  // Where the run starts: t = 0, or a checkpoint.
  RunState run;
  run.initial.assign(nc, 0.0);
  run.boundary_inflow.assign(nc, 0.0);
  const bool restarted = !ctx.restart_path.empty();
  if (restarted) {
    run = load_checkpoint(ctx.restart_path, comm, config, case_name, mesh, info, the_case->saved_state().size(), host);
    the_case->restore_state(run.case_state);
    Kokkos::deep_copy(q, host.q);
    host.time = run.t;
    log::info("restarting from " + ctx.restart_path + " at step " + std::to_string(run.step) + ", t = " +
              std::to_string(run.t) + " s");
  } else {
    copy_to_host(0.0);
    const auto integrals = conserved_integrals(host, info.conserved, weights, comm);
    for (int c = 0; c < nc; ++c) run.initial[c] = integrals[c];
  }
  if (const std::string bad = detail::check_physical<N, Eq>(eq, q, aux, geometry.x, mesh, run.step, run.t, comm);
      !bad.empty())
    throw RunError("initial state: " + bad);
  set_aside_later_checkpoints(ctx.output_dir, comm, run.step, ctx.restart_path);

  const std::string csv_path = ctx.output_dir + "/diagnostics.csv";
  io::CsvWriter csv;
  if (rank == 0) {
    std::vector<std::string> columns{"time", "step", "dt"};
    for (const auto& name : info.conserved_names) columns.push_back(name);
    for (const auto& name : info.conserved_names) columns.push_back(name + "_relative_change");
    for (const auto& name : info.budget_names) columns.push_back(name + "_budget_residual");
    for (const char* name : {"max_speed", "max_cfl", "wall_seconds"}) columns.emplace_back(name);
    for (const auto& c : the_case->time_series_columns()) columns.push_back(c);
    csv = io::CsvWriter(csv_path, columns, restarted);
  }
  start_profiles(ctx.output_dir + "/profiles.nc", restarted, comm);

  const Real min_spacing = geometry.min_node_spacing;
  if (!restarted) run.max_diffusivity = rhs.max_diffusivity();
  const auto max_wave_speed = [&]() { return detail::max_wave_speed_and<N, Eq>(eq, q, aux, 0, comm)[0]; };
  // The wave speed of the state at the start of each step (the initial state was checked
  // above), and the largest diffusivity of the last stage before it.
  std::array<Real, 2> maxima = detail::max_wave_speed_and<N, Eq>(eq, q, aux, rhs.max_diffusivity(), comm);
  double loop_start = MPI_Wtime();
  double last_output_time = -1;

  // A diagnostics row and, with a file index >= 0, field file number `file`. The
  // ledger of each conserved quantity: its change, and the budget residual, change less
  // what entered through the walls (run.boundary_inflow, the boundary rates integrated
  // with the time integrator's weights), relative to its initial value. No source of the
  // operator changes a conserved quantity (physics/sources.hpp). Where the initial
  // integral is 0 (a tracer that starts nowhere) the change is absolute.
  const auto ledger = [&](const std::vector<double>& now) {
    Ledger l{std::vector<double>(nc), std::vector<double>(nc)};
    for (int c = 0; c < nc; ++c) {  // relative to the initial integral, absolute where that is 0
      const double scale = run.initial[c] != 0 ? run.initial[c] : 1.0;
      l.change[c] = (now[c] - run.initial[c]) / scale;
      l.residual[c] = (now[c] - run.initial[c] - run.boundary_inflow[c]) / scale;
    }
    return l;
  };
  const auto output = [&](long file) {
    ScopedTimer timer(ctx.timers, "output");
    copy_to_host(run.t);
    const auto now = conserved_integrals(host, info.conserved, weights, comm);
    const Ledger budget = ledger(now);
    double speed_local = 0;
    for (int e = 0; e < elements; ++e)
      for (int n = 0; n < L::nodes; ++n) {
        double s2 = 0;
        for (int d = 0; d < 3; ++d) s2 += std::pow(host.q(e, Eq::i_rhou + d, n), 2);
        speed_local = std::max(speed_local, std::sqrt(s2) / host.q(e, Eq::i_rho, n));
      }
    double max_speed = 0;
    MPI_Allreduce(&speed_local, &max_speed, 1, MPI_DOUBLE, MPI_MAX, comm);
    const double cfl = run.dt * max_wave_speed() / min_spacing;
    std::vector<double> row{run.t, double(run.step), run.dt};
    for (const auto* values : {&now[0], budget.change.data(), budget.residual.data()})
      for (int c = 0; c < nc; ++c) row.push_back(values[c]);
    for (double v : {max_speed, cfl, MPI_Wtime() - loop_start}) row.push_back(v);
    for (double v : the_case->time_series(host, comm)) row.push_back(v);
    if (rank == 0) csv.row(row);
    const bool with_profiles = file >= 0 && config.output.profiles_interval == 0;
    if (file >= 0 || with_profiles) {
      const GridValues grid = grid_values(info, derive, host, lgl_nodes, mesh);
      if (file >= 0)
        write_field_file(ctx.output_dir + "/" + detail::field_file_name(static_cast<int>(file)), info, grid, run.t, N,
                         comm, case_name);
      if (with_profiles) write_profiles(ctx.output_dir + "/profiles.nc", info, grid, run.t, comm, case_name);
      last_output_time = run.t;
    }
  };
  // Profiles on their own schedule (output.profiles_interval > 0).
  double last_profile_time = -1;
  const auto profiles = [&]() {
    if (run.t == last_profile_time) return;
    ScopedTimer timer(ctx.timers, "output");
    copy_to_host(run.t);
    write_profiles(ctx.output_dir + "/profiles.nc", info, grid_values(info, derive, host, lgl_nodes, mesh), run.t, comm, case_name);
    last_profile_time = run.t;
  };
  const double pi = config.output.profiles_interval;
  std::string last_checkpoint;
  long last_checkpoint_step = -1;
  const auto checkpoint = [&]() {
    if (run.step == last_checkpoint_step) return last_checkpoint;
    ScopedTimer timer(ctx.timers, "checkpoint");
    copy_to_host(run.t);
    run.case_state = the_case->saved_state();
    last_checkpoint = save_checkpoint(ctx.output_dir, comm, config, case_name, mesh, info, host, run);
    last_checkpoint_step = run.step;
    return last_checkpoint;
  };

  const double end_time = config.time.end_time;
  const double interval = config.output.interval;
  // Output times are exact multiples k * interval (never accumulated sums), so a restart
  // lands on the same times, and so on the same time steps, as the uninterrupted run.
  const auto next_output_time = [&]() {
    return interval > 0 ? std::min(end_time, (run.output_count + 1) * interval) : end_time;
  };
  const double ci = config.output.checkpoint_interval;
  const auto checkpoint_due = [&](double t_before) {
    const bool by_time = ci > 0 && std::floor(run.t / ci) > std::floor(t_before / ci);
    const bool by_steps = config.output.checkpoint_steps > 0 && run.step % config.output.checkpoint_steps == 0;
    return by_time || by_steps;
  };
  // Field files: 0 is the initial state, k the k-th interval output, and a run that ends
  // between output times writes the next number.
  if (!restarted) output(0);
  if (!restarted && pi > 0) profiles();
  log::info("time loop: end_time = " + std::to_string(end_time) + " s, " + integrator.name() + ", " +
            (config.time.dt > 0 ? "fixed dt = " + std::to_string(config.time.dt) + " s"
                                : "cfl = " + std::to_string(config.time.cfl)));

  install_stop_signals();
  loop_start = MPI_Wtime();
  double last_print = loop_start;
  double output_seconds_before = ctx.timers.seconds("output") + ctx.timers.seconds("checkpoint");
  const long warmup = config.time.warmup_steps;
  const long first_step = run.step;
  const double t_start = run.t;
  int stop_signal = 0;
  while (run.t < end_time && (config.time.max_steps == 0 || run.step < config.time.max_steps)) {
    if (warmup > 0 && run.step - first_step == warmup) {  // benchmarks: time from here on
      Kokkos::fence();
      ctx.timers.clear();
      output_seconds_before = 0;
      loop_start = MPI_Wtime();
    }
    const double next_output = next_output_time();
    if (config.time.dt > 0) {
      run.dt = config.time.dt;
    } else {
      // Acoustic limit, and the explicit diffusion limit dt <= cfl dx^2 / (2 nu_max) with
      // nu_max the largest nu + nu_t (or kappa + kappa_t) of the last stage evaluated
      // (kept in checkpoints, so a restart takes the same steps).
      if (rhs.evaluated()) run.max_diffusivity = maxima[1];
      run.dt = config.time.cfl * min_spacing / maxima[0];
      if (run.max_diffusivity > 0)
        run.dt = std::min(run.dt, config.time.cfl * min_spacing * min_spacing / (2 * run.max_diffusivity));
    }
    bool at_output = false;
    if (run.t + run.dt >= next_output * (1 - 1e-14)) {  // land on the output time exactly
      run.dt = next_output - run.t;
      at_output = true;
    }
    Kokkos::deep_copy(q_last_good, q_flat);
    const RunState before = run;
    integrator.step(rhs, run.t, run.dt, q_flat,
                    Companion{rhs.ledger_rates_of_last_call(), run.boundary_inflow.data(), nc});
    ++run.step;
    run.t = at_output ? next_output : run.t + run.dt;
    the_case->post_step(run.t, q, comm);
    maxima = detail::max_wave_speed_and<N, Eq>(eq, q, aux, rhs.max_diffusivity(), comm);  // also the state check
    std::string bad;
    if (!std::isfinite(maxima[0])) {
      bad = detail::check_physical<N, Eq>(eq, q, aux, geometry.x, mesh, run.step, run.t, comm);
      if (bad.empty()) bad = "the largest wave speed is not finite at step " + std::to_string(run.step);
    }
    if (!bad.empty()) {
      Kokkos::deep_copy(q_flat, q_last_good);
      run = before;
      const std::string saved = checkpoint();
      throw RunError(bad + "; the last good state (step " + std::to_string(run.step) + ", t = " +
                     std::to_string(run.t) + " s) is in " + saved);
    }
    if (at_output) {
      if (interval > 0 && run.t < end_time) ++run.output_count;
      output(run.t < end_time ? run.output_count : run.output_count + 1);
    }
    if (pi > 0 && std::floor(run.t / pi) > std::floor(before.t / pi)) profiles();
    if (checkpoint_due(before.t)) checkpoint();
    const double now = MPI_Wtime();
    if (now - last_print > 5.0 || at_output) {
      const double elapsed = now - loop_start;
      const double eta = run.t > t_start ? elapsed * (end_time - run.t) / (run.t - t_start) : 0;
      char line[256];
      std::snprintf(line, sizeof line, "step %6ld  t = %-10.6g s  dt = %-9.3g s  wall %s  ETA %s", run.step, run.t,
                    run.dt, detail::format_duration(elapsed).c_str(), detail::format_duration(eta).c_str());
      log::info(line);
      last_print = now;
    }
    if ((stop_signal = agreed_stop_signal(comm)) != 0) break;
  }
  const double loop_seconds = MPI_Wtime() - loop_start -
                              (ctx.timers.seconds("output") + ctx.timers.seconds("checkpoint") - output_seconds_before);
  if (run.t != last_output_time) output(run.output_count + 1);
  if (pi > 0) profiles();
  const std::string final_checkpoint = checkpoint();
  if (stop_signal != 0)
    log::warn("stopped by signal " + std::to_string(stop_signal) + " at step " + std::to_string(run.step) +
              ", t = " + std::to_string(run.t) + " s; state saved in " + final_checkpoint +
              "; continue with the same command and --restart latest, e.g. squall run " + config.source + " --output " + ctx.output_dir + " --restart latest");

  // Summary.
  io::RunSummary& s = ctx.summary;
  copy_to_host(run.t);
  const Ledger final_budget = ledger(conserved_integrals(host, info.conserved, weights, comm));
  s.steps = run.step;
  s.timed_steps = run.step - first_step > warmup ? run.step - first_step - warmup : 0;
  s.rk_stages = integrator.stages();
  s.final_time = run.t;
  s.wall_seconds = loop_seconds;
  s.has_solution = true;
  detail::set_conservation(s, info, final_budget);
  s.state_checksum = state_checksum(host, comm);
  s.stop_signal = stop_signal;
  s.restarted_from = ctx.restart_path;
  const double volume = host.domain_volume;
  {
    std::vector<double> ignored;
    const HostView<Real***> zero("host::zero", elements, Eq::nvar, L::nodes);
    for (const auto& f : info.conservative) s.state_variables.push_back(f.name);
    error_norms(host.q, zero, weights, volume, comm, s.state_l2, ignored);
  }
  if (the_case->has_exact_solution()) {
    const dg::StateView exact("dg::exact", elements, Eq::nvar, L::nodes);
    the_case->exact_solution(run.t, geometry.x, exact);
    HostView<Real***> exact_host("host::exact", elements, Eq::nvar, L::nodes);
    Kokkos::deep_copy(exact_host, exact);
    s.error_variables = s.state_variables;
    error_norms(host.q, exact_host, weights, volume, comm, s.l2_errors, s.linf_errors);
  }
  for (const auto& d : the_case->diagnostics(host, comm)) s.case_diagnostics.emplace_back(d.name, d.value);
  s.note.clear();
}

/// The time loop at order N with the equation set the config asks for: dry air with as
/// many passive tracers as physics.tracers names (one instantiation per count up to
/// SQUALL_MAX_TRACERS; the config reader refuses more).
template <int N, int K = 0>
void run_with_tracers(const RunContext& ctx, int tracers) {
  if constexpr (K < SQUALL_MAX_TRACERS) {
    if (tracers > K) return run_with_tracers<N, K + 1>(ctx, tracers);
  }
  if (tracers != K) throw InputError("this build carries at most " + std::to_string(K) + " tracers");
  run_equations<N, physics::DryAir<K>>(ctx);
}

template <int N>
void run_dg(const RunContext& ctx) {
  run_with_tracers<N>(ctx, static_cast<int>(ctx.config.physics.tracers.size()));
}

}  // namespace squall
