// The record channel lives in memory the kernel's process shares: tile-doctor reads it back trusting
// nothing there (issue 32). A capacity or cursor the kernel rewrote never makes it read past the mapping; a
// changed header says the channel was overwritten; records naming kinds, sites, blocks or threads that
// cannot be are left out and counted; either becomes a records-overwritten finding.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "frontend/manifest.h"
#include "model/site_table.h"
#include "runtime/shared_mapping.h"
#include "sanitizer/collector.h"
#include "model/rules.h"

namespace {

constexpr uint32_t kCapacity = 8;

struct Channel {
  std::vector<uint64_t> storage = std::vector<uint64_t>((sizeof(td_channel) + sizeof(td_record) * kCapacity) / 8 + 1);
  td_channel* get() { return reinterpret_cast<td_channel*>(storage.data()); }
};

td_record recordAt(unsigned kind, unsigned site, unsigned block, unsigned thread) {
  td_record r{};
  r.kind = kind;
  r.site = site;
  r.block[0] = block;
  r.thread[0] = thread;
  return r;
}

td::ChannelSeal sealed(Channel& c) { return td::sealChannel(c.get(), kCapacity, {2, 1, 1}, {32, 1, 1}); }

// The launch's records as tile-doctor reads them back, for a kernel of one site.
td::LaunchOutcome readBack(Channel& c, const td::ChannelSeal& seal) {
  td::LaunchOutcome out;
  uint32_t hits[TD_KIND_COUNT] = {};
  td::readRecords(out, c.get(), seal, hits, 1);
  return out;
}

}  // namespace

TEST(RecordChannel, AnHonestChannelIsReadAsWritten) {
  Channel c;
  td::ChannelSeal seal = sealed(c);
  c.get()->records[0] = recordAt(TD_KIND_GLOBAL_OOB, 0, 1, 31);
  c.get()->cursor = 1;
  td::LaunchOutcome out = readBack(c, seal);
  EXPECT_FALSE(out.channelOverwritten);
  EXPECT_EQ(out.recordsCorrupt, 0u);
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].thread[0], 31u);
}

TEST(RecordChannel, ARewrittenHeaderIsNeverTrusted) {
  Channel c;
  td::ChannelSeal seal = sealed(c);
  // A capacity and cursor far past the mapping: read as the capacity tile-doctor gave, no further.
  c.get()->capacity = 0xFFFFFFFFu;
  c.get()->cursor = 0xFFFFFFF0u;
  td::LaunchOutcome out = readBack(c, seal);
  EXPECT_TRUE(out.channelOverwritten);
  EXPECT_LE(out.records.size() + out.recordsCorrupt, kCapacity);
  // Zeroed whole (the kernel erasing its own findings): the seal is gone with it.
  std::memset(c.get(), 0, sizeof(td_channel));
  td::LaunchOutcome erased = readBack(c, seal);
  EXPECT_TRUE(erased.channelOverwritten);
  td::SiteTable sites;
  sites.sites.resize(1);
  std::vector<td::Finding> findings = td::collectFindings(erased, sites, td::Bundle{});
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, td::rule::RecordsOverwritten);
}

TEST(RecordChannel, RecordsThatCannotBeAreLeftOutAndCounted) {
  Channel c;
  td::ChannelSeal seal = sealed(c);
  c.get()->records[0] = recordAt(TD_KIND_COUNT + 7, 0, 0, 0);     // no such kind
  c.get()->records[1] = recordAt(TD_KIND_GLOBAL_OOB, 5, 0, 0);    // no such site
  c.get()->records[2] = recordAt(TD_KIND_GLOBAL_OOB, 0, 2, 0);    // block past the grid
  c.get()->records[3] = recordAt(TD_KIND_GLOBAL_OOB, 0, 0, 32);   // thread past the block
  c.get()->records[4] = recordAt(TD_KIND_GLOBAL_OOB, 0, 1, 0);    // a real one
  c.get()->cursor = 5;
  td::LaunchOutcome out = readBack(c, seal);
  EXPECT_FALSE(out.channelOverwritten);
  EXPECT_EQ(out.recordsCorrupt, 4u);
  ASSERT_EQ(out.records.size(), 1u);
  EXPECT_EQ(out.records[0].block[0], 1u);
}
