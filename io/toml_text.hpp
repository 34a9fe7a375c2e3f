#pragma once
/// TOML text to a table, for the config and ensemble readers (host code only: toml++ is
/// not digestible by every device compiler front end).
#include <string>
#include <toml++/toml.h>

#include "core/error.hpp"

namespace squall::io {

/// Parses `text` (from `source`); InputError "source:line:column: not valid TOML: ..."
/// when it is not TOML.
inline toml::table parse_toml(const std::string& text, const std::string& source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    throw InputError(source + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                     ": not valid TOML: " + std::string(e.description()));
  }
}

}  // namespace squall::io
