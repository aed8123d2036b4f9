// The inputs of one `check`: files, folders and glob patterns as the user gave them, expanded into a sorted
// list of bundle manifests and scripts, and the part of it one shard takes (--shard I/N).
#pragma once
#include <string>
#include <vector>

namespace td::cli {

// A file as it is; a folder: every bundle manifest under it (a .toml with a [kernel] table), scripts only
// when named; a pattern (*, ?, [..], ** for any folders): the files it matches. Sorted, each once.
// InputError for an argument that names nothing.
std::vector<std::string> expandInputs(const std::vector<std::string>& args);

// "I/N" (1 <= I <= N): every N-th input from the I-th on, of the sorted list; InputError for a bad one.
std::vector<std::string> shardOf(const std::vector<std::string>& inputs, const std::string& shard, int* skipped);

}  // namespace td::cli
