#include "io/ensemble_file.hpp"

#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <toml++/toml.h>

#include "core/error.hpp"
#include "io/toml_text.hpp"

namespace squall::io {
namespace {

/// The largest member count (a sweep of 10^5 members is surely a typing error).
constexpr long long max_members = 100000;

std::string at_line(const std::string& source, const toml::node& node) {
  const auto& begin = node.source().begin;
  return begin.line > 0 ? source + ":" + std::to_string(begin.line) : source;
}

std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

/// The key of "section.key=value"; InputError (from `where`) when the text is not of that form.
std::string key_of(const std::string& text, const std::string& where) {
  const size_t eq = text.find('=');
  const size_t dot = text.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq)
    throw InputError(where + ": '" + text + "': expected \"section.key=value\", e.g. \"case.seed=3\"");
  return trimmed(text.substr(0, eq));
}

/// A list of "section.key=value" strings (`name` = [...]) from `table`; empty when absent.
std::vector<std::string> override_list(const toml::table& table, const char* name, const std::string& source,
                                       const std::string& what) {
  std::vector<std::string> out;
  const toml::node* node = table.get(name);
  if (!node) return out;
  const toml::array* a = node->as_array();
  if (!a)
    throw InputError(at_line(source, *node) + ": " + what + "'" + name +
                     "': expected a list of strings \"section.key=value\"");
  for (const toml::node& item : *a) {
    if (!item.is_string())
      throw InputError(at_line(source, item) + ": " + what + "'" + name +
                       "': expected a list of strings \"section.key=value\"");
    out.push_back(item.value<std::string>().value());
    key_of(out.back(), at_line(source, item) + ": " + what + "'" + name + "'");
  }
  return out;
}

/// A TOML value as the value part of an override.
std::string value_text(const toml::node& node) {
  if (node.is_string()) {
    std::string out = "\"";
    for (char c : node.value<std::string>().value()) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    return out + "\"";
  }
  std::ostringstream os;
  node.visit([&](auto&& n) { os << n; });
  return os.str();
}

void check_keys(const toml::table& table, const std::string& source, const std::string& what,
                std::initializer_list<const char*> allowed) {
  for (auto&& [name, value] : table) {
    bool known = false;
    std::string list;
    for (const char* a : allowed) {
      known = known || name.str() == a;
      list += (list.empty() ? "" : ", ") + std::string(a);
    }
    if (!known)
      throw InputError(at_line(source, value) + ": unknown key '" + std::string(name.str()) + "' in " + what +
                       " (expected " + list + ")");
  }
}

/// Refuses a member override of a key that cannot differ between members.
void check_may_vary(const std::string& key, const std::string& where) {
  const std::string reason = fixed_key_reason(key);
  if (!reason.empty()) throw InputError(where + ": '" + key + "' cannot differ between members: " + reason);
}

}  // namespace

std::string fixed_key_reason(const std::string& key) {
  const std::string section = key.substr(0, key.find('.'));
  if (section == "mesh") return "the members share one mesh (mesh.*); run another ensemble for another mesh";
  if (section == "dg") return "the order and volume flux (dg.*) are those of the kernels every member runs";
  if (section == "boundary") return "the wall kinds (boundary.*) are those of the kernels every member runs";
  if (key == "case.name" || key == "physics.tracers")
    return "the members share the case and its equation set (case.name, physics.tracers)";
  if (key == "physics.closure" || key == "physics.heat_diffusion" || key == "physics.cloud_stratification" ||
      key == "radiation.scheme")
    return "it chooses the kernels every member runs; its numbers (e.g. physics.smagorinsky_cs) may differ";
  if (key == "time.integrator") return "the members step with one integrator";
  if (key == "output.dir") return "each member writes into <ensemble output>/member_NNN";
  return "";
}

std::string member_dir(const std::string& ensemble_dir, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "member_%03d", index);
  return ensemble_dir + "/" + name;
}

EnsembleSpec parse_ensemble(const std::string& text, const std::string& source,
                            const std::vector<std::string>& extra_common) {
  const toml::table root = parse_toml(text, source);
  check_keys(root, source, "an ensemble file", {"ensemble", "member"});
  const toml::table* ens = root["ensemble"].as_table();
  if (!ens)
    throw InputError(source + ": no [ensemble] table; an ensemble file names its base config "
                              "([ensemble] config = \"case.toml\") and its members (docs/ensembles.md)");
  check_keys(*ens, source, "[ensemble]", {"config", "output_dir", "set", "members", "vary", "batch", "batch_members"});

  EnsembleSpec spec;
  spec.source = source;
  {
    const toml::node* c = ens->get("config");
    if (!c || !c->is_string() || c->value<std::string>()->empty())
      throw InputError((c ? at_line(source, *c) : source) +
                       ": 'ensemble.config': expected the base case config as a string, e.g. \"bomex_small.toml\"");
    const std::filesystem::path path(c->value<std::string>().value());
    const std::filesystem::path folder = std::filesystem::path(source).parent_path();
    spec.base_config = (path.is_relative() && !folder.empty()) ? (folder / path).string() : path.string();
  }
  if (const toml::node* o = ens->get("output_dir")) {
    if (!o->is_string() || o->value<std::string>()->empty())
      throw InputError(at_line(source, *o) + ": 'ensemble.output_dir': expected a folder name as a string");
    spec.output_dir = o->value<std::string>().value();
  }
  if (const toml::node* b = ens->get("batch")) {
    if (!b->is_boolean())
      throw InputError(at_line(source, *b) + ": 'ensemble.batch': expected true or false");
    spec.batch = b->value<bool>().value();
  }
  if (const toml::node* b = ens->get("batch_members")) {
    const auto count = b->value<long long>();
    if (!b->is_integer() || !count || *count < 1 || *count > max_members)
      throw InputError(at_line(source, *b) + ": 'ensemble.batch_members': expected an integer in 1.." +
                       std::to_string(max_members) + " (the most members of one batch)");
    spec.batch_members = static_cast<int>(*count);
  }
  spec.common = override_list(*ens, "set", source, "");
  for (const auto& o : extra_common) spec.common.push_back(o);

  // The sweep: `members` copies, each with its value of every `vary` key.
  long long sweep = -1;
  if (const toml::node* m = ens->get("members")) {
    const auto count = m->value<long long>();
    if (!m->is_integer() || !count || *count < 1 || *count > max_members)
      throw InputError(at_line(source, *m) + ": 'ensemble.members': expected an integer in 1.." +
                       std::to_string(max_members));
    sweep = *count;
  }
  std::vector<std::pair<std::string, const toml::node*>> vary;
  if (const toml::node* v = ens->get("vary")) {
    const toml::table* t = v->as_table();
    if (!t)
      throw InputError(at_line(source, *v) +
                       ": 'ensemble.vary': expected a table of keys, e.g. vary = { \"case.seed\" = \"range\" }");
    for (auto&& [name, value] : *t) {
      const std::string key(name.str());
      const std::string where = at_line(source, value) + ": ensemble.vary";
      key_of(key + "=0", where);
      check_may_vary(key, where);
      if (const toml::array* a = value.as_array()) {
        if (a->empty()) throw InputError(where + ": '" + key + "': an empty list of values");
        if (sweep < 0) sweep = static_cast<long long>(a->size());
        if (static_cast<long long>(a->size()) != sweep)
          throw InputError(where + ": '" + key + "' has " + std::to_string(a->size()) + " values for " +
                           std::to_string(sweep) + " members (ensemble.members, or the first list's length)");
      } else if (!(value.is_string() && value.value<std::string>().value() == "range")) {
        throw InputError(where + ": '" + key + "': expected a list of values (one per member) or \"range\" (0, 1, ...)");
      }
      vary.emplace_back(key, &value);
    }
    for (const auto& [key, value] : vary)
      if (!value->as_array() && sweep < 0)
        throw InputError(at_line(source, *value) + ": ensemble.vary: '" + key +
                         "' = \"range\" needs the member count: set ensemble.members");
  }
  for (long long m = 0; m < sweep; ++m) {
    EnsembleMember member;
    member.index = static_cast<int>(m);
    for (const auto& [key, value] : vary) {
      const std::string v = value->as_array() ? value_text(*value->as_array()->get(static_cast<size_t>(m)))
                                              : std::to_string(m);
      member.overrides.push_back(key + "=" + v);
    }
    spec.members.push_back(std::move(member));
  }

  // Members one by one: [[member]] set = [...].
  if (const toml::node* list = root.get("member")) {
    const toml::array* a = list->as_array();
    if (!a || !a->is_array_of_tables())
      throw InputError(at_line(source, *list) + ": 'member': expected [[member]] tables, each with set = [...]");
    for (const toml::node& item : *a) {
      const toml::table& t = *item.as_table();
      EnsembleMember member;
      member.index = static_cast<int>(spec.members.size());
      const std::string what = "member " + std::to_string(member.index) + ": ";
      check_keys(t, source, "[[member]] (" + what.substr(0, what.size() - 2) + ")", {"set"});
      member.overrides = override_list(t, "set", source, what);
      for (const auto& o : member.overrides)
        check_may_vary(key_of(o, source), at_line(source, item) + ": " + what + "set");
      spec.members.push_back(std::move(member));
    }
  }
  if (spec.members.empty())
    throw InputError(source + ": the ensemble has no members: give ensemble.members (with ensemble.vary) or "
                              "[[member]] tables");
  return spec;
}

}  // namespace squall::io
