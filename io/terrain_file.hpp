#pragma once
/// A user's terrain height h(x, y) from a NetCDF file (CF conventions): a variable of
/// dimensions (y, x) or (x) whose dimensions have coordinate variables of the same names,
/// x and y in metres (units "m", "metre(s)" or "meter(s)", or no units attribute).
#include <string>

#include "mesh/terrain.hpp"

namespace squall::io {

/// Reads `variable` of the NetCDF file `path` into a validated terrain grid. InputError,
/// naming the file and the variable, for a missing file or variable, other dimensions,
/// coordinates in other units (degrees: project the terrain to metres first), missing
/// values (_FillValue or non-finite) or coordinates that are not strictly increasing.
mesh::TerrainGrid read_terrain(const std::string& path, const std::string& variable);

}  // namespace squall::io
