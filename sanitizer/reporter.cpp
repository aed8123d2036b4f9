#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "sanitizer/reporters.h"

namespace td {

namespace {

// Paths are bytes, JSON is UTF-8: a byte that is not UTF-8 becomes U+FFFD rather than losing the report.
std::string dumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string inputName(const RunSet& set) {
  if (set.script) return set.script->script;
  return set.runs.empty() ? "" : set.runs[0].bundle;
}

class TextReporter : public Reporter {
 public:
  explicit TextReporter(bool colour) : colour_(colour) {}
  std::string render(const RunSet& set) const override {
    if (set.script) return renderScriptText(set, colour_);
    std::string out;
    for (const Run& r : set.runs)
      if (r.report) out += renderText(*r.report, colour_);
    return out;
  }
  std::string renderAll(const std::vector<RunSet>& sets, const CiOutcome& ci) const override {
    if (sets.size() == 1) return render(sets[0]) + renderCiText(ci, sets);
    std::string out;
    int clean = 0, findings = 0, stopped = 0;
    for (const RunSet& s : sets) {
      out += paint("1", fmt::format("== {} ==", inputName(s))) + "\n";
      out += render(s);
      for (const Run& r : s.runs)
        if (!r.error.empty()) out += fmt::format("tile-doctor: {}: {}: {}\n", stopWord(r.errorCode), r.errorWhere.empty() ? inputName(s) : r.errorWhere, r.error);
      int code = s.exitCode();
      (code == 0 ? clean : code == 1 ? findings : stopped)++;
      out += "\n";
    }
    out += renderCiText(ci, sets);
    out += paint("1", fmt::format("tile-doctor: {} inputs: {} clean, {} with findings, {} stopped or crashed (exit {})",
                                  sets.size(), clean, findings, stopped, exitCodeOf(sets))) + "\n";
    return out;
  }
  std::string renderStop(int, const char*, const std::string&, int, const std::string&) const override { return ""; }
  bool machineReadable() const override { return false; }

 private:
  std::string paint(const char* code, const std::string& s) const {
    return colour_ ? fmt::format("\033[{}m{}\033[0m", code, s) : s;
  }
  bool colour_;
};

class JsonReporter : public Reporter {
 public:
  std::string render(const RunSet& set) const override {
    if (set.script) return dumpJson(scriptJson(set), 1);
    return set.runs.size() == 1 && set.runs[0].report ? renderJson(*set.runs[0].report) : dumpJson(nlohmann::json::object(), 1);
  }
  std::string renderAll(const std::vector<RunSet>& sets, const CiOutcome& ci) const override {
    nlohmann::json extra = ciJson(ci);
    if (sets.size() == 1) {
      nlohmann::json j = inputJson(sets[0]);
      j.update(extra);
      return dumpJson(j, sets[0].script ? 1 : 2);
    }
    nlohmann::json j = {{"tool", "tile-doctor"}, {"schema_version", 1}, {"command", "check"},
                        {"inputs", nlohmann::json::array()}};
    for (const RunSet& s : sets) j["inputs"].push_back({{"input", inputName(s)}, {"report", inputJson(s)}});
    j.update(extra);
    j["exit_code"] = exitCodeOf(sets);
    return dumpJson(j, 1);
  }
  std::string renderStop(int exitCode, const char* kind, const std::string& file, int line,
                         const std::string& message) const override {
    return dumpJson(stopJson(exitCode, kind, file, line, message), 1);
  }
  bool machineReadable() const override { return true; }
};

// SARIF and JUnit: a run that stops has no report to give (the message on standard error says why; the
// exit code tells CI).
class SarifReporter : public Reporter {
 public:
  std::string render(const RunSet& set) const override { return renderSarif({set}, {}); }
  std::string renderAll(const std::vector<RunSet>& sets, const CiOutcome& ci) const override { return renderSarif(sets, ci); }
  std::string renderStop(int, const char*, const std::string&, int, const std::string&) const override { return ""; }
  bool machineReadable() const override { return true; }
};

class JunitReporter : public Reporter {
 public:
  std::string render(const RunSet& set) const override { return renderJunit({set}); }
  std::string renderAll(const std::vector<RunSet>& sets, const CiOutcome&) const override { return renderJunit(sets); }
  std::string renderStop(int, const char*, const std::string&, int, const std::string&) const override { return ""; }
  bool machineReadable() const override { return true; }
};

}  // namespace

const std::vector<std::string>& reportFormats() {
  static const std::vector<std::string> formats = {"text", "json", "sarif", "junit"};
  return formats;
}

std::unique_ptr<Reporter> makeReporter(const std::string& format, bool colour) {
  if (format == "text") return std::make_unique<TextReporter>(colour);
  if (format == "json") return std::make_unique<JsonReporter>();
  if (format == "sarif") return std::make_unique<SarifReporter>();
  if (format == "junit") return std::make_unique<JunitReporter>();
  return nullptr;
}

}  // namespace td
