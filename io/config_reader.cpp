#include "io/config_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <toml++/toml.h>
#include <vector>

#include "core/error.hpp"
#include "io/toml_text.hpp"
#include "io/config_keys.hpp"
#include "physics/wall_kinds.hpp"

namespace squall::io {
namespace {

/// Upper bound on nx*ny*nz: keeps global element and face ids within int (2^28 elements
/// is 1.9e11 DOF at N = 8, far beyond any run).
constexpr long long max_elements = 1LL << 28;
constexpr double max_domain_span = 1e8;  // [m], 2.5 times around the Earth

/// "YYYY-MM-DD" or "YYYY-MM-DD HH:MM:SS" (or with a T) as "YYYY-MM-DD HH:MM:SS"; "" when
/// it is not a valid date and time.
std::string normalized_date(const std::string& text) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  char sep = ' ';
  int used = 0;
  if (text.size() == 10) {
    if (std::sscanf(text.c_str(), "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3 || used != 10) return "";
  } else if (text.size() == 19) {
    if (std::sscanf(text.c_str(), "%4d-%2d-%2d%c%2d:%2d:%2d%n", &y, &mo, &d, &sep, &h, &mi, &s, &used) != 7 ||
        used != 19 || (sep != ' ' && sep != 'T'))
      return "";
  } else {
    return "";
  }
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  const int days[12] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > days[mo - 1] || h > 23 || mi > 59 || s > 59 || h < 0 || mi < 0 ||
      s < 0)
    return "";
  char out[80];
  std::snprintf(out, sizeof out, "%04d-%02d-%02d %02d:%02d:%02d", y, mo, d, h, mi, s);
  return out;
}

std::string format_value(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

// Where a value came from, for messages: "file.toml:12" or "--set dg.order=9".
struct Located {
  const toml::node* node = nullptr;
  std::string origin;
  bool is_default = false;  ///< neither the file nor a --set gave it
};

struct Override {
  toml::table holder;  // {v = <value>}
  std::string origin;
};

std::string line_of(const std::string& source, const toml::node& node) {
  const auto& begin = node.source().begin;
  return begin.line > 0 ? source + ":" + std::to_string(begin.line) : source;
}

const char* type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    default: return "a date/time";
  }
}

/// Text quoted in a message, cut to `limit` characters (a value or key of megabytes is
/// not echoed), line breaks as spaces.
std::string abbreviated(std::string s, std::size_t limit = 60) {
  if (s.size() > limit) s = s.substr(0, limit - 3) + "...";
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

std::string show(const toml::node& node) {
  std::ostringstream os;
  if (node.is_string())
    os << '"' << node.value<std::string>().value() << '"';
  else
    node.visit([&](auto&& n) { os << n; });
  return abbreviated(os.str());
}

[[noreturn]] void fail(const Located& at, const std::string& key, const std::string& expected) {
  throw InputError(at.origin + ": '" + key + "' = " + show(*at.node) + " (" +
                   type_name(*at.node) + "): expected " + expected);
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

const KeySpec* find_key(const std::string& section, const std::string& name) {
  for (const auto& key : config_keys())
    if (section == key.section && name == key.name) return &key;
  return nullptr;
}

bool is_section(const std::string& name) {
  for (const auto& s : config_sections())
    if (s == name) return true;
  return false;
}

[[noreturn]] void unknown_key(const std::string& where, const std::string& full) {
  std::string best;
  size_t best_distance = 3;  // suggest only close matches
  std::string known;
  std::set<std::string> listed;
  for (const auto& key : config_keys()) {
    const std::string name = full_name(key);
    if (!listed.insert(name).second) continue;  // two cases may own keys of the same name
    known += (known.empty() ? "" : ", ") + name;
    if (full.size() > name.size() + best_distance) continue;  // too far apart (and no cost for huge names)
    const size_t d = edit_distance(full, name);
    if (d < best_distance) best_distance = d, best = name;
  }
  std::string message = where + ": unknown key '" + abbreviated(full) + "'";
  if (!best.empty()) message += " (did you mean '" + best + "'?)";
  throw InputError(message + "; known keys: " + known);
}

void check_structure(const toml::table& root, const std::string& source) {
  for (auto&& [k, node] : root) {
    const std::string section(k.str());
    const std::string where = line_of(source, node);
    if (!is_section(section)) {
      std::string known;
      for (const auto& s : config_sections()) known += (known.empty() ? "[" : "], [") + s;
      if (!node.is_table()) unknown_key(where, section);
      throw InputError(where + ": unknown section [" + section + "]; known sections: " +
                       known + "]");
    }
    if (!node.is_table())
      throw InputError(where + ": '" + section + "' must be a section [" + section +
                       "], found " + type_name(node));
    for (auto&& [name, value] : *node.as_table())
      if (!find_key(section, std::string(name.str())))
        unknown_key(line_of(source, value), section + "." + std::string(name.str()));
  }
}

std::map<std::string, Override> parse_overrides(const std::vector<std::string>& overrides) {
  std::map<std::string, Override> out;
  for (const auto& text : overrides) {
    const std::string where = "--set " + abbreviated(text);
    if (text.find_first_of("\n\r") != std::string::npos)
      throw InputError(where + ": a line break in the value (one key=value per --set)");
    const size_t eq = text.find('=');
    const size_t dot = text.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq)
      throw InputError(where + ": expected section.key=value, e.g. --set dg.order=3");
    auto trim = [](std::string s) {
      const auto b = s.find_first_not_of(" \t");
      const auto e = s.find_last_not_of(" \t");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    const std::string section = trim(text.substr(0, dot));
    const std::string name = trim(text.substr(dot + 1, eq - dot - 1));
    const std::string value = trim(text.substr(eq + 1));
    if (!find_key(section, name)) unknown_key(where, section + "." + name);
    Override o;
    o.origin = where;
    try {
      o.holder = toml::parse("v = " + value);
    } catch (const toml::parse_error&) {
      o.holder = toml::table{};  // not a TOML value: take it as a bare string
      o.holder.insert("v", value);
    }
    if (value.empty()) throw InputError(where + ": empty value for '" + section + "." + name + "'");
    out[section + "." + name] = std::move(o);
  }
  return out;
}

class Values {
 public:
  Values(const toml::table& root, const std::string& source,
         std::map<std::string, Override> overrides)
      : root_(root), source_(source), overrides_(std::move(overrides)) {}

  Located at(const KeySpec& key) {
    const std::string full = full_name(key);
    if (auto it = overrides_.find(full); it != overrides_.end())
      return {it->second.holder.get("v"), it->second.origin, false};
    if (const toml::node* node = root_.at_path(full).node())
      return {node, line_of(source_, *node), false};
    auto& d = defaults_[full];
    d = toml::parse(std::string("v = ") + key.default_toml);
    return {d.get("v"), "default of " + full, true};
  }

 private:
  const toml::table& root_;
  std::string source_;
  std::map<std::string, Override> overrides_;
  std::map<std::string, toml::table> defaults_;
};

const KeySpec& spec(const char* section, const char* name) { return *find_key(section, name); }

long long get_integer(const Located& v, const KeySpec& key) {
  if (!v.node->is_integer()) fail(v, full_name(key), key.expected);
  return v.node->value<long long>().value();
}

double get_number(const Located& v, const KeySpec& key) {
  if (!v.node->is_number()) fail(v, full_name(key), key.expected);
  const double x = v.node->value<double>().value();
  if (!std::isfinite(x)) fail(v, full_name(key), key.expected);
  return x;
}

std::string get_string(const Located& v, const KeySpec& key) {
  if (!v.node->is_string()) fail(v, full_name(key), key.expected);
  return v.node->value<std::string>().value();
}

const toml::array& get_array(const Located& v, const KeySpec& key, size_t length) {
  const toml::array* a = v.node->as_array();
  if (!a || a->size() != length) fail(v, full_name(key), key.expected);
  return *a;
}

/// A finite number (integers accepted) for which `valid` holds.
double number(Values& values, const char* section, const char* name, bool (*valid)(double)) {
  const KeySpec& k = spec(section, name);
  const Located v = values.at(k);
  const double x = get_number(v, k);
  if (!valid(x)) fail(v, full_name(k), k.expected);
  return x;
}

/// An integer for which `valid` holds.
long long integer(Values& values, const char* section, const char* name, bool (*valid)(long long)) {
  const KeySpec& k = spec(section, name);
  const Located v = values.at(k);
  const long long n = get_integer(v, k);
  if (!valid(n)) fail(v, full_name(k), k.expected);
  return n;
}

/// One of the strings in `options`.
template <class Options>
std::string choice(Values& values, const char* section, const char* name, const Options& options) {
  const KeySpec& k = spec(section, name);
  const Located v = values.at(k);
  const std::string text = get_string(v, k);
  for (const char* option : options)
    if (text == option) return text;
  fail(v, full_name(k), k.expected);
}
std::string choice(Values& values, const char* section, const char* name,
                   std::initializer_list<const char*> options) {
  return choice<std::initializer_list<const char*>>(values, section, name, options);
}

/// physics.tracers: distinct names that can stand in variable names of the output
/// (rho_<name>, <name>_mass, w_<name>), none taken by another output field, at most as
/// many as this build carries (SQUALL_MAX_TRACERS).
void read_tracers(Values& values, Config& c) {
  const KeySpec& k = spec("physics", "tracers");
  const Located v = values.at(k);
  const toml::array* a = v.node->as_array();
  if (!a) fail(v, full_name(k), k.expected);
  const std::vector<std::string> taken{"rho", "u", "v", "w", "theta", "p", "T", "rhou", "rhov", "rhow", "rhoe",
                                       "mass", "energy", "total_energy", "x", "y", "z", "time"};
  std::vector<std::string> names;
  for (const auto& item : *a) {
    if (!item.is_string()) fail(v, full_name(k), k.expected);
    const std::string name = item.as_string()->get();
    bool ok = !name.empty() && std::isalpha(static_cast<unsigned char>(name[0]));
    for (char ch : name) ok = ok && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
    if (!ok)
      fail(v, full_name(k), std::string(k.expected) + "; \"" + name + "\" is not a name of letters, digits and _");
    if (std::find(names.begin(), names.end(), name) != names.end())
      fail(v, full_name(k), std::string(k.expected) + "; \"" + name + "\" appears twice");
    if (std::find(taken.begin(), taken.end(), name) != taken.end())
      fail(v, full_name(k), std::string(k.expected) + "; \"" + name + "\" is the name of another output variable");
    names.push_back(name);
  }
  if (names.size() > static_cast<size_t>(SQUALL_MAX_TRACERS))
    fail(v, full_name(k), "at most " + std::to_string(SQUALL_MAX_TRACERS) + " tracers: this build has " +
                              "SQUALL_MAX_TRACERS = " + std::to_string(SQUALL_MAX_TRACERS) +
                              " (configure with -DSQUALL_MAX_TRACERS=N for more)");
  c.physics.tracers = names;
}

/// [surface]: each key must be 0 (unset) unless a wall of `kinds` (the surface_flux and
/// bulk_aerodynamic walls of [boundary]) uses it; a surface_flux wall takes its drag from
/// friction_velocity or drag_coefficient, not both; a bulk_aerodynamic wall needs T_s.
void read_surface(Values& values, Config& c, const std::vector<std::pair<std::string, int>>& kinds) {
  const auto finite = [](double x) { return std::isfinite(x); };
  const auto non_negative = [](double x) { return x >= 0; };
  SurfaceConfig& s = c.surface;
  s.heat_flux = number(values, "surface", "heat_flux", finite);
  s.water_flux = number(values, "surface", "water_flux", finite);
  s.friction_velocity = number(values, "surface", "friction_velocity", non_negative);
  s.drag_coefficient = number(values, "surface", "drag_coefficient", non_negative);
  s.heat_transfer = number(values, "surface", "heat_transfer", non_negative);
  s.moisture_transfer = number(values, "surface", "moisture_transfer", non_negative);
  s.temperature = number(values, "surface", "temperature", non_negative);
  const auto wall_of = [&](const char* kind) {
    for (const auto& [k, w] : kinds)
      if (k == kind) return w;
    return -1;
  };
  const auto has = [&](const char* kind) { return wall_of(kind) >= 0; };
  const bool prescribed = has("surface_flux"), bulk = has("bulk_aerodynamic");
  const auto unused = [&](const char* name, double value, bool used, const char* kind) {
    if (used || value == 0) return;
    const KeySpec& k = spec("surface", name);
    fail(values.at(k), full_name(k),
         std::string("0 (unset): only a \"") + kind + "\" wall uses it, and no [boundary] wall is one");
  };
  unused("heat_flux", s.heat_flux, prescribed, "surface_flux");
  unused("water_flux", s.water_flux, prescribed, "surface_flux");
  unused("friction_velocity", s.friction_velocity, prescribed, "surface_flux");
  unused("drag_coefficient", s.drag_coefficient, prescribed || bulk, "surface_flux\" or \"bulk_aerodynamic");
  unused("heat_transfer", s.heat_transfer, bulk, "bulk_aerodynamic");
  unused("moisture_transfer", s.moisture_transfer, bulk, "bulk_aerodynamic");
  unused("temperature", s.temperature, bulk, "bulk_aerodynamic");
  if (prescribed && bulk) {
    const KeySpec& k = spec("boundary", wall_names[wall_of("bulk_aerodynamic")]);
    fail(values.at(k), full_name(k), "\"surface_flux\" like the other surface wall, or all walls of one surface kind: surface_flux and bulk_aerodynamic walls share the "
                                     "[surface] keys, so one run has one of them");
  }
  if (s.friction_velocity > 0 && s.drag_coefficient > 0) {
    const KeySpec& k = spec("surface", "drag_coefficient");
    fail(values.at(k), full_name(k), "0 (unset) when surface.friction_velocity > 0: the drag comes from one of them");
  }
  if (bulk && !(s.temperature > 0)) {
    const KeySpec& k = spec("surface", "temperature");
    fail(values.at(k), full_name(k), "a temperature > 0 (K): a bulk_aerodynamic wall exchanges heat and water with "
                                     "a surface at this temperature");
  }
}

/// A [forcing] profile: [[z, value], ...], at most physics::Profile::max_points, z ascending.
ForcingConfig::Profile profile(Values& values, const char* name) {
  const KeySpec& k = spec("forcing", name);
  const Located v = values.at(k);
  const toml::array* a = v.node->as_array();
  if (!a || a->size() > 16) fail(v, full_name(k), k.expected);
  ForcingConfig::Profile out;
  for (const auto& item : *a) {
    const toml::array* pair = item.as_array();
    if (!pair || pair->size() != 2 || !(*pair)[0].is_number() || !(*pair)[1].is_number())
      fail(v, full_name(k), k.expected);
    const double z = (*pair)[0].value<double>().value(), value = (*pair)[1].value<double>().value();
    if (!std::isfinite(z) || !std::isfinite(value)) fail(v, full_name(k), k.expected);
    if (!out.empty() && !(z > out.back()[0]))
      fail(v, full_name(k), std::string(k.expected) + "; a height is not above the one before it");
    out.push_back({z, value});
  }
  return out;
}

/// mesh.element_heights or mesh.height_ratio: the heights of the element faces along z
/// (empty: equal heights). Listed heights must add up to the z span to 1e-6 of it; the
/// faces are their partial sums from the bottom, the top face exactly the domain's top.
void read_z_faces(Values& values, Config& c) {
  const KeySpec& hk = spec("mesh", "element_heights");
  const Located hv = values.at(hk);
  const toml::array* a = hv.node->as_array();
  if (!a) fail(hv, full_name(hk), hk.expected);
  const double ratio = number(values, "mesh", "height_ratio", [](double x) { return x >= 0.5 && x <= 2; });
  const int nz = c.mesh.elements[2];
  const double lo = c.mesh.domain[2][0], hi = c.mesh.domain[2][1], span = hi - lo;
  std::vector<double> heights;
  if (!a->empty()) {
    if (ratio != 1) {
      const KeySpec& rk = spec("mesh", "height_ratio");
      fail(values.at(rk), full_name(rk), "1 (the default) when mesh.element_heights lists the heights");
    }
    if (a->size() != static_cast<size_t>(nz))
      fail(hv, full_name(hk), std::string(hk.expected) + "; it lists " + std::to_string(a->size()) +
                                  " heights for mesh.elements[2] = " + std::to_string(nz));
    for (const auto& item : *a) {
      if (!item.is_number()) fail(hv, full_name(hk), hk.expected);
      const double h = item.value<double>().value();
      if (!std::isfinite(h) || !(h > 0)) fail(hv, full_name(hk), hk.expected);
      heights.push_back(h);
    }
  } else if (ratio != 1) {
    double h = 1;
    for (int k = 0; k < nz; ++k, h *= ratio) heights.push_back(h);
  } else {
    return;
  }
  double sum = 0;
  for (double h : heights) sum += h;
  if (a->empty())  // the ratio's heights, scaled to fill the span
    for (double& h : heights) h *= span / sum;
  else if (!(std::abs(sum - span) <= 1e-6 * span))
    fail(hv, full_name(hk), std::string(hk.expected) + "; they add up to " + format_value(sum) +
                                " m, the z span of mesh.domain is " + format_value(span) + " m");
  std::vector<double> faces{lo};
  for (int k = 0; k + 1 < nz; ++k) faces.push_back(faces.back() + heights[k]);
  faces.push_back(hi);
  // A layer too thin to tell its faces apart: blame the key that made it.
  const KeySpec& culprit = a->empty() ? spec("mesh", "height_ratio") : hk;
  for (int k = 0; k < nz; ++k)
    if (!(faces[k + 1] - faces[k] > 1e-9 * std::max({std::abs(lo), std::abs(hi), span})))
      fail(values.at(culprit), full_name(culprit),
           std::string(a->empty() ? "a ratio closer to 1 for " + std::to_string(nz) + " element layers: " : "") +
               "element layers higher than 1e-9 of the coordinates; layer " + std::to_string(k) + " is " +
               format_value(faces[k + 1] - faces[k]) + " m high");
  c.mesh.z_faces = faces;
}

/// [terrain]: the keys, and what only the config can tell (the mapping itself checks the
/// hill against the depth when the run builds it). Curved elements take the inviscid
/// split-form operator only: the keys that would need more are refused here, by name.
void read_terrain(Values& values, Config& c) {
  TerrainConfig& t = c.terrain;
  t.shape = choice(values, "terrain", "shape", {"flat", "agnesi", "schar", "bell", "file"});
  t.height = number(values, "terrain", "height", [](double x) { return std::isfinite(x); });
  t.half_width = number(values, "terrain", "half_width", [](double x) { return x > 0 && std::isfinite(x); });
  t.wavelength = number(values, "terrain", "wavelength", [](double x) { return x > 0 && std::isfinite(x); });
  t.x_center = number(values, "terrain", "x_center", [](double x) { return std::isfinite(x); });
  t.y_center = number(values, "terrain", "y_center", [](double x) { return std::isfinite(x); });
  t.decay = choice(values, "terrain", "decay", {"linear", "smooth"});
  t.decay_scale = number(values, "terrain", "decay_scale", [](double x) { return x >= 0 && std::isfinite(x); });
  {
    const KeySpec& k = spec("terrain", "file");
    t.file = get_string(values.at(k), k);
    if (t.shape == "file" && t.file.empty()) fail(values.at(k), full_name(k), k.expected);
    if (t.shape != "file" && !t.file.empty()) {
      const KeySpec& sk = spec("terrain", "shape");
      fail(values.at(sk), full_name(sk), "\"file\" when terrain.file names a file");
    }
  }
  {
    const KeySpec& k = spec("terrain", "variable");
    t.variable = get_string(values.at(k), k);
  }
  if (t.decay == "smooth" && !(t.decay_scale > 0)) {
    const KeySpec& k = spec("terrain", "decay_scale");
    fail(values.at(k), full_name(k), k.expected);
  }
  if (!t.active()) return;
  const KeySpec& sk = spec("terrain", "shape");
  if (c.mesh.periodic[2])
    fail(values.at(sk), full_name(sk), "\"flat\" when mesh.periodic[2] is true (terrain needs a bottom wall)");
}

/// [forcing]: the large-scale forcing. A geostrophic wind needs f; the geostrophic
/// sponge needs the sponge layer of [physics] and takes the place of its constant
/// reference velocity.
void read_forcing(Values& values, Config& c) {
  ForcingConfig& f = c.forcing;
  f.coriolis = number(values, "forcing", "coriolis", [](double x) { return std::isfinite(x); });
  f.geostrophic_u = profile(values, "geostrophic_u");
  f.geostrophic_v = profile(values, "geostrophic_v");
  f.subsidence = profile(values, "subsidence");
  f.theta_tendency = profile(values, "theta_tendency");
  f.qt_tendency = profile(values, "qt_tendency");
  {
    const KeySpec& k = spec("forcing", "geostrophic_sponge");
    const Located v = values.at(k);
    if (!v.node->is_boolean()) fail(v, full_name(k), k.expected);
    f.geostrophic_sponge = v.node->value<bool>().value();
  }
  if (f.coriolis == 0 && (!f.geostrophic_u.empty() || !f.geostrophic_v.empty())) {
    const KeySpec& k = spec("forcing", "coriolis");
    fail(values.at(k), full_name(k), "a number != 0 (1/s): a geostrophic wind acts through the Coriolis force");
  }
  if (f.geostrophic_sponge) {
    if (!(c.physics.sponge_height > 0 && c.physics.sponge_strength > 0)) {
      const KeySpec& k = spec("forcing", "geostrophic_sponge");
      fail(values.at(k), full_name(k),
           "false, or a sponge layer: physics.sponge_height and physics.sponge_strength > 0");
    }
    for (double w : c.physics.sponge_side_widths)
      if (w != 0) {
        const KeySpec& k = spec("physics", "sponge_side_widths");
        fail(values.at(k), full_name(k),
             "[0.0, 0.0] (unset): the geostrophic sponge is a top layer only");
      }
    for (double u : c.physics.sponge_velocity)
      if (u != 0) {
        const KeySpec& k = spec("physics", "sponge_velocity");
        fail(values.at(k), full_name(k),
             "[0.0, 0.0, 0.0] (unset): with forcing.geostrophic_sponge the sponge relaxes to the geostrophic wind");
      }
  }
}

/// [radiation]: the scheme and its constants (the constants are checked whatever the scheme).
void read_radiation(Values& values, Config& c) {
  RadiationConfig& r = c.radiation;
  r.scheme = choice(values, "radiation", "scheme", {"none", "dycoms"});
  r.flux_top = number(values, "radiation", "flux_top", [](double x) { return std::isfinite(x); });
  r.flux_base = number(values, "radiation", "flux_base", [](double x) { return std::isfinite(x); });
  r.absorption = number(values, "radiation", "absorption", [](double x) { return x > 0; });
  r.alpha_z = number(values, "radiation", "alpha_z", [](double x) { return x >= 0; });
  r.inversion_density = number(values, "radiation", "inversion_density", [](double x) { return x > 0; });
  r.divergence = number(values, "radiation", "divergence", [](double x) { return x >= 0; });
  r.inversion_height = number(values, "radiation", "inversion_height", [](double x) { return x >= 0; });
  r.inversion_qt = number(values, "radiation", "inversion_qt", [](double x) { return x >= 0 && x < 1; });
}

/// [boundary]: the kind of each wall, and the temperature of isothermal ones. A wall of a
/// periodic direction, an isothermal wall without a temperature, a temperature on any
/// other wall and no-slip walls without viscosity are errors.
void read_boundary(Values& values, Config& c) {
  bool no_slip = false;
  std::vector<std::pair<std::string, int>> surface_kinds;
  for (int w = 0; w < 6; ++w) {
    const std::string name = wall_names[w], t_name = name + "_temperature";
    std::vector<const char*> kinds;
    for (const auto& info : physics::wall_kinds) kinds.push_back(info.name);
    const std::string kind = choice(values, "boundary", wall_names[w], kinds);
    const physics::WallKindInfo* info = nullptr;
    for (const auto& i : physics::wall_kinds)
      if (kind == i.name) info = &i;
    const KeySpec& k = spec("boundary", wall_names[w]);
    const KeySpec& tk = spec("boundary", t_name.c_str());
    const Located tv = values.at(tk);
    const double t = get_number(tv, tk);
    const int d = w / 2;
    if (c.mesh.periodic[d] && kind != "free_slip")
      fail(values.at(k), full_name(k),
           std::string("\"free_slip\" (the default): mesh.periodic makes ") + "xyz"[d] + " periodic, so there is no wall");
    if (info->has_temperature && !(t > 0))
      fail(tv, full_name(tk), "a temperature > 0 (K), since " + full_name(k) + " = \"" + kind + "\"");
    if (!info->has_temperature && t != 0)
      fail(tv, full_name(tk), "0 (unset): only a \"no_slip_isothermal\" wall has a temperature, and " +
                                  full_name(k) + " = \"" + kind + "\"");
    no_slip |= info->no_slip;
    if (info->surface) surface_kinds.emplace_back(kind, w);
    c.boundary.kind[w] = kind;
    c.boundary.temperature[w] = t;
  }
  read_surface(values, c, surface_kinds);
  if (no_slip && c.physics.viscosity == 0 && c.physics.closure == "constant") {
    const KeySpec& k = spec("physics", "viscosity");
    fail(values.at(k), full_name(k),
         "a number > 0 (or a physics.closure other than \"constant\"): no-slip walls act through the viscous "
         "terms, which are off");
  }
}

}  // namespace

std::string read_config_text(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError("config file '" + path + "' is a directory; give a .toml file, e.g. cases/bomex.toml");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open config file '" + path + "': " + std::strerror(errno));
  // At most max_config_bytes, and one more to tell a larger file (or an endless stream
  // such as /dev/zero) from one at the limit.
  std::string text(max_config_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw InputError("cannot read config file '" + path + "'");
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > max_config_bytes)
    throw InputError("config file '" + path + "' is larger than " + std::to_string(max_config_bytes >> 20) +
                     " MiB, the limit of a config file; is it the right file?");
  return text;
}

Config parse_config(const std::string& text, const std::string& source,
                    const std::vector<std::string>& overrides,
                    const std::vector<std::string>& case_names) {
  const toml::table root = parse_toml(text, source);
  if (root.empty())
    throw InputError(source + ": the config is empty; start from one of cases/*.toml "
                              "(list them with `squall cases`)");
  check_structure(root, source);
  Values values(root, source, parse_overrides(overrides));

  Config c;
  c.source = source;
  c.text = text;
  // The --set overrides ride along as comments, so that a checkpoint's config text says
  // how the run was configured.
  if (!overrides.empty()) {
    c.text += std::string(text.empty() || text.back() == '\n' ? "" : "\n") + "\n# --set overrides of this run:\n";
    for (const auto& o : overrides) c.text += "# --set " + o + "\n";
  }

  {
    const KeySpec& k = spec("case", "name");
    const Located v = values.at(k);
    c.case_.name = get_string(v, k);
    if (c.case_.name.empty()) fail(v, full_name(k), k.expected);
    if (!case_names.empty() &&
        std::find(case_names.begin(), case_names.end(), c.case_.name) == case_names.end()) {
      std::string known;
      for (const auto& name : case_names) known += (known.empty() ? "" : ", ") + name;
      throw InputError(v.origin + ": 'case.name' = \"" + abbreviated(c.case_.name) +
                       "\": no such case; built-in cases: " + known);
    }
  }
  // The case's own keys: numbers, with their defaults; another case's keys are refused.
  for (const KeySpec& k : config_keys()) {
    if (!k.owner) continue;
    const Located v = values.at(k);
    if (c.case_.name != k.owner) {
      // Two cases may own keys of the same name: refuse only a key the case lacks.
      bool own = false;
      for (const KeySpec& o : config_keys()) own |= o.owner && c.case_.name == o.owner && full_name(o) == full_name(k);
      if (!v.is_default && !own)
        fail(v, full_name(k), std::string("nothing: it is a key of case ") + k.owner + ", and case.name = \"" +
                                  c.case_.name + "\"");
      continue;
    }
    c.case_.numbers[k.name] = get_number(v, k);
  }
  {
    const KeySpec& k = spec("mesh", "elements");
    const Located v = values.at(k);
    const auto& a = get_array(v, k, 3);
    long long total = 1;
    for (size_t d = 0; d < 3; ++d) {
      if (!a[d].is_integer()) fail(v, full_name(k), k.expected);
      const long long n = a[d].value<long long>().value();
      if (n < 1 || n > max_elements) fail(v, full_name(k), k.expected);
      total *= n;  // each factor <= 2^28, so the product cannot overflow before the check
      if (total > max_elements) fail(v, full_name(k), k.expected);
      c.mesh.elements[d] = static_cast<int>(n);
    }
  }
  {
    const KeySpec& k = spec("mesh", "domain");
    const Located v = values.at(k);
    const auto& a = get_array(v, k, 3);
    for (size_t d = 0; d < 3; ++d) {
      const toml::array* pair = a[d].as_array();
      if (!pair || pair->size() != 2 || !(*pair)[0].is_number() || !(*pair)[1].is_number())
        fail(v, full_name(k), k.expected);
      const double lo = (*pair)[0].value<double>().value();
      const double hi = (*pair)[1].value<double>().value();
      if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
        fail(v, full_name(k), std::string(k.expected) + "; direction " + "xyz"[d] +
                                  " is empty or inverted");
      // The span and the element size must be finite numbers that the coordinates of
      // the nodes can tell apart (1e308 - -1e308 is infinite).
      const double span = hi - lo, size = span / c.mesh.elements[d];
      if (!std::isfinite(span) || span > max_domain_span)
        fail(v, full_name(k), std::string("a span of at most 1e8 m in each direction; direction ") + "xyz"[d] +
                                  " spans " + format_value(span) + " m");
      if (!(size > 1e-9 * std::max({std::abs(lo), std::abs(hi), span})))
        fail(v, full_name(k), std::string("elements larger than 1e-9 of the coordinates; direction ") + "xyz"[d] +
                                  " has elements of " + format_value(size) + " m at coordinates up to " +
                                  format_value(std::max(std::abs(lo), std::abs(hi))) + " m");
      c.mesh.domain[d] = {lo, hi};
    }
  }
  {
    const KeySpec& k = spec("mesh", "periodic");
    const Located v = values.at(k);
    const auto& a = get_array(v, k, 3);
    for (size_t d = 0; d < 3; ++d) {
      if (!a[d].is_boolean()) fail(v, full_name(k), k.expected);
      c.mesh.periodic[d] = a[d].value<bool>().value();
    }
  }
  read_z_faces(values, c);
  c.mesh.warp = number(values, "mesh", "warp", [](double x) { return x >= 0 && x <= 0.1; });
  read_terrain(values, c);
  if (c.mesh.warp > 0 && c.terrain.active()) {
    const KeySpec& k = spec("mesh", "warp");
    fail(values.at(k), full_name(k), "0.0 over terrain (terrain.shape = \"" + c.terrain.shape + "\")");
  }
  c.dg.order = static_cast<int>(integer(values, "dg", "order", [](long long n) { return n >= 1 && n <= 8; }));
  c.dg.volume_flux = choice(values, "dg", "volume_flux", {"standard", "kennedy_gruber"});
  c.dg.kernel_layout = choice(values, "dg", "kernel_layout", {"auto", "packs", "elements", "nodes", "teams"});
  c.physics.viscosity = number(values, "physics", "viscosity", [](double x) { return x >= 0; });
  c.physics.prandtl = number(values, "physics", "prandtl", [](double x) { return x > 0; });
  c.physics.heat_diffusion = choice(values, "physics", "heat_diffusion", {"potential_temperature", "temperature"});
  c.physics.closure = choice(values, "physics", "closure", {"constant", "smagorinsky", "vreman"});
  c.physics.smagorinsky_cs = number(values, "physics", "smagorinsky_cs", [](double x) { return x > 0 && x <= 1; });
  c.physics.turbulent_prandtl = number(values, "physics", "turbulent_prandtl", [](double x) { return x > 0; });
  c.physics.cloud_stratification = choice(values, "physics", "cloud_stratification", {"saturated", "interior"});
  read_tracers(values, c);
  c.physics.schmidt = number(values, "physics", "schmidt", [](double x) { return x > 0; });
  c.physics.turbulent_schmidt = number(values, "physics", "turbulent_schmidt", [](double x) { return x > 0; });
  c.physics.sponge_height = number(values, "physics", "sponge_height", [](double x) { return x >= 0; });
  c.physics.sponge_strength = number(values, "physics", "sponge_strength", [](double x) { return x >= 0; });
  c.physics.sponge_exponent =
      number(values, "physics", "sponge_exponent", [](double x) { return x >= 1 && x <= 10; });
  {
    const KeySpec& k = spec("physics", "sponge_velocity");
    const Located v = values.at(k);
    const auto& a = get_array(v, k, 3);
    for (size_t d = 0; d < 3; ++d) {
      if (!a[d].is_number() || !std::isfinite(a[d].value<double>().value())) fail(v, full_name(k), k.expected);
      c.physics.sponge_velocity[d] = a[d].value<double>().value();
    }
  }
  {
    const KeySpec& k = spec("physics", "sponge_side_widths");
    const Located v = values.at(k);
    const auto& a = get_array(v, k, 2);
    for (size_t d = 0; d < 2; ++d) {
      const double w = a[d].is_number() ? a[d].value<double>().value() : -1;
      if (!(std::isfinite(w) && w >= 0 && w <= (c.mesh.domain[d][1] - c.mesh.domain[d][0]) / 2))
        fail(v, full_name(k), k.expected);
      c.physics.sponge_side_widths[d] = w;
    }
  }
  if (c.physics.sponge_height > 0 && c.physics.sponge_height >= c.mesh.domain[2][1] - c.mesh.domain[2][0]) {
    const KeySpec& k = spec("physics", "sponge_height");
    fail(values.at(k), full_name(k), "a height below the top of the domain (mesh.domain)");
  }
  read_boundary(values, c);
  read_forcing(values, c);
  read_radiation(values, c);
  if (c.terrain.active() || c.mesh.warp > 0) {
    // Curved elements: the split form (the standard form has no contravariant volume
    // term), and neither subsidence nor radiation, whose vertical derivatives and
    // integrals are taken along the elements' z lines (the pointwise forcings act).
    const std::string where = c.terrain.active() ? "over terrain (terrain.shape = \"" + c.terrain.shape + "\")"
                                                 : std::string("on a warped mesh (mesh.warp > 0)");
    const auto refuse = [&](const char* section, const char* name, const char* expected, const char* why) {
      const KeySpec& k = spec(section, name);
      fail(values.at(k), full_name(k), std::string(expected) + " " + where + ": " + why);
    };
    if (c.dg.volume_flux != "kennedy_gruber")
      refuse("dg", "volume_flux", "\"kennedy_gruber\"", "curved elements take the split form only");
    if (!c.forcing.subsidence.empty())
      refuse("forcing", "subsidence", "no profile", "subsidence's d/dz follows the elements' z lines");
    if (c.radiation.scheme != "none")
      refuse("radiation", "scheme", "\"none\"", "the radiation's liquid water paths are column integrals");
  }
  c.time.end_time = number(values, "time", "end_time", [](double x) { return x >= 0; });
  c.time.max_steps = static_cast<long>(integer(values, "time", "max_steps", [](long long n) { return n >= 0; }));
  c.time.warmup_steps =
      static_cast<long>(integer(values, "time", "warmup_steps", [](long long n) { return n >= 0; }));
  c.time.cfl = number(values, "time", "cfl", [](double x) { return x > 0 && x <= 10; });
  c.time.dt = number(values, "time", "dt", [](double x) { return x >= 0; });
  c.time.integrator = choice(values, "time", "integrator", {"lsrk54", "lsrk144", "ssprk33"});
  {
    const KeySpec& k = spec("output", "dir");
    c.output.dir = get_string(values.at(k), k);
  }
  c.output.interval = number(values, "output", "interval", [](double x) { return x >= 0; });
  {
    const KeySpec& k = spec("output", "start_date");
    const Located v = values.at(k);
    // A string, or a TOML date or date-time in UTC (start_date = 1969-06-22T12:00:00Z).
    std::string date_text;
    char buffer[64];
    if (const auto* dt = v.node->as_date_time(); dt && (!dt->get().offset || dt->get().offset->minutes == 0)) {
      const auto& [date, time, offset] = dt->get();
      std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d %02d:%02d:%02d", int(date.year), int(date.month),
                    int(date.day), int(time.hour), int(time.minute), int(time.second));
      date_text = buffer;
    } else if (const auto* d = v.node->as_date()) {
      std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", int(d->get().year), int(d->get().month),
                    int(d->get().day));
      date_text = buffer;
    } else if (v.node->is_string()) {
      date_text = get_string(v, k);
    }
    c.output.start_date = normalized_date(date_text);
    if (c.output.start_date.empty()) fail(v, full_name(k), k.expected);
  }
  c.output.profiles_interval = number(values, "output", "profiles_interval", [](double x) { return x >= 0; });
  {
    const KeySpec& k = spec("output", "profiles_mean_window");
    const Located v = values.at(k);
    const toml::array* a = v.node->as_array();
    if (!a || (a->size() != 0 && a->size() != 2)) fail(v, full_name(k), k.expected);
    for (const auto& item : *a) {
      if (!item.is_number() || !std::isfinite(item.value<double>().value())) fail(v, full_name(k), k.expected);
      c.output.profiles_mean_window.push_back(item.value<double>().value());
    }
    const auto& w = c.output.profiles_mean_window;
    if (w.size() == 2 && !(w[0] >= 0 && w[0] < w[1])) fail(v, full_name(k), k.expected);
  }
  c.output.checkpoint_interval = number(values, "output", "checkpoint_interval", [](double x) { return x >= 0; });
  c.output.checkpoint_steps =
      static_cast<long>(integer(values, "output", "checkpoint_steps", [](long long n) { return n >= 0; }));
  c.output.checkpoint_keep = static_cast<int>(
      integer(values, "output", "checkpoint_keep", [](long long n) { return n >= 1 && n <= 1000; }));
  return c;
}

std::string resolved_output_dir(const Config& config) {
  return config.output.dir.empty() ? "output/" + config.case_.name : config.output.dir;
}

}  // namespace squall::io
