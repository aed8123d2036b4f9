// The access hooks of the race and init families: every access to shared memory or to a kernel
// argument's buffer calls the device runtime's __td_race_shared / __td_race_global before it happens,
// once for both checks (the hook's flags say which run). The runtime keeps an access history per 4 bytes (last
// writer, last reader, the synchronisation counts they saw: checks/sync/sync_counting) and reports
// read-after-write, write-after-read and write-after-write between threads nothing orders, and reads of
// bytes no thread wrote in this launch (shared memory; init = "uninit" buffers). Both executors run it.
#pragma once
#include <llvm/IR/Module.h>

#include "model/site_table.h"

namespace td {

struct TrackedChecks {
  bool race = false, init = false;
  // The sync family checks that every thread passes the same barriers: then shared reads no write shares
  // a barrier interval with need no race check (checks/race/barrier_intervals.h).
  bool barriersChecked = false;
};

void hookTrackedAccesses(llvm::Module& m, SiteTable& sites, const TrackedChecks& checks);

}  // namespace td
