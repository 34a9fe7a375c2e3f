#include "io/netcdf_profiles.hpp"

#include <netcdf.h>

#include <filesystem>

#include "core/error.hpp"

namespace squall::io {
namespace {

struct Checker {
  std::string path;
  void operator()(int status, const std::string& what) const {
    if (status != NC_NOERR)
      throw RunError("NetCDF error writing '" + path + "' (" + what + "): " + nc_strerror(status));
  }
};

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

}  // namespace squall::io
