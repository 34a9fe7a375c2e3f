#pragma once
/// Terminal output. Only rank 0 talks (info, warnings); errors go to stderr. The rank is
/// set once by main.
#include <string>

namespace squall::log {

void set_rank(int rank);
/// Text put before every line (e.g. "[member 3] " while ranks run ensemble members side
/// by side); "" for none.
void set_tag(const std::string& tag);
/// Suppress info lines (warnings and errors still print). For tests and --quiet.
void set_quiet(bool quiet);

void info(const std::string& message);
void warn(const std::string& message);
/// Printed by rank 0 only: the caller has already agreed the error on all ranks.
void error(const std::string& message);

}  // namespace squall::log
