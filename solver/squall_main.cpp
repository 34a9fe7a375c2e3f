/// The `squall` command: run a case, list cases, check a config.
///
/// Exit status: 0 success, 1 the run failed, 2 bad input (command line, config, files),
/// always agreed by all ranks, with one message from rank 0.
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cases/registry.hpp"
#include "core/error.hpp"
#include "core/log.hpp"
#include "core/parallel_env.hpp"
#include "core/version.hpp"
#include "io/config_keys.hpp"
#include "io/config_reader.hpp"
#include "io/disk_space.hpp"
#include "solver/driver.hpp"

namespace squall {
namespace {

struct Arguments {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string output_dir;
  std::string restart;
  bool quiet = false;
  bool list_keys = false;
};

std::uint64_t memory_estimate = 0;  // per rank, from load_config, for `check`

/// Reads (rank 0), broadcasts and validates the config on every rank, and checks that
/// the mesh fits the nodes' memory. The outcome is agreed, so a bad config ends every
/// rank the same way.
CollectiveOutcome load_config(MPI_Comm comm, const Arguments& args, Config& config) {
  std::string text;
  CollectiveOutcome out = collective(comm, [&] {
    if (comm_rank(comm) == 0) text = io::read_config_text(args.config_path);
  });
  if (!out.ok()) return out;
  broadcast(comm, text, 0);
  int variables = 0;
  out = collective(comm, [&] {
    std::vector<std::string> names;
    for (const CaseInfo& c : cases::registered_cases()) names.push_back(c.name);
    config = io::parse_config(text, args.config_path, args.overrides, names);
    check_config_for_ranks(config, comm_size(comm));
    const auto the_case = cases::find_case(config.case_.name)->make(config);  // a case's own checks
    variables = 5 + (the_case->moist() ? 1 : 0) + static_cast<int>(config.physics.tracers.size());
  });
  if (!out.ok()) return out;
  // Memory, per node: a mesh too large for the nodes is bad input, not std::bad_alloc.
  const int node_ranks = ranks_on_node(comm);
  std::string warning;
  out = collective(comm, [&] { warning = check_memory(config, variables, comm_size(comm), node_ranks); });
  if (out.ok() && !warning.empty()) log::warn(warning);
  if (out.ok()) memory_estimate = memory_per_rank(config, variables, comm_size(comm));
  return out;
}

int report(const CollectiveOutcome& out) {
  if (!out.ok()) log::error(out.message);
  return out.status;
}

int command_check(MPI_Comm comm, const Arguments& args) {
  if (args.list_keys) {
    cases::registered_cases();  // registers the cases' own keys
    log::info(io::describe_config_keys());
    return exit_ok;
  }
  if (args.config_path.empty()) {
    log::error("check: give a config file (squall check CASE.toml) or --list-keys");
    return exit_input_error;
  }
  Config config;
  if (const auto out = load_config(comm, args, config); !out.ok()) return report(out);
  const auto& e = config.mesh.elements;
  log::info(args.config_path + ": ok (case " + config.case_.name + ", " + std::to_string(e[0]) +
            " x " + std::to_string(e[1]) + " x " + std::to_string(e[2]) + " elements, N = " +
            std::to_string(config.dg.order) + ", " + std::to_string(comm_size(comm)) +
            " rank(s), about " + io::format_bytes(double(memory_estimate)) + " of memory per rank)");
  return exit_ok;
}

int command_run(MPI_Comm comm, const Arguments& args) {
  Config config;
  if (const auto out = load_config(comm, args, config); !out.ok()) return report(out);
  if (!args.output_dir.empty()) config.output.dir = args.output_dir;
  const std::string dir = io::resolved_output_dir(config);
  const CaseInfo& case_info = *cases::find_case(config.case_.name);
  return report(collective(comm, [&] { run_simulation(config, case_info, dir, comm, args.restart); }));
}

int command_cases() {
  std::ostringstream text;
  for (const CaseInfo& c : cases::registered_cases()) {
    text << "  " << c.name << std::string(c.name.size() < 20 ? 20 - c.name.size() : 1, ' ')
         << c.description << '\n';
  }
  log::info("Built-in cases (configs in cases/<name>.toml):\n" + text.str());
  return exit_ok;
}

}  // namespace
}  // namespace squall

int main(int argc, char** argv) {
  using namespace squall;
  ParallelEnvironment env(argc, argv);
  log::set_rank(env.rank());

  CLI::App app{"Squall: nodal discontinuous Galerkin large-eddy simulation", "squall"};
  app.set_version_flag("--version", std::string("squall ") + version + " (host code " + host_arch + ")");
  app.require_subcommand(1);
  Arguments args;

  auto* run = app.add_subcommand("run", "run a case from its TOML config");
  run->add_option("config", args.config_path, "case config, e.g. cases/rising_bubble.toml")
      ->required();
  run->add_option("--set", args.overrides,
                  "override a config key: section.key=value (repeatable), e.g. --set dg.order=3")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run->add_option("--output", args.output_dir, "output directory (overrides output.dir)");
  run->add_option("--restart", args.restart,
                  "continue from a checkpoint: a checkpoint_NNNNNN.h5 file, or 'latest' for the newest "
                  "in the output directory");
  run->add_flag("--quiet", args.quiet, "print warnings and errors only");

  auto* check = app.add_subcommand("check", "validate a config without running it");
  check->add_option("config", args.config_path, "case config to validate");
  check->add_option("--set", args.overrides, "override a config key, as for run")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  check->add_flag("--quiet", args.quiet, "print warnings and errors only");
  check->add_flag("--list-keys", args.list_keys,
                  "print every config key with its default and meaning");

  app.add_subcommand("cases", "list the built-in cases");
  app.footer("Config keys: squall check --list-keys. Exit status: 0 ok, 1 run failed, 2 bad input.");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    if (env.rank() == 0) {
      std::cout << out.str() << std::flush;
      std::cerr << err.str() << std::flush;
    }
    return code == 0 ? exit_ok : exit_input_error;
  }
  log::set_quiet(args.quiet);
  if (!env.unknown_kokkos_options().empty()) {
    log::error("unknown Kokkos option " + env.unknown_kokkos_options().front() +
               " (squall --kokkos-help lists them)");
    return exit_input_error;
  }

  if (run->parsed()) return command_run(env.comm(), args);
  if (check->parsed()) return command_check(env.comm(), args);
  return command_cases();
}
