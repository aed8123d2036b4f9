// Subcommands of the tile-doctor executable.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

namespace td::cli {

// Each registers its subcommand on `app`; the returned function runs it and gives the exit code.
std::function<int()> addCheckCommand(CLI::App& app);
std::function<int()> addTargetsCommand(CLI::App& app);
std::function<int()> addRulesCommand(CLI::App& app);
std::function<int()> addInstrumentCommand(CLI::App& app);
std::function<int()> addDiffCommand(CLI::App& app);

}  // namespace td::cli
