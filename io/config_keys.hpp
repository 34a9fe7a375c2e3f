#pragma once
/// The catalogue of configuration keys: name, default (as TOML), and what it means.
/// This is the single source of the defaults; `squall check --list-keys` prints it and
/// docs/config.md is checked against it by a test.
#include <string>
#include <vector>

namespace squall::io {

struct KeySpec {
  const char* section;
  const char* name;
  const char* default_toml;  ///< the default, written as a TOML value
  const char* expected;      ///< what a valid value looks like, for error messages
  const char* description;
  const char* owner = nullptr;  ///< a case's own key ([case] section): the case's name
};

/// The catalogue: the solver's keys and every key registered by a case.
const std::vector<KeySpec>& config_keys();

/// Adds the keys a case owns (section "case", owner = the case's name). Call before
/// any config is read; the strings must live as long as the program.
void register_case_keys(const std::vector<KeySpec>& keys);
const std::vector<std::string>& config_sections();

/// "section.name" of a key.
std::string full_name(const KeySpec& key);

/// The catalogue as text, one key per line with its default and description.
std::string describe_config_keys();

}  // namespace squall::io
