#include <fmt/format.h>

#include "sanitizer/benign.h"
#include "sanitizer/reporters.h"
#include "model/rules.h"

namespace td {

std::string renderText(const Report& r, bool colour) {
  auto paint = [&](const char* code, const std::string& s) {
    return colour ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  };
  std::string out;
  for (const Finding& f : r.findings) {
    const Rule* rule = findRule(f.kind);
    bool warning = rule && rule->severity == Severity::Warning;
    out += paint(warning ? "1;33" : "1;31", std::string("==tile-doctor== ") + (warning ? "WARNING: " : "ERROR: ") + f.kind) +
           ": " + paint("1", f.title) + "\n";
    if (!f.loc.file.empty()) {
      out += "    at " + paint("36", f.loc.str());
      if (!f.loc.function.empty()) out += " in " + f.loc.function;
      out += "\n";
      if (!f.loc.python.empty()) out += "    from " + paint("36", f.loc.python) + "\n";
      if (!f.loc.helper.empty()) out += "    inside " + f.loc.helper + "\n";
    }
    for (const auto& [what, loc] : f.related)
      out += "    " + what + " " + paint("36", loc.str()) + (loc.python.empty() ? "" : " from " + paint("36", loc.python)) + "\n";
    if (!f.threads.empty()) {
      out += "    by " + threadText(f.threads.front());
      if (f.count > 1) out += fmt::format(" and {} more time{}", f.count - 1, f.count == 2 ? "" : "s");
      out += "\n";
      if (f.threads.size() > 1) {
        out += "    first threads:";
        for (size_t i = 1; i < f.threads.size(); ++i) out += (i > 1 ? ";" : "") + std::string(" ") + threadText(f.threads[i]);
        out += "\n";
      }
    }
    if (f.threads.empty() && f.count > 1) out += fmt::format("    {} times\n", f.count);
    for (const std::string& n : f.notes) out += "    note: " + n + "\n";
    out += "\n";
  }
  for (const std::string& u : r.unchecked) out += "note: not checked: " + u + "\n";
  if (std::string benign = benignNote(r); !benign.empty()) out += "note: " + benign + "\n";
  if (r.recordsDropped)
    out += fmt::format("note: {} records did not fit the channel; counts are exact, some first threads are missing\n",
                       r.recordsDropped);
  std::string where = fmt::format("kernel {} on target {}, executor {} ({})", r.kernel, r.target, r.executor, r.device);
  if (!r.launched) where += ", not launched";
  else where += fmt::format(", grid ({},{},{}) x block ({},{},{}), {} of {} blocks ran{}", r.grid[0], r.grid[1], r.grid[2],
                            r.block[0], r.block[1], r.block[2], r.blocksRun, r.blocksTotal,
                            r.blocksNote.empty() ? "" : " (" + r.blocksNote + ")");
  if (r.repeats > 1) where += fmt::format(", {} runs compared", r.repeats);
  // Findings the CI options took out are still named, one line each: known is not the same as absent.
  for (const Finding& f : r.baselined)
    out += fmt::format("unchanged since the baseline: {}: {}{}\n", f.kind, f.title, f.loc.file.empty() ? "" : " at " + f.loc.str());
  for (const Finding& f : r.suppressed)
    out += fmt::format("suppressed by {}: {}: {}{}\n", f.suppressedBy, f.kind, f.title, f.loc.file.empty() ? "" : " at " + f.loc.str());
  std::string known;
  if (!r.baselined.empty()) known += fmt::format(", {} unchanged since the baseline", r.baselined.size());
  if (!r.suppressed.empty()) known += fmt::format(", {} suppressed", r.suppressed.size());
  if (r.findings.empty())
    out += paint("1;32", known.empty() ? "tile-doctor: no findings" : "tile-doctor: no new findings" + known) + " — " + where + "\n";
  else
    out += paint("1", fmt::format("SUMMARY: tile-doctor: {} finding{}{}", r.findings.size(),
                                  r.findings.size() == 1 ? "" : "s", known)) + " — " + where + "\n";
  return out;
}

}  // namespace td
