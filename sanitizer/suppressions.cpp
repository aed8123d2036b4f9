#include "sanitizer/suppressions.h"

#include <filesystem>
#include <fmt/format.h>
#include <fnmatch.h>
#include <sstream>

#include "frontend/paths.h"
#include "frontend/input_error.h"
#include "model/rules.h"

namespace td {

namespace {

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

bool ruleCovers(const std::string& rule, const std::string& kind) {
  if (rule == "*" || rule == kind) return true;
  const Rule* r = findRule(kind);
  return r && rule == r->family;
}

// The names a finding goes by, for patterns to match.
std::vector<std::string> candidates(const Finding& f, const std::string& kernel) {
  std::vector<std::string> c = {kernel, f.loc.function};
  if (!f.loc.file.empty()) {
    for (const std::string& file : {f.loc.file, portablePath(f.loc.file), std::filesystem::path(f.loc.file).filename().string()}) {
      c.push_back(file);
      c.push_back(fmt::format("{}:{}", file, f.loc.line));
    }
  }
  if (!f.loc.python.empty()) {
    c.push_back(f.loc.python);
    size_t colon = f.loc.python.rfind(':');
    std::string py = colon == std::string::npos ? f.loc.python : f.loc.python.substr(0, colon);
    std::string line = colon == std::string::npos ? "" : f.loc.python.substr(colon);
    c.push_back(portablePath(py) + line);
    c.push_back(std::filesystem::path(py).filename().string() + line);
    c.push_back(py);
  }
  return c;
}

bool patternMatches(const std::string& pattern, const std::string& name) {
  if (name.empty()) return false;
  if (fnmatch(pattern.c_str(), name.c_str(), 0) == 0) return true;
  bool literal = pattern.find_first_of("*?[") == std::string::npos;
  return literal && name.size() > pattern.size() && name.compare(name.size() - pattern.size(), pattern.size(), pattern) == 0 &&
         name[name.size() - pattern.size() - 1] == '/';
}

}  // namespace

Suppressions Suppressions::load(const std::string& path) {
  std::istringstream in(readInputFile(path, "the suppressions file", 16u << 20));
  Suppressions s;
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    std::string text = trim(raw.substr(0, raw.find('#')));
    if (text.empty()) continue;
    size_t colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
      throw InputError(path, line, fmt::format("'{}' is not RULE:PATTERN (for example race:my_kernel or "
                                               "global-out-of-bounds:gemm.cu:31)", text));
    Suppression e{path, line, trim(text.substr(0, colon)), trim(text.substr(colon + 1))};
    if (e.rule != "fingerprint" && e.rule != "*" && !isRuleFamily(e.rule) && !findRule(e.rule))
      throw InputError(path, line, fmt::format("'{}' is neither a rule id (tile-doctor rules), a family, * nor fingerprint",
                                               e.rule));
    if (e.rule == "fingerprint" && (e.pattern.size() != 16 || e.pattern.find_first_not_of("0123456789abcdef") != std::string::npos))
      throw InputError(path, line, fmt::format("'{}' is not a finding id (16 hex digits, the JSON report's \"id\")", e.pattern));
    s.entries_.push_back(e);
  }
  return s;
}

const Suppression* Suppressions::match(const Finding& f, const std::string& kernel) const {
  std::vector<std::string> names;
  std::string id;  // computed once, when an entry asks for it (it resolves paths)
  for (const Suppression& e : entries_) {
    if (e.rule == "fingerprint") {
      if (id.empty()) id = findingId(f);
      if (id == e.pattern) return &e;
      continue;
    }
    if (!ruleCovers(e.rule, f.kind)) continue;
    if (names.empty()) names = candidates(f, kernel);
    for (const std::string& n : names)
      if (patternMatches(e.pattern, n)) return &e;
  }
  return nullptr;
}

void Suppressions::apply(std::vector<RunSet>& sets) {
  setFindingsAside(sets, [&](Report& r, Finding& f) -> std::vector<Finding>* {
    const Suppression* e = match(f, r.kernel);
    if (!e) return nullptr;
    ++const_cast<Suppression*>(e)->matched;
    f.suppressedBy = fmt::format("{}:{}", e->file, e->line);
    return &r.suppressed;
  });
}

std::vector<const Suppression*> Suppressions::unused() const {
  std::vector<const Suppression*> u;
  for (const Suppression& e : entries_)
    if (!e.matched) u.push_back(&e);
  return u;
}

}  // namespace td
