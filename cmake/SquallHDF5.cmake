# Parallel HDF5 (MPI-IO), for checkpoints. Debian: libhdf5-openmpi-dev installs it under
# /usr/include/hdf5/openmpi and /usr/lib/<arch>/hdf5/openmpi; elsewhere set HDF5_ROOT.
find_path(SQUALL_HDF5_INCLUDE_DIR H5pubconf.h
  HINTS ${HDF5_ROOT} ENV HDF5_ROOT PATH_SUFFIXES include include/hdf5/openmpi
  PATHS /usr/include/hdf5/openmpi NO_DEFAULT_PATH)
find_path(SQUALL_HDF5_INCLUDE_DIR H5pubconf.h PATH_SUFFIXES hdf5/openmpi hdf5/mpich)
find_library(SQUALL_HDF5_LIBRARY hdf5
  HINTS ${HDF5_ROOT} ENV HDF5_ROOT PATH_SUFFIXES lib lib64
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/hdf5/openmpi NO_DEFAULT_PATH)
if(NOT SQUALL_HDF5_INCLUDE_DIR OR NOT SQUALL_HDF5_LIBRARY)
  message(FATAL_ERROR "Squall needs parallel HDF5 (on Debian: apt-get install libhdf5-openmpi-dev; "
                      "elsewhere set HDF5_ROOT)")
endif()
file(STRINGS "${SQUALL_HDF5_INCLUDE_DIR}/H5pubconf.h" _squall_h5_parallel REGEX "define H5_HAVE_PARALLEL 1")
if(NOT _squall_h5_parallel)
  message(FATAL_ERROR "${SQUALL_HDF5_INCLUDE_DIR} is a serial HDF5; Squall's checkpoints need the MPI build")
endif()
add_library(squall::hdf5 INTERFACE IMPORTED)
set_target_properties(squall::hdf5 PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${SQUALL_HDF5_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES "${SQUALL_HDF5_LIBRARY}")
message(STATUS "Squall: HDF5 ${SQUALL_HDF5_LIBRARY} (parallel)")
