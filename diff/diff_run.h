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
#include "diff/fp64_reference.h"
#include "diff/heat_map.h"
#include "diff/tile_map.h"
#include "diff/warp_errors.h"
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
  WarpErrors warps;                   // per warp of a block, when the race family ran (its last writers)
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

// The outputs of a checked run against their references (by output name), with the run's fp64 shadows when
// it carried them: the part of runDiff a script's launches share (diff/script_diff.h).
std::vector<OutputDiff> compareOutputs(const CheckResult& tested, std::map<std::string, std::vector<double>> refs,
                                       const Fp64Outputs* fp64, const DiffRequest& req);

// The run must carry fp64 shadows: --against fp64, --rule dynamo, or numerics among the checks.
bool needsFp64(const Against& against, const DiffRequest& req);
constexpr const char* kFp64ReferenceText = "fp64: the kernel's own operations carried out in double (the numerics family's shadows)";

// The per-buffer states a diff reads back: the numerics shadows (fp64) and the race family's last writers.
void requestDiffStates(CheckRequest& req, bool fp64);

// InputError unless the rule is one of kRuleNames; makes the --images folder.
void checkDiffRequest(const DiffRequest& req);

}  // namespace td
