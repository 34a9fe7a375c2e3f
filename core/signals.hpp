#pragma once
/// Graceful stop on SIGTERM or SIGUSR1 (what batch systems send before a time limit):
/// the handler only records the signal; the time loop asks at every step, with rank 0
/// deciding for all, finishes the step, writes a checkpoint and exits normally.
#include <mpi.h>

namespace squall {

/// Installs the handlers for SIGTERM and SIGUSR1 (once).
void install_stop_signals();

/// The stop signal this process received (0: none).
int received_stop_signal();

/// Collective: rank 0's received signal, on every rank.
int agreed_stop_signal(MPI_Comm comm);

}  // namespace squall
