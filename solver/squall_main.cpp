/// The `squall` command: run a case, list cases, check a config.
///
/// Exit status: 0 success, 1 the run failed, 2 bad input (command line, config, files),
/// always agreed by all ranks, with one message from rank 0.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>
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
#include "io/ensemble_file.hpp"
#include "solver/driver.hpp"
#include "solver/ensemble.hpp"

namespace squall {
namespace {

struct Arguments {
  std::string config_path;
  std::vector<std::string> overrides;
  std::string output_dir;
  std::string restart;
  bool quiet = false;
  bool list_keys = false;
  bool check_only = false;
  bool batch = false;
  int ranks_per_member = 0;
  int batch_members = 0;
};

std::uint64_t memory_estimate = 0;  // per rank, from load_config, for `check`

/// Validates a config already read on every rank (`text` from `source` with `overrides`)
/// for a run on `ranks` ranks (0: all of `comm`) and checks that the mesh fits the nodes'
/// memory; `context` prefixes the messages (an ensemble member). The outcome is agreed,
/// so a bad config ends every rank the same way.
CollectiveOutcome check_config(MPI_Comm comm, const std::string& text, const std::string& source,
                               const std::vector<std::string>& overrides, Config& config,
                               const std::string& context = "", int ranks = 0, int copies = 1) {
  if (ranks == 0) ranks = comm_size(comm);
  const auto in_context = [&](const std::function<void()>& phase) {
    return collective(comm, [&] {
      try {
        phase();
      } catch (const InputError& e) {
        throw InputError(context + e.what());
      }
    });
  };
  int variables = 0;
  CollectiveOutcome out = in_context([&] {
    std::vector<std::string> names;
    for (const CaseInfo& c : cases::registered_cases()) names.push_back(c.name);
    config = io::parse_config(text, source, overrides, names);
    check_config_for_ranks(config, ranks);
    const auto the_case = cases::find_case(config.case_.name)->make(config);  // a case's own checks
    variables = 5 + (the_case->moist() ? 1 : 0) + static_cast<int>(config.physics.tracers.size());
  });
  if (!out.ok()) return out;
  // Memory, per node: a mesh too large for the nodes is bad input, not std::bad_alloc.
  const int node_ranks = ranks_on_node(comm);
  std::string warning;
  out = in_context([&] { warning = check_memory(config, variables, ranks, node_ranks, copies); });
  if (out.ok() && !warning.empty()) log::warn(context + warning);
  if (out.ok()) memory_estimate = memory_per_rank(config, variables, ranks, copies);
  return out;
}

/// Rank 0 reads a config (or ensemble) file; every rank gets its text.
CollectiveOutcome read_shared(MPI_Comm comm, const std::string& path, std::string& text) {
  CollectiveOutcome out = collective(comm, [&] {
    if (comm_rank(comm) == 0) text = io::read_config_text(path);
  });
  if (out.ok()) broadcast(comm, text, 0);
  return out;
}

/// Reads (rank 0), broadcasts and validates the config on every rank.
CollectiveOutcome load_config(MPI_Comm comm, const Arguments& args, Config& config) {
  std::string text;
  if (const auto out = read_shared(comm, args.config_path, text); !out.ok()) return out;
  return check_config(comm, text, args.config_path, args.overrides, config);
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

/// squall ensemble: reads the ensemble file and validates every member's config before
/// any member runs (bad input: exit 2 naming the member and the key).
int command_ensemble(MPI_Comm comm, const Arguments& args) {
  EnsemblePlan plan;
  std::string text, base;
  if (const auto out = read_shared(comm, args.config_path, text); !out.ok()) return report(out);
  if (const auto out = collective(comm, [&] { plan.spec = io::parse_ensemble(text, args.config_path, args.overrides); });
      !out.ok())
    return report(out);
  if (const auto out = read_shared(comm, plan.spec.base_config, base); !out.ok())
    return report(CollectiveOutcome{out.status, out.failing_rank,
                                    args.config_path + ": ensemble.config: " + out.message});
  if (const auto out = collective(comm, [&] {
        plan.ranks_per_member = ranks_per_member(comm_size(comm), static_cast<int>(plan.spec.members.size()),
                                                 args.ranks_per_member);
      });
      !out.ok())
    return report(out);
  const int per_member = plan.ranks_per_member;
  // A batch holds the members of its group on each of the group's ranks at once.
  plan.batch = args.batch || plan.spec.batch || args.batch_members > 0 || plan.spec.batch_members > 0;
  plan.batch_members = args.batch_members > 0 ? args.batch_members : plan.spec.batch_members;
  const int groups = comm_size(comm) / per_member, count = static_cast<int>(plan.spec.members.size());
  int copies = plan.batch ? (count + groups - 1) / groups : 1;
  if (plan.batch_members > 0) copies = std::min(copies, plan.batch_members);
  for (const io::EnsembleMember& member : plan.spec.members) {
    std::vector<std::string> overrides = plan.spec.common;
    overrides.insert(overrides.end(), member.overrides.begin(), member.overrides.end());
    Config config;
    const std::string context = args.config_path + ": member " + std::to_string(member.index) + " (on " +
                                std::to_string(per_member) + " rank(s)): ";
    if (const auto out = check_config(comm, base, plan.spec.base_config, overrides, config, context, per_member, copies);
        !out.ok())
      return report(out);
    plan.configs.push_back(std::move(config));
  }
  plan.case_info = cases::find_case(plan.configs.front().case_.name);
  if (plan.batch)
    if (const auto out = collective(comm, [&] { check_batch(plan); }); !out.ok()) return report(out);
  if (!args.output_dir.empty())
    plan.output_dir = args.output_dir;
  else if (!plan.spec.output_dir.empty())
    plan.output_dir = plan.spec.output_dir;
  else
    plan.output_dir = "output/" + std::filesystem::path(args.config_path).stem().string();
  if (args.check_only) {
    const auto& e = plan.configs.front().mesh.elements;
    log::info(args.config_path + ": ok (" + std::to_string(plan.configs.size()) + " member(s) of case " +
              plan.case_info->name + ", " + std::to_string(e[0]) + " x " + std::to_string(e[1]) + " x " +
              std::to_string(e[2]) + " elements, N = " + std::to_string(plan.configs.front().dg.order) + ", into " +
              plan.output_dir + "/member_NNN, " + std::to_string(comm_size(comm) / per_member) + " group(s) of " +
              std::to_string(per_member) + " rank(s)" + (!plan.batch ? ")"
                             : plan.batch_members > 0 ? ", batches of at most " + std::to_string(plan.batch_members) + " members)"
                                                      : ", each group's members as one batch)"));
    return exit_ok;
  }
  if (!args.restart.empty() && args.restart != "latest") {
    log::error("ensemble --restart: expected 'latest' (each member continues from its newest checkpoint), found '" +
               args.restart + "'");
    return exit_input_error;
  }
  return run_ensemble(plan, comm, args.restart == "latest");
}

/// --set section.key=value, repeatable, into args.overrides.
void add_set_option(CLI::App& command, Arguments& args, const std::string& help) {
  command.add_option("--set", args.overrides, help)->expected(1)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
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
  add_set_option(*run, args, "override a config key: section.key=value (repeatable), e.g. --set dg.order=3");
  run->add_option("--output", args.output_dir, "output directory (overrides output.dir)");
  run->add_option("--restart", args.restart,
                  "continue from a checkpoint: a checkpoint_NNNNNN.h5 file, or 'latest' for the newest "
                  "in the output directory");
  run->add_flag("--quiet", args.quiet, "print warnings and errors only");

  auto* check = app.add_subcommand("check", "validate a config without running it");
  check->add_option("config", args.config_path, "case config to validate");
  add_set_option(*check, args, "override a config key, as for run");
  check->add_flag("--quiet", args.quiet, "print warnings and errors only");
  check->add_flag("--list-keys", args.list_keys,
                  "print every config key with its default and meaning");

  auto* ensemble = app.add_subcommand("ensemble", "run the members of an ensemble file, each into its own directory");
  ensemble->add_option("ensemble", args.config_path, "ensemble file, e.g. cases/bomex_seeds.toml")->required();
  add_set_option(*ensemble, args, "override a config key of every member, as for run");
  ensemble->add_option("--output", args.output_dir, "the ensemble's output directory (overrides ensemble.output_dir)");
  ensemble->add_option("--restart", args.restart,
                       "'latest': keep the members that ended, continue the others from their newest checkpoints");
  ensemble->add_option("--ranks-per-member", args.ranks_per_member,
                       "ranks of one member, a divisor of the rank count (default: whole members per rank when "
                       "there are as many members as ranks, the ranks shared out otherwise)");
  ensemble->add_flag("--batch", args.batch,
                     "run each group's members as one batch: one element list, every kernel launch covering "
                     "them all (members that differ only in their initial perturbations, with a fixed time.dt)");
  ensemble->add_option("--batch-members", args.batch_members,
                       "at most this many members per batch (implies --batch; default: all of a group's members)")
      ->check(CLI::Range(1, 100000));
  ensemble->add_flag("--check", args.check_only, "validate the ensemble file and every member's config, run nothing");
  ensemble->add_flag("--quiet", args.quiet, "print warnings and errors only");

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
  if (ensemble->parsed()) return command_ensemble(env.comm(), args);
  return command_cases();
}
