#include "sanitizer/collector.h"

#include "model/family.h"
#include "model/rules.h"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fmt/format.h>
#include <map>

#include "sanitizer/stop_findings.h"
#include "sanitizer/wild_findings.h"
#include "model/records.h"

namespace td {

namespace {

std::string signalName(int s) {
  switch (s) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return fmt::format("signal {}", s);
  }
}

Finding faultFinding(const LaunchOutcome& out, const SiteTable& sites) {
  const FaultInfo& fi = out.fault;
  Finding f;
  f.kind = rule::KernelFault;
  f.fatal = true;
  f.count = 1;
  if (!fi.gpuError.empty()) {
    f.title = fmt::format("the kernel failed on the GPU: {}: {}", fi.gpuError, fi.instruction);
    f.notes.push_back("an access outside every checked buffer (a pointer not derived from a kernel argument); the "
                      "GPU does not say which thread — the CPU executor does");
    f.notes.push_back("records the checks wrote before the fault are reported above");
    return f;
  }
  f.access = fi.access;
  f.width = fi.width;
  std::string what = fi.access.empty() ? "access" : fmt::format("{} of {} bytes", fi.access, fi.width);
  if (fi.signal == SIGILL && fi.instruction.rfind("ud2", 0) == 0) {
    // The host JIT traps where the optimiser proved the code unreachable (runtime/cpu/jit.cpp).
    f.title = "the kernel reached code the compiler proved unreachable: undefined behaviour in the kernel";
    if (fi.hasThread) f.threads.push_back(fi.thread);
    f.notes.push_back("clang found that every path here has undefined behaviour (a variable read before it is written, "
                      "a shift by the type's width or more, a null pointer dereferenced, a missing return) and dropped "
                      "the code after it; on a GPU the kernel would compute garbage or crash");
    if (fi.lastSite < sites.sites.size()) {
      f.loc = sites.sites[fi.lastSite].loc;
      f.notes.push_back("the thread's last instrumented access before it: " + f.loc.str());
    }
    return f;
  }
  if (fi.signal == SIGFPE) f.title = "arithmetic fault (integer division by zero?) in the kernel";
  else f.title = fmt::format("the kernel crashed: {} at address 0x{:x}, outside every buffer the bundle allocated", what,
                             fi.address);
  if (fi.lastSite < sites.sites.size()) f.loc = sites.sites[fi.lastSite].loc;
  if (fi.hasThread) f.threads.push_back(fi.thread);
  f.notes.push_back(fmt::format("{} on host instruction '{}' at 0x{:x}", signalName(fi.signal), fi.instruction, fi.pc));
  if (fi.lastSite < sites.sites.size())
    f.notes.push_back("the faulting thread's last unchecked access (a pointer not derived from a kernel argument) is at " +
                      sites.sites[fi.lastSite].loc.str());
  f.notes.push_back("a wild pointer: the address is not derived from any kernel argument, so no bounds check guards it");
  return f;
}

// A barrier with a thread count (bar.sync id, count) that cannot complete: both sides of it.
std::string countedBarrierNote(const Waiter& w, const SiteTable& sites) {
  std::string text = fmt::format("barrier {} waits for {} threads and {} arrived", w.barrierId, w.expected, w.arrived);
  if (w.arriveSite < sites.sites.size()) {
    const Site& a = sites.sites[w.arriveSite];
    text += fmt::format(", some without waiting ({} at {})", a.what.empty() ? "bar.arrive" : a.what, a.loc.str());
  }
  return text + "; no other thread can arrive (the rest exited or wait elsewhere): is the count wrong?";
}

Finding hangFinding(const LaunchOutcome& out, const SiteTable& sites) {
  Finding f;
  f.fatal = true;
  f.kind = out.status == LaunchOutcome::Deadlocked ? rule::Deadlock : rule::KernelHang;
  if (out.waiters.empty() && !out.message.empty()) {  // the GPU cannot say who waits where
    f.title = out.message;
    f.notes.push_back("run it with --executor cpu to see where each thread waits");
    return f;
  }
  size_t running = 0, waiting = 0;
  std::map<uint32_t, std::vector<ThreadRef>> bySite;
  std::vector<ThreadRef> runnable;
  for (const Waiter& w : out.waiters) {
    if (w.state == Waiter::Running) ++running;
    if (w.state == Waiter::AtBarrier || w.state == Waiter::AtWarpOp) ++waiting;
    if (w.state == Waiter::Runnable) runnable.push_back(w.thread);
    else bySite[w.state == Waiter::Running ? ~0u - 1 : w.site].push_back(w.thread);
  }
  f.count = out.waiters.size();
  size_t n = out.waiters.size();
  auto nThreads = [](size_t k) { return fmt::format("{} thread{}", k, k == 1 ? "" : "s"); };
  if (out.status == LaunchOutcome::Deadlocked)
    f.title = fmt::format("{} wait and none can proceed", nThreads(n));
  else if (running > 0)
    f.title = fmt::format("the kernel did not finish within the timeout: {} never stop{} running; {} other thread{} of {} "
                          "wait", nThreads(running), running == 1 ? "s" : "", n - running, n - running == 1 ? "" : "s",
                          running == 1 ? "its block" : "their blocks");
  else if (waiting == n)  // the GPU's wait board: every thread left in the block is at a barrier
    f.title = fmt::format("the kernel did not finish within the timeout: {} wait at barriers that never complete", nThreads(n));
  else if (waiting == 0)  // none started, or all between barriers: nothing says where it waits
    f.title = fmt::format("the kernel did not finish within the timeout: {} had not finished, none of them at a barrier",
                          nThreads(n));
  else
    f.title = fmt::format("the kernel did not finish within the timeout: {} of {} wait at barriers that never complete, "
                          "the others had not reached one", nThreads(waiting), n);
  for (auto& [site, threads] : bySite) {
    std::string who = fmt::format("{} thread{} (first: {})", threads.size(), threads.size() == 1 ? "" : "s",
                                  threadText(threads.front()));
    if (site == ~0u - 1) {
      const Waiter* spinning = nullptr;
      for (const Waiter& w : out.waiters)
        if (w.state == Waiter::Running) spinning = &w;
      if (spinning && spinning->site < sites.sites.size()) {
        const Site& s = sites.sites[spinning->site];
        f.notes.push_back(fmt::format("{} still running when stopped, last in the {} at {}: a loop that does not end?", who,
                                      s.kind == SiteKind::Loop ? "loop" : "access", s.loc.str()));
        if (f.loc.file.empty()) f.loc = s.loc;
      } else {
        f.notes.push_back(who + " still running when stopped: a loop that does not end?");
      }
    } else if (site < sites.sites.size()) {
      const Site& s = sites.sites[site];
      f.notes.push_back(fmt::format("{} waiting at {} at {}", who, s.what.empty() ? "a barrier" : s.what, s.loc.str()));
      if (f.loc.file.empty()) f.loc = s.loc;
      for (const Waiter& w : out.waiters)
        if (w.state == Waiter::AtBarrier && w.site == site) {
          if (w.expected) f.notes.push_back(countedBarrierNote(w, sites));
          break;
        }
    }
    for (const ThreadRef& t : threads) {
      if (f.threads.size() >= 4) break;
      f.threads.push_back(t);
    }
  }
  if (!runnable.empty())
    f.notes.push_back(fmt::format("{} thread{} (first: {}) had not reached a barrier yet: the CPU executor runs a block's "
                                  "threads in turn, so they wait behind the running one", runnable.size(),
                                  runnable.size() == 1 ? "" : "s", threadText(runnable.front())));
  return f;
}

// A run stopped at --timeout while it still progressed: slow, not hung. How far it got, and what to do.
Finding stillRunningFinding(const LaunchOutcome& out) {
  Finding f;
  f.kind = rule::KernelStillRunning;
  f.fatal = true;
  uint64_t done = out.blocksRun, total = out.blocksToRun;
  f.title = fmt::format("the kernel was still running when --timeout ran out ({:.0f} s): {} of {} blocks done, every "
                        "running block still progressing (a barrier released or a thread finished within {:.1f} s of the stop)",
                        out.seconds, done, total, std::max(out.idleSeconds, 0.1));
  if (done > 0 && total > done) {
    double need = out.seconds * static_cast<double>(total) / static_cast<double>(done);
    f.notes.push_back(fmt::format("at this rate the whole grid needs about {:.0f} s: run it with --timeout {:.0f}, or "
                                  "check a sample of the blocks with --blocks sample:{}",
                                  need, std::ceil(need * 1.5 / 10) * 10, std::max<uint64_t>(1, done / 2)));
  } else {
    f.notes.push_back("no block finished yet: give it more time (--timeout), check a few blocks (--blocks sample:4), or "
                      "make the shape smaller");
  }
  f.notes.push_back("not a hang: a loop that never ends releases no barrier and finishes no thread; this kernel's "
                    "threads kept doing both. Findings above are from the part that ran");
  return f;
}

// The optimiser unrolls and duplicates code, so one source access can be several IR sites: users
// think in source sites, so findings of the same check, place, buffer and access kind become one.
std::vector<Finding> mergeBySourceSite(std::vector<Finding> in) {
  auto key = [](const Finding& f) { return std::tie(f.loc.file, f.loc.line, f.loc.col, f.kind, f.buffer, f.access); };
  std::stable_sort(in.begin(), in.end(), [&](const Finding& a, const Finding& b) { return key(a) < key(b); });
  std::vector<Finding> out;
  for (Finding& f : in) {
    if (!out.empty() && key(out.back()) == key(f)) {
      Finding& m = out.back();
      m.count += f.count;
      // Report the most convincing pair (a race's: RaceFinding's rank), then the access of the lowest thread,
      // as a run in thread order would meet it first.
      bool earlier = !f.threads.empty() &&
                     (m.threads.empty() || f.pairRank > m.pairRank ||
                      (f.pairRank == m.pairRank && threadOrder(f.threads.front()) < threadOrder(m.threads.front())));
      if (earlier) {
        std::swap(m.title, f.title);
        std::swap(m.coords, f.coords);
        std::swap(m.element, f.element);
        std::swap(m.byteOffset, f.byteOffset);
        std::swap(m.pairRank, f.pairRank);
        std::swap(m.threads, f.threads);
      }
      m.threads.insert(m.threads.end(), f.threads.begin(), f.threads.end());
      if (m.threads.empty()) continue;
      ThreadRef named = m.threads.front();  // the title's thread stays first
      std::sort(m.threads.begin() + 1, m.threads.end(), [](auto& a, auto& b) { return threadOrder(a) < threadOrder(b); });
      auto same = [](auto& a, auto& b) { return threadOrder(a) == threadOrder(b); };
      m.threads.erase(std::unique(m.threads.begin() + 1, m.threads.end(), same), m.threads.end());
      m.threads.erase(std::remove_if(m.threads.begin() + 1, m.threads.end(), [&](auto& t) { return same(t, named); }),
                      m.threads.end());
      if (m.threads.size() > TD_RECORDS_PER_SITE) m.threads.resize(TD_RECORDS_PER_SITE);
    } else {
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace

std::vector<Finding> collectFindings(const LaunchOutcome& out, const SiteTable& sites, const Bundle& b,
                                     const FamilySettings& settings) {
  std::map<std::pair<uint32_t, uint32_t>, std::vector<const td_record*>> groups;
  for (const td_record& r : out.records)
    if (r.site < sites.sites.size() && r.kind < TD_KIND_COUNT) groups[{r.site, r.kind}].push_back(&r);
  // A site whose records did not fit the channel still has its count: it is reported without them.
  for (size_t i = 0; i < out.hits.size() && i / TD_KIND_COUNT < sites.sites.size(); ++i)
    if (out.hits[i]) groups[{static_cast<uint32_t>(i / TD_KIND_COUNT), static_cast<uint32_t>(i % TD_KIND_COUNT)}];
  std::vector<Finding> findings;
  bool stopped = false;  // a thread failed an assert or trapped
  for (auto& [key, recs] : groups) {
    auto [site, kind] = key;
    std::vector<ThreadRef> threads = distinctThreads(recs);
    uint64_t hits = out.hits.size() > site * TD_KIND_COUNT + kind ? out.hits[site * TD_KIND_COUNT + kind] : recs.size();
    if (isStopKind(kind)) {
      stopped = true;
      findings.push_back(stopFinding(kind, site, threads, hits, sites));
      continue;
    }
    if (kind == TD_KIND_WILD_ACCESS) {
      findings.push_back(wildAccessFinding(RecordGroup{kind, site, recs, threads, hits}, sites, b));
      continue;
    }
    if (const Family* family = familyOfRecordKind(kind); family && family->decode)
      findings.push_back(family->decode(RecordGroup{kind, site, recs, threads, hits}, sites, b));
  }
  findings = mergeBySourceSite(std::move(findings));
  // A GPU launch an assert or a trap ended fails as a fault: the stop finding already says why.
  if (out.status == LaunchOutcome::Faulted && !stopped) findings.push_back(faultFinding(out, sites));
  if (out.status == LaunchOutcome::Deadlocked || out.status == LaunchOutcome::TimedOut)
    findings.push_back(hangFinding(out, sites));
  if (out.status == LaunchOutcome::Unfinished) findings.push_back(stillRunningFinding(out));
  if (out.status == LaunchOutcome::Crashed || out.status == LaunchOutcome::Rejected) {
    Finding f;
    f.kind = out.status == LaunchOutcome::Crashed ? rule::KernelCrash : rule::LaunchRejected;
    f.fatal = true;
    f.title = out.status == LaunchOutcome::Crashed ? out.message : "the GPU driver refused the launch: " + out.message;
    if (out.status == LaunchOutcome::Rejected) f.notes.push_back("the kernel did not run: nothing of it was checked");
    findings.push_back(f);
  }
  if (out.channelOverwritten || out.recordsCorrupt) {
    Finding f;
    f.kind = rule::RecordsOverwritten;
    f.title = out.channelOverwritten
                  ? "the kernel overwrote the header of tile-doctor's record channel: this launch's findings may be incomplete"
                  : fmt::format("the kernel overwrote {} of tile-doctor's records: they were left out", out.recordsCorrupt);
    if (out.channelOverwritten && out.recordsCorrupt)
      f.notes.push_back(fmt::format("{} records named kinds, sites or threads that cannot be: left out", out.recordsCorrupt));
    f.notes.push_back("a store through an address computed from an integer, or one the checks did not cover, reached "
                      "the checks' own memory");
    findings.push_back(f);
  }
  for (const Family& f : families())  // what families read from their own regions
    if (f.collect) f.collect(out, sites, b, settings, findings);
  return findings;
}

}  // namespace td
