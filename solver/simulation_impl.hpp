#pragma once
// Definition of run_dg<N>; included only by the solver/simulation_order*.cpp files.
#include <array>
#include <memory>
#include <utility>
#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "core/signals.hpp"
#include "core/reproducible_sum.hpp"
#include "io/csv_writer.hpp"
#include "solver/checkpointing.hpp"
#include "physics/moist_air.hpp"
#include "physics/positivity.hpp"
#include "solver/dg_operator.hpp"
#include "solver/field_output.hpp"
#include "solver/profiles.hpp"
#include "solver/simulation.hpp"
#include "solver/solution_diagnostics.hpp"
#include "solver/time_loop.hpp"

namespace squall {

namespace detail {

std::string format_duration(double seconds);
dg::OperatorOptions operator_options(const Config& config, Real gravity);
/// The mapping of the brick's points: the terrain-following one of [terrain], the test
/// warp of mesh.warp, or none (affine elements).
dg::Mapping mesh_mapping(const Config& config);
std::string field_file_name(int index);

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
                  "(NaN/Inf, or density or temperature <= 0)",
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

/// Moist air: rho q_t >= 0 at every node after a step, by the scaling limiter of Zhang &
/// Shu (physics/positivity.hpp) in each element whose nodal minimum is negative, with the
/// LGL quadrature weights (the element's water is kept to round-off; elements whose
/// values are all >= 0 keep their bits).
template <int N, class Eq>
void limit_total_water(const dg::StateView& q, const dg::Basis<N>& basis) {
  using L = dg::Layout<N>;
  const dg::Basis<N> b = basis;
  parallel_for("solver::limit_total_water", static_cast<int>(q.extent(0)), KOKKOS_LAMBDA(const int e) {
    physics::limit_toward_mean(
        L::nodes, [&](int n) { return q(e, Eq::i_rhoqt, n); }, [&](int n, Real v) { q(e, Eq::i_rhoqt, n) = v; },
        [&](int n) { return b.w[L::index(n, 0)] * b.w[L::index(n, 1)] * b.w[L::index(n, 2)]; });
  });
}

/// Host copies of the state q, the aux values and the coordinates, with what the
/// diagnostics need of the basis and geometry; the state is copied in at output times.
/// Where the device memory is host memory (Serial, OpenMP) the copies are the device
/// views themselves: 11 values per node less, and copying the state in costs nothing.
template <int N>
HostSolution host_solution(const Config& config, const mesh::LocalMesh& mesh, const dg::Basis<N>& basis,
                           const dg::Geometry& geometry, const dg::AuxView& aux, const dg::StateView& q) {
  using L = dg::Layout<N>;
  HostSolution host;
  host.q = Kokkos::create_mirror_view(q);
  host.aux = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), aux);
  host.x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), geometry.x);
  host.global_elements = mesh.global_elements();
  host.lgl_weights.assign(basis.w, basis.w + L::n1);
  host.lgl_derivative.resize(L::n1 * L::n1);
  for (int i = 0; i < L::n1; ++i)
    for (int j = 0; j < L::n1; ++j) host.lgl_derivative[i * L::n1 + j] = basis.D[i][j];
  for (int d = 0; d < 2; ++d) host.element_size[d] = geometry.h[d];
  host.element_height.assign(geometry.hz.begin(), geometry.hz.end());
  host.curved = geometry.curved;
  host.domain_volume = 1;
  for (int d = 0; d < 3; ++d) host.domain_volume *= config.mesh.domain[d][1] - config.mesh.domain[d][0];
  return host;
}

/// The summary's numbers of the final solution in `host`: conservation, checksum, state
/// norms, errors against the case's exact solution where it has one, its diagnostics.
void summarize_solution(io::RunSummary& s, const physics::VariableInfo& info, const Case& the_case,
                        const HostSolution& host, const NodeWeights& weights, const dg::CoordView& x,
                        const RunState& run, MPI_Comm comm);

}  // namespace detail

/// run_dg<N> with the equation set Eq and the case made from the config.
template <int N, class Eq>
void run_equations(const RunContext& ctx, std::unique_ptr<Case> the_case) {
  using L = dg::Layout<N>;
  const Config& config = ctx.config;
  const MPI_Comm comm = ctx.comm;
  const mesh::LocalMesh& mesh = ctx.mesh;
  const int rank = comm_rank(comm);
  const int elements = mesh.element_count();
  const std::string& case_name = ctx.case_info.name;
  const std::string time_units = "seconds since " + config.output.start_date;  // CF

  // Setup: basis, geometry, case, operator, integrator.
  const auto basis = dg::Basis<N>::make();
  const dg::Geometry geometry = dg::make_geometry<N>(mesh, basis, detail::mesh_mapping(config), comm);
  const Real gravity = the_case->gravity();
  constexpr int nc = Eq::nconserved;
  const physics::VariableInfo info = Eq::describe(config.physics.tracers);
  FlatView q_flat("dg::state", static_cast<std::size_t>(elements) * Eq::nvar * L::nodes);
  FlatView q_last_good("dg::last_good_state", q_flat.extent(0));
  const dg::StateView q(q_flat.data(), elements, Eq::nvar, L::nodes);
  const dg::AuxView aux("dg::aux", elements, Eq::naux, L::nodes);
  the_case->initialize(geometry.x, q, aux);
  the_case->initialize_tracers(geometry.x, q, Eq::i_tracer, Eq::ntracers);
  dg::OperatorOptions options = detail::operator_options(config, gravity);
  options.gas = the_case->equations().gas;
  options.water = the_case->water();
  options.walls = the_case->walls(options.walls);
  if (the_case->has_sources())
    options.case_sources = [c = the_case.get()](const SourceArgs& a) { c->add_sources(a); };
  const Eq eq = Eq::make(options.gas, options.water);
  dg::DgOperator<N, Eq> rhs(mesh, basis, geometry, aux, options, comm, ctx.timers);
  TimeIntegrator integrator(config.time.integrator, rhs.state_size());

  HostSolution host = detail::host_solution<N>(config, mesh, basis, geometry, aux, q);
  const NodeWeights weights =
      node_weights(std::vector<double>(basis.w, basis.w + L::n1), geometry.jacobian, geometry.node_jacobian);
  if (geometry.curved) {  // the domain's volume under the terrain
    std::vector<ExactSum> volume(1);
    for (int e = 0; e < elements; ++e)
      for (int n = 0; n < L::nodes; ++n) volume[0].add(weights.at(e, n));
    allreduce(comm, volume);
    host.domain_volume = volume[0].value();
  }
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
    if (config.time.end_time < run.t) {
      char text[160];
      std::snprintf(text, sizeof text, "'time.end_time' = %g s is before t = %.9g s of the checkpoint ",
                    config.time.end_time, run.t);
      throw InputError(text + ctx.restart_path + ": set a later end time to continue the run");
    }
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

  const std::string csv_path = ctx.output_dir + "/diagnostics.csv", profiles_path = ctx.output_dir + "/profiles.nc";
  if (restarted) drop_later_records(csv_path, profiles_path, run.records_time, comm);
  io::CsvWriter csv;
  // Rank 0 writes diagnostics.csv; every rank learns whether it could (a full disk), so
  // none goes on alone into the next collective call.
  const auto on_rank_0 = [&](const std::function<void()>& write) {
    const CollectiveOutcome written = collective(comm, [&] {
      if (rank == 0) write();
    });
    if (!written.ok()) throw RunError(written.message);
  };
  on_rank_0([&] { csv = io::CsvWriter(csv_path, diagnostics_columns(info, *the_case), restarted); });
  start_profiles(profiles_path, restarted, comm);

  // Curved elements: each rank measured its own nodes; the time step takes the smallest.
  Real min_spacing = geometry.min_node_spacing;
  if (geometry.curved) MPI_Allreduce(&geometry.min_node_spacing, &min_spacing, 1, MPI_DOUBLE, MPI_MIN, comm);
  if (!restarted) run.max_diffusivity = rhs.max_diffusivity();
  const auto max_wave_speed = [&]() { return detail::max_wave_speed_and<N, Eq>(eq, q, aux, 0, comm)[0]; };
  // The wave speed of the state at the start of each step (the initial state was checked
  // above), and the largest diffusivity of the last stage before it.
  std::array<Real, 2> maxima = detail::max_wave_speed_and<N, Eq>(eq, q, aux, rhs.max_diffusivity(), comm);
  double loop_start = MPI_Wtime();
  double last_output_time = -1, last_row_time = -1;

  // With viscous terms, profiles.nc also gets the modelled (subgrid) fluxes, which one
  // more evaluation of the right-hand side per profile time forms; its tendency goes into
  // the integrator's stage buffer, which is free between steps. The node values live only
  // until they are on the grid, before the grid of the derived fields is formed, so that
  // a profile time adds as little as it can to the run's peak memory.
  SubgridProfiles subgrid_names;
  if (rhs.viscous()) {
    subgrid_names.moist = Eq::moist;
    if (Eq::moist) subgrid_names.scalars.push_back("qt"), subgrid_names.scalar_units.push_back("kg kg-1");
    for (int k = 0; k < Eq::ntracers; ++k) {
      subgrid_names.scalars.push_back(info.derived[Eq::f_tracer + k].name);
      subgrid_names.scalar_units.push_back(info.derived[Eq::f_tracer + k].units);
    }
  }
  // What the operator adds to profiles.nc (nothing without viscous terms or radiation):
  // the modelled fluxes and, with radiation, the horizontal mean of its net flux, from the
  // same evaluation, on the grid.
  struct OperatorProfiles {
    SubgridProfiles subgrid;
    std::vector<NodeProfile> further;
  };
  const auto operator_profiles = [&]() {
    OperatorProfiles out{subgrid_names, {}};
    if (rhs.viscous()) {
      const DeviceView<Real***> nodes("dg::subgrid_fluxes", elements, dg::SubgridFlux::count<Eq>, L::nodes);
      rhs.subgrid_fluxes(run.t, q_flat, integrator.stage_buffer(), nodes);
      out.subgrid.field = grid_node_values(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), nodes),
                                           lgl_nodes, mesh);
    } else if (rhs.radiation()) {
      rhs.evaluate_for_diagnostics(run.t, q_flat, integrator.stage_buffer());
    }
    if (rhs.radiation()) {
      // (element, node) seen as (element, 1, node): the same values in the same order.
      const auto nodes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs.radiative_flux());
      const HostView<Real***> flux(nodes.data(), elements, 1, L::nodes);
      out.further.push_back({"F_rad", "net upward longwave flux of the radiation scheme", "W m-2",
                             grid_node_values(flux, lgl_nodes, mesh)[0]});
    }
    return out;
  };
  const auto write_profiles_of = [&](const GridValues& grid, const OperatorProfiles& op) {
    write_profiles(ctx.output_dir + "/profiles.nc", info, grid, run.t, comm, case_name, time_units,
                   rhs.viscous() ? &op.subgrid : nullptr, op.further);
  };
  // Set when the time loop has ended: the records written then (between output times,
  // after max_steps or a signal) are not the schedule's, and run.records_time stays put.
  bool stopping = false;
  // A diagnostics row (with the ledger of each conserved quantity: time_loop.hpp) and,
  // with a file index >= 0, field file number `file`.
  const auto output = [&](long file) {
    ScopedTimer timer(ctx.timers, "output");
    copy_to_host(run.t);
    const auto now = conserved_integrals(host, info.conserved, weights, comm);
    const Ledger budget = ledger(run, now);
    const double speed = max_speed(host, comm);
    const double cfl = run.dt * max_wave_speed() / min_spacing;
    std::vector<double> row{run.t, double(run.step), run.dt};
    for (const auto* values : {&now[0], budget.change.data(), budget.residual.data()})
      for (int c = 0; c < nc; ++c) row.push_back(values[c]);
    for (double v : {speed, cfl, MPI_Wtime() - loop_start}) row.push_back(v);
    for (double v : the_case->time_series(host, comm)) row.push_back(v);
    on_rank_0([&] { csv.row(row); });
    last_row_time = run.t;
    if (!stopping) run.records_time = run.t;
    if (file >= 0) {
      // The operator's profiles first: their node values are gone before the grid is formed.
      const bool with_profiles = config.output.profiles_interval == 0;
      const OperatorProfiles op = with_profiles ? operator_profiles() : OperatorProfiles{};
      const GridValues grid = grid_values(info, derive, host, lgl_nodes, mesh);
      write_field_file(ctx.output_dir + "/" + detail::field_file_name(static_cast<int>(file)), info, grid, run.t, N,
                       comm, case_name, time_units);
      if (with_profiles) write_profiles_of(grid, op);
      last_output_time = run.t;
    }
  };
  // Profiles on their own schedule (output.profiles_interval > 0), each with a
  // diagnostics row (the time series of a case follow the profiles' sampling).
  double last_profile_time = -1;
  const auto profiles = [&]() {
    if (run.t == last_profile_time) return;
    if (run.t != last_row_time) output(-1);
    ScopedTimer timer(ctx.timers, "output");
    copy_to_host(run.t);
    const OperatorProfiles op = operator_profiles();
    write_profiles_of(grid_values(info, derive, host, lgl_nodes, mesh), op);
    last_profile_time = run.t;
    if (!stopping) run.records_time = run.t;
  };
  const Schedule schedule(config);
  if (restarted) schedule.resume(run);
  set_aside_later_fields(ctx.output_dir, comm, run.t);
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
  // Field files: 0 is the initial state, k the k-th interval output, and a run that ends
  // between output times writes the next number.
  if (!restarted) output(0);
  if (!restarted && schedule.profiles_interval > 0) profiles();
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
    const double next_output = schedule.next_output_time(run);
    const bool at_output = next_time_step(config, run, maxima, min_spacing, rhs.evaluated(), next_output);
    Kokkos::deep_copy(q_last_good, q_flat);
    const RunState before = run;
    integrator.step(rhs, run.t, run.dt, q_flat,
                    Companion{rhs.ledger_rates_of_last_call(), run.boundary_inflow.data(), nc});
    if constexpr (Eq::moist) detail::limit_total_water<N, Eq>(q, basis);
    ++run.step;
    run.t = at_output ? next_output : run.t + run.dt;
    the_case->post_step(run.t, q, comm);
    maxima = detail::max_wave_speed_and<N, Eq>(eq, q, aux, rhs.max_diffusivity(), comm);  // also the state check
    std::string bad;
    if (!std::isfinite(maxima[0])) {
      bad = detail::check_physical<N, Eq>(eq, q, aux, geometry.x, mesh, run.step, run.t, comm);
      if (bad.empty()) bad = "the largest wave speed is not finite at step " + std::to_string(run.step);
      char hint[96];
      if (config.time.dt > 0)
        std::snprintf(hint, sizeof hint, "; try a smaller time.dt (%g s, fixed)", config.time.dt);
      else
        std::snprintf(hint, sizeof hint, "; try a smaller time.cfl (%g)", config.time.cfl);
      bad += hint;
    }
    if (!bad.empty()) {
      Kokkos::deep_copy(q_flat, q_last_good);
      run = before;
      const std::string saved = checkpoint();
      throw RunError(bad + "; the last good state (step " + std::to_string(run.step) + ", t = " +
                     std::to_string(run.t) + " s) is in " + saved);
    }
    if (at_output) output(schedule.field_file_at_output(run));
    if (schedule.profiles_due(run, before.t)) profiles();
    if (schedule.checkpoint_due(run, before.t)) checkpoint();
    const double now = MPI_Wtime();
    if (now - last_print > 5.0 || at_output) {
      const double elapsed = now - loop_start;
      log::info(progress_line(run, elapsed, run.t > t_start ? elapsed * (end_time - run.t) / (run.t - t_start) : 0));
      last_print = now;
    }
    if ((stop_signal = agreed_stop_signal(comm)) != 0) break;
  }
  const double loop_seconds = MPI_Wtime() - loop_start -
                              (ctx.timers.seconds("output") + ctx.timers.seconds("checkpoint") - output_seconds_before);
  stopping = true;
  std::string final_checkpoint;
  if (stop_signal != 0) {
    // The checkpoint first: a launcher may kill the ranks soon after its signal.
    final_checkpoint = checkpoint();
    log::warn("stopped by signal " + std::to_string(stop_signal) + " at step " + std::to_string(run.step) +
              ", t = " + std::to_string(run.t) + " s; state saved in " + final_checkpoint +
              "; continue with the same command and --restart latest, e.g. " +
              (ctx.summary.member_index >= 0
                   ? "squall ensemble " + ctx.summary.ensemble_file + " --restart latest"
                   : "squall run " + config.source + " --output " + ctx.output_dir + " --restart latest"));
  }
  if (run.t != last_output_time) output(run.output_count + 1);
  if (schedule.profiles_interval > 0) profiles();
  if (final_checkpoint.empty()) final_checkpoint = checkpoint();
  // After the checkpoint, so that a failure to write the means loses nothing.
  if (config.output.profiles_mean_window.size() == 2) write_mean_profiles(ctx.output_dir, config, comm);

  // Summary.
  io::RunSummary& s = ctx.summary;
  copy_to_host(run.t);
  s.steps = run.step;
  s.timed_steps = run.step - first_step > warmup ? run.step - first_step - warmup : 0;
  s.rk_stages = integrator.stages();
  s.final_time = run.t;
  s.wall_seconds = loop_seconds;
  s.stop_signal = stop_signal;
  s.restarted_from = ctx.restart_path;
  detail::summarize_solution(s, info, *the_case, host, weights, geometry.x, run, comm);
}

/// The time loop at order N with the equation set the config asks for: dry air with as
/// many passive tracers as physics.tracers names (one instantiation per count up to
/// SQUALL_MAX_TRACERS; the config reader refuses more).
template <int N, int K = 0>
void run_with_tracers(const RunContext& ctx, std::unique_ptr<Case> the_case, int tracers) {
  if constexpr (K < SQUALL_MAX_TRACERS) {
    if (tracers > K) return run_with_tracers<N, K + 1>(ctx, std::move(the_case), tracers);
  }
  if (tracers != K) throw InputError("this build carries at most " + std::to_string(K) + " tracers");
  run_equations<N, physics::DryAir<K>>(ctx, std::move(the_case));
}

/// The same for moist air, up to SQUALL_MAX_MOIST_TRACERS tracers.
template <int N, int K = 0>
void run_moist_with_tracers(const RunContext& ctx, std::unique_ptr<Case> the_case, int tracers) {
  if constexpr (K < SQUALL_MAX_MOIST_TRACERS) {
    if (tracers > K) return run_moist_with_tracers<N, K + 1>(ctx, std::move(the_case), tracers);
  }
  if (tracers != K)
    throw InputError(ctx.config.source + ": 'physics.tracers': expected at most " + std::to_string(K) +
                     " names: a moist run ('" + ctx.case_info.name + "') of this build carries at most " +
                     std::to_string(K) + " tracers (cmake -DSQUALL_MAX_MOIST_TRACERS)");
  run_equations<N, physics::MoistAir<K>>(ctx, std::move(the_case));
}

/// The time loop at order N: moist air for a moist case, else dry air, with the tracers.
template <int N>
void run_dg(const RunContext& ctx) {
  const int tracers = static_cast<int>(ctx.config.physics.tracers.size());
  std::unique_ptr<Case> the_case = ctx.case_info.make(ctx.config);
  if (the_case->moist()) return run_moist_with_tracers<N>(ctx, std::move(the_case), tracers);
  // Water at the surface of a dry case: nothing would carry it.
  for (const auto& [name, value] : {std::pair<const char*, double>{"water_flux", ctx.config.surface.water_flux},
                                    {"moisture_transfer", ctx.config.surface.moisture_transfer}})
    if (value != 0)
      throw InputError(ctx.config.source + ": 'surface." + name + "': expected 0 (unset): the case '" +
                       ctx.case_info.name + "' is dry (it carries no water)");
  if (!ctx.config.forcing.qt_tendency.empty())
    throw InputError(ctx.config.source + ": 'forcing.qt_tendency': expected [] (unset): the case '" +
                     ctx.case_info.name + "' is dry (it carries no water)");
  if (ctx.config.radiation.scheme != "none")
    throw InputError(ctx.config.source + ": 'radiation.scheme' = \"" + ctx.config.radiation.scheme +
                     "\": expected \"none\": the case '" + ctx.case_info.name +
                     "' is dry (the scheme reads the liquid water)");
  run_with_tracers<N>(ctx, std::move(the_case), tracers);
}

}  // namespace squall
