// The finding model every checker produces and every reporter prints.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/site_table.h"
#include "model/launch.h"

namespace td {

struct Finding {
  std::string kind;          // the id of a rule (model/rules.h): rule::GlobalOutOfBounds, ...
  std::string title;         // one line: what happened, with the numbers that matter
  SourceLoc loc;             // empty file when no source place applies
  SourceLoc partner;         // races: the other access's place
  // Further places and what each is ("stored at": where a drifting accumulator's value is stored).
  std::vector<std::pair<std::string, SourceLoc>> related;
  std::string buffer;        // buffer or shared array name, when one is involved
  std::vector<int64_t> coords;
  int64_t element = 0;       // linear element index (may lie outside the buffer)
  int64_t byteOffset = 0;
  std::string access;        // "read", "write", "atomic" or ""
  unsigned width = 0;        // access width in bytes
  uint64_t count = 1;        // times it happened (once for a limit, a stop, a hang)
  std::vector<ThreadRef> threads;  // first threads that hit it; the first is the one the title names
  // How convincing the pair the title names is, for a race (2: the partner's site known, +1: two warps or
  // blocks); findings merged from one source site keep the most convincing title.
  int pairRank = 0;
  std::vector<std::string> notes;  // further lines of explanation
  bool fatal = false;        // the kernel crashed or hung (exit code 3)
  std::string suppressedBy;  // suppressed (Report::suppressed): "FILE:LINE" of the suppression
  std::string baselineState; // with --baseline: "new" (in findings) or "unchanged" (Report::baselined)
};

// A finding's identity across runs: its kind, each source place (the access, and a race's other access)
// and its buffer. Equal fingerprints are the same problem seen again (a later --repeat run; later:
// suppressions, baselines, history); counts, threads and coordinates may differ between them.
std::string fingerprint(const Finding& f);

// The same identity as it survives a move to another checkout or machine (what suppressions, baselines,
// the run history and SARIF's partialFingerprints use): paths relative to the working folder where they
// lie inside it, and for a script's kernel (generated into a temporary folder) the Python line and the
// generated file's name instead of its path. Its 16 hex digits are the finding's id in reports.
std::string stableFingerprint(const Finding& f);
std::string findingId(const Finding& f);
// A path relative to the working folder when it lies inside it, else absolute.
std::string portablePath(const std::string& path);

struct Report {
  std::string kernel, bundle, target, executor, device;
  std::array<int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  int64_t dynamicShared = 0, staticShared = 0;
  int64_t targetDynamicShared = -1;  // what the target's own lowering allocates, where the source is a stand-in
  std::vector<Finding> findings;
  // Findings taken out of `findings` (they no longer count for the exit code), still reported as such:
  std::vector<Finding> suppressed;  // by --suppressions
  std::vector<Finding> baselined;   // by --baseline: seen in the baseline run already
  std::vector<Finding> benign;      // kinds benign as a rule (Rule::reportedWith), without the setting that reports them
  uint64_t recordsDropped = 0;
  bool launched = false;
  uint64_t blocksRun = 0, blocksTotal = 0;
  int repeats = 1;            // --repeat: runs whose outputs were compared
  std::string blocksNote;     // --blocks: how the blocks that ran were chosen ("" = all)
  std::vector<std::string> unchecked;  // what the checks could not see in this kernel (SiteTable::unchecked)
  double compileSeconds = 0, runSeconds = 0;
  double kernelMsMedian = 0;  // --timing-launches (CUDA executor)
  int exitCode() const;      // 0 clean, 1 findings, 3 crash or hang
};

std::string coordText(const std::string& name, const std::vector<int64_t>& coords);  // "C[259, 3]"
// Row-major coordinates of a linear element index; the outermost may run past its extent.
std::vector<int64_t> unravel(int64_t index, const std::vector<int64_t>& shape);
std::string threadText(const ThreadRef& t);
// Thread `linearId` of the block `sameBlockAs` is in, for a block of `blockDims` threads.
ThreadRef threadOfLinearId(const ThreadRef& sameBlockAs, uint64_t linearId, const std::array<int64_t, 3>& blockDims);  // "thread (3,0,0) of block (4,1,0)"
// Thread `threadLinear` of block `blockLinear` (x fastest), as the device runtime numbers them.
ThreadRef threadOfLinearIds(uint64_t blockLinear, uint64_t threadLinear, const std::array<int64_t, 3>& gridDims,
                            const std::array<int64_t, 3>& blockDims);

}  // namespace td
