#include "io/netcdf_fields.hpp"

#include <netcdf.h>
#include <netcdf_par.h>

#include <cerrno>
#include <cmath>
#include <cstdio>

#include "core/error.hpp"
#include "io/disk_space.hpp"

namespace squall::io {
namespace {

/// A file written by all ranks together. A library call that fails on one rank leaves the
/// others waiting inside the library (HDF5 cannot recover from a failed collective write),
/// so a failure ends the job at once, with the unfinished file removed.
class NcFile {
 public:
  explicit NcFile(std::string path) : path_(std::move(path)) {}
  void check(int status, const char* what) const {
    if (status == NC_NOERR) return;
    const int saved_errno = errno;
    end_job_after_failed_write(path_, "NetCDF error writing '" + path_ + "' (" + what + "): " + nc_strerror(status) +
                                          full_disk_note(path_, saved_errno));
  }
  int id = -1;

 private:
  std::string path_;
};

/// The size of the file, generously: the values and the coordinates, and room for the
/// header and HDF5's metadata.
std::uintmax_t estimated_size(const FieldGrid& grid, std::size_t variables) {
  const std::uintmax_t points = grid.axes[0].size() * grid.axes[1].size() * grid.axes[2].size();
  const std::uintmax_t axes = grid.axes[0].size() + grid.axes[1].size() + grid.axes[2].size();
  const std::uintmax_t terrain = grid.altitude ? points + grid.axes[0].size() * grid.axes[1].size() : 0;
  return (points * variables + terrain + axes + 1) * sizeof(double) + metadata_room;
}

void put_text(const NcFile& f, int var, const char* name, const std::string& value) {
  if (!value.empty()) f.check(nc_put_att_text(f.id, var, name, value.size(), value.c_str()), name);
}

}  // namespace

double read_field_time(const std::string& path) {
  int id = -1, var = -1;
  double time = std::nan("");
  if (nc_open(path.c_str(), NC_NOWRITE, &id) != NC_NOERR) return time;
  const size_t first = 0;
  if (nc_inq_varid(id, "time", &var) != NC_NOERR || nc_get_var1_double(id, var, &first, &time) != NC_NOERR)
    time = std::nan("");
  nc_close(id);
  return time;
}

void write_fields(const std::string& path, MPI_Comm comm, const FieldGrid& grid, double time,
                  const std::string& time_units, const std::vector<FieldVariable>& variables,
                  const std::vector<std::pair<std::string, std::string>>& global_attributes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::string tmp = path + ".tmp";
  // Refused before the file is created when the disk cannot hold it: a write that runs
  // out of space half-way leaves the HDF5 library with a file it cannot close.
  require_space(comm, path, estimated_size(grid, variables.size()), "'" + path + "'");
  NcFile f(tmp);
  f.check(nc_create_par(tmp.c_str(), NC_NETCDF4 | NC_CLOBBER, comm, MPI_INFO_NULL, &f.id), "create");
  int dim[4];
  f.check(nc_def_dim(f.id, "time", NC_UNLIMITED, &dim[0]), "time dimension");
  const char* axis_names[3] = {"x", "y", "z"};
  for (int d = 0; d < 3; ++d)
    f.check(nc_def_dim(f.id, axis_names[d], grid.axes[d].size(), &dim[3 - d]), "dimension");
  for (const auto& [name, value] : global_attributes) put_text(f, NC_GLOBAL, name.c_str(), value);

  int time_var;
  f.check(nc_def_var(f.id, "time", NC_DOUBLE, 1, &dim[0], &time_var), "time variable");
  put_text(f, time_var, "standard_name", "time");
  put_text(f, time_var, "long_name", "simulated time");
  put_text(f, time_var, "units", time_units);
  put_text(f, time_var, "calendar", "standard");
  put_text(f, time_var, "axis", "T");
  int axis_var[3];
  const bool terrain = grid.altitude != nullptr;
  const char* standard[3] = {"projection_x_coordinate", "projection_y_coordinate", terrain ? "" : "height"};

  for (int d = 0; d < 3; ++d) {
    f.check(nc_def_var(f.id, axis_names[d], NC_DOUBLE, 1, &dim[3 - d], &axis_var[d]), "axis variable");
    put_text(f, axis_var[d], "standard_name", standard[d]);
    put_text(f, axis_var[d], "long_name",
             d == 2 && terrain ? "terrain-following coordinate of the cell centre (its height over flat ground; "
                                 "the height of each point is `altitude`)"
                               : std::string(axis_names[d]) + " coordinate of the cell centre");
    put_text(f, axis_var[d], "units", "m");
    // Only z carries CF's axis attribute: ParaView's CF reader takes axis X and Y for
    // longitude and latitude and would wrap the box onto a sphere.
    if (d == 2) put_text(f, axis_var[d], "axis", "Z");
    if (d == 2) put_text(f, axis_var[d], "positive", "up");
  }
  int altitude_var = -1, surface_var = -1;
  if (terrain) {
    f.check(nc_def_var(f.id, "altitude", NC_DOUBLE, 3, dim + 1, &altitude_var), "altitude variable");
    put_text(f, altitude_var, "standard_name", "altitude");
    put_text(f, altitude_var, "long_name", "height of the point (terrain-following grid)");
    put_text(f, altitude_var, "units", "m");
    put_text(f, altitude_var, "positive", "up");
    f.check(nc_def_var(f.id, "surface_altitude", NC_DOUBLE, 2, dim + 2, &surface_var), "surface variable");
    put_text(f, surface_var, "standard_name", "surface_altitude");
    put_text(f, surface_var, "long_name", "height of the terrain");
    put_text(f, surface_var, "units", "m");
  }
  std::vector<int> ids(variables.size());
  for (size_t v = 0; v < variables.size(); ++v) {
    const FieldVariable& fv = variables[v];
    f.check(nc_def_var(f.id, fv.name.c_str(), NC_DOUBLE, 4, dim, &ids[v]), "field variable");
    put_text(f, ids[v], "long_name", fv.long_name);
    put_text(f, ids[v], "standard_name", fv.standard_name);
    put_text(f, ids[v], "units", fv.units);
    if (terrain) put_text(f, ids[v], "coordinates", "altitude");
  }
  f.check(nc_enddef(f.id), "enddef");

  // Time extends the record dimension, which is collective: rank 0 writes the value,
  // the others take part with nothing. Coordinates: rank 0 alone.
  f.check(nc_var_par_access(f.id, time_var, NC_COLLECTIVE), "access");
  const size_t zero = 0, one = rank == 0 ? 1 : 0;
  f.check(nc_put_vara_double(f.id, time_var, &zero, &one, &time), "time");
  for (int d = 0; d < 3; ++d) f.check(nc_var_par_access(f.id, axis_var[d], NC_INDEPENDENT), "access");
  if (rank == 0)
    for (int d = 0; d < 3; ++d) f.check(nc_put_var_double(f.id, axis_var[d], grid.axes[d].data()), "axis");
  // Fields: every rank its block, collectively.
  const size_t start[4] = {0, grid.start[2], grid.start[1], grid.start[0]};
  const size_t count[4] = {1, grid.count[2], grid.count[1], grid.count[0]};
  for (size_t v = 0; v < variables.size(); ++v) {
    f.check(nc_var_par_access(f.id, ids[v], NC_COLLECTIVE), "access");
    f.check(nc_put_vara_double(f.id, ids[v], start, count, variables[v].data), variables[v].name.c_str());
  }
  if (terrain) {
    f.check(nc_var_par_access(f.id, altitude_var, NC_COLLECTIVE), "access");
    f.check(nc_put_vara_double(f.id, altitude_var, start + 1, count + 1, grid.altitude), "altitude");
    // The ranks without the bottom layer take part in the collective write with nothing.
    const size_t none[2] = {0, 0}, mine[2] = {count[2], count[3]};
    f.check(nc_var_par_access(f.id, surface_var, NC_COLLECTIVE), "access");
    const double nothing = 0;
    f.check(nc_put_vara_double(f.id, surface_var, start + 2, grid.surface ? mine : none,
                               grid.surface ? grid.surface : &nothing),
            "surface_altitude");
  }
  f.check(nc_close(f.id), "close");
  rename_into_place(comm, tmp, path);
}

}  // namespace squall::io
