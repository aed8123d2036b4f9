// --format junit: a JUnit XML test suite for CI dashboards — a test case per checked kernel (a bundle) or
// launch (a script), a failure per finding, an error for a run that did not end in a report.
#include <fmt/format.h>

#include "sanitizer/reporters.h"

namespace td {

namespace {

std::string xmlEscape(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t') out += ' ';  // not allowed in XML 1.0
        else out += static_cast<char>(c);
    }
  }
  return out;
}

std::string caseName(const Run& run) {
  if (run.launch) return fmt::format("launch {}{}: {}", run.launch, run.parts > 1 ? fmt::format(".{}", run.part) : "", run.entry);
  return run.entry.empty() ? run.bundle : run.entry;
}

// One input's test suite.
std::string junitSuite(const RunSet& set, const std::string& indent) {
  std::string suite = set.script ? set.script->script : set.runs.empty() ? "" : set.runs[0].bundle;
  std::string cases;
  int failures = 0, errors = 0;
  for (const Run& run : set.runs) {
    std::string classname = set.script ? set.script->script : run.bundle;
    std::string body;
    if (!run.error.empty()) {
      ++errors;
      body += fmt::format("    <error message=\"{}\">{}</error>\n", xmlEscape(run.error), xmlEscape(run.errorWhere));
    } else if (run.report && run.speaks()) {
      for (const Finding& f : run.report->findings) {
        ++failures;
        std::string where = f.loc.file.empty() ? "" : fmt::format("{}:{}", f.loc.file, f.loc.line);
        if (!f.loc.python.empty()) where += " (" + f.loc.python + ")";
        std::string detail = where;
        for (const std::string& n : f.notes) detail += "\n" + n;
        body += fmt::format("    <failure type=\"{}\" message=\"{}\">{}</failure>\n", xmlEscape(f.kind),
                            xmlEscape(f.title), xmlEscape(detail));
      }
    } else if (!run.checked) {
      body += "    <skipped message=\"run unchecked (a repeat of an earlier launch)\"/>\n";
    }
    double seconds = run.report ? run.report->compileSeconds + run.report->runSeconds : 0;
    cases += fmt::format("  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"{}", xmlEscape(classname),
                         xmlEscape(caseName(run)), seconds, body.empty() ? "/>\n" : ">\n" + body + "  </testcase>\n");
  }
  return fmt::format("{}<testsuite name=\"tile-doctor: {}\" tests=\"{}\" failures=\"{}\" errors=\"{}\">\n{}{}</testsuite>\n",
                     indent, xmlEscape(suite), set.runs.size(), failures, errors, cases, indent);
}

}  // namespace

std::string renderJunit(const std::vector<RunSet>& sets) {
  std::string head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  if (sets.size() == 1) return head + junitSuite(sets[0], "");
  std::string suites;
  for (const RunSet& s : sets) suites += junitSuite(s, "");
  return head + "<testsuites name=\"tile-doctor\">\n" + suites + "</testsuites>\n";
}

}  // namespace td
