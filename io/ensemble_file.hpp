#pragma once
/// Reads an ensemble file (`squall ensemble ENSEMBLE.toml`): a base case config and its
/// members, each a list of `--set`-style overrides, given one by one ([[member]]) or as
/// a sweep (`members` and `vary`). Any problem throws an InputError that names the file,
/// the line or member, the key and what was expected. docs/ensembles.md describes the
/// format.
#include <string>
#include <vector>

namespace squall::io {

struct EnsembleMember {
  int index = 0;                       ///< 0, 1, ... in the order of the file (sweep first)
  std::vector<std::string> overrides;  ///< the member's own "section.key=value"
};

struct EnsembleSpec {
  std::string source;       ///< the ensemble file, for messages and summaries
  std::string base_config;  ///< path of the base case config (relative paths: from the ensemble file's folder)
  std::vector<std::string> common;  ///< overrides of every member ([ensemble] set, then --set)
  std::string output_dir;           ///< "" : output/<the ensemble file's stem>
  bool batch = false;               ///< [ensemble] batch: run each group's members as one batch
  int batch_members = 0;            ///< [ensemble] batch_members: at most this many per batch (0: all)
  std::vector<EnsembleMember> members;
};

/// Parses `text` (from the file `source`). `extra_common` (command-line --set) are
/// applied to every member after the file's own `set`.
EnsembleSpec parse_ensemble(const std::string& text, const std::string& source,
                            const std::vector<std::string>& extra_common = {});

/// Why a member may not set `key` ("section.key"): every member of an ensemble shares
/// the mesh, the order, the equation set and the kernels' choices, so that the members
/// can run as one batch; "" when the key may differ between members.
std::string fixed_key_reason(const std::string& key);

/// The folder a member writes into: <ensemble output dir>/member_NNN.
std::string member_dir(const std::string& ensemble_dir, int index);

}  // namespace squall::io
