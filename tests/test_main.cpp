// Catch2 main for every Squall test executable: MPI and Kokkos around one Catch session
// per rank. The executable fails when any rank has a failing test.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "core/parallel_env.hpp"

int main(int argc, char** argv) {
  squall::ParallelEnvironment env(argc, argv);
  const int local_failures = Catch::Session().run(argc, argv);
  int failures = 0;
  MPI_Allreduce(&local_failures, &failures, 1, MPI_INT, MPI_MAX, env.comm());
  return failures > 0 ? 1 : 0;
}
