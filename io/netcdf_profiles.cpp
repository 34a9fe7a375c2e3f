#include "io/netcdf_profiles.hpp"

#include <netcdf.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/error.hpp"
#include "io/disk_space.hpp"
#include "io/netcdf_attribute.hpp"

namespace squall::io {
namespace {

/// Checks the NetCDF calls on `path`. A failed read throws. A failed write ends the job:
/// HDF5 cannot go on after it (it keeps the file it could not finish, and its shutdown
/// crashes); `partial`, the unfinished copy when the write makes one, is removed first.
struct Checker {
  std::string path;
  bool writing = true;
  std::string partial;
  void operator()(int status, const std::string& what) const {
    if (status == NC_NOERR) return;
    const int saved_errno = errno;
    const std::string message = "NetCDF error " + std::string(writing ? "writing" : "reading") + " '" + path +
                                "' (" + what + "): " + nc_strerror(status);
    if (!writing) throw RunError(message);
    end_job_after_failed_write(partial, message + full_disk_note(path, saved_errno) +
                                            (partial.empty() ? "; the file, appended in place, may be left unreadable" : ""));
  }
};

/// An open NetCDF file, closed when it goes out of scope (on an error: unchecked).
class NcId {
 public:
  NcId() = default;
  ~NcId() {
    if (id >= 0) nc_close(id);
  }
  NcId(const NcId&) = delete;
  NcId& operator=(const NcId&) = delete;
  /// Closes the file and checks that its data reached the disk.
  void close(const Checker& check) {
    const int status = nc_close(id);
    id = -1;
    check(status, "close");
  }
  int id = -1;
};

/// Removes `path` (a partial copy) unless dismissed.
class PartialFile {
 public:
  explicit PartialFile(std::string path) : path_(std::move(path)) {}
  ~PartialFile() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;
  void keep() { path_.clear(); }

 private:
  std::string path_;
};

void text(const Checker& check, int id, int var, const char* name, const std::string& value) {
  if (!value.empty()) check(nc_put_att_text(id, var, name, value.size(), value.c_str()), name);
}

void create(const Checker& check, const std::string& path, const std::vector<double>& z,
            const std::vector<ProfileVariable>& variables, const std::string& title, const std::string& time_units,
            bool terrain_following) {
  NcId file;
  int dims[2], var;
  check(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &file.id), "create");
  const int id = file.id;
  check(nc_def_dim(id, "time", NC_UNLIMITED, &dims[0]), "time");
  check(nc_def_dim(id, "z", z.size(), &dims[1]), "z");
  text(check, id, NC_GLOBAL, "Conventions", "CF-1.8");
  text(check, id, NC_GLOBAL, "title", title);
  text(check, id, NC_GLOBAL, "comment",
       terrain_following ? "horizontal means over the terrain-following levels of the output grid (the surfaces "
                           "of constant z, which follow the terrain near the ground and are flat at the top; "
                           "primes: deviations from the means)"
                         : "horizontal means over the x-y planes of the output grid (primes: deviations from them)");
  check(nc_def_var(id, "time", NC_DOUBLE, 1, &dims[0], &var), "time");
  text(check, id, var, "standard_name", "time");
  text(check, id, var, "units", time_units);
  text(check, id, var, "calendar", "standard");
  text(check, id, var, "axis", "T");
  check(nc_def_var(id, "z", NC_DOUBLE, 1, &dims[1], &var), "z");
  text(check, id, var, "standard_name", terrain_following ? "" : "height");
  if (terrain_following) text(check, id, var, "long_name", "terrain-following coordinate (height over flat ground)");
  text(check, id, var, "units", "m");
  text(check, id, var, "axis", "Z");
  text(check, id, var, "positive", "up");
  const int z_var = var;
  for (const auto& v : variables) {
    check(nc_def_var(id, v.name.c_str(), NC_DOUBLE, 2, dims, &var), v.name);
    text(check, id, var, "long_name", v.long_name);
    text(check, id, var, "standard_name", v.standard_name);
    text(check, id, var, "units", v.units);
  }
  check(nc_enddef(id), "enddef");
  check(nc_put_var_double(id, z_var, z.data()), "z");
  file.close(check);
}

}  // namespace

void append_profiles(const std::string& path, const std::vector<double>& z, double time,
                     const std::vector<ProfileVariable>& variables, const std::string& title,
                     const std::string& time_units, bool terrain_following) {
  const Checker check{path, true, ""};
  // Refused before the file is touched when the disk cannot hold the record: a write that
  // runs out of space half-way can leave the file unreadable.
  std::uintmax_t values = z.size() + 1;
  for (const auto& v : variables) values += v.values.size();
  require_space(path, values * sizeof(double) + metadata_room, "a record of '" + path + "'");
  if (!std::filesystem::exists(path)) create(check, path, z, variables, title, time_units, terrain_following);
  NcId file;
  int dim, var;
  check(nc_open(path.c_str(), NC_WRITE, &file.id), "open");
  const int id = file.id;
  size_t records = 0;
  check(nc_inq_dimid(id, "time", &dim), "time");
  check(nc_inq_dimlen(id, dim, &records), "time");
  check(nc_inq_varid(id, "time", &var), "time");
  const size_t one = 1;
  check(nc_put_vara_double(id, var, &records, &one, &time), "time");
  for (const auto& v : variables) {
    check(nc_inq_varid(id, v.name.c_str(), &var), v.name + " (the file was written by another configuration)");
    const size_t start[2] = {records, 0}, count[2] = {1, v.values.size()};
    check(nc_put_vara_double(id, var, start, count, v.values.data()), v.name);
  }
  file.close(check);
}

bool readable_netcdf(const std::string& path) {
  int id = -1;
  if (nc_open(path.c_str(), NC_NOWRITE, &id) != NC_NOERR) return false;
  nc_close(id);
  return true;
}

long truncate_profiles_after(const std::string& path, double time) {
  if (!std::filesystem::exists(path)) return 0;
  const Checker read{path, false, ""};
  NcId input;
  int time_dim, var;
  read(nc_open(path.c_str(), NC_NOWRITE, &input.id), "open");
  const int in = input.id;
  size_t records = 0;
  read(nc_inq_dimid(in, "time", &time_dim), "time");
  read(nc_inq_dimlen(in, time_dim, &records), "time");
  std::vector<double> times(records);
  read(nc_inq_varid(in, "time", &var), "time");
  if (records > 0) read(nc_get_var_double(in, var, times.data()), "time");
  size_t keep = 0;
  while (keep < records && times[keep] <= time) ++keep;
  if (keep == records) return 0;
  // A copy with the first `keep` records: the same dimensions, variables and attributes.
  const std::string tmp = path + ".tmp";
  const Checker check{tmp, true, tmp};
  int ndims, nvars, ngatts, unlimited;
  read(nc_inq(in, &ndims, &nvars, &ngatts, &unlimited), "inquire");
  PartialFile partial(tmp);
  NcId output;
  check(nc_create(tmp.c_str(), NC_NETCDF4 | NC_CLOBBER, &output.id), "create");
  const int out = output.id;
  const auto copy_attributes = [&](int v, int count) {
    for (int a = 0; a < count; ++a) {
      char name[NC_MAX_NAME + 1];
      read(nc_inq_attname(in, v, a, name), "attributes");
      check(nc_copy_att(in, v, name, out, v), name);
    }
  };
  std::vector<size_t> lengths(ndims);
  for (int d = 0; d < ndims; ++d) {
    char name[NC_MAX_NAME + 1];
    int id;
    read(nc_inq_dim(in, d, name, &lengths[d]), "dimensions");
    if (d == time_dim) lengths[d] = keep;
    check(nc_def_dim(out, name, d == unlimited ? NC_UNLIMITED : lengths[d], &id), name);
  }
  copy_attributes(NC_GLOBAL, ngatts);
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1];
    nc_type type;
    int nd, dims[NC_MAX_VAR_DIMS], natts, id;
    read(nc_inq_var(in, v, name, &type, &nd, dims, &natts), "variables");
    if (type != NC_DOUBLE) throw RunError("'" + path + "': variable " + name + " is not of type double");
    check(nc_def_var(out, name, type, nd, dims, &id), name);
    copy_attributes(v, natts);
  }
  check(nc_enddef(out), "enddef");
  for (int v = 0; v < nvars; ++v) {
    char name[NC_MAX_NAME + 1];
    int nd, dims[NC_MAX_VAR_DIMS];
    read(nc_inq_var(in, v, name, nullptr, &nd, dims, nullptr), "variables");
    std::vector<size_t> start(nd, 0), count(nd);
    size_t size = 1;
    for (int i = 0; i < nd; ++i) size *= count[i] = lengths[dims[i]];
    if (size == 0) continue;
    std::vector<double> values(size);
    read(nc_get_vara_double(in, v, start.data(), count.data(), values.data()), name);
    check(nc_put_vara_double(out, v, start.data(), count.data(), values.data()), name);
  }
  output.close(check);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw RunError("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
  partial.keep();
  return static_cast<long>(records - keep);
}

int write_profile_means(const std::string& profiles_path, const std::string& out_path, double t0, double t1) {
  const Checker read{profiles_path, false, ""};
  NcId input;
  int dim, var;
  read(nc_open(profiles_path.c_str(), NC_NOWRITE, &input.id), "open");
  const int id = input.id;
  size_t records = 0, levels = 0;
  read(nc_inq_dimid(id, "time", &dim), "time");
  const int time_dim = dim;
  read(nc_inq_dimlen(id, dim, &records), "time");
  read(nc_inq_dimid(id, "z", &dim), "z");
  read(nc_inq_dimlen(id, dim, &levels), "z");
  std::vector<double> times(records), z(levels);
  read(nc_inq_varid(id, "time", &var), "time");
  if (records > 0) read(nc_get_var_double(id, var, times.data()), "time");
  read(nc_inq_varid(id, "z", &var), "z");
  read(nc_get_var_double(id, var, z.data()), "z");
  // The last record of each time in the window.
  std::map<double, size_t> chosen;
  for (size_t r = 0; r < records; ++r)
    if (times[r] >= t0 && times[r] <= t1) chosen[times[r]] = r;
  if (chosen.empty()) return 0;
  int nvars = 0;
  read(nc_inq_nvars(id, &nvars), "variables");
  std::vector<ProfileVariable> means;
  std::vector<double> row(levels);
  for (int v = 0; v < nvars; ++v) {
    int ndims = 0, dims[NC_MAX_VAR_DIMS];
    char name[NC_MAX_NAME + 1];
    read(nc_inq_var(id, v, name, nullptr, &ndims, dims, nullptr), "variables");
    if (ndims != 2 || dims[0] != time_dim) continue;
    ProfileVariable m{name, text_attribute(id, v, "long_name"), text_attribute(id, v, "standard_name"),
                      text_attribute(id, v, "units"), std::vector<double>(levels, 0.0)};
    for (const auto& [t, r] : chosen) {  // ascending time: the same order on every run
      const size_t start[2] = {r, 0}, count[2] = {1, levels};
      read(nc_get_vara_double(id, v, start, count, row.data()), name);
      for (size_t k = 0; k < levels; ++k) m.values[k] += row[k];
    }
    for (double& x : m.values) x /= static_cast<double>(chosen.size());
    means.push_back(std::move(m));
  }
  const std::string title = text_attribute(id, NC_GLOBAL, "title");

  const std::string tmp = out_path + ".tmp";
  const Checker check{tmp, true, tmp};
  require_space(out_path, (means.size() + 1) * levels * sizeof(double) + metadata_room, "'" + out_path + "'");
  PartialFile partial(tmp);
  NcId output;
  int zdim, z_var;
  check(nc_create(tmp.c_str(), NC_NETCDF4 | NC_CLOBBER, &output.id), "create");
  const int out = output.id;
  check(nc_def_dim(out, "z", levels, &zdim), "z");
  text(check, out, NC_GLOBAL, "Conventions", "CF-1.8");
  text(check, out, NC_GLOBAL, "title", title + ", time mean");
  text(check, out, NC_GLOBAL, "comment",
       "time means of the records of " + std::filesystem::path(profiles_path).filename().string() +
           " in the window; a time recorded twice (after a restart) counts once");
  const double window[2] = {chosen.begin()->first, chosen.rbegin()->first};
  check(nc_put_att_double(out, NC_GLOBAL, "time_window", NC_DOUBLE, 2, window), "time_window");
  const int count = static_cast<int>(chosen.size());
  check(nc_put_att_int(out, NC_GLOBAL, "records", NC_INT, 1, &count), "records");
  check(nc_def_var(out, "z", NC_DOUBLE, 1, &zdim, &z_var), "z");
  text(check, out, z_var, "standard_name", "height");
  text(check, out, z_var, "units", "m");
  text(check, out, z_var, "axis", "Z");
  text(check, out, z_var, "positive", "up");
  std::vector<int> ids;
  for (const auto& m : means) {
    check(nc_def_var(out, m.name.c_str(), NC_DOUBLE, 1, &zdim, &var), m.name);
    text(check, out, var, "long_name", m.long_name);
    text(check, out, var, "standard_name", m.standard_name);
    text(check, out, var, "units", m.units);
    text(check, out, var, "cell_methods", "time: mean");
    ids.push_back(var);
  }
  check(nc_enddef(out), "enddef");
  check(nc_put_var_double(out, z_var, z.data()), "z");
  for (size_t i = 0; i < means.size(); ++i) check(nc_put_var_double(out, ids[i], means[i].values.data()), means[i].name);
  output.close(check);
  std::error_code ec;
  std::filesystem::rename(tmp, out_path, ec);
  if (ec) throw RunError("cannot rename '" + tmp + "' to '" + out_path + "': " + ec.message());
  partial.keep();
  return count;
}

}  // namespace squall::io
