// The rule registry: one entry per finding kind, each with its family and the text a report or SARIF needs;
// fingerprints say when two findings are the same problem.
#include <gtest/gtest.h>
#include <set>

#include "instrument/pipeline.h"
#include "model/finding.h"
#include "model/rules.h"
#include "test_support.h"

using namespace td;

TEST(Rules, EveryKindHasOneRuleWithItsFamilyAndText) {
  std::set<std::string> ids, families = CheckSet::known();
  families.insert({"run", "repeat"});
  for (const Rule& r : allRules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << "two rules for " << r.id;
    EXPECT_TRUE(families.count(r.family)) << r.id << ": family " << r.family;
    EXPECT_GT(std::string(r.shortDescription).size(), 10u) << r.id;
    EXPECT_GT(std::string(r.fullDescription).size(), std::string(r.shortDescription).size()) << r.id;
    EXPECT_GT(std::string(r.help).size(), 10u) << r.id;
    ASSERT_NE(findRule(r.id), nullptr) << r.id;
    EXPECT_STREQ(findRule(r.id)->shortDescription, r.shortDescription) << "one rule per kind";
  }
  EXPECT_GE(ids.size(), 39u) << "model/rules.h's 39 kinds, and those of any family kept in its folder alone";
  EXPECT_EQ(findRule("no-such-kind"), nullptr);
  EXPECT_STREQ(findRule(rule::WarpSizeAssumption)->family, "sync");
  EXPECT_EQ(findRule(rule::WarpSizeAssumption)->severity, Severity::Warning);
  EXPECT_EQ(findRule(rule::BarrierIgnored)->severity, Severity::Warning);
  EXPECT_EQ(findRule(rule::LaunchBoundsDefault)->severity, Severity::Warning);
  // Benign as a rule: set aside unless the race family's own setting asks for them.
  for (const char* sameValue : {rule::SharedRaceSameValue, rule::GlobalRaceSameValue}) {
    ASSERT_NE(findRule(sameValue)->reportedWith, nullptr);
    EXPECT_STREQ(findRule(sameValue)->reportedWith, "strict-races");
  }
  for (const Rule& r : allRules())
    if (r.reportedWith) EXPECT_TRUE(r.id == std::string(rule::SharedRaceSameValue) || r.id == std::string(rule::GlobalRaceSameValue)) << r.id;
}

// Findings a real run makes carry registered kinds (the schema test checks the reports' kinds against
// `tile-doctor rules` for every test bundle).
TEST(Rules, FindingsOfARunAreRegisteredKinds) {
  CheckResult r = test::check(test::example("gemm_edge_bug"), "metax-c500");
  ASSERT_FALSE(r.report.findings.empty());
  for (const Finding& f : r.report.findings) EXPECT_NE(findRule(f.kind), nullptr) << f.kind;
}

TEST(Fingerprints, SameProblemSameFingerprintWhateverTheCountsAndThreads) {
  Finding a;
  a.kind = rule::SharedRaceRaw;
  a.loc = {"k.cu", 12, 5, "k"};
  a.partner = {"k.cu", 9, 3, "k"};
  a.buffer = "tile";
  Finding b = a;
  b.count = 40;
  b.threads.push_back({});
  b.coords = {3, 4};
  EXPECT_EQ(fingerprint(a), fingerprint(b));
  b.partner.line = 10;
  EXPECT_NE(fingerprint(a), fingerprint(b)) << "another racing access is another problem";
  Finding c = a;
  c.buffer = "other";
  EXPECT_NE(fingerprint(a), fingerprint(c));
  c = a;
  c.kind = rule::SharedRaceWar;
  EXPECT_NE(fingerprint(a), fingerprint(c));
}
