// Hardware features a kernel uses that not every target has: Hopper's TMA copies and warpgroup MMA,
// mbarriers, thread-block clusters, MMA with fp16 accumulators. Found in the compiled kernel before
// instrumentation (inline PTX and NVVM intrinsics, and TMA descriptor arguments); the launch family
// reports those the target's profile lists as unsupported (MetaX: all of them) before anything runs.
#pragma once
#include <string>
#include <vector>

#include "frontend/manifest.h"
#include "model/site_table.h"

namespace llvm {
class Module;
}

namespace td {

struct FeatureUse {
  std::string feature;  // one of hardwareFeatureNames() (frontend/profile.h)
  std::string what;     // the statement or intrinsic that uses it
  SourceLoc loc;        // its first use in the source (empty file: a TMA descriptor argument)
};

// The first use of each feature in the module (the bundle's entry only, after keepOnlyEntry).
std::vector<FeatureUse> hardwareFeaturesUsed(const llvm::Module& m, const Bundle& b);

}  // namespace td
