// Errors on some ranks only are agreed by all ranks: same status, lowest failing rank's
// message, no hang.
#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/parallel_env.hpp"

using namespace squall;

TEST_CASE("a failure on some ranks reaches every rank", "[mpi]") {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int rank = comm_rank(comm), size = comm_size(comm);
  const int bad = size - 1;  // the last rank fails (rank 0 when running alone)

  const auto input = collective(comm, [&] {
    if (rank == bad) throw InputError("bad input on rank " + std::to_string(rank));
  });
  CHECK(input.status == exit_input_error);
  CHECK(input.failing_rank == bad);
  CHECK(input.message == "bad input on rank " + std::to_string(bad));

  const auto run = collective(comm, [&] {
    if (rank >= bad - 1) throw RunError("failed on " + std::to_string(rank));
  });
  CHECK(run.status == exit_run_error);
  CHECK(run.failing_rank == std::max(0, bad - 1));

  const auto fine = collective(comm, [] {});
  CHECK(fine.ok());
  CHECK(fine.message.empty());
}
