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

/// Appends the profiles at `time` to `path`; RunError naming the file on failure. A new
/// file gets `time_units` ("seconds since <date>") on its time coordinate, and says in its
/// metadata whether z is a terrain-following coordinate (means along its levels).
void append_profiles(const std::string& path, const std::vector<double>& z, double time,
                     const std::vector<ProfileVariable>& variables, const std::string& title,
                     const std::string& time_units, bool terrain_following = false);

/// Keeps the records of the profiles file `path` up to the first whose time exceeds
/// `time` and drops that one and all after it: a restart from a checkpoint at `time`
/// continues the file as the uninterrupted run wrote it. Rewrites the file through a .tmp
/// and a rename (untouched when nothing is dropped); returns the number of records
/// dropped (0 for a missing file). RunError naming the file on failure.
long truncate_profiles_after(const std::string& path, double time);

/// Whether `path` opens as a NetCDF file (an append that failed half-way, on a full disk,
/// can leave profiles.nc unreadable).
bool readable_netcdf(const std::string& path);

/// Writes out_path: the time mean over [t0, t1] of every (time, z) variable of the
/// profiles file `profiles_path`, on z, with its attributes and cell_methods "time: mean"
/// (CF). A time recorded more than once (files of earlier versions, whose restarts wrote
/// the records after their checkpoint again) counts once, its last record. Returns the number of times
/// averaged (0: none in the window, and no file written); RunError naming a file on failure.
int write_profile_means(const std::string& profiles_path, const std::string& out_path, double t0, double t1);

}  // namespace squall::io
