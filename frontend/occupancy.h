// Occupancy of one launch on one target: how many blocks an SM (a CU on MetaX) holds by each resource —
// threads (warps), blocks, shared memory, registers — the least of them, the resource that sets it, and
// what would let one more block in. The rules are the CUDA occupancy calculator's: registers allocated per
// warp in units (256 on NVIDIA), shared memory per block rounded up to its unit (128 bytes) plus the 1 KB
// the runtime reserves per block (compute capability 8.0 on); a profile that does not know a value leaves
// that resource out and says so.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "frontend/profile.h"

namespace td {

struct LaunchResources {
  int64_t threadsPerBlock = 0;
  int64_t sharedPerBlock = 0;     // static + dynamic, bytes
  int64_t registersPerThread = 0; // 0: not known (no figure from a compiler for this target)
};

struct ResourceLimit {
  std::string resource;  // "warps", "blocks", "shared memory", "registers"
  int64_t blocks = 0;    // blocks per SM this resource allows
  std::string detail;    // "65536 of 65536 bytes per CU: 49152 + 0 reserved a block"
};

struct Occupancy {
  int64_t blocksPerSm = 0;              // the least over the resources known
  int64_t warpsPerBlock = 0, activeWarps = 0, maxWarps = 0;
  double occupancy = 0;                 // active warps / maximum warps
  std::vector<ResourceLimit> limits;    // each resource counted
  std::vector<std::string> limiting;    // the resources that allow exactly blocksPerSm
  std::vector<std::string> notCounted;  // resources the profile or the compiler did not give
  std::string toRaise;                  // what lets one more block in (or why none can)
};

Occupancy occupancyOf(const LaunchResources& launch, const Profile& target);

}  // namespace td
