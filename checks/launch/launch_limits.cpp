#include "checks/launch/launch_limits.h"
#include "model/rules.h"

#include <algorithm>
#include <fmt/format.h>

namespace td {

namespace {

const char* featureText(const std::string& feature) {
  if (feature == "tma") return "a Hopper TMA copy";
  if (feature == "wgmma") return "Hopper warpgroup MMA";
  if (feature == "mbarrier") return "an mbarrier";
  if (feature == "cluster") return "a thread-block cluster";
  return "an MMA with fp16 accumulators";
}

// What to do instead, on the targets that lack it (MetaX: ../shared/research/metax-tilelang.md §2.3, §3.1).
const char* featureCure(const std::string& feature) {
  if (feature == "tma")
    return "MetaX has no TMA engine (tilelang-metax: have_tma() is False): lower for a GPU without TMA "
           "(TileLang: --tilelang-arch sm_80) so tiles are copied with loads or cp.async";
  if (feature == "wgmma") return "no warpgroup MMA there: lower for sm_80's mma forms (MACA: __builtin_mxc_mma_16x16x16*)";
  if (feature == "mbarrier")
    return "no mbarrier there (tilelang-metax: T.alloc_barrier fails, issue #98): order the stages with "
           "__syncthreads";
  if (feature == "cluster")
    return "no thread-block clusters there (a cluster launch fails with mcErrorInvalidConfiguration)";
  return "MetaX's MMA accumulates in fp32 only: accumulate in float (T.gemm with an fp32 C fragment)";
}

}  // namespace

std::vector<Finding> checkLaunchLimits(const Bundle& b, const Profile& p, uint64_t staticSharedBytes,
                                       const PrivateMemory& pm, const std::vector<FeatureUse>& features,
                                       const std::optional<RegisterUse>& registers) {
  std::vector<Finding> out;
  bool standIn = b.targetShared >= 0;  // the source is a stand-in; the target's lowering allocates targetShared
  int64_t dynamic = standIn ? b.targetShared : b.dynamicShared;
  uint64_t shared = staticSharedBytes + static_cast<uint64_t>(dynamic);
  SourceLoc at{b.manifestPath, static_cast<unsigned>(b.entryLine), 0, b.entry};
  if (shared > static_cast<uint64_t>(p.sharedPerBlock)) {
    Finding f;
    at.line = static_cast<unsigned>(standIn ? b.targetSharedLine : b.dynamicShared > 0 ? b.sharedLine : b.entryLine);
    f.kind = rule::SharedMemoryLimit;
    f.title = fmt::format("{} bytes of shared memory per block requested; {} allows {}", shared, p.name, p.sharedPerBlock);
    f.loc = at;
    f.notes.push_back(fmt::format("static __shared__ arrays: {} bytes; dynamic ({}): {} bytes", staticSharedBytes,
                                  standIn ? "launch.shared_on_target" : "launch.shared", dynamic));
    if (standIn && b.targetShared != b.dynamicShared)
      f.notes.push_back(fmt::format("the target's own lowering allocates {} bytes of dynamic shared memory (a software "
                                    "pipeline keeps one buffer per stage); the stand-in source lowered here for the "
                                    "same wave size allocates {}", b.targetShared, b.dynamicShared));
    f.notes.push_back(fmt::format("{} bytes over the limit; the launch was not run", shared - p.sharedPerBlock));
    out.push_back(f);
  }
  static const char axis[3] = {'x', 'y', 'z'};
  int64_t threads = b.threadsPerBlock();
  for (int d = 0; d < 3; ++d) {
    for (bool grid : {true, false}) {
      int64_t have = grid ? b.grid[d] : b.block[d], most = grid ? p.gridMax[d] : p.blockMax[d];
      if (have <= most || (!grid && threads > p.threadsPerBlock)) continue;  // the total says it already
      Finding f;
      f.kind = grid ? rule::GridLimit : rule::ThreadsPerBlockLimit;
      f.title = fmt::format("{}.{} = {} requested; {} allows {} {} in {}", grid ? "grid" : "block", axis[d], have, p.name,
                            most, grid ? "blocks" : "threads", axis[d]);
      f.loc = at;
      f.notes.push_back("the launch was not run");
      out.push_back(f);
    }
  }
  if (threads > p.threadsPerBlock) {
    Finding f;
    f.kind = rule::ThreadsPerBlockLimit;
    f.title = fmt::format("{} threads per block requested ({}x{}x{}); {} allows {}", threads, b.block[0], b.block[1],
                          b.block[2], p.name, p.threadsPerBlock);
    f.loc = at;
    f.notes.push_back("the launch was not run");
    out.push_back(f);
  }
  if (p.privatePerThread > 0 && pm.bytes > static_cast<uint64_t>(p.privatePerThread)) {
    Finding f;
    f.kind = rule::PrivateMemoryLimit;
    f.title = fmt::format("{} bytes of private (local) memory per thread in the compiled kernel; {} allows {}", pm.bytes,
                          p.name, p.privatePerThread);
    f.loc = pm.largest.file.empty() ? at : pm.largest;
    if (!pm.largest.file.empty())
      f.notes.push_back(fmt::format("the largest, {} bytes, is the thread's array used first here: indexed at run "
                                    "time, the compiler keeps it in memory, not registers",
                                    pm.largestBytes));
    f.notes.push_back("counted from the optimised kernel's stack arrays; the target compiler's spills come on top");
    f.notes.push_back("the launch was not run");
    out.push_back(f);
  }
  if (registers && p.registersPerBlock > 0 && registers->perBlock > p.registersPerBlock) {
    Finding f;
    f.kind = rule::RegisterLimit;
    f.title = fmt::format("{} registers a thread x {} threads = {} registers per block (allocated per warp); {} allows {}",
                          registers->perThread, threads, registers->perBlock, p.name, p.registersPerBlock);
    f.loc = registers->kernel.file.empty() ? at : registers->kernel;
    f.notes.push_back(fmt::format("counted by {} on the kernel as written: without __launch_bounds__ the assembler "
                                  "may use up to 255 registers a thread; the driver refuses such a launch "
                                  "(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)",
                                  registers->source));
    f.notes.push_back(fmt::format("__launch_bounds__({}) on the kernel keeps it within {} registers a thread", threads,
                                  p.registersPerBlock / std::max<int64_t>(threads, 1)));
    f.notes.push_back("the launch was not run");
    out.push_back(f);
  }
  for (const FeatureUse& use : features) {
    if (std::find(p.unsupported.begin(), p.unsupported.end(), use.feature) == p.unsupported.end()) continue;
    Finding f;
    f.kind = rule::TargetUnsupported;
    f.title = fmt::format("{} ({}) does not exist on {}: the kernel cannot run there", use.what, featureText(use.feature),
                          p.name);
    f.loc = use.loc.file.empty() ? at : use.loc;
    f.notes.push_back(featureCure(use.feature));
    f.notes.push_back("the launch was not run");
    out.push_back(f);
  }
  return out;
}

std::optional<Finding> checkDefaultLaunchBounds(const Bundle& b, const Profile& p, const LaunchBounds& bounds) {
  int64_t threads = b.threadsPerBlock();
  if (p.defaultLaunchBounds <= 0 || bounds.maxThreads > 0 || threads <= p.defaultLaunchBounds) return std::nullopt;
  Finding f;
  f.kind = rule::LaunchBoundsDefault;
  f.title = fmt::format("kernel {} has no __launch_bounds__: {} compiles it for at most {} threads per block, and it is "
                        "launched with {}",
                        b.entry, p.name, p.defaultLaunchBounds, threads);
  f.loc = bounds.kernel.file.empty() ? SourceLoc{b.manifestPath, static_cast<unsigned>(b.entryLine), 0, b.entry}
                                     : bounds.kernel;
  f.notes.push_back(fmt::format("MACA builds a kernel without __launch_bounds__ for {} threads (mcFuncGetAttributes: "
                                "maxThreadsPerBlock {}) and recompiles it for a larger block at its first launch; "
                                "__launch_bounds__({}) on the kernel avoids that",
                                p.defaultLaunchBounds, p.defaultLaunchBounds, threads));
  f.notes.push_back("the launch ran and was checked as launched");
  return f;
}

}  // namespace td
