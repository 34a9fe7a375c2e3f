# Find Kokkos >= 3.4: Debian's libtrilinos-kokkos-dev (3.4, Serial) or a site build
# passed with -DKokkos_ROOT=... (Kokkos 4 preferred, OpenMP/CUDA/HIP).
#
# The version is checked by hand rather than with find_package(Kokkos 3.4): Kokkos'
# package version file accepts only the same major version, which would refuse 4.x.
find_package(Kokkos REQUIRED)
if(Kokkos_VERSION VERSION_LESS 3.4)
  message(FATAL_ERROR "Squall needs Kokkos >= 3.4, found ${Kokkos_VERSION} in ${Kokkos_DIR}")
endif()

# Debian's Trilinos build exports Kokkos::kokkos with INTERFACE_INCLUDE_DIRECTORIES
# pointing at <prefix>/lib/include, which does not exist; its headers live in
# Kokkos_INCLUDE_DIRS (/usr/include/trilinos). Replace any include directory that does
# not exist by the ones the package says it installed.
get_target_property(_squall_kk_inc Kokkos::kokkos INTERFACE_INCLUDE_DIRECTORIES)
set(_squall_kk_fixed "")
set(_squall_kk_repaired FALSE)
foreach(_dir IN LISTS _squall_kk_inc)
  if(_dir MATCHES "^\\$<" OR EXISTS "${_dir}")
    list(APPEND _squall_kk_fixed "${_dir}")
  else()
    set(_squall_kk_repaired TRUE)
  endif()
endforeach()
if(_squall_kk_repaired)
  foreach(_dir IN LISTS Kokkos_INCLUDE_DIRS)
    get_filename_component(_dir "${_dir}" REALPATH)
    if(EXISTS "${_dir}/Kokkos_Core.hpp")
      list(APPEND _squall_kk_fixed "${_dir}")
    endif()
  endforeach()
  if(NOT _squall_kk_fixed)
    message(FATAL_ERROR "Kokkos::kokkos has no usable include directory (had: ${_squall_kk_inc}; "
                        "Kokkos_INCLUDE_DIRS: ${Kokkos_INCLUDE_DIRS})")
  endif()
  set_target_properties(Kokkos::kokkos PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${_squall_kk_fixed}")
  message(STATUS "Squall: repaired Kokkos include directories -> ${_squall_kk_fixed}")
endif()
# Kokkos::kokkos carries -DKOKKOS_DEPENDENCE: with a CUDA Kokkos and the host compiler
# as CMAKE_CXX_COMPILER, Kokkos' compiler launcher sends exactly the sources of targets
# that link Kokkos to nvcc_wrapper; the rest (config parsing) stays on the host compiler.

set(SQUALL_KOKKOS_BACKENDS "${Kokkos_DEVICES}")
message(STATUS "Squall: Kokkos ${Kokkos_VERSION} (${Kokkos_DIR}), backends: ${SQUALL_KOKKOS_BACKENDS}")

# Device compilers contract a * b + c into fused multiply-adds by default, and where they
# do depends on the code path (an interior face and a face between ranks are different
# kernels), so 1, 2 and 4 ranks would no longer give bitwise-identical states (DESIGN.md
# §6), and the hydrostatic balance would no longer be exact. Off by default; host
# compilers do not contract on x86-64 without -march flags (docs/performance.md).
option(SQUALL_DEVICE_FMA
       "Let the CUDA/HIP compiler fuse multiply-adds: faster on a GPU, but results then change in the last bits with the rank count"
       OFF)
if(("CUDA" IN_LIST Kokkos_DEVICES OR "HIP" IN_LIST Kokkos_DEVICES) AND NOT SQUALL_DEVICE_FMA)
  if(Kokkos_CXX_COMPILER_ID STREQUAL "NVIDIA")
    set(_squall_no_fma -fmad=false)
  else()
    set(_squall_no_fma -ffp-contract=off)
  endif()
  set_property(TARGET Kokkos::kokkos APPEND PROPERTY INTERFACE_COMPILE_OPTIONS
               "$<$<COMPILE_LANGUAGE:CXX>:${_squall_no_fma}>")
  message(STATUS "Squall: device code built with ${_squall_no_fma} (bitwise-reproducible across rank counts; "
                 "-DSQUALL_DEVICE_FMA=ON to fuse multiply-adds)")
endif()
