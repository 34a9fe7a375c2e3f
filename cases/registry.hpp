#pragma once
/// The explicit list of built-in cases: cases/<name>.toml (configuration) and
/// cases/<name>.cpp (initial state, reference state, exact solution, diagnostics).
#include <string>
#include <vector>

#include "solver/case.hpp"

namespace squall::cases {

const std::vector<CaseInfo>& registered_cases();
/// The case called `name`, or nullptr.
const CaseInfo* find_case(const std::string& name);

/// case.<name> of config c (fallback when unset), checked to lie in [lo, hi]
/// (InputError naming the file and the key).
Real case_number(const Config& c, const char* name, Real fallback, Real lo, Real hi, const char* expected);

std::unique_ptr<Case> make_rest_atmosphere(const Config& config);
std::unique_ptr<Case> make_isentropic_vortex(const Config& config);
std::unique_ptr<Case> make_rising_bubble(const Config& config);
std::unique_ptr<Case> make_tracer_bubble(const Config& config);
std::unique_ptr<Case> make_density_current(const Config& config);
std::unique_ptr<Case> make_shear_wave(const Config& config);
std::unique_ptr<Case> make_taylor_green(const Config& config);
std::unique_ptr<Case> make_dry_bubble(const Config& config);
std::unique_ptr<Case> make_moist_bubble(const Config& config);
std::unique_ptr<Case> make_bomex(const Config& config);
std::unique_ptr<Case> make_dycoms_rf01(const Config& config);
std::unique_ptr<Case> make_agnesi_hydrostatic(const Config& config);
std::unique_ptr<Case> make_schar_mountain(const Config& config);

}  // namespace squall::cases
