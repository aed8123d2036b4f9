// PTX of instrumented kernels, kept between runs: LLVM's optimisation and NVPTX back end are what a repeated
// GPU check of an unchanged kernel paid beyond the driver, whose own cache keeps the cubin. The module carries
// no address of the run (address_constants.h), so its bitcode, with the architecture, the launch shape, the
// address symbols the back end moves to constants, libdevice's stamp and tile-doctor's identity, is the key.
// Entries live in cacheDir()/ptx, sealed as every cache entry is (frontend/cache_files.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace td::cuda {

// The entry name of module `m`'s PTX; "" when the cache is off (or TILE_DOCTOR_DUMP_PTX asks for the back end).
std::string ptxKey(const llvm::Module& m, const std::string& arch, const int64_t* grid, const int64_t* block,
                   const std::vector<std::string>& addressSymbols);

// The PTX stored under `key`, or nullopt.
std::optional<std::string> loadPtx(const std::string& key);

// Stores `ptx` under `key` (a cache that cannot be written only costs time).
void storePtx(const std::string& key, const std::string& ptx);

}  // namespace td::cuda
