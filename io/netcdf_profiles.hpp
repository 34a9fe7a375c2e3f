#pragma once
/// profiles.nc: vertical profiles against (time, z), NetCDF-4, CF-1.8. Each call appends
/// one time to the file (creating it on the first call). Written by one rank.
#include <string>
#include <vector>

namespace squall::io {

struct ProfileVariable {
  std::string name, long_name, standard_name, units;
  std::vector<double> values;  ///< one per level
};

/// Appends the profiles at `time` to `path`; RunError naming the file on failure.
void append_profiles(const std::string& path, const std::vector<double>& z, double time,
                     const std::vector<ProfileVariable>& variables, const std::string& title);

}  // namespace squall::io
