// The search of bisect-shape over probes (bisect/probe.h), assuming failures are monotone (a shape above
// a failing one fails too) and saying so when a probe contradicts it.
//
// One axis: probe its lowest value, grow geometrically in two steps (the value sqrt(n) aligned steps up,
// then the highest), binary-search the bracket that holds the first failure, then probe the value one step
// above it. That is at most ceil(log2(n)) + 4 probes for n aligned values, where plain doubling from the
// lowest value would cost up to 2 log2(n). Several axes: each alone with the others at their lowest
// values; when none fails alone, the smallest failing combination is found from the highest corner by
// lowering one axis at a time (each a binary search), so that lowering any one axis by a step passes.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bisect/axis.h"
#include "bisect/probe.h"

namespace td::bisect {

struct SearchOptions {
  bool scanResidues = false;  // probe a window of consecutive aligned values and look for a period
  int residueWindow = 16;
  std::function<void(const std::string&)> onInterval;  // "M in (1856, 1984]" as a bracket narrows
};

// A failure that repeats with a period along an axis: it fails where value mod modulus is in residues.
struct ResiduePattern {
  std::vector<int64_t> values;   // the window probed
  std::vector<bool> fails;
  int64_t modulus = 0;           // 0: no period found in the window
  std::vector<int64_t> residues; // failing residues mod modulus
};

struct AxisResult {
  enum class Kind { Threshold, FailsAtLowest, NoFailure };
  size_t axis = 0;
  Shape held;                    // the other axes' values (this axis's entry is unused)
  Kind kind = Kind::NoFailure;
  int64_t lastPass = 0, firstFail = 0;  // Threshold: passes at lastPass, fails at firstFail
  std::vector<int64_t> probedPassing;   // NoFailure: the values probed
  // Non-monotone evidence: (failing value, a passing value above it).
  std::vector<std::pair<int64_t, int64_t>> contradictions;
  std::optional<ResiduePattern> residues;
  int probes = 0;                // probes this axis's search made (a shape seen before is not probed again)
};

struct ProbeRecord {
  Shape shape;
  ProbeOutcome outcome;
  std::string stage;             // "axis M", "corner", "combination", "residues M"
};

struct SearchResult {
  std::vector<AxisResult> axes;
  // The failure the report explains: a failing shape and the passing shape beside it (one aligned step
  // lower along one axis), when there is one. Absent when no probe failed.
  std::optional<Shape> failing, passing;
  std::string decidedBy;         // the axis whose step separates passing from failing
  bool combination = false;      // failing came from the combination search (no axis failed alone)
  bool lowestFails = false;      // the shape of every lowest value fails already
  std::vector<ProbeRecord> probes;  // every probe, in the order made
  std::optional<ProbeRecord> stoppedBy;  // a probe that could not be judged (bad input at that shape, ...)
  bool monotone() const;
  const ProbeRecord* record(const Shape& s) const;
};

SearchResult search(const std::vector<Axis>& axes, Prober& prober, const SearchOptions& opts);

// The smallest period of a pass/fail sequence (2 .. size/2) that is not constant; 0 when none.
int64_t periodOf(const std::vector<bool>& fails);

}  // namespace td::bisect
