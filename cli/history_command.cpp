// `tile-doctor history`: the runs `check --db FILE` recorded (history/run_db.h) — list them, show one,
// compare two by their findings' ids, and merge the databases of shards into one.
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "frontend/input_error.h"
#include "history/run_db.h"

namespace td::cli {

namespace {

struct HistoryArgs {
  std::string db = "tile-doctor-history.sqlite", format = "text";
  int64_t run = 0, other = 0;
  std::vector<std::string> shards;
};

RunDb openExisting(const std::string& path) {
  if (!std::filesystem::is_regular_file(path))
    throw InputError(path, 0, "no such history database (check --db FILE makes one)");
  return RunDb(path);
}

nlohmann::json runJson(const RunRow& r) {
  return {{"id", r.id}, {"started", r.started}, {"tool_version", r.toolVersion}, {"command", r.command},
          {"target", r.target}, {"executor", r.executor}, {"shard", r.shard}, {"inputs", r.inputs},
          {"exit_code", r.exitCode}, {"findings", r.findings}, {"suppressed", r.suppressed}, {"seconds", r.seconds},
          {"origin", r.origin}};
}

nlohmann::json findingRowJson(const FindingRow& f) {
  return {{"input", f.input}, {"kernel", f.kernel}, {"id", f.id}, {"kind", f.kind}, {"message", f.message},
          {"place", f.place}, {"count", f.count}, {"state", f.state}};
}

std::string runLine(const RunRow& r) {
  std::string command = r.command.size() > 70 ? r.command.substr(0, 67) + "..." : r.command;
  return fmt::format("{:>4}  {}  {:>3} input{}  exit {}  {:>3} finding{}{}  {} {}{}{}  {}\n", r.id, r.started, r.inputs,
                     r.inputs == 1 ? " " : "s", r.exitCode, r.findings, r.findings == 1 ? " " : "s",
                     r.suppressed ? fmt::format(" ({} suppressed)", r.suppressed) : "", r.target, r.executor,
                     r.shard.empty() ? "" : " shard " + r.shard, r.origin.empty() ? "" : " from " + r.origin, command);
}

std::string findingLine(const FindingRow& f) {
  return fmt::format("    {} {}: {}{}  [{}{}]\n", f.id, f.kind, f.message, f.place.empty() ? "" : " at " + f.place, f.state,
                     f.count > 1 ? fmt::format(", {} times", f.count) : "");
}

int list(const HistoryArgs& a) {
  RunDb db = openExisting(a.db);
  std::vector<RunRow> runs = db.runs();
  if (a.format == "json") {
    nlohmann::json j = {{"tool", "tile-doctor"}, {"db", a.db}, {"runs", nlohmann::json::array()}};
    for (const RunRow& r : runs) j["runs"].push_back(runJson(r));
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  if (runs.empty()) std::cout << a.db << ": no runs yet\n";
  for (const RunRow& r : runs) std::cout << runLine(r);
  return 0;
}

int show(const HistoryArgs& a) {
  RunDb db = openExisting(a.db);
  RunRow r = db.run(a.run);
  std::vector<FindingRow> findings = db.findings(a.run);
  if (a.format == "json") {
    nlohmann::json j = runJson(r);
    j["finding_list"] = nlohmann::json::array();
    for (const FindingRow& f : findings) j["finding_list"].push_back(findingRowJson(f));
    std::cout << j.dump(1) << "\n";
    return 0;
  }
  std::cout << runLine(r) << fmt::format("  tool {}, {:.1f} s\n", r.toolVersion, r.seconds);
  std::string input;
  for (const FindingRow& f : findings) {
    if (f.input != input) std::cout << "  " << (input = f.input) << "\n";
    std::cout << findingLine(f);
  }
  return 0;
}

// Findings by id: those only in the later run are new, those only in the earlier one fixed (or gone).
int compare(const HistoryArgs& a) {
  RunDb db = openExisting(a.db);
  db.run(a.run);
  db.run(a.other);
  std::map<std::string, FindingRow> before, after;
  for (const FindingRow& f : db.findings(a.run))
    if (f.state != "suppressed") before.emplace(f.id, f);
  for (const FindingRow& f : db.findings(a.other))
    if (f.state != "suppressed") after.emplace(f.id, f);
  std::vector<FindingRow> fresh, gone, kept;
  for (const auto& [id, f] : after) (before.count(id) ? kept : fresh).push_back(f);
  for (const auto& [id, f] : before)
    if (!after.count(id)) gone.push_back(f);
  if (a.format == "json") {
    nlohmann::json j = {{"tool", "tile-doctor"}, {"from", a.run}, {"to", a.other}, {"new", nlohmann::json::array()},
                        {"gone", nlohmann::json::array()}, {"unchanged", nlohmann::json::array()}};
    for (const FindingRow& f : fresh) j["new"].push_back(findingRowJson(f));
    for (const FindingRow& f : gone) j["gone"].push_back(findingRowJson(f));
    for (const FindingRow& f : kept) j["unchanged"].push_back(findingRowJson(f));
    std::cout << j.dump(1) << "\n";
  } else {
    std::cout << fmt::format("run {} -> run {}: {} new, {} gone, {} unchanged\n", a.run, a.other, fresh.size(), gone.size(),
                             kept.size());
    for (const FindingRow& f : fresh) std::cout << "  new" << findingLine(f).substr(2);
    for (const FindingRow& f : gone) std::cout << "  gone" << findingLine(f).substr(3);
  }
  return fresh.empty() ? 0 : 1;
}

int merge(const HistoryArgs& a) {
  RunDb db(a.db);
  int runs = 0;
  for (const std::string& shard : a.shards) runs += db.merge(shard);
  std::cout << fmt::format("{}: {} run{} merged from {} database{}\n", a.db, runs, runs == 1 ? "" : "s", a.shards.size(),
                           a.shards.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

std::function<int()> addHistoryCommand(CLI::App& app) {
  auto a = std::make_shared<HistoryArgs>();
  CLI::App* sub = app.add_subcommand("history", "the runs check --db recorded: list, show, compare, merge shards");
  sub->add_option("--db", a->db, "the history database (default tile-doctor-history.sqlite)");
  sub->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  CLI::App* showCmd = sub->add_subcommand("show", "one run with its findings");
  showCmd->add_option("run", a->run, "the run's id")->required();
  CLI::App* compareCmd = sub->add_subcommand("compare", "two runs by their findings: new, gone, unchanged (exit 1 when new)");
  compareCmd->add_option("from", a->run, "the earlier run")->required();
  compareCmd->add_option("to", a->other, "the later run")->required();
  CLI::App* mergeCmd = sub->add_subcommand("merge", "copy the runs of other history databases (a sweep's shards) into --db");
  mergeCmd->add_option("databases", a->shards, "the databases to fold in")->required();
  for (CLI::App* c : {showCmd, compareCmd, mergeCmd}) {
    c->add_option("--db", a->db, "the history database (default tile-doctor-history.sqlite)");
    c->add_option("--format", a->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  }
  return [a, showCmd, compareCmd, mergeCmd] {
    if (showCmd->parsed()) return show(*a);
    if (compareCmd->parsed()) return compare(*a);
    if (mergeCmd->parsed()) return merge(*a);
    return list(*a);
  };
}

}  // namespace td::cli
