// tile-doctor: debugging and diagnostics for GPU tile kernels.
// Exit codes: 0 no finding, 1 findings, 2 bad input, 3 the kernel crashed or hung (or the run passed
// --timeout in tile-doctor's own work), 4 internal error,
// 5 a checked script failed with no finding, 6 the executor cannot run the kernel, 7 bisect-shape stopped
// at --max-probes (the same command resumes).
#include <filesystem>
#include <fmt/format.h>
#include <iostream>

#include "cli/commands.h"
#include "cli/script_check.h"
#include "cli/stop_of.h"
#include "frontend/input_error.h"
#include "frontend/lifetime.h"
#include "frontend/profile.h"
#include "frontend/work_deadline.h"
#include "runtime/executor_limit.h"

// The value of an option as the user wrote it (--name VALUE or --name=VALUE), read from argv itself: used
// when CLI11 rejected the command line, so its own parse cannot be trusted. The last one counts, as in CLI11.
static std::string rawOption(int argc, char** argv, const std::string& name) {
  std::string value;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") break;  // the script's own arguments follow
    if (a == name && i + 1 < argc) value = argv[++i];
    else if (a.rfind(name + "=", 0) == 0) value = a.substr(name.size() + 1);
  }
  return value;
}

static int run(int argc, char** argv) {
  CLI::App app{fmt::format("tile-doctor: finds out why GPU tile kernels crash, hang, race or drift.\n"
                           "Exit codes: 0 no finding, 1 findings, 2 bad input, 3 kernel crashed or hung (or the run passed --timeout), 4 internal "
                           "error, 5 a checked script failed with no finding, 6 the executor cannot run the kernel, 7 bisect-shape "
                           "stopped at --max-probes."
                           "\nDefault target: {}",
                           td::kDefaultTarget)};
  app.require_subcommand(1);
  std::function<int()> check = td::cli::addCheckCommand(app, argc, argv);
  std::function<int()> targets = td::cli::addTargetsCommand(app);
  std::function<int()> rules = td::cli::addRulesCommand(app);
  std::function<int()> instrument = td::cli::addInstrumentCommand(app);
  std::function<int()> diff = td::cli::addDiffCommand(app);
  std::function<int()> history = td::cli::addHistoryCommand(app);
  std::function<int()> profile = td::cli::addProfileCommand(app);
  std::function<int()> serve = td::cli::addServeCommand(app, argc, argv);
  std::function<int()> bisect = td::cli::addBisectCommand(app, std::vector<std::string>(argv, argv + argc));
  // The script's arguments, after the first "--", go to the script as they are (cli/script_check.h).
  int cliArgc = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--") {
      td::cli::setScriptArguments(std::vector<std::string>(argv + i + 1, argv + argc));
      cliArgc = i;
      break;
    }
  try {
    app.parse(cliArgc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    if (rc == 0) return 0;  // --help
    // --format json promises JSON on every stop, a rejected command line included.
    td::cli::writeStopReport(rawOption(argc, argv, "--format"), rawOption(argc, argv, "--out"), 2, "bad-input",
                            "command line", 0, e.what());
    return 2;
  }
  td::removeStaleTemporaries();  // what runs killed by SIGKILL could not remove themselves
  try {
    if (app.got_subcommand("check")) return check();
    if (app.got_subcommand("targets")) return targets();
    if (app.got_subcommand("rules")) return rules();
    if (app.got_subcommand("instrument")) return instrument();
    if (app.got_subcommand("diff")) return diff();
    if (app.got_subcommand("history")) return history();
    if (app.got_subcommand("profile")) return profile();
    if (app.got_subcommand("serve")) return serve();
    if (app.got_subcommand("bisect-shape")) return bisect();
  } catch (...) {
    td::cli::Stop stop = td::cli::stopOfCurrentException("");
    if (stop.code == td::kExitExecutorCannotRun)
      std::cerr << fmt::format("tile-doctor: cannot run: {}: {}\n", stop.where, stop.message);
    else if (stop.code == 2)
      std::cerr << fmt::format("tile-doctor: error: {}: {}\n", stop.where, stop.message);
    else if (stop.code == 3)
      std::cerr << fmt::format("tile-doctor: stopped: {}\n", stop.message);
    else
      std::cerr << fmt::format("tile-doctor: internal error: {}\n", stop.message);
    return stop.code;
  }
  return 4;
}

int main(int argc, char** argv) {
  td::installTerminationHandling();  // first: before any thread starts
  int rc = run(argc, argv);
  td::holdIfTerminating();
  return rc;
}
