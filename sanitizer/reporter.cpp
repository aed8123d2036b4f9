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

}  // namespace

const std::vector<std::string>& reportFormats() {
  static const std::vector<std::string> formats = {"text", "json"};
  return formats;
}

std::unique_ptr<Reporter> makeReporter(const std::string& format, bool colour) {
  if (format == "text") return std::make_unique<TextReporter>(colour);
  if (format == "json") return std::make_unique<JsonReporter>();
  return nullptr;
}

}  // namespace td
