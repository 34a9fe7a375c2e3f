#include "io/terrain_file.hpp"

#include <netcdf.h>

#include <vector>

#include "core/error.hpp"
#include "io/netcdf_attribute.hpp"

namespace squall::io {
namespace {

bool metres(const std::string& units) {
  return units.empty() || units == "m" || units == "metre" || units == "metres" || units == "meter" ||
         units == "meters";
}

/// Closes the file however the reading ends.
struct OpenFile {
  int id = -1;
  ~OpenFile() {
    if (id >= 0) nc_close(id);
  }
};

}  // namespace

mesh::TerrainGrid read_terrain(const std::string& path, const std::string& variable) {
  const std::string where = "'" + path + "', variable '" + variable + "'";
  auto fail = [&](const std::string& what) { throw InputError("terrain file " + where + ": " + what); };
  OpenFile file;
  int status = nc_open(path.c_str(), NC_NOWRITE, &file.id);
  if (status != NC_NOERR) {
    file.id = -1;
    throw InputError("terrain file '" + path + "': cannot open: " + nc_strerror(status));
  }
  const int id = file.id;
  int var = -1;
  if (nc_inq_varid(id, variable.c_str(), &var) != NC_NOERR) fail("no such variable in the file");
  int ndims = 0;
  nc_inq_varndims(id, var, &ndims);
  if (ndims != 1 && ndims != 2) fail("has " + std::to_string(ndims) + " dimensions; expected (y, x) or (x)");
  int dims[2] = {-1, -1};
  nc_inq_vardimid(id, var, dims);

  mesh::TerrainGrid grid;
  grid.source = "'" + path + "' (" + variable + ")";
  // The last dimension is x, the first (of two) y: CF's (y, x) order.
  auto coordinate = [&](int dim, const char* axis) {
    char name[NC_MAX_NAME + 1] = {};
    std::size_t length = 0;
    nc_inq_dim(id, dim, name, &length);
    int cvar = -1;
    if (nc_inq_varid(id, name, &cvar) != NC_NOERR)
      fail(std::string("its dimension '") + name + "' (" + axis + ") has no coordinate variable");
    const std::string units = text_attribute(id, cvar, "units");
    if (!metres(units))
      fail(std::string("the coordinate '") + name + "' is in '" + units +
           "'; expected metres (project the terrain to a metric grid first)");
    std::vector<double> values(length);
    if (length > 0 && nc_get_var_double(id, cvar, values.data()) != NC_NOERR)
      fail(std::string("cannot read the coordinate '") + name + "'");
    return values;
  };
  grid.x = coordinate(dims[ndims - 1], "x");
  grid.y = ndims == 2 ? coordinate(dims[0], "y") : std::vector<double>{0.0};
  const std::string units = text_attribute(id, var, "units");
  if (!metres(units)) fail("the heights are in '" + units + "'; expected metres");
  grid.h.resize(grid.x.size() * grid.y.size());
  if (!grid.h.empty() && nc_get_var_double(id, var, grid.h.data()) != NC_NOERR) fail("cannot read the heights");
  double fill = 0;
  if (nc_get_att_double(id, var, "_FillValue", &fill) == NC_NOERR)
    for (std::size_t k = 0; k < grid.h.size(); ++k)
      if (grid.h[k] == fill)
        fail("height " + std::to_string(k) + " (x index " + std::to_string(k % grid.x.size()) + ", y index " +
             std::to_string(k / grid.x.size()) + ") is missing (_FillValue); fill the gaps first");
  grid.validate();
  return grid;
}

}  // namespace squall::io
