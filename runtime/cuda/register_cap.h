// Registers of a checked kernel, capped so that as many of its blocks share an SM as of the kernel as written.
// The checks' state (a store run's tally, a barrier's bookkeeping) raises a kernel's registers past an
// occupancy step, and a latency-bound kernel loses more with the blocks that no longer fit than ptxas's spills
// of that mostly idle state cost (the block reduction with every check on an H200: 94 registers, 2 blocks of
// 256 threads an SM, 46.6x native; capped at 64, 4 blocks, 29.3x). A kernel with a register maximum of its own
// keeps it; one with __launch_bounds__' minimum of blocks gets at least those (the kernel as written has them).
#pragma once
#include <cstdint>
#include <string>

#include "frontend/profile.h"

namespace llvm {
class Module;
}

namespace td::cuda {

struct KernelResources {
  int64_t registers = 0;       // per thread
  int64_t sharedPerBlock = 0;  // static and dynamic, bytes
};

// The most registers a thread of the checked kernel may take and still let as many of its blocks onto an SM
// as of the kernel as written, as far as the checked kernel's own shared memory (`checkedSharedPerBlock`)
// lets that many in; never fewer than the kernel as written takes. 0: no cap needed (a thread's most fits).
// `sm`: the device's occupancy figures (profiler/occupancy.h).
int64_t registerCap(const KernelResources& asWritten, int64_t checkedSharedPerBlock, int64_t threadsPerBlock,
                    const Profile& sm);

// Asks the NVPTX back end for at most `cap` registers a thread of `entry` (nvvm.annotations maxnreg: PTX's
// .maxnreg, which ptxas keeps beside .maxntid and .minnctapersm). False, and nothing done, where the kernel has
// a register maximum of its own.
bool capRegisters(llvm::Module& m, const std::string& entry, int64_t cap);

}  // namespace td::cuda
