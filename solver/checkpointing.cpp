#include "solver/checkpointing.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "core/version.hpp"
#include "io/checkpoint.hpp"
#include "io/csv_writer.hpp"
#include "io/netcdf_fields.hpp"
#include "io/netcdf_profiles.hpp"
#include "solver/solution_diagnostics.hpp"

namespace squall {
namespace {

io::CheckpointBlock block_of(const mesh::LocalMesh& mesh, const HostSolution& host) {
  io::CheckpointBlock b;
  for (int d = 0; d < 3; ++d) {
    b.start[d] = mesh.element_begin(d);
    b.count[d] = mesh.element_end(d) - mesh.element_begin(d);
  }
  b.values_per_element = static_cast<int>(host.q.extent(1) * host.q.extent(2));
  return b;
}

/// Attribute names of the ledger: initial_<quantity>, boundary_<quantity> for each
/// conserved quantity (initial_mass, boundary_mass, initial_energy, boundary_energy,
/// initial_<tracer>_mass, ...).
/// Then case_state_<i> for each number the case keeps (Case::saved_state).
std::vector<std::string> ledger_names(const physics::VariableInfo& info, std::size_t case_values) {
  std::vector<std::string> names;
  for (const auto& quantity : info.budget_names) {
    names.push_back("initial_" + quantity);
    names.push_back("boundary_" + quantity);
  }
  for (std::size_t i = 0; i < case_values; ++i) names.push_back("case_state_" + std::to_string(i));
  return names;
}

std::string variables_of(const physics::VariableInfo& info) {
  std::string out;
  for (const auto& f : info.conservative) out += (out.empty() ? "" : ",") + f.name;
  return out;
}

/// The [terrain] keys (or mesh.warp) in one line, for the checkpoint's attribute; empty
/// when flat and unwarped.
std::string terrain_of(const Config& c) {
  const TerrainConfig& t = c.terrain;
  if (c.mesh.warp > 0) {
    char warp[48];
    std::snprintf(warp, sizeof warp, "warp=%.17g", c.mesh.warp);
    return warp;
  }
  if (!t.active()) return "";
  char numbers[256];
  std::snprintf(numbers, sizeof numbers,
                " height=%.17g half_width=%.17g wavelength=%.17g x_center=%.17g y_center=%.17g decay_scale=%.17g",
                t.height, t.half_width, t.wavelength, t.x_center, t.y_center, t.decay_scale);
  return "shape=" + t.shape + numbers + " decay=" + t.decay + " file=" + t.file + " variable=" + t.variable;
}

std::array<double, 6> domain_of(const Config& c) {
  const auto& d = c.mesh.domain;
  return {d[0][0], d[0][1], d[1][0], d[1][1], d[2][0], d[2][1]};
}

}  // namespace

std::string save_checkpoint(const std::string& dir, MPI_Comm comm, const Config& config, const std::string& case_name,
                            const mesh::LocalMesh& mesh, const physics::VariableInfo& info,
                            const HostSolution& host, const RunState& state) {
  io::CheckpointMeta m;
  m.time = state.t;
  m.step = state.step;
  m.output_count = state.output_count;
  m.dt = state.dt;
  const auto names = ledger_names(info, state.case_state.size());
  const std::size_t nc = info.budget_names.size();
  for (std::size_t c = 0; c < nc; ++c) {
    m.ledger.emplace_back(names[2 * c], state.initial[c]);
    m.ledger.emplace_back(names[2 * c + 1], state.boundary_inflow[c]);
  }
  for (std::size_t i = 0; i < state.case_state.size(); ++i) m.ledger.emplace_back(names[2 * nc + i], state.case_state[i]);
  m.max_diffusivity = state.max_diffusivity;
  m.records_time = state.records_time;
  m.case_name = case_name;
  m.variables = variables_of(info);
  m.version = version;
  m.config_text = config.text;
  m.checksum = state_checksum(host, comm);
  m.order = config.dg.order;
  m.elements = config.mesh.elements;
  m.domain = domain_of(config);
  for (int d = 0; d < 3; ++d) m.periodic[d] = config.mesh.periodic[d] ? 1 : 0;
  m.z_faces = config.mesh.z_faces;
  m.terrain = terrain_of(config);
  const std::string path = io::write_checkpoint(dir, comm, m, block_of(mesh, host), host.q.data());
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) io::prune_checkpoints(dir, config.output.checkpoint_keep);
  MPI_Barrier(comm);
  return path;
}

RunState load_checkpoint(const std::string& path, MPI_Comm comm, const Config& config, const std::string& case_name,
                         const mesh::LocalMesh& mesh, const physics::VariableInfo& info, std::size_t case_values,
                         HostSolution& host) {
  const auto refuse = [&](const std::string& why) {
    throw InputError("refusing checkpoint '" + path + "': " + why);
  };
  const io::CheckpointMeta m =
      io::read_checkpoint_meta(path, comm, ledger_names(info, case_values), [&](const io::CheckpointMeta& text) {
        if (text.case_name != case_name)
          refuse("it is of case '" + text.case_name + "', the config runs '" + case_name + "'");
        if (text.variables != variables_of(info))
          refuse("it holds the variables " + text.variables + ", the config's run has " + variables_of(info) +
                 " (physics.tracers must be the same)");
      });
  if (m.order != config.dg.order)
    refuse("it has dg.order = " + std::to_string(m.order) + ", the config " + std::to_string(config.dg.order));
  if (m.elements != config.mesh.elements)
    refuse("its mesh has " + std::to_string(m.elements[0]) + " x " + std::to_string(m.elements[1]) + " x " +
           std::to_string(m.elements[2]) + " elements, the config's mesh.elements differ");
  if (m.domain != domain_of(config)) refuse("its mesh.domain differs from the config's");
  for (int d = 0; d < 3; ++d)
    if ((m.periodic[d] != 0) != config.mesh.periodic[d]) refuse("its mesh.periodic differs from the config's");
  if (m.z_faces != config.mesh.z_faces)
    refuse("its element layers along z differ from the config's (mesh.element_heights, mesh.height_ratio)");
  if (m.terrain != terrain_of(config))
    refuse("it was written over the terrain '" + (m.terrain.empty() ? std::string("flat") : m.terrain) +
           "', the config's [terrain] is '" + (terrain_of(config).empty() ? std::string("flat") : terrain_of(config)) +
           "'");
  if (!m.metadata_verified)
    log::warn("checkpoint '" + path + "' carries no metadata checksum (written by an earlier version): its time, " +
              "step and ledger are used unverified");
  io::read_checkpoint_state(path, comm, block_of(mesh, host), host.q.data());
  const std::string checksum = state_checksum(host, comm);
  if (checksum != m.checksum)
    refuse("its data do not match their checksum (" + checksum + " != " + m.checksum + "): the file is damaged");
  RunState s;
  s.t = m.time;
  s.step = m.step;
  s.output_count = m.output_count;
  s.dt = m.dt;
  const std::size_t nc = info.budget_names.size();
  s.initial.assign(nc, 0.0);
  s.boundary_inflow.assign(nc, 0.0);
  for (std::size_t c = 0; c < nc; ++c) {
    s.initial[c] = m.ledger[2 * c].second;
    s.boundary_inflow[c] = m.ledger[2 * c + 1].second;
  }
  for (std::size_t i = 0; i < case_values; ++i) s.case_state.push_back(m.ledger[2 * nc + i].second);
  s.max_diffusivity = m.max_diffusivity;
  s.records_time = m.records_time < 0 ? m.time : m.records_time;  // files of earlier versions: their time
  return s;
}

void set_aside_later_checkpoints(const std::string& dir, MPI_Comm comm, long start_step,
                                 const std::string& restart_path) {
  const bool restarted = !restart_path.empty();
  std::vector<std::string> moved;
  const CollectiveOutcome outcome = collective(comm, [&] {
    if (comm_rank(comm) == 0) moved = io::set_aside_checkpoints(dir, restarted ? start_step : -1, restart_path);
  });
  if (!outcome.ok()) throw RunError(outcome.message);
  if (moved.empty()) return;
  std::string names;
  for (const auto& name : moved) names += (names.empty() ? "" : ", ") + name;
  log::warn("moved " + std::to_string(moved.size()) + " checkpoint(s) " +
            (restarted ? "later than the restart step" : "of an earlier run") + " to " + dir + "/" +
            io::superseded_dir + " (" + names + "); to continue that run instead, restart from one of them");
}

void set_aside_later_fields(const std::string& dir, MPI_Comm comm, double t) {
  namespace fs = std::filesystem;
  std::vector<std::string> moved;
  const CollectiveOutcome outcome = collective(comm, [&] {
    if (comm_rank(comm) != 0) return;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();  // fields_NNNNNN.nc
      if (name.size() < 16 || name.rfind("fields_", 0) != 0 || name.compare(name.size() - 3, 3, ".nc") != 0) continue;
      const std::string digits = name.substr(7, name.size() - 10);
      if (digits.find_first_not_of("0123456789") != std::string::npos) continue;
      const double time = io::read_field_time(entry.path().string());
      if (!(time <= t)) moved.push_back(name);
    }
    if (ec) throw RunError("cannot list '" + dir + "': " + ec.message());
    if (moved.empty()) return;
    std::sort(moved.begin(), moved.end());
    const fs::path aside = fs::path(dir) / "superseded_fields";
    fs::remove_all(aside, ec);
    fs::create_directories(aside, ec);
    if (ec) throw RunError("cannot create '" + aside.string() + "': " + ec.message());
    for (const auto& name : moved) {
      fs::rename(fs::path(dir) / name, aside / name, ec);
      if (ec) throw RunError("cannot move '" + name + "' to '" + aside.string() + "': " + ec.message());
    }
  });
  if (!outcome.ok()) throw RunError(outcome.message);
  if (comm_rank(comm) != 0 || moved.empty()) return;
  log::warn("moved " + std::to_string(moved.size()) + " field file(s) of times after this run's start, of an " +
            "earlier run or of the abandoned part of the restarted one, to " + dir + "/superseded_fields (" +
            moved.front() + (moved.size() > 1 ? " ... " + moved.back() : "") + ")");
}

void drop_later_records(const std::string& csv_path, const std::string& profiles_path, double records_time,
                        MPI_Comm comm) {
  long rows = 0, records = 0;
  const std::string damaged = profiles_path + ".damaged";
  bool set_aside = false;
  const CollectiveOutcome outcome = collective(comm, [&] {
    if (comm_rank(comm) != 0) return;
    rows = io::truncate_csv_after(csv_path, records_time);
    // A profiles file left unreadable (an append cut off by a full disk) is kept aside,
    // and the run starts a new one rather than refusing to continue.
    if (std::filesystem::exists(profiles_path) && !io::readable_netcdf(profiles_path)) {
      std::error_code ec;
      std::filesystem::rename(profiles_path, damaged, ec);
      if (ec) throw RunError("cannot move the unreadable '" + profiles_path + "' aside: " + ec.message());
      set_aside = true;
    }
    records = io::truncate_profiles_after(profiles_path, records_time);
  });
  if (!outcome.ok()) throw RunError(outcome.message);
  if (comm_rank(comm) == 0 && set_aside)
    log::warn(profiles_path + " could not be read (cut off by a failed write?): kept as " + damaged +
              "; a new profiles file starts at the restart");
  if (rows + records > 0)
    log::warn("dropped " + std::to_string(rows) + " row(s) of " + csv_path + " and " + std::to_string(records) +
              " record(s) of " + profiles_path + " after t = " + std::to_string(records_time) +
              " s, written after the checkpoint or when the run stopped between output times");
}

}  // namespace squall
