// `tile-doctor serve`: the checking end of a Python process that is already running — tile_doctor.checking()
// and the pytest plugin start it with two pipes (docs/capture-channel.md). It answers each launch request as
// `check kernel.py` does and writes the report (check's options, --format, --out, --db) when the process
// closes its end.
#include <memory>

#include "cli/commands.h"
#include "cli/script_check.h"

namespace td::cli {

std::function<int()> addServeCommand(CLI::App& app, int argc, char** argv) {
  auto args = std::make_shared<CheckArgs>();
  auto script = std::make_shared<std::string>("python");
  CLI::App* sub = app.add_subcommand("serve", "check the TileLang launches of a Python process already running "
                                              "(tile_doctor.checking, pytest --tile-doctor), which started this one: "
                                              "requests on --channel, the report when it closes the channel");
  addCheckOptions(sub, args);
  sub->add_option("--channel", args->channel, "READ,WRITE: the descriptors the Python process handed over")->required();
  sub->add_option("--capture-dir", args->keep, "the folder the process writes its bundles and capture.json into")
      ->required();
  sub->add_option("--script", *script, "the script (or session) the report names");
  sub->add_option("--db", args->db, "record the run in this SQLite history (tile-doctor history reads it)");
  addReportOption(sub, args);
  std::string command = commandLine(argc, argv);
  return [args, script, command] {
    args->inputs = {*script};
    return runWritingStops(*args, [&] { return checkInputs(*args, command); });
  };
}

}  // namespace td::cli
