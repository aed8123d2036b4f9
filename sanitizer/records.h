// Reading the device runtime's records (runtime/abi.h) back into the finding model: the thread a record
// names, and the distinct threads of a group of records.
#pragma once
#include <cstdint>
#include <vector>

#include "runtime/abi.h"
#include "sanitizer/finding.h"

namespace td {

ThreadRef recordThread(const td_record& r);
uint64_t threadOrder(const ThreadRef& t);  // block-major, then thread: the order a run meets them in

// Sorts `recs` by thread and returns their threads, each once.
std::vector<ThreadRef> distinctThreads(std::vector<const td_record*>& recs);

}  // namespace td
