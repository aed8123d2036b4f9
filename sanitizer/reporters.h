// Reporters: how a RunSet (sanitizer/run_set.h) becomes the report a user reads. One interface, one place
// that maps --format to a reporter (makeReporter); bundle and script checks go through the same ones.
// Text is ASan-style (coloured on a terminal); JSON follows docs/report-schema.json.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "sanitizer/ci_outcome.h"
#include "model/finding.h"
#include "sanitizer/run_set.h"

namespace td {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual std::string render(const RunSet& set) const = 0;
  // A whole check: one RunSet per input (a single input renders as render() does, with what the CI
  // options did), and the CI options' outcome.
  virtual std::string renderAll(const std::vector<RunSet>& sets, const CiOutcome& ci) const = 0;
  // A check stopped before it had a report (bad input, the tool's own --timeout, an internal error): what
  // goes where the report would have; "" where the message on standard error is all there is to say.
  virtual std::string renderStop(int exitCode, const char* kind, const std::string& file, int line,
                                 const std::string& message) const = 0;
  // Read by programs: nothing else may share its stream (a script's and the device's prints go to stderr).
  virtual bool machineReadable() const = 0;
};

// The formats --format takes, and the reporter for one of them (nullptr for another name).
const std::vector<std::string>& reportFormats();
std::unique_ptr<Reporter> makeReporter(const std::string& format, bool colour);

// The pieces the reporters are made of, for tests and for reports embedded in others.
std::string renderText(const Report& r, bool colour);
std::string renderJson(const Report& r);
nlohmann::json reportJson(const Report& r);  // one launch's report as a JSON value
nlohmann::json findingJson(const Finding& f);
std::string renderScriptText(const RunSet& set, bool colour);
nlohmann::json scriptJson(const RunSet& set);
std::string renderSarif(const std::vector<RunSet>& sets, const CiOutcome& ci);  // SARIF 2.1.0 (GitHub code scanning)
std::string renderJunit(const std::vector<RunSet>& sets);                       // JUnit XML
// One input's JSON (a bundle's or script's report, or the stop object of an input that did not run).
nlohmann::json inputJson(const RunSet& set);
// The stop report's kind for an exit code: bad-input, timeout, cannot-run, internal.
const char* stopKind(int code);
// Its word in a text report's "tile-doctor: WORD: where: message" line: error, stopped, internal error, cannot run.
const char* stopWord(int code);
// The JSON of a check that stopped before its report (docs/report-format.md, "A run that stops").
nlohmann::json stopJson(int exitCode, const char* kind, const std::string& file, int line, const std::string& message);
nlohmann::json ciJson(const CiOutcome& ci);  // the fields the CI options add
std::string renderCiText(const CiOutcome& ci, const std::vector<RunSet>& sets);


}  // namespace td
