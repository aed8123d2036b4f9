// CPU semantics of the inline-PTX catalogue (instrument/ptx_catalogue.h), per lane, as the PTX ISA
// defines them. Operands arrive as 64-bit slots in asm operand order (inputs after outputs); results go
// back the same way. Shared addresses are offsets in the block's shared window (cvta.to.shared values).
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>

#include "instrument/ptx_catalogue.h"
#include "runtime/cpu/simt.h"

namespace td::cpu {

namespace {

// A shared-window address: a 32-bit cvta.to.shared offset, or (from generic code) a host pointer.
char* sharedAddress(const SimThread& t, uint64_t v) {
  return v < (1ull << 32) ? t.ctx.sharedBase + v : reinterpret_cast<char*>(v);
}

uint16_t load16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}

void completeCopies(SimThread& t, uint32_t upToGroup) {  // lands copies of groups < upToGroup
  size_t keep = 0;
  for (PendingCopy& c : t.pending) {
    if (c.group < upToGroup) std::memcpy(c.dst, c.data, c.size);
    else t.pending[keep++] = c;
  }
  t.pending.resize(keep);
}

void ldmatrix(const std::vector<SimThread*>& lanes, int count, bool trans) {
  // Matrix i's eight rows come from the addresses of lanes 8i .. 8i+7; lane L receives, for each matrix,
  // the two 16-bit elements (L/4, 2(L%4)) and (L/4, 2(L%4)+1) — of the transposed matrix with .trans.
  auto elem = [&](int m, int r, int c) -> uint16_t {
    SimThread* src = lanes[8 * m + (trans ? c : r)];
    if (!src) throw std::runtime_error("ldmatrix: a lane providing a row address is not taking part");
    return load16(sharedAddress(*src, src->asmIn[0]) + 2 * (trans ? r : c));
  };
  for (size_t l = 0; l < lanes.size(); ++l) {
    if (!lanes[l]) continue;
    int r = static_cast<int>(l) / 4, c = 2 * (static_cast<int>(l) % 4);
    for (int m = 0; m < count; ++m)
      lanes[l]->asmOut[m] = uint64_t(elem(m, r, c)) | (uint64_t(elem(m, r, c + 1)) << 16);
  }
}

float half2f(uint16_t h) {
  _Float16 v;
  std::memcpy(&v, &h, 2);
  return static_cast<float>(v);
}
float bitsf(uint64_t v) {
  uint32_t u = static_cast<uint32_t>(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

void mmaM16N8K16(const std::vector<SimThread*>& lanes) {
  // Fragment layouts of mma.m16n8k16 with .f16 A/B and .f32 C/D (PTX ISA, "Matrix fragments for
  // mma.m16n8k16"): g = lane / 4, t = lane % 4.
  //   A (16x16, row): regs a0..a3 hold halves (g, 2t..2t+1), (g+8, 2t..), (g, 2t+8..), (g+8, 2t+8..)
  //   B (16x8, col):  regs b0,b1 hold halves (k = 2t..2t+1, n = g), (k = 2t+8.., n = g)
  //   C/D (16x8):     c0,c1 = (g, 2t), (g, 2t+1); c2,c3 = (g+8, 2t), (g+8, 2t+1)
  if (lanes.size() < 32) throw std::runtime_error("mma.sync needs a full warp of 32 lanes");
  float A[16][16], B[16][8], C[16][8];
  for (int l = 0; l < 32; ++l) {
    if (!lanes[l]) throw std::runtime_error("mma.sync: every lane of the warp must take part");
    const uint64_t* in = lanes[l]->asmIn;
    int g = l / 4, t = l % 4;
    for (int r = 0; r < 4; ++r) {
      int row = g + (r & 1) * 8, col = 2 * t + (r >> 1) * 8;
      A[row][col] = half2f(static_cast<uint16_t>(in[r]));
      A[row][col + 1] = half2f(static_cast<uint16_t>(in[r] >> 16));
    }
    for (int r = 0; r < 2; ++r) {
      int k = 2 * t + r * 8;
      B[k][g] = half2f(static_cast<uint16_t>(in[4 + r]));
      B[k + 1][g] = half2f(static_cast<uint16_t>(in[4 + r] >> 16));
    }
    for (int r = 0; r < 4; ++r) C[g + (r >> 1) * 8][2 * t + (r & 1)] = bitsf(in[6 + r]);
  }
  for (int l = 0; l < 32; ++l) {
    int g = l / 4, t = l % 4;
    for (int r = 0; r < 4; ++r) {
      int row = g + (r >> 1) * 8, col = 2 * t + (r & 1);
      float acc = C[row][col];
      for (int k = 0; k < 16; ++k) acc = __builtin_fmaf(A[row][k], B[k][col], acc);  // fp32 accumulation
      lanes[l]->asmOut[r] = fbits(acc);
    }
  }
}

}  // namespace

void runWarpPtx(const std::vector<SimThread*>& lanes) {
  const SimThread* any = nullptr;
  for (SimThread* t : lanes)
    if (t) { any = t; break; }
  if (!any) return;
  auto op = static_cast<PtxOp>(any->asmOp);
  if (op == PtxOp::LdMatrix) ldmatrix(lanes, any->asmParam & 0xff, (any->asmParam >> 8) & 1);
  else if (op == PtxOp::MmaF16F32) mmaM16N8K16(lanes);
}

void Worker::inlinePtx(uint32_t site, uint32_t opCode, uint32_t param, const uint64_t* in, uint64_t* out) {
  auto op = static_cast<PtxOp>(opCode);
  SimThread& me = self();
  switch (op) {
    case PtxOp::CpAsync: {
      PendingCopy c{};
      c.group = me.openGroup;
      c.size = param & 0xff;
      c.dst = sharedAddress(me, in[0]);
      uint32_t srcBytes = (param >> 9) & 1 ? static_cast<uint32_t>(in[2]) : c.size;
      std::memcpy(c.data, reinterpret_cast<const char*>(in[1]), std::min(srcBytes, c.size));  // rest stays 0
      me.pending.push_back(c);
      return;
    }
    case PtxOp::CpAsyncCommit:
      ++me.openGroup;
      return;
    case PtxOp::CpAsyncWait: {
      bool all = (param >> 10) & 1;
      uint32_t n = all ? 0 : (param & 0xff) == 0xff ? static_cast<uint32_t>(in[0]) : (param & 0xff);
      if (all) ++me.openGroup;  // wait_all also completes copies not yet committed
      completeCopies(me, me.openGroup > n ? me.openGroup - n : 0);
      return;
    }
    case PtxOp::LdMatrix:
    case PtxOp::MmaF16F32:
      inlinePtxCollective(site, opCode, param, in, out);
      return;
  }
}

}  // namespace td::cpu
