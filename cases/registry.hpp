#pragma once
/// The explicit list of built-in cases. A case is cases/<name>.toml (its configuration)
/// plus, once the solver is in place, cases/<name>.cpp (initial state, boundary
/// conditions, sources).
#include <string>
#include <vector>

#include "solver/case.hpp"

namespace squall::cases {

const std::vector<CaseInfo>& registered_cases();
/// The case called `name`, or nullptr.
const CaseInfo* find_case(const std::string& name);

}  // namespace squall::cases
