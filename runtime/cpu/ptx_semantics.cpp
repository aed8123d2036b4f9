// CPU semantics of the inline-PTX catalogue (instrument/ptx_catalogue.h), per lane, as the PTX ISA
// defines them. Operands arrive as 64-bit slots in asm operand order (inputs after outputs); results go
// back the same way. Shared addresses are offsets in the block's shared window (cvta.to.shared values).
#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

#include "frontend/fp8.h"
#include "instrument/ptx_catalogue.h"
#include "runtime/cpu/mfma_semantics.h"
#include "runtime/cpu/ptx_param.h"
#include "runtime/cpu/register_bits.h"
#include "runtime/cpu/simt.h"

namespace td::cpu {

namespace {

// A shared-window address: a 32-bit cvta.to.shared offset, or (from generic code) a host pointer. The
// `bytes` there must lie inside the window: these statements run here, for the kernel, and a lane of a
// warp-collective one cannot be skipped alone, so an address outside (reported where a check covers the
// statement) reads zeros from, and writes into, a scratch line instead of the host's memory.
char* sharedAddress(const SimThread& t, uint64_t v, uint64_t bytes) {
  char* p = v < (1ull << 32) ? t.ctx.sharedBase + v : reinterpret_cast<char*>(v);
  uint64_t off = reinterpret_cast<uintptr_t>(p) - reinterpret_cast<uintptr_t>(t.ctx.sharedBase);
  uint64_t window = Worker::current()->shape().sharedBytes;
  if (off <= window && bytes <= window - off) return p;
  alignas(16) static thread_local char scratch[64];
  std::memset(scratch, 0, sizeof scratch);
  return scratch;
}

uint16_t load16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

// Lands the thread's copies of groups < upToGroup: through the module's landing function when it has one
// (the thread's own stores, checked as such), else by memcpy. The copies an mbarrier arrive completes land
// by memcpy: that statement is itself the release the waiters synchronise with, and the checks order it
// before the statement runs.
void completeCopies(SimThread& t, uint32_t upToGroup, const LaunchShape& shape, bool throughModule = true) {
  size_t keep = 0;
  for (size_t k = 0; k < t.pending.size(); ++k) {
    const PendingCopy c = t.pending[k];
    if (c.group >= upToGroup) {
      t.pending[keep++] = c;
    } else if (!shape.asyncCopyLands || !throughModule || (c.size != 4 && c.size != 8 && c.size != 16)) {
      std::memcpy(c.dst, c.data, c.size);
    } else {
      uint64_t words[2] = {0, 0};
      std::memcpy(words, c.data, c.size);
      shape.asyncCopyLands(c.dst, words[0], words[1], c.size);  // stores only: `pending` stays as it is
    }
  }
  t.pending.resize(keep);
}

void ldmatrix(const std::vector<SimThread*>& lanes, int count, bool trans) {
  // Matrix i's eight rows come from the addresses of lanes 8i .. 8i+7; lane L receives, for each matrix,
  // the two 16-bit elements (L/4, 2(L%4)) and (L/4, 2(L%4)+1) — of the transposed matrix with .trans.
  auto elem = [&](int m, int r, int c) -> uint16_t {
    SimThread* src = lanes[8 * m + (trans ? c : r)];
    if (!src) throw std::runtime_error("ldmatrix: a lane providing a row address is not taking part");
    return load16(sharedAddress(*src, src->asmIn[0], 16) + 2 * (trans ? r : c));
  };
  for (size_t l = 0; l < lanes.size(); ++l) {
    if (!lanes[l]) continue;
    int r = static_cast<int>(l) / 4, c = 2 * (static_cast<int>(l) % 4);
    for (int m = 0; m < count; ++m)
      lanes[l]->asmOut[m] = uint64_t(elem(m, r, c)) | (uint64_t(elem(m, r, c + 1)) << 16);
  }
}

// mma.sync m16n8k{8,16}, fragment layouts of the PTX ISA ("Matrix fragments for mma.m16n8k16 /
// m16n8k8"), g = lane / 4, t = lane % 4:
//   A (16xK, row), 16-bit types: register r holds the element pair (g + 8(r%2), 2t + 8(r/2)) and the next
//     column — 4 registers for K = 16, 2 for K = 8. tf32: one element per register, (g + 8(r%2), t + 4(r/2)).
//   B (Kx8, col), 16-bit types: register r holds (k = 2t + 8r, n = g) and k + 1 — 2 registers for K = 16, 1 for
//     K = 8. tf32: (k = t + 4r, n = g), 2 registers.
//   C/D (16x8): f32 — c_r = (g + 8(r/2), 2t + r%2), 4 registers; f16 — register r packs (g + 8r, 2t) and
//     (g + 8r, 2t + 1), 2 registers.
// Products are accumulated in fp32 in k order and rounded once at the end for f16 accumulators.
// The C fragment of a float-accumulating mma, one lane's registers: f32 — c_r = (g + 8(r/2), 2t + r%2);
// f16 — register r packs (g + 8r, 2t) and (g + 8r, 2t + 1).
void loadFloatAccumulators(const uint64_t* c, int g, int t, bool f16Accum, float (&C)[16][8]) {
  for (int r = 0; r < (f16Accum ? 2 : 4); ++r) {
    if (f16Accum) {
      C[g + 8 * r][2 * t] = half2f(static_cast<uint16_t>(c[r]));
      C[g + 8 * r][2 * t + 1] = half2f(static_cast<uint16_t>(c[r] >> 16));
    } else {
      C[g + 8 * (r / 2)][2 * t + r % 2] = bitsf(c[r]);
    }
  }
}

// D = A·B + C in fp32, k in order, into every lane's D registers (the C layout; f16 rounded once).
void storeFloatProducts(const std::vector<SimThread*>& lanes, const float (&A)[16][32], const float (&B)[32][8],
                        const float (&C)[16][8], int K, bool f16Accum) {
  auto d = [&](int row, int col) {
    float acc = C[row][col];
    for (int k = 0; k < K; ++k) acc = __builtin_fmaf(A[row][k], B[k][col], acc);
    return acc;
  };
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    for (int r = 0; r < (f16Accum ? 2 : 4); ++r) {
      if (f16Accum)
        lanes[l]->asmOut[r] = uint64_t(f2half(d(g + 8 * r, 2 * t))) | (uint64_t(f2half(d(g + 8 * r, 2 * t + 1))) << 16);
      else
        lanes[l]->asmOut[r] = fbits(d(g + 8 * (r / 2), 2 * t + r % 2));
    }
  }
}

void mma(const std::vector<SimThread*>& lanes, int K, MmaType type, bool f16Accum) {
  if (lanes.size() < 32) throw std::runtime_error("mma.sync needs a full warp of 32 lanes");
  float A[16][32] = {}, B[32][8] = {}, C[16][8] = {};
  int aRegs = type == MmaType::TF32 ? 4 : K / 4, bRegs = type == MmaType::TF32 ? 2 : K / 8;
  auto h = [&](uint64_t v, int half) {
    uint16_t bits = static_cast<uint16_t>(v >> (16 * half));
    return type == MmaType::BF16 ? bf16f(bits) : half2f(bits);
  };
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) throw std::runtime_error("mma.sync: every lane of the warp must take part");
    const uint64_t* in = lanes[l]->asmIn;
    int g = l / 4, t = l % 4;
    for (int r = 0; r < aRegs; ++r) {
      int row = g + 8 * (r % 2);
      if (type == MmaType::TF32) {
        A[row][t + 4 * (r / 2)] = tf32(in[r]);
      } else {
        int col = 2 * t + 8 * (r / 2);
        A[row][col] = h(in[r], 0);
        A[row][col + 1] = h(in[r], 1);
      }
    }
    for (int r = 0; r < bRegs; ++r) {
      if (type == MmaType::TF32) {
        B[t + 4 * r][g] = tf32(in[aRegs + r]);
      } else {
        int k = 2 * t + 8 * r;
        B[k][g] = h(in[aRegs + r], 0);
        B[k + 1][g] = h(in[aRegs + r], 1);
      }
    }
    loadFloatAccumulators(in + aRegs + bRegs, g, t, f16Accum, C);
  }
  storeFloatProducts(lanes, A, B, C, K, f16Accum);
}

// mma.sync with s8/u8 inputs (m16n8k16/k32) or s4/u4 inputs (m16n8k32/k64) and s32 accumulators (PTX ISA,
// "Matrix fragments for mma.m16n8k16/k32/k64 with integer type"), g = lane / 4, t = lane % 4, e = the
// elements a 32-bit register holds (4 of 8 bits, 8 of 4 bits, lowest bits first):
//   A (16xK, row): register r holds (g + 8(r%2), e*t + 4e*(r/2) .. +e-1): K / 2e registers (2 or 4).
//   B (Kx8, col): register r holds (k = e*t + 4e*r .. +e-1, n = g): K / 4e registers (1 or 2).
//   C/D (16x8): c_r = (g + 8(r/2), 2t + r%2), 4 registers of s32.
// The sum is exact in 64 bits, then wraps to 32 (or saturates with .satfinite).
void mmaInt(const std::vector<SimThread*>& lanes, int K, int bits, bool aUnsigned, bool bUnsigned, bool satfinite) {
  if (lanes.size() < 32) throw std::runtime_error("mma.sync needs a full warp of 32 lanes");
  int64_t A[16][64] = {}, B[64][8] = {}, C[16][8] = {};
  const int e = 32 / bits, aRegs = K / (2 * e), bRegs = K / (4 * e);
  auto element = [&](uint64_t v, int i, bool isUnsigned) -> int64_t {
    uint32_t raw = static_cast<uint32_t>(v >> (bits * i)) & ((1u << bits) - 1);
    bool negative = !isUnsigned && (raw >> (bits - 1));
    return negative ? int64_t(raw) - (int64_t(1) << bits) : int64_t(raw);
  };
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) throw std::runtime_error("mma.sync: every lane of the warp must take part");
    const uint64_t* in = lanes[l]->asmIn;
    int g = l / 4, t = l % 4;
    for (int r = 0; r < aRegs; ++r)
      for (int i = 0; i < e; ++i) A[g + 8 * (r % 2)][e * t + 4 * e * (r / 2) + i] = element(in[r], i, aUnsigned);
    for (int r = 0; r < bRegs; ++r)
      for (int i = 0; i < e; ++i) B[e * t + 4 * e * r + i][g] = element(in[aRegs + r], i, bUnsigned);
    for (int r = 0; r < 4; ++r)
      C[g + 8 * (r / 2)][2 * t + r % 2] = static_cast<int32_t>(static_cast<uint32_t>(in[aRegs + bRegs + r]));
  }
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    for (int r = 0; r < 4; ++r) {
      int row = g + 8 * (r / 2), col = 2 * t + r % 2;
      int64_t acc = C[row][col];
      for (int k = 0; k < K; ++k) acc += A[row][k] * B[k][col];
      if (satfinite) acc = std::clamp<int64_t>(acc, INT32_MIN, INT32_MAX);
      lanes[l]->asmOut[r] = static_cast<uint32_t>(static_cast<uint64_t>(acc));
    }
  }
}

// mma.sync m16n8k32 with fp8 inputs (sm_89+): the 8-bit fragment layout of the integer form above, each
// element an E4M3 or E5M2 value; products accumulated in fp32 in k order, rounded once for f16 outputs.
void mmaFp8(const std::vector<SimThread*>& lanes, bool aE5M2, bool bE5M2, bool f16Accum) {
  if (lanes.size() < 32) throw std::runtime_error("mma.sync needs a full warp of 32 lanes");
  float A[16][32] = {}, B[32][8] = {}, C[16][8] = {};
  auto fp8 = [](uint64_t v, int i, bool e5m2) {
    uint8_t b = static_cast<uint8_t>(v >> (8 * i));
    return e5m2 ? fp8E5M2ToFloat(b) : fp8E4M3ToFloat(b);
  };
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) throw std::runtime_error("mma.sync: every lane of the warp must take part");
    const uint64_t* in = lanes[l]->asmIn;
    int g = l / 4, t = l % 4;
    for (int r = 0; r < 4; ++r)
      for (int i = 0; i < 4; ++i) A[g + 8 * (r % 2)][4 * t + 16 * (r / 2) + i] = fp8(in[r], i, aE5M2);
    for (int r = 0; r < 2; ++r)
      for (int i = 0; i < 4; ++i) B[4 * t + 16 * r + i][g] = fp8(in[4 + r], i, bE5M2);
    loadFloatAccumulators(in + 6, g, t, f16Accum, C);
  }
  storeFloatProducts(lanes, A, B, C, 32, f16Accum);
}

// stmatrix: the inverse of ldmatrix — lane L's register m holds the pair (L/4, 2(L%4)..+1) of matrix m
// (transposed with .trans), written to the row addresses lanes 8m .. 8m+7 give.
void stmatrix(const std::vector<SimThread*>& lanes, int count, bool trans) {
  for (size_t l = 0; l < lanes.size(); ++l) {
    if (!lanes[l]) continue;
    int r = static_cast<int>(l) / 4, c = 2 * (static_cast<int>(l) % 4);
    for (int m = 0; m < count; ++m) {
      uint64_t v = lanes[l]->asmIn[1 + m];
      for (int e = 0; e < 2; ++e) {
        int row = trans ? c + e : r, col = trans ? r : c + e;
        SimThread* dst = lanes[8 * m + row];
        if (!dst) throw std::runtime_error("stmatrix: a lane providing a row address is not taking part");
        uint16_t bits = static_cast<uint16_t>(v >> (16 * e));
        std::memcpy(sharedAddress(*dst, dst->asmIn[0], 16) + 2 * col, &bits, 2);
      }
    }
  }
}

// An mbarrier's state kept in its own 64-bit shared word (the hardware's encoding is opaque):
// bits 0-19 arrivals still pending in this phase, 20-39 the expected count, bit 40 the phase parity.
struct Mbarrier {
  uint64_t* word;
  uint32_t pending() const { return *word & 0xfffff; }
  uint32_t expected() const { return (*word >> 20) & 0xfffff; }
  uint32_t phase() const { return (*word >> 40) & 1; }
  void init(uint32_t count) { *word = (uint64_t(count) & 0xfffff) | ((uint64_t(count) & 0xfffff) << 20); }
  void arrive() {
    uint32_t left = pending() ? pending() - 1 : 0;
    uint32_t ph = phase();
    if (left == 0) {  // the phase completes; the next one expects the same count
      left = expected();
      ph ^= 1;
    }
    *word = uint64_t(left) | (uint64_t(expected()) << 20) | (uint64_t(ph) << 40);
  }
  // try_wait.parity p: true once the phase of parity p has completed
  bool phaseDone(uint32_t parity) const { return phase() != (parity & 1); }
};

}  // namespace

void runWarpPtx(const std::vector<SimThread*>& lanes) {
  const SimThread* any = nullptr;
  for (SimThread* t : lanes)
    if (t) { any = t; break; }
  if (!any) return;
  PtxStatement st = unpackPtxParam(static_cast<PtxOp>(any->asmOp), any->asmParam);
  if (st.op == PtxOp::LdMatrix) ldmatrix(lanes, st.count, st.trans);
  else if (st.op == PtxOp::StMatrix) stmatrix(lanes, st.count, st.trans);
  else if (st.op == PtxOp::Mma && st.fp8) mmaFp8(lanes, st.aUnsigned, st.bUnsigned, st.f16Accum);
  else if (st.op == PtxOp::Mma && st.integer) mmaInt(lanes, st.k, st.elementBits, st.aUnsigned, st.bUnsigned, st.satfinite);
  else if (st.op == PtxOp::Mma) mma(lanes, st.k, st.type, st.f16Accum);
  else if (st.op == PtxOp::Mfma) mfma(lanes, st);
}

void Worker::inlinePtx(uint32_t site, uint32_t opCode, uint32_t param, const uint64_t* in, uint64_t* out) {
  PtxStatement st = unpackPtxParam(static_cast<PtxOp>(opCode), param);
  PtxOp op = st.op;
  SimThread& me = self();
  switch (op) {
    case PtxOp::CpAsync: {
      PendingCopy c{};
      c.group = me.openGroup;
      int sizeOp = st.sizeOperand, srcOp = st.srcSizeOperand;
      c.size = sizeOp >= 0 ? static_cast<uint32_t>(in[sizeOp]) : static_cast<uint32_t>(st.count);
      if (c.size > sizeof c.data) throw std::runtime_error(fmt::format("cp.async of {} bytes", c.size));
      c.dst = sharedAddress(me, in[0], c.size);
      uint32_t srcBytes = srcOp >= 0 ? static_cast<uint32_t>(in[srcOp]) : c.size;
      std::memcpy(c.data, reinterpret_cast<const char*>(in[1]), std::min(srcBytes, c.size));  // rest stays 0
      me.pending.push_back(c);
      return;
    }
    case PtxOp::CpAsyncCommit:
      if (st.ticket) out[0] = me.openGroup;
      ++me.openGroup;
      return;
    case PtxOp::CpAsyncWait: {
      if (st.ticket) {  // this group and every earlier one land; later ones stay in flight
        completeCopies(me, static_cast<uint32_t>(in[0]) + 1, shape_);
        return;
      }
      bool all = st.waitAll;
      uint32_t n = all ? 0 : st.count == 0xff ? static_cast<uint32_t>(in[0]) : static_cast<uint32_t>(st.count);
      if (all) ++me.openGroup;  // wait_all also completes copies not yet committed
      completeCopies(me, me.openGroup > n ? me.openGroup - n : 0, shape_);
      return;
    }
    case PtxOp::MbarInit:
    case PtxOp::MbarArrive:
    case PtxOp::MbarTryWait:
    case PtxOp::MbarWait:
    case PtxOp::CpAsyncMbarArrive: {
      int addrOp = st.addrOperand, valueOp = st.valueOperand;
      Mbarrier bar{reinterpret_cast<uint64_t*>(sharedAddress(me, in[addrOp], 8))};
      uint32_t value = valueOp >= 0 ? static_cast<uint32_t>(in[valueOp]) : 0;
      if (op == PtxOp::MbarInit) bar.init(value);
      else if (op == PtxOp::MbarArrive) bar.arrive();
      else if (op == PtxOp::MbarTryWait) out[0] = bar.phaseDone(value);
      else if (op == PtxOp::MbarWait)
        while (!bar.phaseDone(value)) spinYield(site);
      else {  // the thread's copies land first; .noinc makes it one of the expected arrivals
        completeCopies(me, ~0u, shape_, false);
        if (st.noinc) bar.arrive();
      }
      return;
    }
    case PtxOp::LdMatrix:
    case PtxOp::StMatrix:
    case PtxOp::Mma:
    case PtxOp::Mfma:
      inlinePtxCollective(site, opCode, param, in, out);
      return;
    default:
      throw std::logic_error("inline PTX lowered to the scheduler reached ptx_semantics");
  }
}

}  // namespace td::cpu
