// Race, initialisation and barrier checks (families "race", "init", "sync"): every access to shared memory or to a
// kernel argument's buffer calls the device runtime's __td_race_shared / __td_race_global before it
// happens, and every synchronising operation calls __td_sync_release before and __td_sync_passed after
// it. The runtime keeps a shadow per 4 bytes (last writer, last reader, the synchronisation counts they
// saw) and reports read-after-write, write-after-read and write-after-write between threads nothing
// orders, and reads of bytes no thread wrote in this launch (shared memory; init = "uninit" buffers).
// For "sync", every full-block barrier calls __td_barrier_wait before it and the kernel's returns call
// __td_thread_exit: threads of one barrier generation at different sites, or exiting while others wait;
// and every 32-bit shift by a computed amount calls __td_lane_shift (`1u << lane` past lane 31).
// Both executors run it; they provide only the shadow memory and the counters.
#pragma once
#include <llvm/IR/PassManager.h>

#include "model/site_table.h"

namespace td {

class RacePass : public llvm::PassInfoMixin<RacePass> {
 public:
  RacePass(SiteTable& table, bool race, bool init, bool sync) : table_(table), race_(race), init_(init), sync_(sync) {}
  llvm::PreservedAnalyses run(llvm::Module& m, llvm::ModuleAnalysisManager&);

 private:
  void hookAccesses(llvm::Module& m);
  void hookSynchronisation(llvm::Module& m);
  void hookLaneShifts(llvm::Module& m);
  SiteTable& table_;
  bool race_, init_, sync_;
};

}  // namespace td
