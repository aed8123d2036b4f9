// `tile-doctor diff`: a kernel's outputs against a reference (diff/reference_outputs.h), per output the
// errors, the acceptance rules' verdicts and the errors per tile; with the numerics family on, the run's
// drift findings say where the difference comes from.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "diff/acceptance_rules.h"
#include "diff/output_comparison.h"
#include "diff/reference_outputs.h"
#include "diff/heat_map.h"
#include "diff/tile_map.h"
#include "driver/check.h"

namespace td {

struct DiffRequest {
  CheckRequest check;        // the run under test
  std::string against;       // --against
  std::string rule = "torch";
  RuleOverrides overrides;   // --rtol, --atol
  size_t worst = 8;          // worst elements listed per output
  std::string images;        // --images DIR: a PNG heat map per output, DIR/NAME.png
};

struct OutputDiff {
  OutputComparison comparison;
  std::vector<RuleVerdict> verdicts;  // every rule, in kRuleNames order
  TileMap tiles;                      // against the chosen rule's allowance
  HeatCells heat;                     // the elementwise picture (--images draws it)
  std::string image;                  // the PNG written, if any
  bool pass = false;                  // the chosen rule's verdict (a rule not evaluated passes nothing)
  bool hasFp64 = false;               // the numerics family's shadows gave an fp64 reference:
  double resultRmseVsFp64 = 0, referenceRmseVsFp64 = 0;
  uint64_t unshadowed = 0;            // elements it had no shadow for (their own value stood in)
};

struct DiffReport {
  Against against;
  std::string referenceText;  // what the reference is, in words
  std::string rule;
  Report tested;              // the run under test (its findings: what the enabled checks say)
  Report reference;           // the reference run, when there is one (Executor, Target)
  bool hasReferenceRun = false;
  bool fp64 = false;          // the run carried fp64 shadows (--against fp64, --rule dynamo, or numerics named)
  std::vector<OutputDiff> outputs;
  bool pass() const;
  int exitCode() const;       // 0 the rule passes every output, 1 it does not, 3 a run crashed or hung
};

// Throws InputError for bad input (a bad --against, --rule, reference file), as runCheck does.
DiffReport runDiff(const DiffRequest& req);

}  // namespace td
