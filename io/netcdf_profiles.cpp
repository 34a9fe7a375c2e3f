#include "io/netcdf_profiles.hpp"

#include <netcdf.h>

#include <filesystem>
#include <map>

#include "core/error.hpp"

namespace squall::io {
namespace {

struct Checker {
  std::string path;
  const char* doing = "writing";
  void operator()(int status, const std::string& what) const {
    if (status != NC_NOERR)
      throw RunError("NetCDF error " + std::string(doing) + " '" + path + "' (" + what + "): " + nc_strerror(status));
  }
};

std::string attribute(int id, int var, const char* name) {
  size_t length = 0;
  if (nc_inq_attlen(id, var, name, &length) != NC_NOERR) return "";
  std::string value(length, '\0');
  if (nc_get_att_text(id, var, name, value.data()) != NC_NOERR) return "";
  return value;
}

void text(const Checker& check, int id, int var, const char* name, const std::string& value) {
  if (!value.empty()) check(nc_put_att_text(id, var, name, value.size(), value.c_str()), name);
}

void create(const Checker& check, const std::string& path, const std::vector<double>& z,
            const std::vector<ProfileVariable>& variables, const std::string& title) {
  int id, dims[2], var;
  check(nc_create(path.c_str(), NC_NETCDF4 | NC_CLOBBER, &id), "create");
  check(nc_def_dim(id, "time", NC_UNLIMITED, &dims[0]), "time");
  check(nc_def_dim(id, "z", z.size(), &dims[1]), "z");
  text(check, id, NC_GLOBAL, "Conventions", "CF-1.8");
  text(check, id, NC_GLOBAL, "title", title);
  text(check, id, NC_GLOBAL, "comment",
       "horizontal means over the x-y planes of the output grid (primes: deviations from them)");
  check(nc_def_var(id, "time", NC_DOUBLE, 1, &dims[0], &var), "time");
  text(check, id, var, "standard_name", "time");
  text(check, id, var, "units", "s");
  text(check, id, var, "axis", "T");
  check(nc_def_var(id, "z", NC_DOUBLE, 1, &dims[1], &var), "z");
  text(check, id, var, "standard_name", "height");
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
  check(nc_close(id), "close");
}

}  // namespace

void append_profiles(const std::string& path, const std::vector<double>& z, double time,
                     const std::vector<ProfileVariable>& variables, const std::string& title) {
  const Checker check{path};
  if (!std::filesystem::exists(path)) create(check, path, z, variables, title);
  int id, dim, var;
  check(nc_open(path.c_str(), NC_WRITE, &id), "open");
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
  check(nc_close(id), "close");
}

long truncate_profiles_after(const std::string& path, double time) {
  if (!std::filesystem::exists(path)) return 0;
  const Checker read{path, "reading"};
  int in, time_dim, var;
  read(nc_open(path.c_str(), NC_NOWRITE, &in), "open");
  size_t records = 0;
  read(nc_inq_dimid(in, "time", &time_dim), "time");
  read(nc_inq_dimlen(in, time_dim, &records), "time");
  std::vector<double> times(records);
  read(nc_inq_varid(in, "time", &var), "time");
  if (records > 0) read(nc_get_var_double(in, var, times.data()), "time");
  size_t keep = 0;
  while (keep < records && times[keep] <= time) ++keep;
  if (keep == records) {
    nc_close(in);
    return 0;
  }
  // A copy with the first `keep` records: the same dimensions, variables and attributes.
  const std::string tmp = path + ".tmp";
  const Checker check{tmp};
  int out, ndims, nvars, ngatts, unlimited;
  read(nc_inq(in, &ndims, &nvars, &ngatts, &unlimited), "inquire");
  check(nc_create(tmp.c_str(), NC_NETCDF4 | NC_CLOBBER, &out), "create");
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
  check(nc_close(out), "close");
  nc_close(in);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw RunError("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
  return static_cast<long>(records - keep);
}

int write_profile_means(const std::string& profiles_path, const std::string& out_path, double t0, double t1) {
  const Checker read{profiles_path, "reading"};
  int id, dim, var;
  read(nc_open(profiles_path.c_str(), NC_NOWRITE, &id), "open");
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
  if (chosen.empty()) {
    nc_close(id);
    return 0;
  }
  int nvars = 0;
  read(nc_inq_nvars(id, &nvars), "variables");
  std::vector<ProfileVariable> means;
  std::vector<double> row(levels);
  for (int v = 0; v < nvars; ++v) {
    int ndims = 0, dims[NC_MAX_VAR_DIMS];
    char name[NC_MAX_NAME + 1];
    read(nc_inq_var(id, v, name, nullptr, &ndims, dims, nullptr), "variables");
    if (ndims != 2 || dims[0] != time_dim) continue;
    ProfileVariable m{name, attribute(id, v, "long_name"), attribute(id, v, "standard_name"),
                      attribute(id, v, "units"), std::vector<double>(levels, 0.0)};
    for (const auto& [t, r] : chosen) {  // ascending time: the same order on every run
      const size_t start[2] = {r, 0}, count[2] = {1, levels};
      read(nc_get_vara_double(id, v, start, count, row.data()), name);
      for (size_t k = 0; k < levels; ++k) m.values[k] += row[k];
    }
    for (double& x : m.values) x /= static_cast<double>(chosen.size());
    means.push_back(std::move(m));
  }
  const std::string title = attribute(id, NC_GLOBAL, "title");
  nc_close(id);

  const std::string tmp = out_path + ".tmp";
  const Checker check{tmp};
  int out, zdim, z_var;
  check(nc_create(tmp.c_str(), NC_NETCDF4 | NC_CLOBBER, &out), "create");
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
  check(nc_close(out), "close");
  std::error_code ec;
  std::filesystem::rename(tmp, out_path, ec);
  if (ec) throw RunError("cannot rename '" + tmp + "' to '" + out_path + "': " + ec.message());
  return count;
}

}  // namespace squall::io
