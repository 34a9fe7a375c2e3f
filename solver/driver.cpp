#include "solver/driver.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <system_error>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "solver/time_integrator.hpp"
#include "core/timers.hpp"
#include "core/types.hpp"
#include "core/version.hpp"
#include "io/checkpoint.hpp"
#include "io/disk_space.hpp"
#include "io/output_lock.hpp"
#include "io/summary.hpp"
#include "mesh/brick.hpp"
#include "mesh/local_mesh.hpp"
#include "mesh/partition.hpp"
#include "solver/simulation.hpp"

namespace squall {
namespace {

/// Throws the agreed error of a collective phase on every rank, as the same kind.
void rethrow(const CollectiveOutcome& outcome) {
  if (outcome.ok()) return;
  if (outcome.status == exit_input_error) throw InputError(outcome.message);
  throw RunError(outcome.message);
}

/// Creates the output directory and makes sure files can be created in it (a probe file,
/// removed at once), so that a read-only or foreign directory is refused as bad input
/// (exit status 2) on every rank before any rank writes; otherwise one rank's failed
/// write would leave the others waiting in a collective call.
void make_output_dir(const std::string& dir, MPI_Comm comm) {
  const CollectiveOutcome made = collective(comm, [&] {
    if (comm_rank(comm) != 0) return;
    const std::string hint = "; choose another with --output or output.dir";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError("cannot create output directory '" + dir + "': " + ec.message() + hint);
    if (!std::filesystem::is_directory(dir, ec))
      throw InputError("output directory '" + dir + "' is not a directory" + hint);
    const std::string probe = dir + "/.squall_write_probe_" + std::to_string(::getpid());
    std::FILE* f = std::fopen(probe.c_str(), "w");
    if (!f) throw InputError("output directory '" + dir + "' is not writable: " + std::strerror(errno) + hint);
    std::fclose(f);
    std::remove(probe.c_str());
  });
  rethrow(made);
}

}  // namespace

void check_config_for_ranks(const Config& config, int ranks) {
  mesh::CartesianPartition::choose(config.mesh.elements, ranks);
}

std::uint64_t memory_per_rank(const Config& config, int variables, int ranks, int copies) {
  const auto p = mesh::CartesianPartition::choose(config.mesh.elements, ranks).ranks();
  std::uint64_t elements = 1;
  for (int d = 0; d < 3; ++d)
    elements *= static_cast<std::uint64_t>((config.mesh.elements[d] + p[d] - 1) / p[d]);
  const std::uint64_t nodes = elements * std::uint64_t((config.dg.order + 1) * (config.dg.order + 1) * (config.dg.order + 1));
  const bool viscous = config.physics.viscosity > 0 || config.physics.closure == "smagorinsky" ||
                       config.physics.closure == "vreman";
  return nodes * std::uint64_t(variables) * (viscous ? 125 : 70) * std::uint64_t(copies) + (std::uint64_t(40) << 20);
}

namespace {

/// MemTotal and MemAvailable of /proc/meminfo [bytes]; 0 when unknown.
std::pair<std::uint64_t, std::uint64_t> node_memory() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t value = 0, total = 0, available = 0;
  while (in >> key >> value >> unit) {
    if (key == "MemTotal:") total = value << 10;
    if (key == "MemAvailable:") available = value << 10;
  }
  return {total, available};
}

}  // namespace

std::string check_memory(const Config& config, int variables, int ranks, int node_ranks, int copies) {
  const std::uint64_t per_rank = memory_per_rank(config, variables, ranks, copies);
  const std::uint64_t need = per_rank * std::uint64_t(node_ranks);
  const auto [total, available] = node_memory();
  const std::string what = (copies > 1 ? "a batch of " + std::to_string(copies) + " members needs about "
                                       : std::string("the mesh needs about ")) +
                           io::format_bytes(double(per_rank)) + " of memory per rank, " +
                           io::format_bytes(double(need)) + " for the " + std::to_string(node_ranks) +
                           " rank(s) on this node";
  if (total > 0 && need > total)
    throw InputError(what + ", which has " + io::format_bytes(double(total)) +
                     " in all: spread the ranks over more nodes, or use fewer elements (mesh.elements) or a lower "
                     "dg.order" +
                     (copies > 1 ? ", or fewer members per batch (more ranks, or no --batch)" : ""));
  if (available > 0 && need > available)
    return what + ", more than the " + io::format_bytes(double(available)) + " available now";
  return "";
}

namespace {

/// The runs of `runs` (one, or a batch of several with `batched`) on `comm`: output
/// directories and locks, the mesh, the time loop, and each run's summary.json.
std::vector<BatchResult> run_members(const std::vector<BatchRun>& runs, const CaseInfo& case_info, MPI_Comm comm,
                                     bool batched) {
  const int ranks = comm_size(comm);
  const int count = static_cast<int>(runs.size());
  const Config& config = *runs[0].config;
  Timers timers;
  // One run per output directory: rank 0 holds the lock until the run ends, on any exit.
  std::vector<io::OutputLock> locks(runs.size());
  for (int m = 0; m < count; ++m) {
    make_output_dir(runs[m].output_dir, comm);
    std::string lock_warning;
    rethrow(collective(comm, [&] {
      if (comm_rank(comm) == 0) locks[m] = io::OutputLock(runs[m].output_dir, lock_warning);
    }));
    if (!lock_warning.empty()) log::warn(lock_warning);
  }

  const mesh::Brick brick(config.mesh);
  const auto partition = mesh::CartesianPartition::choose(config.mesh.elements, ranks);
  std::unique_ptr<mesh::LocalMesh> local, batch;
  {
    ScopedTimer t(timers, "setup_mesh");
    local = std::make_unique<mesh::LocalMesh>(brick, partition, comm_rank(comm));
    if (batched) batch = std::make_unique<mesh::LocalMesh>(mesh::LocalMesh::batch(*local, count));
  }
  const int n = config.dg.order;
  const long long dof = brick.element_count() * static_cast<long long>((n + 1) * (n + 1) * (n + 1));
  const auto& e = config.mesh.elements;
  const auto& p = partition.ranks();
  log::info("squall " + std::string(version) + ": case " + case_info.name + ", " +
            std::to_string(e[0]) + " x " + std::to_string(e[1]) + " x " + std::to_string(e[2]) +
            " elements, N = " + std::to_string(n) + ", " + std::to_string(dof) + " DOF" +
            (batched ? " per member, a batch of " + std::to_string(count) + " members," : std::string()) + " on " +
            std::to_string(ranks) + " rank(s) as " + std::to_string(p[0]) + " x " +
            std::to_string(p[1]) + " x " + std::to_string(p[2]) + ", backend " +
            ExecSpace::name() + ", host code " + host_arch);

  long long local_faces[3] = {static_cast<long long>(local->interior_faces().size()),
                              static_cast<long long>(local->boundary_faces().size()),
                              static_cast<long long>(local->mpi_faces().size())};
  long long global_faces[3] = {0, 0, 0};
  MPI_Allreduce(local_faces, global_faces, 3, MPI_LONG_LONG, MPI_SUM, comm);

  std::vector<BatchResult> results(runs.size());
  std::vector<BatchMember> members;
  for (int m = 0; m < count; ++m) {
    const BatchRun& run = runs[m];
    io::RunSummary& s = results[m].summary;
    s.case_name = case_info.name;
    s.config_file = run.config->source;
    s.version = version;
    s.backend = ExecSpace::name();
    s.ranks = ranks;
    s.rank_grid = p;
    s.polynomial_order = n;
    s.elements = e;
    s.dof = dof;
    s.rk_stages = TimeIntegrator::stages_of(config.time.integrator);
    s.face_counts = {global_faces[0], global_faces[1], global_faces[2] / 2};
    s.member_index = run.tag.member_index;
    s.ensemble_file = run.tag.ensemble_file;
    s.member_overrides = run.tag.member_overrides;
    s.batch_members = batched ? count : 0;
    std::string restart_path = run.restart;
    if (run.restart == "latest") {
      restart_path = io::latest_checkpoint(run.output_dir);
      if (restart_path.empty())
        throw InputError("--restart latest: no complete checkpoint_*.h5 in '" + run.output_dir + "'");
    }
    members.push_back({run.config, run.output_dir, &s, restart_path, {}});
  }
  RunContext ctx{config, case_info, runs[0].output_dir, comm, *local, timers, results[0].summary,
                 members[0].restart_path};
  if (batched) ctx.batch = &members, ctx.batch_mesh = batch.get();
  switch (n) {
    case 1: run_dg<1>(ctx); break;
    case 2: run_dg<2>(ctx); break;
    case 3: run_dg<3>(ctx); break;
    case 4: run_dg<4>(ctx); break;
    case 5: run_dg<5>(ctx); break;
    case 6: run_dg<6>(ctx); break;
    case 7: run_dg<7>(ctx); break;
    case 8: run_dg<8>(ctx); break;
    default: throw InputError("dg.order must be in 1..8");
  }
  const auto timer_summary = timers.summarize(comm);
  long long peak[2] = {0, 0};
  {
    // Peak resident set of each rank (Linux reports kilobytes), summed and the largest.
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const long long mine = static_cast<long long>(usage.ru_maxrss) * 1024;
    MPI_Allreduce(&mine, &peak[0], 1, MPI_LONG_LONG, MPI_SUM, comm);
    MPI_Allreduce(&mine, &peak[1], 1, MPI_LONG_LONG, MPI_MAX, comm);
  }
  for (int m = 0; m < count; ++m) {
    io::RunSummary& s = results[m].summary;
    results[m].failure = members[m].failure;
    s.timers = timer_summary;
    s.peak_rss_bytes = peak[0];
    s.peak_rss_bytes_max_rank = peak[1];
    if (!results[m].failure.empty()) continue;  // its checkpoint and diagnostics tell what happened
    if (s.timed_steps > 0) {
      char line[256];
      std::snprintf(line, sizeof line, "done: %ld steps to t = %.6g s in %.3f s (time loop), PID %.3e s", s.steps,
                    s.final_time, s.wall_seconds,
                    s.wall_seconds * ranks / (double(dof) * count * s.rk_stages * s.timed_steps));
      if (!batched || m == 0) log::info(line);
    }
    const CollectiveOutcome written = collective(comm, [&] {
      if (comm_rank(comm) == 0) io::write_summary(runs[m].output_dir, s);
    });
    if (!written.ok()) throw RunError(written.message);
    log::info("wrote " + runs[m].output_dir + "/summary.json");
  }
  return results;
}

}  // namespace

io::RunSummary run_simulation(const Config& config, const CaseInfo& case_info, const std::string& output_dir,
                              MPI_Comm comm, const std::string& restart, const io::RunSummary* member) {
  BatchRun run{&config, output_dir, restart, {}};
  if (member) run.tag = *member;
  return run_members({run}, case_info, comm, false)[0].summary;
}

std::vector<BatchResult> run_batch(const std::vector<BatchRun>& runs, const CaseInfo& case_info, MPI_Comm comm) {
  return run_members(runs, case_info, comm, true);
}

}  // namespace squall
