#include "model/records.h"

#include <algorithm>
#include <cstring>

namespace td {

ThreadRef recordThread(const td_record& r) {
  ThreadRef t;
  std::memcpy(t.block, r.block, sizeof t.block);
  std::memcpy(t.thread, r.thread, sizeof t.thread);
  return t;
}

uint64_t threadOrder(const ThreadRef& t) {
  return ((uint64_t(t.block[2]) << 42) | (uint64_t(t.block[1]) << 28) | (uint64_t(t.block[0]) << 14)) * 1024 +
         (t.thread[2] * 1024 + t.thread[1]) * 1024 + t.thread[0];
}

std::vector<ThreadRef> distinctThreads(std::vector<const td_record*>& recs) {
  std::sort(recs.begin(), recs.end(), [](const td_record* x, const td_record* y) {
    return threadOrder(recordThread(*x)) < threadOrder(recordThread(*y));
  });
  std::vector<ThreadRef> threads;
  for (const td_record* r : recs) {
    ThreadRef t = recordThread(*r);
    if (threads.empty() || threadOrder(threads.back()) != threadOrder(t)) threads.push_back(t);
  }
  return threads;
}

}  // namespace td
