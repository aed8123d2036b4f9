// What a bisect-shape run found, as its reporters render it (text for people, JSON for programs:
// docs/report-schema.json "bisectReport").
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bisect/axis.h"
#include "bisect/crossing.h"
#include "bisect/search.h"

namespace td::bisect {

struct BisectReport {
  std::string input;            // as given
  bool script = false;
  std::string target, executor, failOn;
  int confirm = 1, parallel = 1;
  std::vector<Axis> axes;
  SearchResult result;
  std::vector<std::vector<std::string>> commands;  // each probe's check command, in result.probes' order
  std::vector<Change> changes;  // across the threshold (passing -> failing)
  std::string repro;            // the repro file written ("" none)
  std::string reproCommand;     // how to run it
  std::string cache;            // the probe cache ("" none)
  int probesRun = 0, probesCached = 0, cacheWritesLost = 0;
  double seconds = 0;
  std::vector<std::string> notes;
  // 0 no failure in the ranges, 1 a failure found, the stopping probe's code (2, 4, 6) when one could not be
  // judged, kExitBisectInterrupted when --max-probes ended the search first.
  int exitCode() const;
};

constexpr int kExitBisectInterrupted = 7;

std::string renderBisectText(const BisectReport& r, bool colour);
nlohmann::json bisectJson(const BisectReport& r);

}  // namespace td::bisect
