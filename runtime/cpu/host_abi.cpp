#include "runtime/cpu/host_abi.h"

#include <chrono>
#include <cstdint>
#include <cstring>

#include <unistd.h>

#include "frontend/fp8.h"
#include "model/hooks.h"
#include "runtime/cpu/device_printf.h"
#include "runtime/cpu/simt.h"

namespace td::cpu {
namespace {

KernelStopSink gStopSink = nullptr;
int gPrintFd = 1;

extern "C" {

ThreadCtx* td_cpu_ctx() { return &Worker::current()->self().ctx; }

void td_cpu_barrier(uint32_t site, uint32_t id, uint32_t count) { Worker::current()->barrier(site, id, count); }

void td_cpu_barrier_arrive(uint32_t site, uint32_t id, uint32_t count) { Worker::current()->barrierArrive(site, id, count); }

uint32_t td_cpu_barrier_reduce(uint32_t site, int op, uint32_t v) { return Worker::current()->barrierReduce(site, op, v); }

// A float rounded to bfloat16's bits, to nearest even (NaN left to the caller: canonical NaNs differ).
uint16_t bf16Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return static_cast<uint16_t>((u + 0x7fff + ((u >> 16) & 1)) >> 16);
}

// cvt.rn.satfinite[.relu].{e4m3,e5m2}x2.f32, one element (flags: 1 E5M2, 2 .relu): finite saturation (±inf
// too) to the largest normal, NaN to the canonical NaN 0x7f.
uint32_t td_cpu_float_to_fp8(float f, uint32_t flags) {
  bool e5m2 = flags & 1;
  if (f != f) return 0x7f;
  if ((flags & 2) && f < 0) f = 0;
  float largest = e5m2 ? 57344.0f : 448.0f;
  f = f > largest ? largest : f < -largest ? -largest : f;
  return e5m2 ? floatToFp8E5M2(f) : floatToFp8E4M3(f);
}

float td_cpu_fp8_to_float(uint32_t byte, uint32_t e5m2) {
  return e5m2 ? fp8E5M2ToFloat(static_cast<uint8_t>(byte)) : fp8E4M3ToFloat(static_cast<uint8_t>(byte));
}

// atom.add.noftz.{f16,bf16}[x2]: each 16-bit half added in float and rounded once to nearest even, as
// the GPU's add does; kind: 1 bfloat16, 2 a pair. Returns the old value.
uint32_t td_cpu_atom_add_16(void* address, uint32_t value, uint32_t kind) {
  bool bf16 = kind & 1, pair = kind & 2;
  auto toFloat = [&](uint16_t h) {
    if (bf16) {
      uint32_t u = uint32_t(h) << 16;
      float f;
      std::memcpy(&f, &u, 4);
      return f;
    }
    _Float16 x;
    std::memcpy(&x, &h, 2);
    return static_cast<float>(x);
  };
  auto fromFloat = [&](float f) -> uint16_t {
    uint16_t h;
    if (!bf16) {
      _Float16 x = static_cast<_Float16>(f);
      std::memcpy(&h, &x, 2);
      return h;
    }
    return f != f ? uint16_t{0x7fff} : bf16Bits(f);
  };
  auto add = [&](uint32_t old) {
    uint32_t sum = fromFloat(toFloat(static_cast<uint16_t>(old)) + toFloat(static_cast<uint16_t>(value)));
    if (pair) sum |= uint32_t(fromFloat(toFloat(static_cast<uint16_t>(old >> 16)) + toFloat(static_cast<uint16_t>(value >> 16)))) << 16;
    return sum;
  };
  if (pair) {
    auto* word = static_cast<uint32_t*>(address);
    uint32_t old = __atomic_load_n(word, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(word, &old, add(old), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
  }
  auto* half = static_cast<uint16_t*>(address);
  uint16_t old = __atomic_load_n(half, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(half, &old, static_cast<uint16_t>(add(old)), true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED)) {}
  return old;
}

uint32_t td_cpu_warp(uint32_t site, int op, int mode, uint32_t mask, uint32_t a, uint32_t b, uint32_t c) {
  return Worker::current()->warpCollective(site, op, mode, mask, a, b, c);
}

void td_cpu_asm(uint32_t site, uint32_t op, uint32_t param, const uint64_t* in, uint64_t* out) {
  Worker::current()->inlinePtx(site, op, param, in, out);
}

uint64_t td_cpu_clock() {
  return static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

unsigned td_shared_window_offset(const void* p) {
  return static_cast<unsigned>(static_cast<const char*>(p) - Worker::current()->self().ctx.sharedBase);
}

unsigned td_shared_window_bytes() { return Worker::current()->shape().sharedBytes; }

void td_mark_site(unsigned site) { Worker::current()->self().ctx.lastSite = site; }

void td_cpu_stop() {
  if (gStopSink) gStopSink();
  _exit(3);
}

// Bytes of the calling thread's kernel memory from `p` on: its shared window, its stack, its buffers and
// its module's variables (LaunchShape::kernelMemory).
size_t kernelBytesAt(const void* p) {
  Worker* w = Worker::current();
  const ThreadCtx& t = w->self().ctx;
  auto in = [&](const char* base, uint64_t bytes) -> size_t {
    uint64_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(base);
    return off < bytes ? static_cast<size_t>(bytes - off) : 0;
  };
  if (size_t n = in(t.sharedBase, w->shape().sharedBytes)) return n;
  if (size_t n = in(t.stackLow, static_cast<uint64_t>(t.stackHigh - t.stackLow))) return n;
  for (const auto& [base, bytes] : w->shape().kernelMemory)
    if (size_t n = in(base, bytes)) return n;
  return 0;
}

// One write per call, so lines of threads running side by side never interleave.
int td_cpu_vprintf(const char* format, const char* args) {
  std::string text = formatDevicePrintf(format, args, kernelBytesAt);
  for (size_t done = 0; done < text.size();) {
    ssize_t n = ::write(gPrintFd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<int>(text.size());
}

// Half and bfloat16 conversions LLVM emits as library calls on x86. _Float16 travels in XMM registers,
// as LLVM's half and bfloat do, so the same signature serves both.
float td_extendhfsf2(_Float16 h) { return static_cast<float>(h); }
_Float16 td_truncsfhf2(float f) { return static_cast<_Float16>(f); }
_Float16 td_truncdfhf2(double d) { return static_cast<_Float16>(d); }
_Float16 td_truncsfbf2(float f) {
  uint16_t b = (f != f) ? 0x7fc0 : bf16Bits(f);
  _Float16 r;
  std::memcpy(&r, &b, 2);
  return r;
}
_Float16 td_truncdfbf2(double d) { return td_truncsfbf2(static_cast<float>(d)); }

}  // extern "C"

}  // namespace

// A host function bound to its hook's symbol; it must have the signature model/hooks.def gives the hook.
template <Hook H, typename F>
std::pair<std::string, void*> own(F* fn) {
  static_assert(implementsHook<HookSignature<H>, F>, "a host function differs from its hook in model/hooks.def");
  return {hookSymbol(H), reinterpret_cast<void*>(fn)};
}

std::vector<std::pair<std::string, void*>> hostSymbols() {
  return {
      own<Hook::cpu_ctx>(&td_cpu_ctx),
      own<Hook::cpu_barrier>(&td_cpu_barrier),
      own<Hook::cpu_barrier_arrive>(&td_cpu_barrier_arrive),
      own<Hook::cpu_barrier_reduce>(&td_cpu_barrier_reduce),
      own<Hook::cpu_warp>(&td_cpu_warp),
      own<Hook::cpu_clock>(&td_cpu_clock),
      own<Hook::cpu_asm>(&td_cpu_asm),
      own<Hook::cpu_float_to_fp8>(&td_cpu_float_to_fp8),
      own<Hook::cpu_atom_add_16>(&td_cpu_atom_add_16),
      own<Hook::cpu_fp8_to_float>(&td_cpu_fp8_to_float),
      own<Hook::shared_window_offset>(&td_shared_window_offset),
      own<Hook::shared_window_bytes>(&td_shared_window_bytes),
      own<Hook::mark_site>(&td_mark_site),
      own<Hook::cpu_stop>(&td_cpu_stop),
      own<Hook::cpu_vprintf>(&td_cpu_vprintf),
      {"__extendhfsf2", reinterpret_cast<void*>(&td_extendhfsf2)},
      {"__truncsfhf2", reinterpret_cast<void*>(&td_truncsfhf2)},
      {"__truncdfhf2", reinterpret_cast<void*>(&td_truncdfhf2)},
      {"__truncsfbf2", reinterpret_cast<void*>(&td_truncsfbf2)},
      {"__truncdfbf2", reinterpret_cast<void*>(&td_truncdfbf2)},
  };
}

void setKernelStopSink(KernelStopSink sink) { gStopSink = sink; }
void setDevicePrintFd(int fd) { gPrintFd = fd; }

}  // namespace td::cpu
