#include "core/parallel_env.hpp"

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include "core/error.hpp"

namespace squall {

ParallelEnvironment::ParallelEnvironment(int& argc, char**& argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  // Errors from MPI calls come back as return codes and are turned into RunErrors where
  // they are checked, rather than aborting inside the library.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);

  // Kokkos gets the --kokkos-* arguments and nothing else (it would also act on plain
  // --help, --threads, ...); they are removed from argv for the program's own parser.
  std::vector<char*> kokkos_argv{argv[0]};
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--kokkos-", 9) == 0)
      kokkos_argv.push_back(argv[i]);
    else
      argv[kept++] = argv[i];
  }
  argv[kept] = nullptr;
  argc = kept;
  int kokkos_argc = static_cast<int>(kokkos_argv.size());
  kokkos_argv.push_back(nullptr);
  char** kokkos_args = kokkos_argv.data();
  Kokkos::initialize(kokkos_argc, kokkos_args);
  // Kokkos removes the arguments it acts on; what is left of ours it did not know.
  for (int i = 1; i < kokkos_argc; ++i)
    if (kokkos_args[i] && std::strncmp(kokkos_args[i], "--kokkos-", 9) == 0) unknown_kokkos_.push_back(kokkos_args[i]);
}

ParallelEnvironment::~ParallelEnvironment() {
  Kokkos::finalize();
  MPI_Finalize();
}

int comm_rank(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int comm_size(MPI_Comm comm) {
  int s = 1;
  MPI_Comm_size(comm, &s);
  return s;
}

int ranks_on_node(MPI_Comm comm) {
  MPI_Comm node;
  if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) != MPI_SUCCESS) return 1;
  const int n = comm_size(node);
  MPI_Comm_free(&node);
  return n;
}

CollectiveOutcome collective(MPI_Comm comm, const std::function<void()>& phase) {
  int status = exit_ok;
  std::string message;
  try {
    phase();
  } catch (const InputError& e) {
    status = exit_input_error;
    message = e.what();
  } catch (const std::exception& e) {
    status = exit_run_error;
    message = e.what();
  } catch (...) {
    status = exit_run_error;
    message = "unknown error";
  }

  const int rank = comm_rank(comm);
  const int size = comm_size(comm);
  // Lowest failing rank and its status decide; its message is broadcast to everyone.
  int candidate = status != exit_ok ? rank : size;
  int failing = size;
  MPI_Allreduce(&candidate, &failing, 1, MPI_INT, MPI_MIN, comm);
  CollectiveOutcome out;
  if (failing == size) return out;

  out.status = status;
  MPI_Bcast(&out.status, 1, MPI_INT, failing, comm);
  out.failing_rank = failing;
  out.message = message;
  broadcast(comm, out.message, failing);
  return out;
}

void broadcast(MPI_Comm comm, std::string& text, int root) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, root, comm);
  text.resize(static_cast<size_t>(length));
  if (length > 0) MPI_Bcast(text.data(), length, MPI_CHAR, root, comm);
}

void abort_job(MPI_Comm comm, const std::string& message, int status) {
  std::fprintf(stderr, "squall: error on rank %d: %s\n", comm_rank(comm), message.c_str());
  std::fflush(stderr);
  MPI_Abort(comm, status);
  std::abort();  // MPI_Abort does not return; this keeps [[noreturn]] honest
}

}  // namespace squall
