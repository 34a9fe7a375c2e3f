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

/// Writes out_path: the time mean over [t0, t1] of every (time, z) variable of the
/// profiles file `profiles_path`, on z, with its attributes and cell_methods "time: mean"
/// (CF). A time recorded more than once (a restart from an earlier checkpoint writes the
/// records after it again) counts once, its last record. Returns the number of times
/// averaged (0: none in the window, and no file written); RunError naming a file on failure.
int write_profile_means(const std::string& profiles_path, const std::string& out_path, double t0, double t1);

}  // namespace squall::io
