// A binary built for x86-64-v3 (SQUALL_ARCH, cmake/SquallArch.cmake) checks at load time,
// before any code built for that level runs, that the CPU has it, and otherwise stops
// with a message naming the fix instead of dying on an illegal instruction. This file
// itself is built for the baseline instruction set.
#if defined(SQUALL_CHECK_X86_64_V3)
#include <cstdio>
#include <cstdlib>

namespace {

__attribute__((constructor(101))) void squall_check_cpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2")) return;
  std::fputs("squall: this binary was built for x86-64-v3 (AVX2, FMA, BMI2) and this CPU lacks it; "
             "rebuild on this machine or with cmake -DSQUALL_ARCH=generic\n",
             stderr);
  std::_Exit(1);
}

}  // namespace
#endif
