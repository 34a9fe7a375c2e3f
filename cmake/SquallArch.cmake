# Instruction set of host code (SQUALL_ARCH), after SquallKokkos (it needs Kokkos_DEVICES).
#
#   auto     x86-64-v3 (AVX2, FMA, BMI2: x86 CPUs since 2013-2015) when the compiler
#            accepts -march=x86-64-v3 and this machine runs it; otherwise generic.
#            Builds with a CUDA/HIP backend stay generic: their hot loops run on the GPU.
#   generic  the compiler's default (x86-64: SSE2 vectors).
#   native   this machine's CPU (-march=native, e.g. AVX-512); the binary may not run on
#            other CPUs.
#   <other>  passed on as -march=<other>, e.g. znver4, sapphirerapids, neoverse-v2.
#
# Whatever the level, multiply-adds are not fused (-ffp-contract=off, in CMakeLists.txt):
# results keep the same bits on every instruction set (the kernels_* checks compare them
# with references taken from generic builds), and so across CPUs and rank counts.
# A binary built for x86-64-v3 checks its CPU before anything else runs
# (core/cpu_check.cpp) and stops with a message instead of an illegal instruction.

set(SQUALL_ARCH "auto" CACHE STRING
    "Host instruction set: auto (x86-64-v3 where available), generic, native, or a -march value")
set_property(CACHE SQUALL_ARCH PROPERTY STRINGS auto generic native x86-64-v3 x86-64-v4)
if(SQUALL_NATIVE)  # the older spelling of SQUALL_ARCH=native
  set(SQUALL_ARCH native)
endif()

set(_squall_arch "${SQUALL_ARCH}")
if(_squall_arch STREQUAL "auto")
  set(_squall_arch generic)
  set(_why "")
  if("CUDA" IN_LIST Kokkos_DEVICES OR "HIP" IN_LIST Kokkos_DEVICES)
    set(_why "a GPU backend")
  elseif(CMAKE_CROSSCOMPILING)
    set(_why "cross-compiling")
  elseif(NOT CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    set(_why "not x86-64")
  elseif(NOT CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    set(_why "compiler ${CMAKE_CXX_COMPILER_ID}")
  else()
    # Compiles with the flags and runs on this machine: both must hold.
    set(_src "${CMAKE_BINARY_DIR}/CMakeFiles/squall_arch_check.cpp")
    file(WRITE "${_src}" "int main() {\n  __builtin_cpu_init();\n"
         "  return __builtin_cpu_supports(\"avx2\") && __builtin_cpu_supports(\"fma\") && "
         "__builtin_cpu_supports(\"bmi2\") ? 0 : 1;\n}\n")
    try_run(_squall_v3_runs _squall_v3_compiles "${CMAKE_BINARY_DIR}/CMakeFiles/squall_arch_check" "${_src}"
            COMPILE_DEFINITIONS -march=x86-64-v3)
    if(_squall_v3_compiles AND _squall_v3_runs EQUAL 0)
      set(_squall_arch x86-64-v3)
    elseif(NOT _squall_v3_compiles)
      set(_why "${CMAKE_CXX_COMPILER} does not know -march=x86-64-v3")
    else()
      set(_why "this CPU lacks AVX2/FMA/BMI2")
    endif()
  endif()
  if(_why)
    message(STATUS "Squall: SQUALL_ARCH=auto -> generic (${_why})")
  endif()
endif()

set(SQUALL_ARCH_FLAGS "")
if(NOT _squall_arch STREQUAL "generic")
  set(SQUALL_ARCH_FLAGS "-march=${_squall_arch}")
  include(CheckCXXCompilerFlag)
  check_cxx_compiler_flag("-march=${_squall_arch}" SQUALL_ARCH_FLAGS_WORK_${_squall_arch})
  if(NOT SQUALL_ARCH_FLAGS_WORK_${_squall_arch})
    message(FATAL_ERROR "SQUALL_ARCH=${SQUALL_ARCH}: ${CMAKE_CXX_COMPILER} does not accept "
                        "-march=${_squall_arch}; configure with -DSQUALL_ARCH=generic or another -march value")
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${SQUALL_ARCH_FLAGS}>")
endif()
set(SQUALL_ARCH_RESOLVED "${_squall_arch}")
message(STATUS "Squall: host instruction set ${_squall_arch} (SQUALL_ARCH=${SQUALL_ARCH})")
