#pragma once
/// Reading a text attribute of a NetCDF variable; for io/ sources only (they link NetCDF).
#include <netcdf.h>

#include <cstddef>
#include <string>

namespace squall::io {

/// The text attribute `name` of variable `var` (NC_GLOBAL: of the file) in the open file
/// `id`, without trailing NULs (C writers often count the terminator); empty when absent.
inline std::string text_attribute(int id, int var, const char* name) {
  std::size_t length = 0;
  if (nc_inq_attlen(id, var, name, &length) != NC_NOERR) return "";
  std::string value(length, '\0');
  if (nc_get_att_text(id, var, name, value.data()) != NC_NOERR) return "";
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

}  // namespace squall::io
