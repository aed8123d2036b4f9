#include <nlohmann/json.hpp>

#include "sanitizer/reporters.h"

namespace td {

namespace {

// Paths are bytes, JSON is UTF-8: a byte that is not UTF-8 becomes U+FFFD rather than losing the report.
std::string dumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
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
  std::string renderStop(int, const char*, const std::string&, int, const std::string&) const override { return ""; }
  bool machineReadable() const override { return false; }

 private:
  bool colour_;
};

class JsonReporter : public Reporter {
 public:
  std::string render(const RunSet& set) const override {
    if (set.script) return dumpJson(scriptJson(set), 1);
    return set.runs.size() == 1 && set.runs[0].report ? renderJson(*set.runs[0].report) : dumpJson(nlohmann::json::object(), 1);
  }
  std::string renderStop(int exitCode, const char* kind, const std::string& file, int line,
                         const std::string& message) const override {
    nlohmann::json j;
    j["tool"] = "tile-doctor";
    j["schema_version"] = 1;
    j["exit_code"] = exitCode;
    j["error"] = {{"kind", kind}, {"file", file}, {"line", line}, {"message", message}};
    return dumpJson(j, 1);
  }
  bool machineReadable() const override { return true; }
};

// SARIF and JUnit: a run that stops has no report to give (the message on standard error says why; the
// exit code tells CI).
class CiReporter : public Reporter {
 public:
  explicit CiReporter(std::string (*render)(const RunSet&)) : render_(render) {}
  std::string render(const RunSet& set) const override { return render_(set); }
  std::string renderStop(int, const char*, const std::string&, int, const std::string&) const override { return ""; }
  bool machineReadable() const override { return true; }

 private:
  std::string (*render_)(const RunSet&);
};

}  // namespace

const std::vector<std::string>& reportFormats() {
  static const std::vector<std::string> formats = {"text", "json", "sarif", "junit"};
  return formats;
}

std::unique_ptr<Reporter> makeReporter(const std::string& format, bool colour) {
  if (format == "text") return std::make_unique<TextReporter>(colour);
  if (format == "json") return std::make_unique<JsonReporter>();
  if (format == "sarif") return std::make_unique<CiReporter>(renderSarif);
  if (format == "junit") return std::make_unique<CiReporter>(renderJunit);
  return nullptr;
}

}  // namespace td
