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

std::uint64_t memory_per_rank(const Config& config, int variables, int ranks) {
  const auto p = mesh::CartesianPartition::choose(config.mesh.elements, ranks).ranks();
  std::uint64_t elements = 1;
  for (int d = 0; d < 3; ++d)
    elements *= static_cast<std::uint64_t>((config.mesh.elements[d] + p[d] - 1) / p[d]);
  const std::uint64_t nodes = elements * std::uint64_t((config.dg.order + 1) * (config.dg.order + 1) * (config.dg.order + 1));
  const bool viscous = config.physics.viscosity > 0 || config.physics.closure == "smagorinsky" ||
                       config.physics.closure == "vreman";
  return nodes * std::uint64_t(variables) * (viscous ? 125 : 70) + (std::uint64_t(40) << 20);
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

std::string check_memory(const Config& config, int variables, int ranks, int node_ranks) {
  const std::uint64_t per_rank = memory_per_rank(config, variables, ranks);
  const std::uint64_t need = per_rank * std::uint64_t(node_ranks);
  const auto [total, available] = node_memory();
  const std::string what = "the mesh needs about " + io::format_bytes(double(per_rank)) + " of memory per rank, " +
                           io::format_bytes(double(need)) + " for the " + std::to_string(node_ranks) +
                           " rank(s) on this node";
  if (total > 0 && need > total)
    throw InputError(what + ", which has " + io::format_bytes(double(total)) +
                     " in all: spread the ranks over more nodes, or use fewer elements (mesh.elements) or a lower "
                     "dg.order");
  if (available > 0 && need > available)
    return what + ", more than the " + io::format_bytes(double(available)) + " available now";
  return "";
}

io::RunSummary run_simulation(const Config& config, const CaseInfo& case_info, const std::string& output_dir,
                              MPI_Comm comm, const std::string& restart, const io::RunSummary* member) {
  const int ranks = comm_size(comm);
  Timers timers;
  make_output_dir(output_dir, comm);
  // One run per output directory: rank 0 holds the lock until the run ends, on any exit.
  io::OutputLock lock;
  std::string lock_warning;
  rethrow(collective(comm, [&] {
    if (comm_rank(comm) == 0) lock = io::OutputLock(output_dir, lock_warning);
  }));
  if (!lock_warning.empty()) log::warn(lock_warning);

  const mesh::Brick brick(config.mesh);
  const auto partition = mesh::CartesianPartition::choose(config.mesh.elements, ranks);
  std::unique_ptr<mesh::LocalMesh> local;
  {
    ScopedTimer t(timers, "setup_mesh");
    local = std::make_unique<mesh::LocalMesh>(brick, partition, comm_rank(comm));
  }
  const int n = config.dg.order;
  const long long dof = brick.element_count() * static_cast<long long>((n + 1) * (n + 1) * (n + 1));
  const auto& e = config.mesh.elements;
  const auto& p = partition.ranks();
  log::info("squall " + std::string(version) + ": case " + case_info.name + ", " +
            std::to_string(e[0]) + " x " + std::to_string(e[1]) + " x " + std::to_string(e[2]) +
            " elements, N = " + std::to_string(n) + ", " + std::to_string(dof) + " DOF on " +
            std::to_string(ranks) + " rank(s) as " + std::to_string(p[0]) + " x " +
            std::to_string(p[1]) + " x " + std::to_string(p[2]) + ", backend " +
            ExecSpace::name() + ", host code " + host_arch);

  long long local_faces[3] = {static_cast<long long>(local->interior_faces().size()),
                              static_cast<long long>(local->boundary_faces().size()),
                              static_cast<long long>(local->mpi_faces().size())};
  long long global_faces[3] = {0, 0, 0};
  MPI_Allreduce(local_faces, global_faces, 3, MPI_LONG_LONG, MPI_SUM, comm);

  io::RunSummary s;
  s.case_name = case_info.name;
  s.config_file = config.source;
  s.version = version;
  s.backend = ExecSpace::name();
  s.ranks = ranks;
  s.rank_grid = p;
  s.polynomial_order = n;
  s.elements = e;
  s.dof = dof;
  s.rk_stages = TimeIntegrator::stages_of(config.time.integrator);
  s.face_counts = {global_faces[0], global_faces[1], global_faces[2] / 2};
  if (member) {
    s.member_index = member->member_index;
    s.ensemble_file = member->ensemble_file;
    s.member_overrides = member->member_overrides;
  }

  std::string restart_path = restart;
  if (restart == "latest") {
    restart_path = io::latest_checkpoint(output_dir);
    if (restart_path.empty())
      throw InputError("--restart latest: no complete checkpoint_*.h5 in '" + output_dir + "'");
  }
  const RunContext ctx{config, case_info, output_dir, comm, *local, timers, s, restart_path};
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
  s.timers = timers.summarize(comm);
  {
    // Peak resident set of each rank (Linux reports kilobytes), summed and the largest.
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const long long mine = static_cast<long long>(usage.ru_maxrss) * 1024;
    MPI_Allreduce(&mine, &s.peak_rss_bytes, 1, MPI_LONG_LONG, MPI_SUM, comm);
    MPI_Allreduce(&mine, &s.peak_rss_bytes_max_rank, 1, MPI_LONG_LONG, MPI_MAX, comm);
  }
  if (s.timed_steps > 0)
  {
    char line[256];
    std::snprintf(line, sizeof line, "done: %ld steps to t = %.6g s in %.3f s (time loop), PID %.3e s", s.steps,
                  s.final_time, s.wall_seconds, s.wall_seconds * ranks / (double(dof) * s.rk_stages * s.timed_steps));
    log::info(line);
  }

  const CollectiveOutcome written = collective(comm, [&] {
    if (comm_rank(comm) == 0) io::write_summary(output_dir, s);
  });
  if (!written.ok()) throw RunError(written.message);
  log::info("wrote " + output_dir + "/summary.json");
  return s;
}

}  // namespace squall
