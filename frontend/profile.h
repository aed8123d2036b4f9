// Target profiles: the limits and rates of a GPU, read from profiles/*.toml.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace td {

struct Profile {
  std::string name, vendor, arch, file;
  int warpSize = 32;
  int64_t sharedPerBlock = 0, sharedPerSm = 0;
  int64_t threadsPerBlock = 0, threadsPerSm = 0;
  int64_t gridMax[3] = {0, 0, 0};   // blocks per grid dimension (x, y, z)
  int64_t blockMax[3] = {0, 0, 0};  // threads per block dimension
  int64_t registersPerSm = 0, smCount = 0;
  int64_t privatePerThread = 0;  // private (local) memory a thread may use; 0: not known, not checked
  // Threads per block a kernel without __launch_bounds__ is compiled for; 0: threadsPerBlock (CUDA's rule)
  int64_t defaultLaunchBounds = 0;
  std::vector<std::string> unsupported;  // hardware features it lacks (instrument/target_features.h names them)
  std::vector<std::string> ignores;      // statements it does not execute (instrument/target_semantics.h names them)
  // Occupancy (frontend/occupancy.h); 0 where the profile does not know it:
  int64_t blocksPerSm = 0;              // resident blocks per SM (CU)
  int64_t reservedSharedPerBlock = 0;   // shared memory the runtime keeps per block (1 KB on NVIDIA sm_80 on)
  int64_t sharedAllocUnit = 0;          // shared memory per block is rounded up to this
  int64_t registerAllocUnit = 0;        // registers per warp are rounded up to this
  int64_t registersPerBlock = 0;        // the registers one block may have (its warps' allocations); 0: not known
  int64_t memoryBytes = 0;
  double bandwidthGBs = 0, fp16Tflops = 0;
};

constexpr const char* kDefaultTarget = "nvidia-h200";

// Hardware features a profile may list as `unsupported` (instrument/target_features finds their use):
// "tma", "wgmma", "mbarrier", "cluster", "fp16-accumulate-mma".
const std::vector<std::string>& hardwareFeatureNames();
// Statements a profile may list as `ignores` (instrument/target_semantics drops them): "partial-barrier".
const std::vector<std::string>& targetSemanticsNames();

// The folder holding the profiles: $TILE_DOCTOR_PROFILES, else next to the executable, else the source tree.
std::string profilesDir();
std::vector<Profile> loadAllProfiles();
Profile loadProfile(const std::string& name);  // throws InputError listing the known names

}  // namespace td
