#include "solver/ensemble.hpp"

#include <mpi.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

void write_ensemble_summary(const EnsemblePlan& plan, const std::vector<MemberRecord>& records, int ranks,
                            double wall) {
  io::Json j = io::Json::object();
  j.set("ensemble_file", plan.spec.source);
  j.set("base_config", plan.spec.base_config);
  j.set("case", plan.case_info->name);
  j.set("common_overrides", string_array(plan.spec.common));
  j.set("execution", "sequential: one member after another, each on all ranks");
  j.set("ranks", ranks);
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
  j.set("members_done_per_hour", member_wall > 0 ? io::Json(double(done) * 3600 / member_wall) : io::Json());
  io::Json list = io::Json::array();
  for (const auto& r : records) list.push(r.entry);
  j.set("member_records", list);
  io::write_file_atomically(plan.output_dir + "/ensemble_summary.json", j.dump());
}

}  // namespace

int run_ensemble(const EnsemblePlan& plan, MPI_Comm comm, bool restart_latest) {
  const int ranks = comm_size(comm);
  const bool root = comm_rank(comm) == 0;
  const double start = MPI_Wtime();
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
  });
  if (!made.ok()) {
    log::error(made.message);
    return made.status;
  }
  if (!lock_warning.empty()) log::warn(lock_warning);
  const int count = static_cast<int>(plan.spec.members.size());
  log::info("ensemble " + plan.spec.source + ": " + std::to_string(count) + " member(s) of " + plan.spec.base_config +
            " (case " + plan.case_info->name + "), one after another on " + std::to_string(ranks) +
            " rank(s), into " + plan.output_dir + "/member_NNN");

  std::vector<MemberRecord> records(static_cast<size_t>(count));
  bool stopped = false;
  int worst = exit_ok;
  for (int m = 0; m < count; ++m) {
    const io::EnsembleMember& member = plan.spec.members[static_cast<size_t>(m)];
    const std::string dir = io::member_dir(plan.output_dir, member.index);
    MemberRecord& record = records[static_cast<size_t>(m)];
    const std::string what = "member " + std::to_string(member.index) + " (" + joined(member.overrides) + ")";
    // What an earlier invocation left: kept when the member ended, continued when stopped.
    const std::string previous = restart_latest ? shared_text(comm, dir + "/member.json") : std::string();
    MemberRecord before;
    if (!previous.empty()) before = read_record(previous);
    if (before.status == "done" || before.status == "failed") {
      record = before;
      worst = std::max(worst, record.exit_status);
      log::info("ensemble: " + what + " " + before.status + " before; kept as it is");
      continue;
    }
    record.entry = io::Json::object();
    record.entry.set("index", member.index);
    record.entry.set("dir", dir);
    record.entry.set("overrides", string_array(member.overrides));
    if (stopped || agreed_stop_signal(comm) != 0) {
      stopped = true;
      record.entry.set("status", record.status);
      continue;
    }
    const std::string restart = restart_latest && !io::latest_checkpoint(dir).empty() ? "latest" : "";
    log::info("ensemble: " + what + ", " + std::to_string(m + 1) + " of " + std::to_string(count) + " -> " + dir +
              (restart.empty() ? "" : " (continued from its newest checkpoint)"));
    io::RunSummary tag;
    tag.member_index = member.index;
    tag.ensemble_file = plan.spec.source;
    tag.member_overrides = member.overrides;
    io::RunSummary s;
    const CollectiveOutcome outcome = collective(comm, [&] {
      s = run_simulation(plan.configs[static_cast<size_t>(m)], *plan.case_info, dir, comm, restart, &tag);
    });
    record.exit_status = outcome.status;
    record.status = !outcome.ok() ? "failed" : s.stop_signal != 0 ? "stopped" : "done";
    if (outcome.ok()) {
      record.final_time = s.final_time;
      record.wall_seconds = before.wall_seconds + s.wall_seconds;
      record.core_seconds = before.core_seconds + s.wall_seconds * ranks;
    } else {
      log::error("ensemble: " + what + " failed: " + outcome.message + "; the other members go on");
      worst = std::max(worst, outcome.status);
    }
    stopped = stopped || s.stop_signal != 0;
    io::Json& e = record.entry;
    e.set("status", record.status);
    e.set("exit_status", record.exit_status);
    e.set("message", outcome.message);
    e.set("steps", outcome.ok() ? io::Json(s.steps) : io::Json());
    e.set("final_time", outcome.ok() ? io::Json(s.final_time) : io::Json());
    e.set("state_checksum", outcome.ok() ? io::Json(s.state_checksum) : io::Json());
    e.set("wall_seconds", record.wall_seconds);
    e.set("core_seconds", record.core_seconds);
    const double work = double(s.dof) * s.rk_stages * double(s.timed_steps);
    e.set("pid_seconds", outcome.ok() && work > 0 ? io::Json(s.wall_seconds * ranks / work) : io::Json());
    e.set("restarted_from", s.restarted_from.empty() ? io::Json() : io::Json(s.restarted_from));
    // The member's record, then the ensemble's: nothing is lost when a later member fails.
    const CollectiveOutcome written = collective(comm, [&] {
      if (!root) return;
      std::error_code ec;
      std::filesystem::create_directories(dir, ec);
      io::write_file_atomically(dir + "/member.json", e.dump());
      write_ensemble_summary(plan, records, ranks, MPI_Wtime() - start);
    });
    if (!written.ok()) {
      log::error(written.message);
      return exit_run_error;
    }
  }
  const CollectiveOutcome written = collective(comm, [&] {
    if (root) write_ensemble_summary(plan, records, ranks, MPI_Wtime() - start);
  });
  if (!written.ok()) {
    log::error(written.message);
    return exit_run_error;
  }
  int done = 0, failed = 0;
  for (const auto& r : records) done += r.status == "done", failed += r.status == "failed";
  log::info("ensemble: " + std::to_string(done) + " of " + std::to_string(count) + " member(s) done, " +
            std::to_string(failed) + " failed" + (stopped ? ", stopped by a signal" : "") + "; wrote " +
            plan.output_dir + "/ensemble_summary.json");
  if (stopped)
    log::warn("ensemble stopped by a signal: continue with the same command and --restart latest");
  return worst;
}

}  // namespace squall
