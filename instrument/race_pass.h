// Shared-memory race and initialisation checks (families "race" and "init"): every access to shared
// memory calls the device runtime's __td_race_shared before it happens; the runtime keeps a shadow word
// per 4 bytes of the block's shared window (last writer, last reader, the barrier epochs they were in)
// and reports read-after-write, write-after-read and write-after-write between threads with no barrier
// between them, and reads of bytes no thread wrote in this launch. CPU executor (the epochs and the
// shadow are its primitives).
#pragma once
#include <llvm/IR/PassManager.h>

#include "instrument/site_table.h"

namespace td {

class SharedRacePass : public llvm::PassInfoMixin<SharedRacePass> {
 public:
  SharedRacePass(SiteTable& table, bool race, bool init) : table_(table), race_(race), init_(init) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  SiteTable& table_;
  bool race_, init_;
};

}  // namespace td
