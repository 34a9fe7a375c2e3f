#pragma once
/// MPI and Kokkos, initialised once and finalised once, and the rule for errors: every
/// phase that may fail on some ranks only runs through `collective()`, so all ranks learn
/// of a failure together, rank 0 prints one clear message and every rank exits with the
/// same status: no hang, no MPI_Abort banner.
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

namespace squall {

/// Owns MPI and Kokkos for the life of the program (construct first thing in main).
/// Arguments starting with --kokkos- go to Kokkos and are removed from argc/argv.
class ParallelEnvironment {
 public:
  ParallelEnvironment(int& argc, char**& argv);
  ~ParallelEnvironment();
  ParallelEnvironment(const ParallelEnvironment&) = delete;
  ParallelEnvironment& operator=(const ParallelEnvironment&) = delete;

  MPI_Comm comm() const { return MPI_COMM_WORLD; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The --kokkos-* arguments that Kokkos did not recognise (a typo would otherwise be
  /// ignored without a word).
  const std::vector<std::string>& unknown_kokkos_options() const { return unknown_kokkos_; }

 private:
  int rank_ = 0;
  int size_ = 1;
  std::vector<std::string> unknown_kokkos_;
};

int comm_rank(MPI_Comm comm);
int comm_size(MPI_Comm comm);
/// Collective: the number of ranks of `comm` on this rank's node (shared memory).
int ranks_on_node(MPI_Comm comm);

/// Outcome of a collective phase: the exit status agreed by all ranks (0 when every rank
/// succeeded) and, on every rank, the message of the lowest failing rank.
struct CollectiveOutcome {
  int status = 0;
  int failing_rank = -1;
  std::string message;
  bool ok() const { return status == 0; }
};

/// Runs `phase` on every rank of `comm`, catching InputError (status 2), RunError and any
/// other exception (status 1), then agrees on the outcome. Every rank must call it.
CollectiveOutcome collective(MPI_Comm comm, const std::function<void()>& phase);

/// Broadcasts `text` from `root` to every rank of `comm`.
void broadcast(MPI_Comm comm, std::string& text, int root = 0);

/// Ends a rank that hit an error it cannot share with the others (they may be blocked in
/// a collective call): prints `message` on stderr, then MPI_Abort. Last resort only.
[[noreturn]] void abort_job(MPI_Comm comm, const std::string& message, int status);

}  // namespace squall
