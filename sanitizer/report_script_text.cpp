// The text report of a script check: a line on how the script ran, then each launch (and each kernel it
// never launched) under its own heading with its report or error, then the notes.
#include <fmt/format.h>

#include "sanitizer/reporters.h"

namespace td {

namespace {

std::string describeShapes(const nlohmann::json& shapes, const nlohmann::json& scalars) {
  std::string s;
  for (auto& [name, v] : shapes.items()) s += fmt::format("{}{} {}", s.empty() ? "" : ", ", name, v.get<std::string>());
  for (auto& [name, v] : scalars.items()) s += fmt::format("{}{}={}", s.empty() ? "" : ", ", name, v.get<std::string>());
  return s;
}

std::string heading(const Run& it, int launches) {
  std::string kernel = it.parts > 1 ? fmt::format("{} (device kernel {} of {})", it.entry, it.part + 1, it.parts) : it.entry;
  if (it.launch == 0) return fmt::format("== kernel {}, compiled at {}, never launched: checked with the bundle's inputs\n",
                                         kernel, it.compiledAt);
  std::string state = it.checked ? "checked"
                                 : fmt::format("not checked (same kernel and shapes as launch {}; --launches all "
                                               "checks every one)", it.sameAs);
  if (!it.checked && it.sameAs == 0) state = "not checked (past --launches)";
  return fmt::format("== launch {} of {}: {} called at {} (compiled at {}): {}\n   {}\n", it.launch, launches, kernel,
                     it.calledAt, it.compiledAt, state, describeShapes(it.shapes, it.scalars));
}

}  // namespace

int launchCount(const RunSet& set) {
  int launches = 0;
  for (const Run& r : set.runs) launches = std::max(launches, r.launch);
  return launches;
}

std::string renderScriptText(const RunSet& set, bool colour) {
  const ScriptRun& s = *set.script;
  int launches = launchCount(set), checked = 0;
  for (const Run& r : set.runs) checked += r.launch > 0 && r.part == 0 && r.checked;
  std::string ending = s.exitCode == 0 ? "to its end"
                                       : fmt::format("until it failed at {} ({})", s.exitWhere.empty() ? s.script : s.exitWhere,
                                                     s.exitWhy);
  std::string text =
      !s.generatedDialect.empty()  // a generated source: its call() read, not a script run
          ? fmt::format("tile-doctor: read {}'s call(): {} launch{}, {} checked ({} source; shapes from --shape)\n",
                        s.script, launches, launches == 1 ? "" : "es", checked, s.generatedDialect)
          : fmt::format("tile-doctor: ran {} {}: {} launch{}, {} checked (TileLang {}, lowered for {}{})\n", s.script,
                        ending, launches, launches == 1 ? "" : "es", checked, s.tilelangVersion, s.arch,
                        s.hostDevice ? "; no GPU: its CUDA tensors lived in host memory" : "");
  for (const Run& r : set.runs) {
    text += "\n" + heading(r, launches);
    if (r.speaks()) text += renderText(*r.report, colour);  // an unchecked launch speaks when it crashed or hung
    if (!r.error.empty())
      text += fmt::format("tile-doctor: {}: {}: {}\n", stopWord(r.errorCode), r.errorWhere.empty() ? r.bundle : r.errorWhere,
                          r.error);
  }
  for (const ScriptNote& n : s.notes) text += fmt::format("\nnote: {}: {}\n", n.where, n.text);
  if (s.exitCode != 0)
    text += fmt::format("\nnote: the script failed at {} ({}); launches after that point did not happen\n",
                        s.exitWhere.empty() ? s.script : s.exitWhere, s.exitWhy);
  if (s.keptBundles) text += fmt::format("note: the bundles are kept in {}\n", s.keptIn);
  return text;
}

}  // namespace td
