# Parallel NetCDF-4 (nc_create_par). Debian's libnetcdf-mpi-dev installs its headers
# under /usr/lib/<arch>/netcdf/mpi/include while its CMake and pkg-config files point at
# /usr/include, so the header and library are looked up directly; a site install is
# found through NETCDF_ROOT or CMAKE_PREFIX_PATH the same way.
find_path(SQUALL_NETCDF_INCLUDE_DIR netcdf_par.h
  HINTS ${NETCDF_ROOT} ENV NETCDF_ROOT
  PATH_SUFFIXES include netcdf/mpi/include lib/${CMAKE_LIBRARY_ARCHITECTURE}/netcdf/mpi/include
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/netcdf/mpi/include)
find_library(SQUALL_NETCDF_LIBRARY NAMES netcdf_mpi netcdf HINTS ${NETCDF_ROOT} ENV NETCDF_ROOT
  PATH_SUFFIXES lib lib64)
if(NOT SQUALL_NETCDF_INCLUDE_DIR OR NOT SQUALL_NETCDF_LIBRARY)
  message(FATAL_ERROR "Squall needs a parallel NetCDF-4 (netcdf_par.h and libnetcdf_mpi or libnetcdf); "
                      "on Debian: apt-get install libnetcdf-mpi-dev; elsewhere set NETCDF_ROOT")
endif()
add_library(squall::netcdf INTERFACE IMPORTED)
set_target_properties(squall::netcdf PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${SQUALL_NETCDF_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES "${SQUALL_NETCDF_LIBRARY}")
message(STATUS "Squall: NetCDF ${SQUALL_NETCDF_LIBRARY} (${SQUALL_NETCDF_INCLUDE_DIR})")
