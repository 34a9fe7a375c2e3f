# SQUALL_STRICT_MATH: refuse the flags that would let a compiler round differently from
# IEEE 754 (fast-math and its parts, fused multiply-adds, flush-to-zero), and after the
# build check that no kernel calls a library elementary function (check_kernel_math.py).
# The same function checks the kernels against nvcc's rules (check_device_lambdas.py).
message(STATUS "Squall: strict math ${SQUALL_STRICT_MATH} (-DSQUALL_STRICT_MATH; ON: the same bits on every CPU and GPU)")

if(SQUALL_STRICT_MATH)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _squall_bt)
  set(_squall_flags "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_squall_bt}} ${CMAKE_CUDA_FLAGS} ${Kokkos_CXX_FLAGS}")
  get_target_property(_squall_kk_opts Kokkos::kokkos INTERFACE_COMPILE_OPTIONS)
  if(_squall_kk_opts)
    string(APPEND _squall_flags " ${_squall_kk_opts}")
  endif()
  foreach(_bad -ffast-math -Ofast -funsafe-math-optimizations -fassociative-math -freciprocal-math
               -ffinite-math-only -ffp-contract=fast -ffp-contract=on --use_fast_math -use_fast_math
               -ftz=true -prec-div=false -prec-sqrt=false -fmad=true --fmad=true -fgpu-flush-denormals-to-zero
               -fcuda-flush-denormals-to-zero -fp-model=fast)
    string(FIND "${_squall_flags}" "${_bad}" _at)
    if(NOT _at EQUAL -1)
      message(FATAL_ERROR "SQUALL_STRICT_MATH=ON and the compiler flags contain ${_bad}, which changes "
                          "rounding (flags: ${_squall_flags}). Remove it, or configure with -DSQUALL_STRICT_MATH=OFF.")
    endif()
  endforeach()
  if(SQUALL_DEVICE_FMA)
    message(FATAL_ERROR "SQUALL_STRICT_MATH=ON needs SQUALL_DEVICE_FMA=OFF: a fused multiply-add rounds once "
                        "where the host rounds twice (and breaks the exact products of core/strict_math.hpp).")
  endif()
endif()

find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(WARNING "Squall: no python3, so the build does not check kernels for library math calls")
endif()

# squall_check_kernel_sources(LIBS...): two checks of the kernel sources (core/, physics/,
# solver/, mesh/, cases/), each failing the build:
# - after LIBS are built, that no source calls std::exp & co. directly and (strict math,
#   host backends) that LIBS reference no libm elementary function (check_kernel_math.py);
# - that no kernel lambda breaks nvcc's rules, which a host-only build (Serial, as in CI)
#   would accept (check_device_lambdas.py).
function(squall_check_kernel_sources)
  if(NOT Python3_Interpreter_FOUND)
    return()
  endif()
  set(_objects "")
  # The object check reads host objects. With CUDA or HIP, Kokkos' own host-side launch
  # code (ParallelReduce's block sizes) calls log2 and pow there, and the kernels' device
  # code is not in those symbols at all: the source check alone applies.
  if(SQUALL_STRICT_MATH AND NOT ("CUDA" IN_LIST Kokkos_DEVICES OR "HIP" IN_LIST Kokkos_DEVICES))
    foreach(_lib IN LISTS ARGN)
      list(APPEND _objects "$<TARGET_FILE:${_lib}>")
    endforeach()
  endif()
  set(_src "${PROJECT_SOURCE_DIR}")
  set(_dirs "${_src}/core" "${_src}/physics" "${_src}/solver" "${_src}/mesh" "${_src}/cases")
  set(_globs ${_dirs})
  list(TRANSFORM _globs APPEND "/*pp")
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS ${_globs})
  set(_stamp "${PROJECT_BINARY_DIR}/kernel_math_checked.stamp")
  add_custom_command(
    OUTPUT "${_stamp}"
    COMMAND "${Python3_EXECUTABLE}" "${_src}/cmake/check_kernel_math.py" --root "${_src}" --sources ${_dirs}
            --objects ${_objects} --nm "${CMAKE_NM}"
    COMMAND "${CMAKE_COMMAND}" -E touch "${_stamp}"
    DEPENDS "${_src}/cmake/check_kernel_math.py" ${_sources} ${ARGN}
    COMMENT "Checking that kernels take their elementary functions from squall::math"
    VERBATIM)
  add_custom_target(squall_kernel_math_check ALL DEPENDS "${_stamp}")
  set(_stamp "${PROJECT_BINARY_DIR}/device_lambdas_checked.stamp")
  add_custom_command(
    OUTPUT "${_stamp}"
    COMMAND "${Python3_EXECUTABLE}" "${_src}/cmake/check_device_lambdas.py" --root "${_src}" --sources ${_dirs}
    COMMAND "${CMAKE_COMMAND}" -E touch "${_stamp}"
    DEPENDS "${_src}/cmake/check_device_lambdas.py" "${_src}/cmake/check_kernel_math.py" ${_sources}
    COMMENT "Checking kernel lambdas against nvcc's rules"
    VERBATIM)
  add_custom_target(squall_device_lambda_check ALL DEPENDS "${_stamp}")
endfunction()
