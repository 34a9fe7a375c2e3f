#include "io/summary.hpp"

#include "io/json.hpp"

namespace squall::io {
namespace {

template <class T, std::size_t n>
Json array_of(const std::array<T, n>& values) {
  Json a = Json::array();
  for (const T& v : values) a.push(Json(v));
  return a;
}

}  // namespace

void write_summary(const std::string& dir, const RunSummary& s) {
  Json j = Json::object();
  j.set("case", s.case_name);
  j.set("config_file", s.config_file);
  j.set("version", s.version);
  j.set("backend", s.backend);
  j.set("ranks", s.ranks);
  j.set("rank_grid", array_of(s.rank_grid));
  j.set("polynomial_order", s.polynomial_order);
  j.set("elements", array_of(s.elements));
  j.set("dof", s.dof);
  j.set("steps", s.steps);
  j.set("timed_steps", s.timed_steps);
  j.set("rk_stages", s.rk_stages);
  j.set("final_time", s.final_time);
  j.set("wall_seconds", s.wall_seconds);
  // PID = wall x ranks / (DOF x stages x timed steps); undefined (null) without steps.
  const double work = static_cast<double>(s.dof) * s.rk_stages * static_cast<double>(s.timed_steps);
  j.set("pid_seconds", work > 0 ? Json(s.wall_seconds * s.ranks / work) : Json());
  Json memory = Json::object();
  memory.set("peak_rss_bytes", s.peak_rss_bytes);
  memory.set("peak_rss_bytes_max_rank", s.peak_rss_bytes_max_rank);
  memory.set("peak_rss_bytes_per_dof", s.dof > 0 ? Json(double(s.peak_rss_bytes) / double(s.dof)) : Json());
  j.set("memory", memory);
  Json faces = Json::object();
  faces.set("interior", s.face_counts[0]);
  faces.set("boundary", s.face_counts[1]);
  faces.set("mpi", s.face_counts[2]);
  j.set("faces", faces);
  Json timers = Json::object();
  for (const TimerSummary& t : s.timers) {
    Json entry = Json::object();
    entry.set("min", t.min_seconds);
    entry.set("mean", t.mean_seconds);
    entry.set("max", t.max_seconds);
    entry.set("calls", t.calls);
    timers.set(t.name, entry);
  }
  j.set("timers", timers);
  if (s.has_solution) {
    Json conservation = Json::object();
    conservation.set("mass_relative_change", s.mass_relative_change);
    conservation.set("total_energy_relative_change", s.total_energy_relative_change);
    conservation.set("mass_budget_residual", s.mass_budget_residual);
    conservation.set("energy_budget_residual", s.energy_budget_residual);
    for (const auto& [key, value] : s.other_conservation) conservation.set(key, value);
    j.set("conservation", conservation);
    j.set("state_checksum", s.state_checksum);
    Json norms = Json::object();
    for (size_t v = 0; v < s.state_l2.size() && v < s.state_variables.size(); ++v)
      norms.set(s.state_variables[v], s.state_l2[v]);
    Json state_norms = Json::object();
    state_norms.set("l2", norms);
    j.set("state_norms", state_norms);
  }
  if (!s.error_variables.empty()) {
    Json l2 = Json::object(), linf = Json::object();
    for (size_t v = 0; v < s.error_variables.size(); ++v) {
      l2.set(s.error_variables[v], s.l2_errors[v]);
      linf.set(s.error_variables[v], s.linf_errors[v]);
    }
    Json errors = Json::object();
    errors.set("l2", l2);
    errors.set("linf", linf);
    j.set("errors", errors);
  }
  Json diagnostics = Json::object();
  for (const auto& [name, value] : s.case_diagnostics) diagnostics.set(name, value);
  j.set("case_diagnostics", diagnostics);
  if (s.has_solution) {
    j.set("restarted_from", s.restarted_from.empty() ? Json() : Json(s.restarted_from));
    j.set("stopped_by_signal", s.stop_signal != 0 ? Json(s.stop_signal) : Json());
  }
  if (s.member_index >= 0) {
    Json member = Json::object();
    member.set("index", s.member_index);
    member.set("ensemble_file", s.ensemble_file);
    Json overrides = Json::array();
    for (const auto& o : s.member_overrides) overrides.push(Json(o));
    member.set("overrides", overrides);
    member.set("batch_members", s.batch_members > 0 ? Json(s.batch_members) : Json());
    j.set("ensemble_member", member);
  }
  if (!s.note.empty()) j.set("note", s.note);
  write_file_atomically(dir + "/summary.json", j.dump());
}

}  // namespace squall::io
