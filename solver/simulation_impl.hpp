#pragma once
// Definition of run_dg<N>; included only by the solver/simulation_order*.cpp files.
#include <algorithm>
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

/// The largest |u_d| + c over the directions at a point of state s and primitive
/// variables w; +infinity at a non-physical point (check_physical's test), so that the
/// pass that gives the next time step checks the state too.
template <class Eq>
KOKKOS_INLINE_FUNCTION Real point_wave_speed(const Eq& eq, const typename Eq::Cons& s, const typename Eq::Prim& w) {
  if (!eq.is_physical(s, w)) return Real(INFINITY);
  Real v = 0;
  for (int d = 0; d < 3; ++d) v = math::max(v, eq.max_wave_speed(w, d));
  return v;
}
/// point_wave_speed at node n of element e, its primitive variables formed here.
template <class Eq>
KOKKOS_INLINE_FUNCTION Real node_wave_speed(const Eq& eq, const dg::StateView& q, const dg::AuxView& aux, int e,
                                            int n) {
  const typename Eq::Cons s = dg::load<Eq>(q, e, n);
  return point_wave_speed(eq, s, eq.primitive(s, aux(e, Eq::a_phi, n)));
}

/// Largest node_wave_speed over all nodes and ranks (a maximum is exact, hence
/// reproducible).
template <int N, class Eq>
Real max_wave_speed(const Eq& eq, const dg::StateView& q, const dg::AuxView& aux, MPI_Comm comm) {
  using L = dg::Layout<N>;
  const Real local = parallel_max("solver::max_wave_speed", static_cast<int>(q.extent(0)), L::nodes,
                                  KOKKOS_LAMBDA(const int e, const int n) { return node_wave_speed(eq, q, aux, e, n); });
  Real global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, comm);
  return global;
}

/// The largest node_wave_speed of element e's nodes (host backends, moist air), with
/// their primitive variables formed in packs first (dg::primitives_in_packs: the
/// saturation test in the lanes, the same bits node by node); the maximum is exact, so
/// the same as over the nodes one by one.
template <int N, class Eq>
Real element_wave_speed(const Eq& eq, const dg::StateView& q, const dg::AuxView& aux, int e) {
  using L = dg::Layout<N>;
  typename Eq::Prim w[L::nodes];
  Real exner[L::nodes];
  dg::primitives_in_packs<L::nodes>(eq, q, aux, DeviceView<Real**>(), false, e, w, exner);
  Real largest = 0;
  for (int n = 0; n < L::nodes; ++n) {
    const Real v = point_wave_speed(eq, dg::load<Eq>(q, e, n), w[n]);
    if (v > largest) largest = v;
  }
  return largest;
}

/// out(m) = the largest node_wave_speed of member m's nodes on this rank, for the members
/// of a batch, whose elements are `per_member` after one another: one launch for all on
/// a device. Moist air on host backends takes an element at a time (element_wave_speed).
template <int N, class Eq>
void member_wave_speeds(const Eq& eq, const dg::StateView& q, const dg::AuxView& aux, int per_member,
                        const DeviceView<Real*>& out) {
  using L = dg::Layout<N>;
  if constexpr (host_backend && Eq::moist) {
    parallel_max_groups("solver::member_max_wave_speed", per_member, out, [=](const int m, const int i) {
      return element_wave_speed<N>(eq, q, aux, m * per_member + i);
    });
  } else {
    parallel_max_groups("solver::member_max_wave_speed", per_member * L::nodes, out,
                        KOKKOS_LAMBDA(const int m, const int i) {
                          return node_wave_speed(eq, q, aux, m * per_member + i / L::nodes, i % L::nodes);
                        });
  }
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

/// Host copies of the state q, the aux values and the coordinates of the elements
/// [first, first + mesh.element_count()) of the geometry (a batch member's; 0 for a run
/// of its own), with what the diagnostics need of the basis and geometry; the state is
/// copied in at output times. q, aux and x are those elements' views. Where the device
/// memory is host memory (Serial, OpenMP) the copy of q is the device view itself.
template <int N>
HostSolution host_solution(const Config& config, const mesh::LocalMesh& mesh, const dg::Basis<N>& basis,
                           const dg::Geometry& geometry, int first, const dg::AuxView& aux, const dg::StateView& q,
                           const dg::CoordView& x) {
  using L = dg::Layout<N>;
  HostSolution host;
  host.q = Kokkos::create_mirror_view(q);
  host.aux = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), aux);
  host.x = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), x);
  host.global_elements = mesh.global_elements();
  host.lgl_weights.assign(basis.w, basis.w + L::n1);
  host.lgl_derivative.resize(L::n1 * L::n1);
  for (int i = 0; i < L::n1; ++i)
    for (int j = 0; j < L::n1; ++j) host.lgl_derivative[i * L::n1 + j] = basis.D[i][j];
  for (int d = 0; d < 2; ++d) host.element_size[d] = geometry.h[d];
  host.element_height.assign(geometry.hz.begin() + first, geometry.hz.begin() + first + mesh.element_count());
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

/// run_dg<N> with the equation set Eq: the run of ctx.config with the case `cases[0]`, or
/// with ctx.batch a batch of members, member m with the case cases[m] (made from its own
/// config), on ctx.batch_mesh: one element list, every kernel launch covering every member,
/// and each member's setup, checks, outputs, ledger, checkpoints and summary its own.
/// Every running member takes one step per step of the batch, each with its own time step
/// (its CFL step or time.dt, landing on its own output times) up to its own end, through
/// the integrator's MemberClock, so each member takes the steps it takes alone; a member
/// that ended or failed keeps its last state while the others go on.
template <int N, class Eq>
void run_equations(const RunContext& ctx, std::vector<std::unique_ptr<Case>> cases) {
  using L = dg::Layout<N>;
  const Config& config = ctx.config;
  const MPI_Comm comm = ctx.comm;
  const bool batched = ctx.batch != nullptr;
  const mesh::LocalMesh& mesh = batched ? *ctx.batch_mesh : ctx.mesh;  // every member's elements
  const mesh::LocalMesh& member_mesh = ctx.mesh;                         // one member's
  std::vector<BatchMember> solo;
  if (!batched) solo.push_back({&ctx.config, ctx.output_dir, &ctx.summary, ctx.restart_path, {}});
  std::vector<BatchMember>& members_of = batched ? *ctx.batch : solo;
  const int members = static_cast<int>(members_of.size());
  const int rank = comm_rank(comm);
  const int elements = mesh.element_count(), member_elements = member_mesh.element_count();
  const std::string& case_name = ctx.case_info.name;
  const std::string time_units = "seconds since " + config.output.start_date;  // CF

  // Setup: basis, geometry, cases, operator, integrator.
  const auto basis = dg::Basis<N>::make();
  const dg::Geometry geometry = dg::make_geometry<N>(mesh, basis, detail::mesh_mapping(config), comm);
  Case& lead_case = *cases[0];
  const Real gravity = lead_case.gravity();
  constexpr int nc = Eq::nconserved;
  const physics::VariableInfo info = Eq::describe(config.physics.tracers);
  FlatView q_flat("dg::state", static_cast<std::size_t>(elements) * Eq::nvar * L::nodes);
  FlatView q_last_good("dg::last_good_state", q_flat.extent(0));
  const dg::StateView q(q_flat.data(), elements, Eq::nvar, L::nodes);
  const dg::AuxView aux("dg::aux", elements, Eq::naux, L::nodes);

  // Each member's part of the batch, and what it keeps of its own.
  struct Member {
    BatchMember* ctx = nullptr;
    Case* the_case = nullptr;
    int first = 0;  ///< its first element in the batch
    dg::StateView q;
    dg::AuxView aux;
    dg::CoordView x;
    HostSolution host;
    NodeWeights weights;
    RunState run;
    io::CsvWriter csv;
    std::string last_checkpoint;
    long checkpoint_step = -1;  ///< the step of last_checkpoint
    bool active = true;  ///< false once it failed (in a batch; a run of its own throws)
    bool restarted = false;  ///< it continues from a checkpoint
    bool done = false;       ///< its loop has ended and its last records are written
    /// Its loop has ended: the records written then (between output times, after max_steps
    /// or a signal) are not the schedule's, and run.records_time stays put.
    bool stopping = false;
    bool stopped = false;    ///< by a signal
    std::array<Real, 2> maxima{};  ///< wave speed of its state, largest diffusivity of the last stage
    double last_output_time = -1, last_row_time = -1, last_profile_time = -1;
    double next_output = 0, t_start = 0;
    bool at_output = false;
    long first_step = 0;
    RunState before;  ///< at the start of the step
    std::unique_ptr<Schedule> schedule;  ///< its output times
  };
  std::vector<Member> team(static_cast<size_t>(members));
  for (int m = 0; m < members; ++m) {
    Member& u = team[static_cast<size_t>(m)];
    u.ctx = &members_of[static_cast<size_t>(m)];
    u.the_case = cases[static_cast<size_t>(m)].get();
    u.first = m * member_elements;
    const auto range = std::make_pair(u.first, u.first + member_elements);
    u.q = Kokkos::subview(q, range, Kokkos::ALL, Kokkos::ALL);
    u.aux = Kokkos::subview(aux, range, Kokkos::ALL, Kokkos::ALL);
    u.x = Kokkos::subview(geometry.x, range, Kokkos::ALL, Kokkos::ALL);
    u.the_case->initialize(u.x, u.q, u.aux);
    u.the_case->initialize_tracers(u.x, u.q, Eq::i_tracer, Eq::ntracers);
  }
  std::vector<double> stage_times(static_cast<size_t>(members), 0.0);  // the integrator's, per member
  dg::OperatorOptions options = detail::operator_options(config, gravity);
  options.gas = lead_case.equations().gas;
  options.water = lead_case.water();
  options.walls = lead_case.walls(options.walls);
  if (lead_case.has_sources()) {
    if (!batched) {
      options.case_sources = [c = &lead_case](const SourceArgs& a) { c->add_sources(a); };
    } else {
      std::vector<const Case*> each;
      for (const auto& c : cases) each.push_back(c.get());
      const double* times = stage_times.data();  // each member's time of the stage (MemberClock)
      options.case_sources = [each, times](const SourceArgs& a) {
        for (size_t m = 0; m < each.size(); ++m) {
          SourceArgs b = a.member(static_cast<int>(m));
          b.t = times[m];
          each[m]->add_sources(b);
        }
      };
    }
  }
  if (batched)  // the numbers each member may have of its own (check_batch)
    for (size_t m = 0; m < members_of.size(); ++m) {
      const Config& own = *members_of[m].config;
      const dg::OperatorOptions o = detail::operator_options(own, gravity);
      options.member_smagorinsky_cs.push_back(own.physics.smagorinsky_cs);
      options.member_surface.push_back(cases[m]->walls(o.walls).surface);
      options.member_forcing.push_back(o.forcing);
      options.member_radiation.push_back(o.radiation_scheme);
    }
  const Eq eq = Eq::make(options.gas, options.water);
  dg::DgOperator<N, Eq> rhs(mesh, basis, geometry, aux, options, comm, ctx.timers);
  TimeIntegrator integrator(config.time.integrator, rhs.state_size());

  const std::size_t member_nodes = static_cast<std::size_t>(member_elements) * L::nodes;
  for (Member& u : team) {
    u.host = detail::host_solution<N>(config, member_mesh, basis, geometry, u.first, u.aux, u.q, u.x);
    const auto jacobian = geometry.jacobian.begin() + u.first;
    const std::size_t node_first = static_cast<std::size_t>(u.first) * L::nodes;
    u.weights = node_weights(std::vector<double>(basis.w, basis.w + L::n1),
                             std::vector<double>(jacobian, jacobian + member_elements),
                             geometry.node_jacobian.empty()
                                 ? std::vector<double>()
                                 : std::vector<double>(geometry.node_jacobian.begin() + node_first,
                                                       geometry.node_jacobian.begin() + node_first + member_nodes));
    if (geometry.curved) {  // the domain's volume under the terrain
      std::vector<ExactSum> volume(1);
      for (int e = 0; e < member_elements; ++e)
        for (int n = 0; n < L::nodes; ++n) volume[0].add(u.weights.at(e, n));
      allreduce(comm, volume);
      u.host.domain_volume = volume[0].value();
    }
  }
  const std::vector<double> lgl_nodes(basis.x, basis.x + L::n1);
  // The derived output fields of one point (host code).
  const auto derive = [eq](const double* state, double phi, double* out) {
    typename Eq::Cons c;
    for (int v = 0; v < Eq::nvar; ++v) c[v] = state[v];
    eq.derived(c, phi, out);
  };
  const auto copy_to_host = [&](Member& u, double time) {
    Kokkos::deep_copy(u.host.q, u.q);
    u.host.time = time;
  };
  // A run of its own throws what went wrong; a batch member that fails is stopped and
  // reported, and the others go on.
  const auto fail = [&](Member& u, const std::string& message) {
    if (!batched) throw RunError(message);
    u.ctx->failure = message;
    u.active = false;
    const io::RunSummary& s = *u.ctx->summary;
    std::string overrides;
    for (const std::string& o : s.member_overrides) overrides += (overrides.empty() ? "" : " ") + o;
    log::error("ensemble: member " + std::to_string(s.member_index) + " (" + overrides + ") failed: " + message +
               "; the other members of the batch go on");
  };

  // Where each member starts: t = 0, or its checkpoint.
  for (Member& u : team) {
    u.run.initial.assign(nc, 0.0);
    u.run.boundary_inflow.assign(nc, 0.0);
  }
  for (Member& u : team) {
    const std::string& path = u.ctx->restart_path;
    u.restarted = !path.empty();
    const Config& own = *u.ctx->config;
    if (u.restarted) {
      u.run = load_checkpoint(path, comm, own, case_name, member_mesh, info, u.the_case->saved_state().size(), u.host);
      if (own.time.end_time < u.run.t) {
        char text[160];
        std::snprintf(text, sizeof text, "'time.end_time' = %g s is before t = %.9g s of the checkpoint ",
                      own.time.end_time, u.run.t);
        throw InputError(text + path + ": set a later end time to continue the run");
      }
      u.the_case->restore_state(u.run.case_state);
      Kokkos::deep_copy(u.q, u.host.q);
      u.host.time = u.run.t;
      log::info("restarting from " + path + " at step " + std::to_string(u.run.step) + ", t = " +
                std::to_string(u.run.t) + " s");
    } else {
      copy_to_host(u, 0.0);
      const auto integrals = conserved_integrals(u.host, info.conserved, u.weights, comm);
      for (int c = 0; c < nc; ++c) u.run.initial[c] = integrals[c];
    }
    if (const std::string bad =
            detail::check_physical<N, Eq>(eq, u.q, u.aux, u.x, member_mesh, u.run.step, u.run.t, comm);
        !bad.empty())
      throw RunError("initial state: " + bad);
    set_aside_later_checkpoints(u.ctx->output_dir, comm, u.run.step, path);
  }

  // Rank 0 writes diagnostics.csv; every rank learns whether it could (a full disk), so
  // none goes on alone into the next collective call.
  const auto on_rank_0 = [&](const std::function<void()>& write) {
    const CollectiveOutcome written = collective(comm, [&] {
      if (rank == 0) write();
    });
    if (!written.ok()) throw RunError(written.message);
  };
  for (Member& u : team) {
    const std::string csv_path = u.ctx->output_dir + "/diagnostics.csv";
    const std::string profiles_path = u.ctx->output_dir + "/profiles.nc";
    if (u.restarted) drop_later_records(csv_path, profiles_path, u.run.records_time, comm);
    on_rank_0([&] { u.csv = io::CsvWriter(csv_path, diagnostics_columns(info, *u.the_case), u.restarted); });
    start_profiles(profiles_path, u.restarted, comm);
  }

  // Curved elements: each rank measured its own nodes; the time step takes the smallest.
  Real min_spacing = geometry.min_node_spacing;
  if (geometry.curved) MPI_Allreduce(&geometry.min_node_spacing, &min_spacing, 1, MPI_DOUBLE, MPI_MIN, comm);
  for (Member& u : team)
    if (!u.restarted) u.run.max_diffusivity = rhs.max_diffusivity();  // the molecular one
  const auto max_wave_speed = [&](const Member& u) {
    return detail::max_wave_speed<N, Eq>(eq, u.q, u.aux, comm);
  };
  // Each member's largest wave speed (+infinity at a non-physical node: the state check)
  // and the largest diffusivity of the last stage, over ranks: for a batch, one launch of
  // each (on a device) and one allreduce for all members.
  const DeviceView<Real*> member_waves("solver::member_wave_speeds", members);
  const auto member_waves_host = Kokkos::create_mirror_view(member_waves);
  const auto update_maxima = [&] {
    detail::member_wave_speeds<N, Eq>(eq, q, aux, member_elements, member_waves);
    Kokkos::deep_copy(member_waves_host, member_waves);
    const std::vector<Real> diffusivity = rhs.member_max_diffusivities();
    std::vector<double> local(2 * static_cast<size_t>(members)), global(local.size());
    for (int m = 0; m < members; ++m) local[2 * m] = member_waves_host(m), local[2 * m + 1] = diffusivity[m];
    MPI_Allreduce(local.data(), global.data(), 2 * members, MPI_DOUBLE, MPI_MAX, comm);
    for (int m = 0; m < members; ++m) team[m].maxima = {global[2 * m], global[2 * m + 1]};
  };
  // At the start of each step (the initial states were checked above).
  update_maxima();
  double loop_start = MPI_Wtime();

  // With viscous terms, profiles.nc also gets the modelled (subgrid) fluxes, which one
  // more evaluation of the right-hand side per profile time forms (for every member of a
  // batch at once); its tendency goes into the integrator's stage buffer, which is free
  // between steps. The node values live only until they are on the grid, before the grid
  // of the derived fields is formed, so that a profile time adds as little as it can to
  // the run's peak memory.
  SubgridProfiles subgrid_names;
  if (rhs.viscous()) {
    subgrid_names.moist = Eq::moist;
    if (Eq::moist) subgrid_names.scalars.push_back("qt"), subgrid_names.scalar_units.push_back("kg kg-1");
    for (int k = 0; k < Eq::ntracers; ++k) {
      subgrid_names.scalars.push_back(info.derived[Eq::f_tracer + k].name);
      subgrid_names.scalar_units.push_back(info.derived[Eq::f_tracer + k].units);
    }
  }
  // What the operator adds to profiles.nc (nothing without viscous terms or radiation),
  // for the members `which`: the modelled fluxes and, with radiation, the horizontal mean
  // of its net flux, from the same evaluation, on the grid.
  struct OperatorProfiles {
    SubgridProfiles subgrid;
    std::vector<NodeProfile> further;
  };
  const auto operator_profiles = [&](const std::vector<int>& which) {
    std::vector<OperatorProfiles> out(static_cast<size_t>(members), OperatorProfiles{subgrid_names, {}});
    const Real time = team[which[0]].run.t;  // sources take no time (physics/sources.hpp)
    const auto member_part = [&](const auto& nodes, int m) {
      return HostView<Real***>(Kokkos::subview(nodes, std::make_pair(m * member_elements, (m + 1) * member_elements),
                                               Kokkos::ALL, Kokkos::ALL));
    };
    if (rhs.viscous()) {
      const DeviceView<Real***> nodes("dg::subgrid_fluxes", elements, dg::SubgridFlux::count<Eq>, L::nodes);
      rhs.subgrid_fluxes(time, q_flat, integrator.stage_buffer(), nodes);
      const auto host_nodes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), nodes);
      for (int m : which) out[m].subgrid.field = grid_node_values(member_part(host_nodes, m), lgl_nodes, member_mesh);
    } else if (rhs.radiation()) {
      rhs.evaluate_for_diagnostics(time, q_flat, integrator.stage_buffer());
    }
    if (rhs.radiation()) {
      // (element, node) seen as (element, 1, node): the same values in the same order.
      const auto nodes = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs.radiative_flux());
      const HostView<Real***> flux(nodes.data(), elements, 1, L::nodes);
      for (int m : which)
        out[m].further.push_back({"F_rad", "net upward longwave flux of the radiation scheme", "W m-2",
                                  grid_node_values(member_part(flux, m), lgl_nodes, member_mesh)[0]});
    }
    return out;
  };
  const auto write_profiles_of = [&](const Member& u, const GridValues& grid, const OperatorProfiles& op) {
    write_profiles(u.ctx->output_dir + "/profiles.nc", info, grid, u.run.t, comm, case_name, time_units,
                   rhs.viscous() ? &op.subgrid : nullptr, op.further);
  };
  // A diagnostics row of each member of `which` (with the ledger of each conserved
  // quantity: time_loop.hpp) and, with file numbers >= 0, its field file number files[i].
  const auto output = [&](const std::vector<int>& which, const std::vector<long>& files) {
    ScopedTimer timer(ctx.timers, "output");
    for (int m : which) {
      Member& u = team[m];
      copy_to_host(u, u.run.t);
      const auto now = conserved_integrals(u.host, info.conserved, u.weights, comm);
      const Ledger budget = ledger(u.run, now);
      const double speed = max_speed(u.host, comm);
      const double cfl = u.run.dt * max_wave_speed(u) / min_spacing;
      std::vector<double> row{u.run.t, double(u.run.step), u.run.dt};
      for (const auto* values : {&now[0], budget.change.data(), budget.residual.data()})
        for (int c = 0; c < nc; ++c) row.push_back(values[c]);
      for (double v : {speed, cfl, MPI_Wtime() - loop_start}) row.push_back(v);
      for (double v : u.the_case->time_series(u.host, comm)) row.push_back(v);
      on_rank_0([&] { u.csv.row(row); });
      u.last_row_time = u.run.t;
      if (!u.stopping) u.run.records_time = u.run.t;
    }
    if (files[0] < 0) return;
    // The operator's profiles first: their node values are gone before the grid is formed.
    std::vector<int> with_profiles;  // members whose profiles come with their field files
    for (int m : which)
      if (team[m].ctx->config->output.profiles_interval == 0) with_profiles.push_back(m);
    const std::vector<OperatorProfiles> op =
        with_profiles.empty() ? std::vector<OperatorProfiles>() : operator_profiles(with_profiles);
    for (size_t i = 0; i < which.size(); ++i) {
      Member& u = team[which[i]];
      const GridValues grid = grid_values(info, derive, u.host, lgl_nodes, member_mesh);
      write_field_file(u.ctx->output_dir + "/" + detail::field_file_name(static_cast<int>(files[i])), info, grid,
                       u.run.t, N, comm, case_name, time_units);
      if (u.ctx->config->output.profiles_interval == 0) write_profiles_of(u, grid, op[which[i]]);
      u.last_output_time = u.run.t;
    }
  };
  // Profiles on their own schedule (output.profiles_interval > 0), each with a
  // diagnostics row (the time series of a case follow the profiles' sampling).
  const auto profiles = [&](std::vector<int> which) {
    which.erase(std::remove_if(which.begin(), which.end(),
                               [&](int m) { return team[m].run.t == team[m].last_profile_time; }),
                which.end());
    if (which.empty()) return;
    std::vector<int> rows;
    for (int m : which)
      if (team[m].run.t != team[m].last_row_time) rows.push_back(m);
    if (!rows.empty()) output(rows, std::vector<long>(rows.size(), -1));
    ScopedTimer timer(ctx.timers, "output");
    for (int m : which) copy_to_host(team[m], team[m].run.t);
    const std::vector<OperatorProfiles> op = operator_profiles(which);
    for (int m : which) {
      Member& u = team[m];
      write_profiles_of(u, grid_values(info, derive, u.host, lgl_nodes, member_mesh), op[m]);
      u.last_profile_time = u.run.t;
      if (!u.stopping) u.run.records_time = u.run.t;
    }
  };
  for (Member& u : team) {
    u.schedule = std::make_unique<Schedule>(*u.ctx->config);
    if (u.restarted) u.schedule->resume(u.run);
    set_aside_later_fields(u.ctx->output_dir, comm, u.run.t);
  }
  const auto checkpoint = [&](Member& u) {
    if (u.run.step == u.checkpoint_step) return u.last_checkpoint;
    ScopedTimer timer(ctx.timers, "checkpoint");
    copy_to_host(u, u.run.t);
    u.run.case_state = u.the_case->saved_state();
    u.last_checkpoint = save_checkpoint(u.ctx->output_dir, comm, *u.ctx->config, case_name, member_mesh, info,
                                        u.host, u.run);
    u.checkpoint_step = u.run.step;
    return u.last_checkpoint;
  };

  const auto running = [&](const Member& u) {
    const TimeConfig& time = u.ctx->config->time;
    return u.active && !u.done && u.run.t < time.end_time && (time.max_steps == 0 || u.run.step < time.max_steps);
  };
  // A member whose loop has ended (its end time, max_steps or a stop signal): the records
  // of its last state, its checkpoint and its mean profiles.
  const auto finish = [&](Member& u, int m) {
    u.stopping = true;
    if (u.run.t != u.last_output_time) output({m}, {u.run.output_count + 1});
    if (u.schedule->profiles_interval > 0) profiles({m});
    checkpoint(u);
    // After the checkpoint, so that a failure to write the means loses nothing.
    if (u.ctx->config->output.profiles_mean_window.size() == 2) {
      ScopedTimer timer(ctx.timers, "output");
      write_mean_profiles(u.ctx->output_dir, *u.ctx->config, comm);
    }
    u.done = true;
  };
  // Field files: 0 is the initial state, k the k-th interval output, and a run that ends
  // between output times writes the next number.
  std::vector<int> fresh;
  for (int m = 0; m < members; ++m)
    if (!team[m].restarted) fresh.push_back(m);
  if (!fresh.empty()) output(fresh, std::vector<long>(fresh.size(), 0));
  std::vector<int> fresh_profiles;
  for (int m : fresh)
    if (team[m].schedule->profiles_interval > 0) fresh_profiles.push_back(m);
  if (!fresh_profiles.empty()) profiles(fresh_profiles);
  log::info("time loop: end_time = " + std::to_string(config.time.end_time) + " s, " + integrator.name() + ", " +
            (config.time.dt > 0 ? "fixed dt = " + std::to_string(config.time.dt) + " s"
                                : "cfl = " + std::to_string(config.time.cfl)) +
            (batched ? ", a batch of " + std::to_string(members) + " members, each with its own steps"
                     : std::string()));

  install_stop_signals();
  loop_start = MPI_Wtime();
  double last_print = loop_start;
  double output_seconds_before = ctx.timers.seconds("output") + ctx.timers.seconds("checkpoint");
  const long warmup = config.time.warmup_steps;
  long loop_steps = 0;  // steps of the batch (of every running member) in this loop
  for (Member& u : team) u.first_step = u.run.step, u.t_start = u.run.t;
  int stop_signal = 0;
  // The members' ledgers and clocks, for the integrator.
  std::vector<double> inflow(static_cast<size_t>(members) * nc), times(members), steps(members);
  const std::size_t block = static_cast<std::size_t>(member_elements) * Eq::nvar * L::nodes;
  for (;;) {
    std::vector<int> live;
    for (int m = 0; m < members; ++m)
      if (running(team[m])) live.push_back(m);
    if (live.empty()) break;
    if (warmup > 0 && loop_steps == warmup) {  // benchmarks: time from here on
      Kokkos::fence();
      ctx.timers.clear();
      output_seconds_before = 0;
      loop_start = MPI_Wtime();
    }
    for (int m : live) {
      Member& u = team[m];
      u.next_output = u.schedule->next_output_time(u.run);
      u.at_output = next_time_step(*u.ctx->config, u.run, u.maxima, min_spacing, rhs.evaluated(), u.next_output);
    }
    Kokkos::deep_copy(q_last_good, q_flat);
    const Member& lead = team[live[0]];
    for (int m = 0; m < members; ++m) {
      Member& u = team[m];
      u.before = u.run;
      std::copy(u.run.boundary_inflow.begin(), u.run.boundary_inflow.end(), inflow.begin() + m * nc);
      // A member that does not step keeps its last state (below); the lead's step keeps
      // the update in one block where the running members' steps agree.
      const bool live_member = running(u);
      times[m] = live_member ? u.run.t : lead.run.t;
      steps[m] = live_member ? u.run.dt : lead.run.dt;
    }
    integrator.step(rhs, times[0], steps[0], q_flat, Companion{rhs.ledger_rates_of_last_call(), inflow.data(), members * nc},
                    batched ? MemberClock{times.data(), steps.data(), members, block, stage_times.data()}
                            : MemberClock{});
    if constexpr (Eq::moist) detail::limit_total_water<N, Eq>(q, basis);
    ++loop_steps;
    for (int m = 0; m < members; ++m) {
      Member& u = team[m];
      if (!running(u)) {  // a member that failed or ended keeps its last state
        const auto range = std::make_pair(m * block, (m + 1) * block);
        Kokkos::deep_copy(Kokkos::subview(q_flat, range), Kokkos::subview(q_last_good, range));
        continue;
      }
      std::copy(inflow.begin() + m * nc, inflow.begin() + (m + 1) * nc, u.run.boundary_inflow.begin());
      ++u.run.step;
      u.run.t = u.at_output ? u.next_output : u.run.t + u.run.dt;
      u.the_case->post_step(u.run.t, u.q, comm);
    }
    update_maxima();  // also the state check
    for (int m = 0; m < members; ++m) {
      Member& u = team[m];
      if (!running(u)) continue;
      const auto range = std::make_pair(m * block, (m + 1) * block);
      std::string bad;
      if (!std::isfinite(u.maxima[0])) {
        bad = detail::check_physical<N, Eq>(eq, u.q, u.aux, u.x, member_mesh, u.run.step, u.run.t, comm);
        if (bad.empty()) bad = "the largest wave speed is not finite at step " + std::to_string(u.run.step);
        const Config& own = *u.ctx->config;
        char hint[96];
        if (own.time.dt > 0)
          std::snprintf(hint, sizeof hint, "; try a smaller time.dt (%g s, fixed)", own.time.dt);
        else
          std::snprintf(hint, sizeof hint, "; try a smaller time.cfl (%g)", own.time.cfl);
        bad += hint;
      }
      if (!bad.empty()) {
        Kokkos::deep_copy(Kokkos::subview(q_flat, range), Kokkos::subview(q_last_good, range));
        u.run = u.before;
        const std::string saved = checkpoint(u);
        fail(u, bad + "; the last good state (step " + std::to_string(u.run.step) + ", t = " +
                    std::to_string(u.run.t) + " s) is in " + saved);
      }
    }
    // What is due, member by member (in a batch the members' times may differ).
    std::vector<int> at_output, profiles_due;
    std::vector<long> files;
    for (int m : live) {
      Member& u = team[m];
      if (!u.active) continue;
      if (u.at_output) at_output.push_back(m), files.push_back(u.schedule->field_file_at_output(u.run));
    }
    if (!at_output.empty()) output(at_output, files);
    for (int m : live)
      if (team[m].active && team[m].schedule->profiles_due(team[m].run, team[m].before.t)) profiles_due.push_back(m);
    if (!profiles_due.empty()) profiles(profiles_due);
    for (int m : live)
      if (team[m].active && team[m].schedule->checkpoint_due(team[m].run, team[m].before.t)) checkpoint(team[m]);
    for (int m : live)
      if (team[m].active && !running(team[m])) finish(team[m], m);
    const double now = MPI_Wtime();
    if (now - last_print > 5.0 || !at_output.empty()) {
      const double elapsed = now - loop_start;
      // The slowest member's progress.
      const Member* slow = nullptr;
      for (const Member& u : team)
        if (running(u) && (!slow || u.run.t < slow->run.t)) slow = &u;
      if (slow) {
        const RunState& run = slow->run;
        const double end_time = slow->ctx->config->time.end_time;
        log::info(progress_line(run, elapsed,
                                run.t > slow->t_start ? elapsed * (end_time - run.t) / (run.t - slow->t_start) : 0));
      }
      last_print = now;
    }
    if ((stop_signal = agreed_stop_signal(comm)) != 0) break;
  }
  const double loop_seconds = MPI_Wtime() - loop_start -
                              (ctx.timers.seconds("output") + ctx.timers.seconds("checkpoint") - output_seconds_before);
  for (int m = 0; m < members; ++m) {
    Member& u = team[m];
    if (!u.active || u.done) continue;
    if (stop_signal != 0) {
      // The checkpoint first: a launcher may kill the ranks soon after its signal.
      u.stopped = true;
      const std::string saved = checkpoint(u);
      log::warn("stopped by signal " + std::to_string(stop_signal) + " at step " + std::to_string(u.run.step) +
                ", t = " + std::to_string(u.run.t) + " s; state saved in " + saved +
                "; continue with the same command and --restart latest, e.g. " +
                (ctx.summary.member_index >= 0
                     ? "squall ensemble " + ctx.summary.ensemble_file + " --restart latest"
                     : "squall run " + config.source + " --output " + ctx.output_dir + " --restart latest"));
    }
    finish(u, m);
  }

  // Summaries.
  for (Member& u : team) {
    io::RunSummary& s = *u.ctx->summary;
    copy_to_host(u, u.run.t);
    s.steps = u.run.step;
    s.timed_steps = u.run.step - u.first_step > warmup ? u.run.step - u.first_step - warmup : 0;
    s.rk_stages = integrator.stages();
    s.final_time = u.run.t;
    s.wall_seconds = loop_seconds;
    s.stop_signal = u.stopped ? stop_signal : 0;
    s.restarted_from = u.ctx->restart_path;
    detail::summarize_solution(s, info, *u.the_case, u.host, u.weights, u.x, u.run, comm);
  }
}

/// The time loop at order N with the equation set the config asks for: dry air with as
/// many passive tracers as physics.tracers names (one instantiation per count up to
/// SQUALL_MAX_TRACERS; the config reader refuses more).
template <int N, int K = 0>
void run_with_tracers(const RunContext& ctx, std::vector<std::unique_ptr<Case>> cases, int tracers) {
  if constexpr (K < SQUALL_MAX_TRACERS) {
    if (tracers > K) return run_with_tracers<N, K + 1>(ctx, std::move(cases), tracers);
  }
  if (tracers != K) throw InputError("this build carries at most " + std::to_string(K) + " tracers");
  run_equations<N, physics::DryAir<K>>(ctx, std::move(cases));
}

/// The same for moist air, up to SQUALL_MAX_MOIST_TRACERS tracers.
template <int N, int K = 0>
void run_moist_with_tracers(const RunContext& ctx, std::vector<std::unique_ptr<Case>> cases, int tracers) {
  if constexpr (K < SQUALL_MAX_MOIST_TRACERS) {
    if (tracers > K) return run_moist_with_tracers<N, K + 1>(ctx, std::move(cases), tracers);
  }
  if (tracers != K)
    throw InputError(ctx.config.source + ": 'physics.tracers': expected at most " + std::to_string(K) +
                     " names: a moist run ('" + ctx.case_info.name + "') of this build carries at most " +
                     std::to_string(K) + " tracers (cmake -DSQUALL_MAX_MOIST_TRACERS)");
  run_equations<N, physics::MoistAir<K>>(ctx, std::move(cases));
}

/// The time loop at order N: moist air for a moist case, else dry air, with the tracers.
template <int N>
void run_dg(const RunContext& ctx) {
  const int tracers = static_cast<int>(ctx.config.physics.tracers.size());
  // One case per member of a batch, each made from its own config.
  std::vector<std::unique_ptr<Case>> cases;
  if (ctx.batch)
    for (const BatchMember& member : *ctx.batch) cases.push_back(ctx.case_info.make(*member.config));
  else
    cases.push_back(ctx.case_info.make(ctx.config));
  if (cases[0]->moist()) return run_moist_with_tracers<N>(ctx, std::move(cases), tracers);
  // Water at the surface of a dry case: nothing would carry it (each member's own, in a batch).
  std::vector<const Config*> configs;
  if (ctx.batch)
    for (const BatchMember& member : *ctx.batch) configs.push_back(member.config);
  else
    configs.push_back(&ctx.config);
  for (const Config* c : configs) {
    for (const auto& [name, value] : {std::pair<const char*, double>{"water_flux", c->surface.water_flux},
                                      {"moisture_transfer", c->surface.moisture_transfer}})
      if (value != 0)
        throw InputError(c->source + ": 'surface." + name + "': expected 0 (unset): the case '" +
                         ctx.case_info.name + "' is dry (it carries no water)");
    if (!c->forcing.qt_tendency.empty())
      throw InputError(c->source + ": 'forcing.qt_tendency': expected [] (unset): the case '" + ctx.case_info.name +
                       "' is dry (it carries no water)");
  }
  if (ctx.config.radiation.scheme != "none")
    throw InputError(ctx.config.source + ": 'radiation.scheme' = \"" + ctx.config.radiation.scheme +
                     "\": expected \"none\": the case '" + ctx.case_info.name +
                     "' is dry (the scheme reads the liquid water)");
  run_with_tracers<N>(ctx, std::move(cases), tracers);
}

}  // namespace squall
