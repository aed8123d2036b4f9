// Subcommands of the tile-doctor executable.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace td::cli {

// Each registers its subcommand on `app`; the returned function runs it and gives the exit code.
std::function<int()> addCheckCommand(CLI::App& app, int argc, char** argv);  // the command line goes to --db
std::function<int()> addTargetsCommand(CLI::App& app);
std::function<int()> addRulesCommand(CLI::App& app);
std::function<int()> addInstrumentCommand(CLI::App& app);
std::function<int()> addDiffCommand(CLI::App& app);
std::function<int()> addHistoryCommand(CLI::App& app);
std::function<int()> addProfileCommand(CLI::App& app);
std::function<int()> addServeCommand(CLI::App& app, int argc, char** argv);  // tile_doctor.checking's end
// bisect-shape passes check options on to its probes as the user wrote them: it needs the command line.
std::function<int()> addBisectCommand(CLI::App& app, std::vector<std::string> argv);

}  // namespace td::cli
