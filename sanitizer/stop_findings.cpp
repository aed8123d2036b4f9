#include "sanitizer/stop_findings.h"
#include "model/rules.h"

#include <fmt/format.h>

namespace td {

bool isStopKind(unsigned kind) { return kind == TD_KIND_DEVICE_ASSERT || kind == TD_KIND_TRAP; }

Finding stopFinding(unsigned kind, unsigned site, const std::vector<ThreadRef>& threads, uint64_t count,
                    const SiteTable& sites) {
  Finding f;
  const Site& s = sites.sites[site];
  bool assertion = kind == TD_KIND_DEVICE_ASSERT;
  f.kind = assertion ? rule::DeviceAssert : rule::DeviceTrap;
  f.loc = s.loc;
  f.count = count;
  f.threads = threads;
  f.fatal = true;
  std::string who = threads.empty() ? "a thread" : threadText(threads.front());
  f.title = assertion ? fmt::format("{} failed in {}: the kernel stopped", s.what, who)
                      : fmt::format("{} reached in {}: the kernel stopped", s.what, who);
  f.notes.push_back(assertion ? "on the GPU the launch ends with cudaErrorAssert (device-side assert triggered) and "
                                "the context cannot be used again"
                              : "on the GPU the launch ends with cudaErrorLaunchFailure (an illegal instruction) and "
                                "the context cannot be used again");
  if (count > threads.size())
    f.notes.push_back(fmt::format("{} threads got there before the kernel stopped", count));
  // CUTLASS compiles this assert where an instruction is not available for the architecture compiled for
  // (fp8 mma.sync below sm_89): the kernel is right, the lowering's architecture is not.
  if (assertion && s.what.find("Attempting to use SM") != std::string::npos && s.what.find("_ENABLED") != std::string::npos)
    f.notes.push_back("CUTLASS's guard for an instruction the compiled architecture lacks: a TileLang script's kernels are "
                      "lowered for --tilelang-arch (default sm_80); give the architecture the instruction needs "
                      "(--tilelang-arch sm_89 or sm_90 for fp8)");
  return f;
}

}  // namespace td
