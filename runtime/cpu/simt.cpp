#include "runtime/cpu/simt.h"
#include "runtime/cpu/warp_ops.h"
#include "runtime/regions.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>
#include <sys/mman.h>

namespace td::cpu {

namespace {

thread_local Worker* tlWorker = nullptr;

constexpr size_t kStackBytes = 256 * 1024;  // per GPU thread; local arrays of register tiles live here
constexpr size_t kGuardBytes = 4096;

// Stacks are carved from one mapping owned by the worker; fibers must not free them.
struct BorrowedStack {
  boost::context::stack_context allocate() { throw std::logic_error("stacks are preallocated"); }
  void deallocate(boost::context::stack_context&) noexcept {}
};


}  // namespace

Worker* Worker::current() { return tlWorker; }

uint32_t Worker::inlinePtxCollective(uint32_t site, uint32_t op, uint32_t param, const uint64_t* in, uint64_t* out) {
  SimThread& me = self();
  me.asmIn = in;
  me.asmOut = out;
  me.asmOp = op;
  me.asmParam = param;
  return warpCollective(site, kInlinePtx, 0, 0xffffffffu, 0, 0, 0);
}

Worker::Worker(const LaunchShape& shape, KernelTrampoline fn, void** args)
    : shape_(shape), fn_(fn), args_(args) {
  nthreads_ = shape.block[0] * shape.block[1] * shape.block[2];
  nwarps_ = (nthreads_ + shape.warpSize - 1) / shape.warpSize;
  threads_.resize(nthreads_);
  warpLive_.assign(nwarps_, 0);
  warpArrived_.assign(nwarps_, 0);
  shared_.assign(shape.sharedBytes + 256, 0);
  layOutRegions();
  stackBytes_ = kStackBytes;
  stackStride_ = kStackBytes + kGuardBytes;
  void* m = mmap(nullptr, stackStride_ * nthreads_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error("cannot map fiber stacks");
  stacks_ = static_cast<char*>(m);
  for (uint32_t t = 0; t < nthreads_; ++t) mprotect(stacks_ + t * stackStride_, kGuardBytes, PROT_NONE);
  tlWorker = this;
}

// Block and thread instances of the regions live in one store, each 16-byte aligned, zeroed when a block
// starts; grid-scope ones are the executor's, shared by every worker.
void Worker::layOutRegions() {
  uint64_t at = 0;
  regionOffset_.assign(shape_.regions.size(), 0);
  for (size_t i = 0; i < shape_.regions.size(); ++i) {
    const td_region& r = shape_.regions[i];
    if (!present(r) || (r.scope != TD_SCOPE_BLOCK && r.scope != TD_SCOPE_THREAD)) continue;
    regionOffset_[i] = at;
    at += r.scope == TD_SCOPE_BLOCK ? roundUp16(r.bytes) : roundUp16(r.bytes) * nthreads_;
  }
  regionStore_.assign(at + 16, 0);
}

void Worker::placeRegions(ThreadCtx& c, uint32_t thread) {
  char* store = regionStore_.data() + ((16 - reinterpret_cast<uintptr_t>(regionStore_.data()) % 16) % 16);
  for (size_t i = 0; i < TD_MAX_REGIONS; ++i) {
    c.region[i] = nullptr;
    if (i >= shape_.regions.size() || !present(shape_.regions[i])) continue;
    const td_region& r = shape_.regions[i];
    if (r.scope == TD_SCOPE_GRID) c.region[i] = reinterpret_cast<void*>(r.base);
    if (r.scope == TD_SCOPE_BLOCK) c.region[i] = store + regionOffset_[i];
    if (r.scope == TD_SCOPE_THREAD) c.region[i] = store + regionOffset_[i] + roundUp16(r.bytes) * thread;
  }
}

Worker::~Worker() {
  if (stacks_) munmap(stacks_, stackStride_ * nthreads_);
  if (tlWorker == this) tlWorker = nullptr;
}

uint64_t Worker::laneMask(uint32_t mask) const {
  if (shape_.warpSize == 64 && mask == 0xffffffffu) return ~0ull;  // a 32-bit "full" mask on wave 64: whole wave
  return mask;
}

bool Worker::runBlock(uint64_t linear) {
  tlWorker = this;
  currentBlock = linear;
  const auto& g = shape_.grid;
  const auto& bd = shape_.block;
  uint32_t bx = static_cast<uint32_t>(linear % g[0]), by = static_cast<uint32_t>((linear / g[0]) % g[1]),
           bz = static_cast<uint32_t>(linear / (uint64_t(g[0]) * g[1]));
  char* shared = shared_.data() + ((16 - reinterpret_cast<uintptr_t>(shared_.data()) % 16) % 16);
  std::memset(shared_.data(), 0, shared_.size());
  live_ = nthreads_;
  barrierArrived_.fill(0);
  barrierExpected_.fill(0);
  arriveSite_.fill(~0u);
  std::fill(warpLive_.begin(), warpLive_.end(), 0);
  std::fill(warpArrived_.begin(), warpArrived_.end(), 0);
  std::memset(regionStore_.data(), 0, regionStore_.size());
  for (uint32_t t = 0; t < nthreads_; ++t) {
    SimThread& th = threads_[t];
    ThreadCtx& c = th.ctx;
    c.tid[0] = t % bd[0];
    c.tid[1] = (t / bd[0]) % bd[1];
    c.tid[2] = t / (bd[0] * bd[1]);
    for (int d = 0; d < 3; ++d) { c.ntid[d] = bd[d]; c.nctaid[d] = g[d]; }
    c.ctaid[0] = bx; c.ctaid[1] = by; c.ctaid[2] = bz;
    c.laneid = t % shape_.warpSize;
    c.warpid = t / shape_.warpSize;
    c.warpsize = shape_.warpSize;
    c.lastSite = ~0u;
    c.sharedBase = shared;
    placeRegions(c, t);
    th.state = ThreadState::Ready;
    th.waitSite = ~0u;
    warpLive_[c.warpid] |= 1ull << c.laneid;
    char* top = stacks_ + t * stackStride_ + stackStride_;
    c.stackLow = top - stackBytes_;
    c.stackHigh = top;
    boost::context::stack_context sctx;
    sctx.size = stackBytes_;
    sctx.sp = top;
    th.fiber = boost::context::fiber(std::allocator_arg, boost::context::preallocated(top, stackBytes_, sctx),
                                     BorrowedStack{}, [this, t](boost::context::fiber&& sched) {
                                       if (sched) scheduler_ = std::move(sched);  // empty: started by a thread
                                       fn_(args_);
                                       SimThread& me = threads_[t];
                                       me.state = ThreadState::Done;
                                       --live_;
                                       milestones.store(milestones.load(std::memory_order_relaxed) + 1,
                                                        std::memory_order_relaxed);
                                       warpLive_[me.ctx.warpid] &= ~(1ull << me.ctx.laneid);
                                       tryCompleteBarriers();
                                       for (uint32_t l = me.ctx.warpid * shape_.warpSize;
                                            l < nthreads_ && l < (me.ctx.warpid + 1) * shape_.warpSize; ++l)
                                         if (threads_[l].state == ThreadState::AtWarpOp)
                                           tryCompleteWarp(me.ctx.warpid, laneMask(threads_[l].mask));
                                       return std::move(scheduler_);
                                     });
  }
  order_.resize(nthreads_);
  for (uint32_t t = 0; t < nthreads_; ++t) order_[t] = shape_.schedule == Schedule::Reverse ? nthreads_ - 1 - t : t;
  std::mt19937_64 shuffle(shape_.scheduleSeed * 0x9e3779b97f4a7c15ull + linear);
  for (;;) {
    bool ran = false;
    if (shape_.schedule == Schedule::Random) std::shuffle(order_.begin(), order_.end(), shuffle);
    for (pos_ = 0; pos_ < order_.size();) {
      uint32_t t = order_[pos_++];
      if (threads_[t].state != ThreadState::Ready) continue;
      current_ = static_cast<int>(t);
      currentThread.store(static_cast<int>(t), std::memory_order_relaxed);
      // Back here from the round's last thread to run (threads pass the round on among themselves).
      boost::context::fiber back = std::move(threads_[t].fiber).resume();
      threads_[current_].fiber = std::move(back);
      ran = true;
    }
    if (live_ == 0) break;
    if (!ran) {
      deadlock = snapshot();
      // The waiting fibers cannot be unwound through JIT frames; the run ends here, so they are abandoned.
      for (auto& th : threads_)
        if (th.state != ThreadState::Done) new boost::context::fiber(std::move(th.fiber));
      return false;
    }
  }
  currentThread.store(-1, std::memory_order_relaxed);
  milestones.store(milestones.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  return true;
}

std::vector<WaitInfo> Worker::snapshot() const {
  std::vector<WaitInfo> out;
  for (const SimThread& th : threads_) {
    if (th.state == ThreadState::Done) continue;
    WaitInfo w;
    std::memcpy(w.block, th.ctx.ctaid, sizeof w.block);
    std::memcpy(w.thread, th.ctx.tid, sizeof w.thread);
    w.site = th.state == ThreadState::Ready ? th.ctx.lastSite : th.waitSite;
    w.state = static_cast<uint8_t>(th.state);
    w.barrierId = th.barrierId;
    w.expected = barrierExpected_[th.barrierId];
    w.arrived = barrierArrived_[th.barrierId];
    w.arriveSite = arriveSite_[th.barrierId];
    if (th.state == ThreadState::Ready && &th - threads_.data() == currentThread.load(std::memory_order_relaxed))
      w.state = kWaitRunning;
    out.push_back(w);
  }
  return out;
}

// A thread that waits or yields passes the round straight on to the next ready thread in its order, as the
// scheduler would: one fiber switch where going through the scheduler took two (the switches were 37% of a
// simulated GEMM's time, docs/performance.md). The round's last one goes back to the scheduler.
void Worker::yieldToScheduler() {
  while (pos_ < order_.size() && threads_[order_[pos_]].state != ThreadState::Ready) ++pos_;
  // Whoever resumes this thread later hands over the scheduler (a later round) or nothing (a thread, which
  // leaves the scheduler where the round's first thread put it).
  if (pos_ == order_.size()) {
    if (boost::context::fiber from = std::move(scheduler_).resume()) scheduler_ = std::move(from);
    return;
  }
  int me = current_, next = static_cast<int>(order_[pos_++]);
  current_ = next;
  currentThread.store(next, std::memory_order_relaxed);
  boost::context::fiber from = std::move(threads_[next].fiber).resume_with([this, me](boost::context::fiber&& mine) {
    threads_[me].fiber = std::move(mine);
    return boost::context::fiber{};
  });
  if (from) scheduler_ = std::move(from);
}

void Worker::releaseBarrier(uint32_t id) {
  uint32_t acc = 0;
  int op = kRedNone;
  bool first = true;
  for (auto& th : threads_) {
    if (th.state != ThreadState::AtBarrier || th.barrierId != id) continue;
    op = th.op;
    if (op == kRedPopc) acc += th.a != 0;
    else if (op == kRedAnd) acc = first ? (th.a != 0) : (acc && th.a != 0);
    else if (op == kRedOr) acc = acc || th.a != 0;
    first = false;
  }
  for (auto& th : threads_) {
    if (th.state != ThreadState::AtBarrier || th.barrierId != id) continue;
    th.result = acc;
    th.state = ThreadState::Ready;
    th.waitSite = ~0u;
  }
  barrierArrived_[id] = 0;
  barrierExpected_[id] = 0;
  arriveSite_[id] = ~0u;
  milestones.store(milestones.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void Worker::tryCompleteBarriers() {
  for (uint32_t id = 0; id < kBarriers; ++id) {
    if (barrierArrived_[id] == 0) continue;
    uint32_t need = barrierExpected_[id] ? barrierExpected_[id] : live_;
    if (barrierArrived_[id] >= need) releaseBarrier(id);
  }
}

void Worker::barrier(uint32_t site, uint32_t id, uint32_t count) {
  SimThread& me = self();
  me.state = ThreadState::AtBarrier;
  me.waitSite = site;
  me.barrierId = id % kBarriers;
  me.op = kRedNone;
  ++barrierArrived_[me.barrierId];
  barrierExpected_[me.barrierId] = count;
  tryCompleteBarriers();
  if (me.state != ThreadState::Ready) yieldToScheduler();
}

void Worker::spinYield(uint32_t site) {
  self().ctx.lastSite = site;
  yieldToScheduler();
}

void Worker::barrierArrive(uint32_t site, uint32_t id, uint32_t count) {
  id %= kBarriers;
  arriveSite_[id] = site;
  ++barrierArrived_[id];
  barrierExpected_[id] = count;
  tryCompleteBarriers();
}

uint32_t Worker::barrierReduce(uint32_t site, int op, uint32_t value) {
  SimThread& me = self();
  me.state = ThreadState::AtBarrier;
  me.waitSite = site;
  me.barrierId = 0;
  me.op = op;
  me.a = value;
  ++barrierArrived_[0];
  tryCompleteBarriers();
  if (me.state != ThreadState::Ready) yieldToScheduler();
  return me.result;
}

uint32_t Worker::warpCollective(uint32_t site, int op, int mode, uint32_t mask, uint32_t a, uint32_t b, uint32_t c) {
  SimThread& me = self();
  me.state = ThreadState::AtWarpOp;
  me.waitSite = site;
  me.op = op; me.mode = mode; me.mask = mask; me.a = a; me.b = b; me.c = c;
  uint32_t w = me.ctx.warpid;
  warpArrived_[w] |= 1ull << me.ctx.laneid;
  uint64_t lanes = op == kActiveMask ? warpLive_[w] : laneMask(mask) | (1ull << me.ctx.laneid);
  tryCompleteWarp(w, lanes);
  if (me.state != ThreadState::Ready) yieldToScheduler();
  return me.result;
}

void Worker::tryCompleteWarp(uint32_t w, uint64_t lanes) {
  uint64_t need = lanes & warpLive_[w];
  if (need && (need & ~warpArrived_[w]) == 0) completeWarp(w, need);
}

void Worker::completeWarp(uint32_t w, uint64_t lanes) {
  const uint32_t W = shape_.warpSize;
  SimThread* base = &threads_[w * W];
  uint32_t count = std::min(W, nthreads_ - w * W);
  auto in = [&](uint32_t l) { return l < count && (lanes >> l & 1) && base[l].state == ThreadState::AtWarpOp; };
  uint64_t predMask = 0;
  bool all = true, any = false;
  for (uint32_t l = 0; l < count; ++l) {
    if (!in(l)) continue;
    bool p = base[l].a != 0;
    if (p) predMask |= 1ull << l;
    all = all && p;
    any = any || p;
  }
  uint32_t first = 0;
  while (first < count && !in(first)) ++first;
  if (first < count && base[first].op == kInlinePtx) {
    std::vector<SimThread*> warpLanes;
    for (uint32_t l = 0; l < count; ++l) warpLanes.push_back(in(l) ? &base[l] : nullptr);
    runWarpPtx(warpLanes);
  }
  for (uint32_t l = 0; l < count; ++l) {
    if (!in(l)) continue;
    SimThread& th = base[l];
    switch (th.op) {
      case kShfl: {
        // PTX shfl.sync: c packs the clamp (bits 0-4) and segment mask (from bit 8); on wave 64 both are
        // read as lanes of the whole wave, which is how a warpSize-generic kernel's fields come out.
        uint32_t seg = (th.c >> 8) & (W - 1);
        uint32_t clamp = th.c & 0x1f;
        if (clamp == 0x1f) clamp = W - 1;
        uint32_t minLane = l & seg, maxLane = minLane | (clamp & ~seg);
        int64_t j = l;
        bool ok = true;
        switch (th.mode) {
          case kIdx: j = minLane | (th.b & ~seg); ok = j <= maxLane; break;
          case kUp: j = int64_t(l) - th.b; ok = j >= int64_t(maxLane); break;
          case kDown: j = int64_t(l) + th.b; ok = j <= maxLane; break;
          case kBfly: j = l ^ th.b; ok = j <= maxLane; break;
        }
        if (!ok || j < 0 || j >= count) j = l;
        th.result = base[j].a;
        break;
      }
      case kVote:
        th.result = th.mode == kAll ? all : th.mode == kAny ? any
                  : th.mode == kUni ? (all || !any) : static_cast<uint32_t>(predMask);
        break;
      case kActiveMask:
        th.result = static_cast<uint32_t>(lanes);
        break;
      case kInlinePtx:
        break;  // results written by runWarpPtx
      case kRedux: {  // redux.sync: mode 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor; +8 signed
        int m = th.mode & (kReduxSigned - 1);
        bool sgn = th.mode & kReduxSigned;
        uint32_t acc = m == 3 ? ~0u : (m == 1 ? (sgn ? 0x7fffffffu : ~0u) : (m == 2 ? (sgn ? 0x80000000u : 0u) : 0u));
        for (uint32_t j = 0; j < count; ++j) {
          if (!in(j)) continue;
          uint32_t v = base[j].a;
          switch (m) {
            case 0: acc += v; break;
            case 1: acc = sgn ? uint32_t(std::min(int32_t(acc), int32_t(v))) : std::min(acc, v); break;
            case 2: acc = sgn ? uint32_t(std::max(int32_t(acc), int32_t(v))) : std::max(acc, v); break;
            case 3: acc &= v; break;
            case 4: acc |= v; break;
            default: acc ^= v;
          }
        }
        th.result = acc;
        break;
      }
      default:
        th.result = 0;
    }
  }
  for (uint32_t l = 0; l < count; ++l) {
    if (!in(l)) continue;
    base[l].state = ThreadState::Ready;
    base[l].waitSite = ~0u;
    warpArrived_[w] &= ~(1ull << l);
  }
}

}  // namespace td::cpu
