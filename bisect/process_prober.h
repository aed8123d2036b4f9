// Probes as processes: each shape is `tile-doctor check INPUT [check options] --format json` in a child
// of its own (a crash, a hang or a poisoned CUDA context stays in that process), with the axes as
// `--param NAME=VALUE` for a bundle or substituted for `{NAME}` in a script's arguments. A watchdog kills
// a probe that outlives its own --timeout and compile limit by a margin. Outcomes go to the probe cache.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "bisect/fail_condition.h"
#include "bisect/probe.h"
#include "bisect/probe_cache.h"

namespace td::bisect {

struct ProbeSetup {
  std::string tool;                     // tile-doctor's executable
  std::string input;                    // bundle manifest or script
  bool script = false;
  std::vector<std::string> checkOptions;  // passed to every probe's check as given
  std::vector<std::string> scriptArgs;    // with {NAME} for the axes
  std::vector<Axis> axes;
  FailCondition failOn;
  int parallel = 1;                     // probes at once
  int workerThreads = 0;                // --jobs of each probe's check (0: its default)
  int confirm = 1;                      // runs per probe
  double watchdogSeconds = 600;
  int maxProbes = 0;                    // shapes run before the search stops as interrupted (0: no limit)
};

class ProcessProber : public Prober {
 public:
  // The cache key of every probe names `inputIdentity` (bisect/input_identity.h) and the probe's command.
  ProcessProber(ProbeSetup setup, ProbeCache& cache, std::string inputIdentity);
  std::vector<ProbeOutcome> probe(const std::vector<Shape>& shapes) override;
  int parallel() const override { return setup_.parallel; }
  // Called as probes start and end (progress on a terminal).
  std::function<void(const Shape&, const ProbeOutcome*)> onProgress;
  // The check's command line for a shape (its report path left out), as the report shows it.
  std::vector<std::string> command(const Shape& shape, const std::string& reportPath) const;
  int ran() const { return shapesRun_; }  // shapes run (not taken from the cache)
  int cacheWritesLost() const { return lost_; }

 private:
  std::string keyOf(const Shape& shape) const;
  std::vector<ProbeOutcome> runOnce(const std::vector<Shape>& shapes);

  ProbeSetup setup_;
  ProbeCache& cache_;
  std::string identity_;
  int shapesRun_ = 0, lost_ = 0;
};

// `args` with every {NAME} of an axis replaced by its value in `shape`.
std::vector<std::string> substituteAxes(const std::vector<std::string>& args, const std::vector<Axis>& axes,
                                        const Shape& shape);

}  // namespace td::bisect
