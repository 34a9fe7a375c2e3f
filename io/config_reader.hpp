#pragma once
/// Reads a TOML run configuration, applies `--set section.key=value` overrides, fills in
/// defaults (io/config_keys.cpp) and validates every value. Any problem throws an
/// InputError whose message names the file and line (or the --set argument), the key,
/// what was found and what was expected.
#include <cstddef>
#include <string>
#include <vector>

#include "core/config.hpp"

namespace squall::io {

/// The largest config file read (1 MiB; the cases are a few KiB).
inline constexpr std::size_t max_config_bytes = std::size_t(1) << 20;

/// The text of a config file; InputError when it cannot be read, is a directory or is
/// larger than max_config_bytes.
std::string read_config_text(const std::string& path);

/// Parses and validates `text` (from `source`, used in messages) with `overrides`
/// ("section.key=value", as given to --set). `case_names`, when not empty, are the
/// names case.name may take.
Config parse_config(const std::string& text, const std::string& source,
                    const std::vector<std::string>& overrides,
                    const std::vector<std::string>& case_names = {});

/// The output directory a config resolves to (output.dir, or output/<case.name>).
std::string resolved_output_dir(const Config& config);

}  // namespace squall::io
