// The maximum threads per block a kernel was compiled for: __launch_bounds__(N), which clang records as
// nvvm.annotations maxntid{x,y,z}. A target whose compiler picks a smaller default than its hardware limit
// (MACA: 512) needs to know whether the kernel said.
#pragma once
#include <cstdint>

#include "model/site_table.h"

namespace llvm {
class Function;
}

namespace td {

struct LaunchBounds {
  int64_t maxThreads = 0;  // 0: the kernel has no __launch_bounds__
  SourceLoc kernel;        // where the kernel is defined (definitionLocation)
};

LaunchBounds launchBoundsOf(const llvm::Function& kernel);

}  // namespace td
