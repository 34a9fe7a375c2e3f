#include "solver/ensemble.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "core/signals.hpp"
#include "io/checkpoint.hpp"
#include "io/json.hpp"
#include "io/output_lock.hpp"
#include "io/summary.hpp"
#include "solver/driver.hpp"

namespace squall {
namespace {

/// What the ensemble keeps of one member: the entry of ensemble_summary.json (also the
/// member's member.json) and the numbers the totals add up.
struct MemberRecord {
  io::Json entry;
  std::string status = "not run";  ///< done, failed, stopped, not run
  int exit_status = 0;
  double final_time = 0;
  double wall_seconds = 0;  ///< time loop, all segments
  double core_seconds = 0;  ///< time loop x ranks, all segments
};

/// The value of `"key": ` in JSON text this code wrote (one key per line): the token up
/// to the end of its line, without a trailing comma and without quotes; "" if absent.
std::string field(const std::string& text, const std::string& key) {
  const std::string tag = "\"" + key + "\": ";
  const size_t at = text.find(tag);
  if (at == std::string::npos) return "";
  const size_t begin = at + tag.size();
  std::string value = text.substr(begin, text.find('\n', begin) - begin);
  if (!value.empty() && value.back() == ',') value.pop_back();
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
  return value;
}

double number_field(const std::string& text, const std::string& key) {
  return std::strtod(field(text, key).c_str(), nullptr);
}

/// The record a member's member.json holds (written by an earlier invocation).
MemberRecord read_record(const std::string& text) {
  MemberRecord r;
  r.entry = io::Json::raw(text);
  r.status = field(text, "status");
  r.exit_status = std::atoi(field(text, "exit_status").c_str());
  r.final_time = number_field(text, "final_time");
  r.wall_seconds = number_field(text, "wall_seconds");
  r.core_seconds = number_field(text, "core_seconds");
  return r;
}

/// Rank 0's text of `path` ("" if it does not exist), on every rank.
std::string shared_text(MPI_Comm comm, const std::string& path) {
  std::string text;
  if (comm_rank(comm) == 0) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    text = in ? s.str() : std::string();
  }
  broadcast(comm, text, 0);
  return text;
}

io::Json string_array(const std::vector<std::string>& items) {
  io::Json a = io::Json::array();
  for (const auto& i : items) a.push(io::Json(i));
  return a;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : " ") + i;
  return out.empty() ? std::string("the base config") : out;
}

/// A member's entry when it has no member.json (not run in this invocation, or not yet).
MemberRecord not_run(const io::EnsembleMember& member, const std::string& dir) {
  MemberRecord r;
  r.entry = io::Json::object();
  r.entry.set("index", member.index);
  r.entry.set("dir", dir);
  r.entry.set("overrides", string_array(member.overrides));
  r.entry.set("status", r.status);
  return r;
}

/// ensemble_summary.json from every member's member.json (rank 0 only; files that other
/// groups write as their members end).
void write_ensemble_summary(const EnsemblePlan& plan, int groups, double wall) {
  std::vector<MemberRecord> records;
  for (const io::EnsembleMember& member : plan.spec.members) {
    const std::string dir = io::member_dir(plan.output_dir, member.index);
    std::ifstream in(dir + "/member.json");
    std::ostringstream text;
    text << in.rdbuf();
    records.push_back(in && !text.str().empty() ? read_record(text.str()) : not_run(member, dir));
  }
  io::Json j = io::Json::object();
  j.set("ensemble_file", plan.spec.source);
  j.set("base_config", plan.spec.base_config);
  j.set("case", plan.case_info->name);
  j.set("common_overrides", string_array(plan.spec.common));
  j.set("execution", std::to_string(groups) + " group(s) of " + std::to_string(plan.ranks_per_member) +
                         " rank(s), side by side; each group runs its members (index modulo groups) " +
                         (!plan.batch                ? "one after another"
                          : plan.batch_members > 0 ? "in batches of at most " + std::to_string(plan.batch_members)
                                                   : "as one batch"));
  j.set("batch", plan.batch);
  j.set("groups", groups);
  j.set("ranks_per_member", plan.ranks_per_member);
  j.set("members", static_cast<long long>(records.size()));
  io::Json counts = io::Json::object();
  double simulated = 0, core = 0, member_wall = 0;
  long long done = 0;
  for (const char* status : {"done", "failed", "stopped", "not run"}) {
    long long n = 0;
    for (const auto& r : records) n += r.status == status;
    counts.set(status, n);
    if (std::string(status) == "done") done = n;
  }
  for (const auto& r : records) simulated += r.final_time, core += r.core_seconds, member_wall += r.wall_seconds;
  j.set("status_counts", counts);
  j.set("wall_seconds", wall);
  j.set("member_wall_seconds", member_wall);
  j.set("core_seconds", core);
  j.set("simulated_seconds", simulated);
  j.set("core_seconds_per_simulated_hour", simulated > 0 ? io::Json(core * 3600 / simulated) : io::Json());
  j.set("members_done_per_hour", wall > 0 ? io::Json(double(done) * 3600 / wall) : io::Json());
  io::Json list = io::Json::array();
  for (const auto& r : records) list.push(r.entry);
  j.set("member_records", list);
  io::write_file_atomically(plan.output_dir + "/ensemble_summary.json", j.dump());
}

}  // namespace

int ranks_per_member(int ranks, int members, int requested) {
  if (requested > 0) {
    if (ranks % requested != 0)
      throw InputError("--ranks-per-member " + std::to_string(requested) + ": expected a divisor of the " +
                       std::to_string(ranks) + " rank(s)");
    return requested;
  }
  int groups = 1;
  for (int g = 1; g <= std::min(ranks, members); ++g)
    if (ranks % g == 0) groups = g;
  return ranks / groups;
}

bool batch_may_differ(const std::string& key) {
  // The initial perturbations of the cases (cases/registry.cpp), which the operator does
  // not see; the numbers the operator keeps per element (OperatorOptions::member_*); and
  // each member's time steps and output times (its clock: MemberClock).
  static const char* const keys[] = {"case.seed",
                                     "case.amplitude",
                                     "case.theta_perturbation",
                                     "case.qt_perturbation",
                                     "physics.smagorinsky_cs",
                                     "forcing.coriolis",
                                     "forcing.geostrophic_u",
                                     "forcing.geostrophic_v",
                                     "forcing.subsidence",
                                     "forcing.theta_tendency",
                                     "forcing.qt_tendency",
                                     "time.cfl",
                                     "time.dt",
                                     "time.end_time",
                                     "time.max_steps",
                                     "output.interval",
                                     "output.profiles_interval",
                                     "output.checkpoint_interval",
                                     "output.checkpoint_steps"};
  for (const char* k : keys)
    if (key == k) return true;
  // Every [surface] number (the wall kinds, [boundary], are the batch's), and every
  // radiation number but the scheme.
  return key.rfind("surface.", 0) == 0 || (key.rfind("radiation.", 0) == 0 && key != "radiation.scheme");
}

namespace {
/// The forcing terms a config switches on, by key. The members of a batch may give the
/// forcing other values but share its kernel: the forcing is on for all or for none
/// (physics::LargeScaleForcing::active) and so is subsidence (its vertical derivatives).
std::vector<std::pair<std::string, bool>> forcing_terms(const ForcingConfig& f) {
  return {{"forcing.coriolis", f.coriolis != 0},
          {"forcing.geostrophic_u", !f.geostrophic_u.empty()},
          {"forcing.geostrophic_v", !f.geostrophic_v.empty()},
          {"forcing.subsidence", !f.subsidence.empty()},
          {"forcing.theta_tendency", !f.theta_tendency.empty()},
          {"forcing.qt_tendency", !f.qt_tendency.empty()},
          {"forcing.geostrophic_sponge", f.geostrophic_sponge}};
}
bool forcing_on(const ForcingConfig& f) {
  return f.coriolis != 0 || !f.subsidence.empty() || !f.theta_tendency.empty() || !f.qt_tendency.empty() ||
         f.geostrophic_sponge;
}

/// The switches that shape a batch's kernels, which its members share: members that
/// switch the forcing, or its subsidence, or the radiation's diagnosed inversion on where
/// the first member has it off (or off where it has it on) are an error naming the member
/// and a key that differs.
void check_kernel_switches(const EnsemblePlan& plan) {
  const ForcingConfig& first = plan.configs.front().forcing;
  for (size_t i = 1; i < plan.configs.size(); ++i) {
    const double qt = plan.configs[i].radiation.inversion_qt, qt0 = plan.configs.front().radiation.inversion_qt;
    if ((qt > 0) != (qt0 > 0)) {
      std::ostringstream text;
      text << plan.spec.source << ": member " << plan.spec.members[i].index << ": 'radiation.inversion_qt' = " << qt
           << " against member " << plan.spec.members.front().index << "'s " << qt0;
      throw InputError(text.str() +
                       ": the members of a batch diagnose the inversion height (inversion_qt > 0) all or none; "
                       "run them without batch");
    }
    const ForcingConfig& own = plan.configs[i].forcing;
    const bool subsidence = own.subsidence.empty() != first.subsidence.empty();
    if (!subsidence && forcing_on(own) == forcing_on(first)) continue;
    const auto mine = forcing_terms(own), theirs = forcing_terms(first);
    for (size_t k = 0; k < mine.size(); ++k) {
      if (mine[k].second == theirs[k].second || (subsidence && mine[k].first != "forcing.subsidence")) continue;
      const auto state = [](bool on) { return on ? std::string("on") : std::string("off (unset or 0)"); };
      throw InputError(plan.spec.source + ": member " + std::to_string(plan.spec.members[i].index) + ": '" +
                       mine[k].first + "' is " + state(mine[k].second) + ", member " +
                       std::to_string(plan.spec.members.front().index) + "'s is " + state(theirs[k].second) +
                       ": the members of a batch may give the forcing other values, but " +
                       (subsidence ? "subsidence" : "the forcing") +
                       " must be on for all of them or for none; run them without batch");
    }
  }
}
}  // namespace

void check_batch(const EnsemblePlan& plan) {
  const std::string where = plan.spec.source + ": ";
  // Every key a member sets, with each member's value ("" where it keeps the common one).
  const auto values = [](const io::EnsembleMember& member) {
    std::map<std::string, std::string> v;
    for (const std::string& o : member.overrides) {
      const size_t eq = o.find('=');
      v[o.substr(0, eq)] = eq == std::string::npos ? "" : o.substr(eq + 1);
    }
    return v;
  };
  std::map<std::string, bool> keys;
  for (const io::EnsembleMember& member : plan.spec.members)
    for (const auto& [key, value] : values(member)) keys[key] = true;
  const io::EnsembleMember& zero = plan.spec.members.front();
  const auto zero_values = values(zero);
  for (const io::EnsembleMember& member : plan.spec.members) {
    const auto own = values(member);
    for (const auto& [key, unused] : keys) {
      if (batch_may_differ(key)) continue;
      const auto a = own.find(key), b = zero_values.find(key);
      const std::string mine = a == own.end() ? "(the common value)" : a->second;
      const std::string theirs = b == zero_values.end() ? "(the common value)" : b->second;
      if (mine != theirs)
        throw InputError(where + "member " + std::to_string(member.index) + ": '" + key + "' = " + mine +
                         " differs from member " + std::to_string(zero.index) + "'s " + theirs +
                         ": the members of a batch (ensemble.batch, --batch) may differ only in their initial "
                         "perturbations (case.*: seed, amplitude, theta_perturbation, qt_perturbation), "
                         "physics.smagorinsky_cs, the surface numbers (surface.*), the forcing's values "
                         "(forcing.*: coriolis, geostrophic_u, geostrophic_v, subsidence, theta_tendency, "
                         "qt_tendency), the radiation's numbers (radiation.* but scheme), their time steps and end (time.*: cfl, dt, end_time, max_steps) "
                         "and output times (output.*: interval, profiles_interval, checkpoint_interval, "
                         "checkpoint_steps) for now; run them without batch");
    }
  }
  check_kernel_switches(plan);
}

int run_ensemble(const EnsemblePlan& plan, MPI_Comm comm, bool restart_latest) {
  const int ranks = comm_size(comm), rank = comm_rank(comm);
  const bool root = rank == 0;
  const double start = MPI_Wtime();
  const int per_member = plan.ranks_per_member, groups = ranks / per_member, group = rank / per_member;
  const int count = static_cast<int>(plan.spec.members.size());
  io::OutputLock lock;
  std::string lock_warning;
  const CollectiveOutcome made = collective(comm, [&] {
    if (!root) return;
    std::error_code ec;
    std::filesystem::create_directories(plan.output_dir, ec);
    if (ec)
      throw InputError("cannot create the ensemble's output directory '" + plan.output_dir + "': " + ec.message() +
                       "; choose another with --output or ensemble.output_dir");
    lock = io::OutputLock(plan.output_dir, lock_warning);
    // A new ensemble: records of an earlier one in this directory are not its members'.
    if (!restart_latest)
      for (const io::EnsembleMember& member : plan.spec.members)
        std::filesystem::remove(io::member_dir(plan.output_dir, member.index) + "/member.json", ec);
  });
  if (!made.ok()) {
    log::error(made.message);
    return made.status;
  }
  if (!lock_warning.empty()) log::warn(lock_warning);
  log::info("ensemble " + plan.spec.source + ": " + std::to_string(count) + " member(s) of " + plan.spec.base_config +
            " (case " + plan.case_info->name + ") into " + plan.output_dir + "/member_NNN, " +
            std::to_string(groups) + " group(s) of " + std::to_string(per_member) + " rank(s) side by side");

  // The ranks form groups of per_member consecutive ranks; group g runs the members whose
  // index modulo the group count is g, in order.
  MPI_Comm group_comm = MPI_COMM_NULL;
  MPI_Comm_split(comm, group, rank, &group_comm);
  const bool group_root = comm_rank(group_comm) == 0;
  if (groups > 1) log::set_rank(comm_rank(group_comm));
  bool stopped = false;
  int worst = exit_ok;
  bool write_failed = false;
  // A member's record (member.json), then (group 0) the ensemble's so far: nothing is
  // lost when a later member fails.
  const auto finish = [&](const io::EnsembleMember& member, const MemberRecord& before, const std::string& message,
                          int exit_status, const io::RunSummary& s, bool reported = false) {
    const std::string dir = io::member_dir(plan.output_dir, member.index);
    const bool ok = exit_status == exit_ok;
    MemberRecord record;
    record.exit_status = exit_status;
    record.status = !ok ? "failed" : s.stop_signal != 0 ? "stopped" : "done";
    if (ok) {
      record.final_time = s.final_time;
      // A batch member's share of the batch's time loop: its time over the members.
      const double share = s.wall_seconds / std::max(1, s.batch_members);
      record.wall_seconds = before.wall_seconds + share;
      record.core_seconds = before.core_seconds + share * per_member;
    } else {
      if (!reported)  // a batch member's failure was reported when it happened
        log::error("ensemble: member " + std::to_string(member.index) + " (" + joined(member.overrides) +
                   ") failed: " + message + "; the other members go on");
      worst = std::max(worst, exit_status);
    }
    stopped = stopped || s.stop_signal != 0;
    io::Json e = io::Json::object();
    e.set("index", member.index);
    e.set("dir", dir);
    e.set("overrides", string_array(member.overrides));
    e.set("group", group);
    e.set("batch_members", s.batch_members > 0 ? io::Json(s.batch_members) : io::Json());
    e.set("status", record.status);
    e.set("exit_status", record.exit_status);
    e.set("message", message);
    e.set("ranks", per_member);
    e.set("steps", ok ? io::Json(s.steps) : io::Json());
    e.set("final_time", ok ? io::Json(s.final_time) : io::Json());
    e.set("state_checksum", ok ? io::Json(s.state_checksum) : io::Json());
    e.set("wall_seconds", record.wall_seconds);
    e.set("core_seconds", record.core_seconds);
    // A batch member's PID: the batch's wall time over the work of all its members (as if
    // each had taken this member's steps).
    const double work = double(s.dof) * s.rk_stages * double(s.timed_steps) * std::max(1, s.batch_members);
    e.set("pid_seconds", ok && work > 0 ? io::Json(s.wall_seconds * per_member / work) : io::Json());
    e.set("restarted_from", s.restarted_from.empty() ? io::Json() : io::Json(s.restarted_from));
    const CollectiveOutcome written = collective(group_comm, [&] {
      if (!group_root) return;
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      io::write_file_atomically(dir + "/member.json", e.dump());
      if (root) write_ensemble_summary(plan, groups, MPI_Wtime() - start);
    });
    if (!written.ok()) {
      log::error(written.message);
      worst = std::max(worst, int(exit_run_error));
      write_failed = true;
    }
  };
  // The batch's members, with what an earlier invocation left of each.
  struct Pending {
    int m;
    MemberRecord before;
    std::string restart;
  };
  std::vector<Pending> pending;
  for (int m = group; m < count && !write_failed; m += groups) {
    const io::EnsembleMember& member = plan.spec.members[static_cast<size_t>(m)];
    const std::string dir = io::member_dir(plan.output_dir, member.index);
    const std::string what = "member " + std::to_string(member.index) + " (" + joined(member.overrides) + ")";
    if (groups > 1 && !plan.batch) log::set_tag("[member " + std::to_string(member.index) + "] ");
    // What an earlier invocation left: kept when the member ended, continued when stopped.
    const std::string previous = restart_latest ? shared_text(group_comm, dir + "/member.json") : std::string();
    MemberRecord before;
    if (!previous.empty()) before = read_record(previous);
    if (before.status == "done" || before.status == "failed") {
      worst = std::max(worst, before.exit_status);
      log::info("ensemble: " + what + " " + before.status + " before; kept as it is");
      continue;
    }
    if (stopped || agreed_stop_signal(group_comm) != 0) {
      stopped = true;
      continue;
    }
    const std::string newest = restart_latest ? io::latest_checkpoint(dir) : std::string();
    const std::string restart = newest.empty() ? "" : "latest";
    log::info("ensemble: " + what + " -> " + dir + (restart.empty() ? "" : " (continued from its newest checkpoint)"));
    if (plan.batch) {  // each member of a batch keeps its own clock: new and continued ones together
      pending.push_back({m, before, restart});
      continue;
    }
    io::RunSummary tag;
    tag.member_index = member.index;
    tag.ensemble_file = plan.spec.source;
    tag.member_overrides = member.overrides;
    io::RunSummary s;
    const CollectiveOutcome outcome = collective(group_comm, [&] {
      s = run_simulation(plan.configs[static_cast<size_t>(m)], *plan.case_info, dir, group_comm, restart, &tag);
    });
    finish(member, before, outcome.message, outcome.status, s);
  }
  if (!pending.empty() && (write_failed || stopped || agreed_stop_signal(group_comm) != 0)) {
    stopped = !write_failed;
    pending.clear();
  }
  // Batches of at most plan.batch_members members, one after another (the lines of groups
  // side by side name their group).
  if (groups > 1 && !pending.empty()) log::set_tag("[group " + std::to_string(group) + "] ");
  const size_t size = plan.batch_members > 0 ? static_cast<size_t>(plan.batch_members) : std::max<size_t>(1, pending.size());
  for (size_t first = 0; first < pending.size(); first += size) {
    if (write_failed || stopped || (first > 0 && agreed_stop_signal(group_comm) != 0)) {
      stopped = stopped || !write_failed;
      break;
    }
    const std::vector<Pending> batch(pending.begin() + first, pending.begin() + std::min(pending.size(), first + size));
    std::vector<BatchRun> runs;
    std::string indices;
    for (const Pending& p : batch) {
      const io::EnsembleMember& member = plan.spec.members[static_cast<size_t>(p.m)];
      BatchRun run{&plan.configs[static_cast<size_t>(p.m)], io::member_dir(plan.output_dir, member.index), p.restart,
                   {}};
      run.tag.member_index = member.index;
      run.tag.ensemble_file = plan.spec.source;
      run.tag.member_overrides = member.overrides;
      runs.push_back(run);
      indices += (indices.empty() ? "" : ", ") + std::to_string(member.index);
    }
    log::info("ensemble: a batch of " + std::to_string(batch.size()) + " member(s): " + indices);
    std::vector<BatchResult> results;
    const CollectiveOutcome outcome =
        collective(group_comm, [&] { results = run_batch(runs, *plan.case_info, group_comm); });
    for (size_t i = 0; i < batch.size(); ++i) {
      const io::EnsembleMember& member = plan.spec.members[static_cast<size_t>(batch[i].m)];
      if (!outcome.ok())  // an error of the batch as a whole
        finish(member, batch[i].before, outcome.message, outcome.status, io::RunSummary{});
      else if (!results[i].failure.empty())
        finish(member, batch[i].before, results[i].failure, exit_run_error, results[i].summary, true);
      else
        finish(member, batch[i].before, "", exit_ok, results[i].summary);
    }
  }
  log::set_tag("");
  log::set_rank(rank);
  MPI_Comm_free(&group_comm);
  // The groups agree on the outcome; rank 0 writes the ensemble's record.
  int local[2] = {worst, stopped ? 1 : 0}, global[2] = {0, 0};
  MPI_Allreduce(local, global, 2, MPI_INT, MPI_MAX, comm);
  worst = global[0];
  stopped = global[1] != 0;
  const CollectiveOutcome written = collective(comm, [&] {
    if (root) write_ensemble_summary(plan, groups, MPI_Wtime() - start);
  });
  if (!written.ok()) {
    log::error(written.message);
    return exit_run_error;
  }
  log::info("ensemble: " + std::to_string(count) + " member(s) in " + std::to_string(MPI_Wtime() - start) +
            " s; wrote " + plan.output_dir + "/ensemble_summary.json" +
            (worst != exit_ok ? " (a member failed: see its status there)" : ""));
  if (stopped) log::warn("ensemble stopped by a signal: continue with the same command and --restart latest");
  return worst;
}

}  // namespace squall
