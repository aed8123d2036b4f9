// Reading the device runtime's records (model/abi.h) back into the finding model: the thread a record
// names, and the distinct threads of a group of records.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "model/abi.h"
#include "model/finding.h"

namespace td {

// One site's records of one kind, as a family's decoder gets them (Family::decode): the records kept (at
// most TD_RECORDS_PER_SITE per site and kind; none when the channel was full), their threads in run
// order, and how often it happened in all.
struct RecordGroup {
  unsigned kind = 0, site = 0;
  std::vector<const td_record*> records;
  std::vector<ThreadRef> threads;
  uint64_t hits = 0;
};

ThreadRef recordThread(const td_record& r);

// A record's payload as its kind's struct (model/abi.h names it per kind), as the device runtime wrote it.
template <class Payload>
Payload payloadOf(const td_record& r) {
  static_assert(sizeof(Payload) <= sizeof r.payload, "a record's payload is at most TD_PAYLOAD_BYTES bytes");
  Payload p;
  std::memcpy(&p, r.payload, sizeof p);
  return p;
}
uint64_t threadOrder(const ThreadRef& t);  // block-major, then thread: the order a run meets them in

// Sorts `recs` by thread and returns their threads, each once.
std::vector<ThreadRef> distinctThreads(std::vector<const td_record*>& recs);

}  // namespace td
