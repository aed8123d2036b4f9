// Registers of a checked kernel, capped so that more of its blocks share an SM: up to as many as of the kernel
// as written. The checks' state (a store run's tally, a barrier's bookkeeping) raises a kernel's registers past
// occupancy steps, and a latency-bound kernel loses more with the blocks that no longer fit than ptxas's spills
// of that mostly idle state cost (the block reduction with every check on an H200: 94 registers, 2 blocks of
// 256 threads an SM, 46.6x native; capped at 64, 4 blocks, 29.3x). A kernel whose own arithmetic needs the
// registers (the GEMM's shadow accumulators) would spill in its loop instead: a cap is kept only where the
// thread's local memory grows by at most kSpillAllowance (capped_load.h tries them loosest first).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/profile.h"

namespace td::cuda {

struct KernelResources {
  int64_t registers = 0;       // per thread
  int64_t sharedPerBlock = 0;  // static and dynamic, bytes
};

// Bytes of local memory per thread a cap may add (ptxas's spill slots): 8 registers' worth. Where the spills
// land is not known from their size: on an H100 the GEMM under numerics capped at 80 (frame +112 bytes) ran
// 3.0x -> 5.3x native at 256 and 3.2x -> 14.0x at 1024 (its shadow accumulators spilled in the loop), while the
// reduction with every check gained at +56 (cap 64: 46.9x -> 29.2x) and at +128 (cap 48: 31.7x). The allowance
// keeps to caps that move little more than cold state, as the GEMM's loop values did not (+112).
constexpr int64_t kSpillAllowance = 32;

// The caps worth trying, loosest first: for each block count from one more than the checked kernel gets
// uncapped up to the kernel as written's (as far as the checked kernel's shared memory lets them in), the most
// registers a thread may take for it (never fewer than the kernel as written takes). Empty: no cap can add a
// block. `sm`: the device's occupancy figures (frontend/occupancy.h).
std::vector<int64_t> registerCaps(const KernelResources& asWritten, const KernelResources& checked,
                                  int64_t threadsPerBlock, const Profile& sm);

// `ptx` with `entry`'s registers capped at `cap` (a .maxnreg directive before its body, which ptxas keeps beside
// .maxntid and .minnctapersm); "" where the entry is not found or has a .maxnreg of its own.
std::string withRegisterCap(const std::string& ptx, const std::string& entry, int64_t cap);

}  // namespace td::cuda
