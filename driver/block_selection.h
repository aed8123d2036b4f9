// --blocks all | sample:N | LIST: which blocks of the grid the CPU executor runs. A sample is every
// boundary block (a coordinate at 0 or at its maximum: where edge bugs live) plus N others drawn under
// --seed; a LIST names blocks by linear index or as x.y.z. Intra-block checks stay exact on the blocks
// that ran; what spans blocks (none yet) needs all of them.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace td {

struct BlockSelection {
  bool all = true;
  std::vector<uint64_t> blocks;  // linear indices, ascending, when !all
  std::string description;       // for the report: "all", "sample: 28 boundary + 10 random (seed 0)", ...
};

// Throws InputError naming the bad entry.
BlockSelection selectBlocks(const std::string& spec, const std::array<int64_t, 3>& grid, uint64_t seed);

}  // namespace td
