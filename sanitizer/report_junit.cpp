// --format junit: a JUnit XML test suite for CI dashboards — a test case per checked kernel (a bundle) or
// launch (a script), a failure per finding, an error for a run that did not end in a report.
#include <fmt/format.h>

#include "sanitizer/reporters.h"

namespace td {

namespace {

// The code point of the UTF-8 sequence at s[i] (advancing i past it), or -1 for a byte that starts no
// well-formed sequence (overlong forms and surrogates included).
long nextCodePoint(const std::string& s, size_t& i) {
  unsigned char c = s[i++];
  if (c < 0x80) return c;
  int extra = c >= 0xF0 && c <= 0xF4 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 && c <= 0xDF ? 1 : -1;
  if (extra < 0 || c > 0xF4) return -1;
  long cp = c & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    if (i >= s.size() || (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (static_cast<unsigned char>(s[i++]) & 0x3F);
  }
  static const long least[] = {0, 0x80, 0x800, 0x10000};
  if (cp < least[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

// XML 1.0's Char production: what a document may hold at all, escaped or not.
bool xmlChar(long cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
         (cp >= 0x10000 && cp <= 0x10FFFF);
}

// Text and attribute values as well-formed XML: the five specials escaped; a character XML may not hold
// (controls, U+FFFE/U+FFFF) or a byte that is not UTF-8 becomes U+FFFD, as SARIF's JSON does.
std::string xmlEscape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t start = i;
    long cp = nextCodePoint(s, i);
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (cp >= 0 && xmlChar(cp)) out.append(s, start, i - start);
        else out += "\xEF\xBF\xBD";
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
