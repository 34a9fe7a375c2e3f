#pragma once
/// Graceful stop on SIGTERM, SIGINT or SIGUSR1 (what batch systems send before a time
/// limit, what `scancel`, `timeout` and Ctrl-C send): the handler only records the
/// signal; the time loop asks at every step, and a signal received by any rank stops all:
/// they finish the step, write a checkpoint and exit normally. A second SIGINT (Ctrl-C
/// twice) ends the process at once (the default action).
#include <mpi.h>

namespace squall {

/// Installs the handlers for SIGTERM, SIGINT and SIGUSR1 (once).
void install_stop_signals();

/// The stop signal this process received (0: none).
int received_stop_signal();

/// Collective: a stop signal received by any rank (the largest number), on every rank;
/// 0 when none has.
int agreed_stop_signal(MPI_Comm comm);

}  // namespace squall
