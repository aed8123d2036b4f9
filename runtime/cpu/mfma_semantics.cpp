#include "runtime/cpu/mfma_semantics.h"

#include <cstdint>
#include <stdexcept>

#include "frontend/fp8.h"
#include "runtime/cpu/register_bits.h"
#include "runtime/cpu/simt.h"

namespace td::cpu {

namespace {

bool wordElements(const PtxStatement& st) {  // fp32 and tf32 inputs: one element per word
  return !st.integer && !st.fp8 && (st.type == MmaType::F32 || st.type == MmaType::TF32);
}

// Element `item` of a lane's A or B operand, which arrives as 32-bit words, packed from the low bits up.
float element(const uint64_t* words, int item, const PtxStatement& st) {
  if (wordElements(st) && st.type == MmaType::TF32) return tf32(words[item]);  // 10-bit mantissa
  if (wordElements(st)) return bitsf(words[item]);
  if (st.integer || st.fp8) {
    uint8_t b = static_cast<uint8_t>(words[item / 4] >> (8 * (item % 4)));
    if (st.integer) return static_cast<float>(static_cast<int8_t>(b));
    return st.aUnsigned ? fp8E5M2ToFloat(b) : fp8E4M3ToFloat(b);
  }
  uint16_t h = static_cast<uint16_t>(words[item / 2] >> (16 * (item % 2)));
  return st.type == MmaType::BF16 ? bf16f(h) : half2f(h);
}

}  // namespace

// The CDNA3 layouts of v_mfma_*_MxMxK, M = 16 or 32 (AMD Instinct MI300 ISA, "Matrix fragments"; AMD's
// matrix instruction calculator), which tilelang-metax's mma_layout.py gives MetaX's MXC MMA too (A: thread
// i + 16(j/4), local j%4; C: thread j + 16(i/4), local i%4). The wave's 64 lanes form 64/M groups; each lane
// holds e = K·M/64 consecutive k of one row of A and one column of B —
// A[i][k] in lane i + M·(k / e), element k % e; B[k][j] in lane j + M·(k / e), element k % e — and D/C
// hold M·M/64 values of one column in runs of 4 rows: D[i][j] in lane j + M·g, register r, where
// i = 4·(64/M)·(r / 4) + 4·g + r % 4 (for M = 16 simply 4g + r; for M = 32 rows 0-3, 8-11, … in lanes
// 0-31 and 4-7, 12-15, … in lanes 32-63). Float products accumulate in fp32 in k order (the hardware's
// order inside one instruction is not specified); int8 ones in int32.
void mfma(const std::vector<SimThread*>& lanes, const PtxStatement& st) {
  if (lanes.size() < 64) throw std::runtime_error("an MFMA instruction needs a full wave of 64 lanes");
  const int M = st.k, K = st.count, e = K * M / 64, groups = 64 / M, outputs = M * M / 64;
  const int bytes = wordElements(st) ? 4 : st.integer || st.fp8 ? 1 : 2;
  const int abWords = (e * bytes + 3) / 4;
  float A[32][32] = {}, B[32][32] = {};
  for (int l = 0; l < 64; ++l)
    if (!lanes[l]) throw std::runtime_error("an MFMA instruction: every lane of the wave must take part");
  for (int l = 0; l < 64; ++l) {
    const uint64_t* in = lanes[l]->asmIn;
    for (int item = 0; item < e; ++item) {
      A[l % M][e * (l / M) + item] = element(in, item, st);
      B[e * (l / M) + item][l % M] = element(in + abWords, item, st);
    }
  }
  for (int l = 0; l < 64; ++l) {
    const uint64_t* c = lanes[l]->asmIn + 2 * abWords;
    int j = l % M, g = l / M;
    for (int r = 0; r < outputs; ++r) {
      int i = 4 * groups * (r / 4) + 4 * g + r % 4;
      if (st.integer) {
        uint32_t acc = static_cast<uint32_t>(c[r]);
        for (int k = 0; k < K; ++k) acc += static_cast<uint32_t>(static_cast<int32_t>(A[i][k]) * static_cast<int32_t>(B[k][j]));
        lanes[l]->asmOut[r] = acc;
      } else {
        float acc = bitsf(c[r]);
        for (int k = 0; k < K; ++k) acc = __builtin_fmaf(A[i][k], B[k][j], acc);
        lanes[l]->asmOut[r] = fbits(acc);
      }
    }
  }
}

}  // namespace td::cpu
