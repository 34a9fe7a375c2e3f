#pragma once
/// Errors and exit statuses. Bad input (config, command line, files a user names) is an
/// InputError and ends the run with status 2 before any work; anything that goes wrong
/// during a run is a RunError, status 1.
#include <stdexcept>
#include <string>

namespace squall {

enum ExitStatus : int { exit_ok = 0, exit_run_error = 1, exit_input_error = 2 };

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace squall
