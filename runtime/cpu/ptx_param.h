// The 32 bits retarget.cpp gives the CPU executor's __td_cpu_asm hook beside a catalogue statement's
// opcode (instrument/ptx_catalogue.h): the parts of the statement the CPU semantics read, packed by one
// function and unpacked by its inverse, so the layout is written once.
#pragma once
#include <cstdint>

#include "instrument/ptx_catalogue.h"

namespace td::cpu {

inline bool isMbarrierOp(PtxOp op) {
  return op == PtxOp::MbarInit || op == PtxOp::MbarArrive || op == PtxOp::MbarTryWait || op == PtxOp::MbarWait ||
         op == PtxOp::CpAsyncMbarArrive;
}

// mbarrier statements: the address and value operands (+1, 0 for none) and .noinc. The others: bits 0-7
// count (matrices, bytes, wait_group N; 0xff: from operand 0), 8 trans, 9 src-size, 10 wait_all, 11 k = 64, 13 ticket,
// 12 s4/u4 mma, 16-17 mma input type, 18 k = 16, 20 k = 32 (otherwise 8), 19 f16 accumulators, 21-23 size operand + 1, 24-26 src-size operand + 1, 27 s8/u8
// mma, 28/29 a/b unsigned (fp8: E5M2), 30 satfinite, 31 fp8 mma.
inline uint32_t packPtxParam(const PtxStatement& st) {
  if (isMbarrierOp(st.op))
    return static_cast<uint32_t>(st.addrOperand + 1) | (static_cast<uint32_t>(st.valueOperand + 1) << 4) |
           (st.noinc ? 1u << 8 : 0);
  return static_cast<uint32_t>(st.count & 0xff) | (st.trans ? 1u << 8 : 0) | (st.srcSize ? 1u << 9 : 0) |
         (st.waitAll ? 1u << 10 : 0) | (st.k == 64 ? 1u << 11 : 0) | (st.ticket ? 1u << 13 : 0) | (st.elementBits == 4 ? 1u << 12 : 0) |
         (static_cast<uint32_t>(st.type) << 16) | (st.k == 16 ? 1u << 18 : 0) |
         (st.k == 32 ? 1u << 20 : 0) | (st.f16Accum ? 1u << 19 : 0) | (static_cast<uint32_t>(st.sizeOperand + 1) << 21) |
         (static_cast<uint32_t>(st.srcSizeOperand + 1) << 24) | (st.integer ? 1u << 27 : 0) |
         (st.aUnsigned ? 1u << 28 : 0) | (st.bUnsigned ? 1u << 29 : 0) | (st.satfinite ? 1u << 30 : 0) |
         (st.fp8 ? 1u << 31 : 0);
}

inline PtxStatement unpackPtxParam(PtxOp op, uint32_t p) {
  PtxStatement st{op};
  auto bit = [p](int n) { return ((p >> n) & 1) != 0; };
  if (isMbarrierOp(op)) {
    st.addrOperand = static_cast<int>(p & 0xf) - 1;
    st.valueOperand = static_cast<int>((p >> 4) & 0xf) - 1;
    st.noinc = bit(8);
    return st;
  }
  st.count = static_cast<int>(p & 0xff);
  st.trans = bit(8);
  st.srcSize = bit(9);
  st.waitAll = bit(10);
  st.ticket = bit(13);
  st.type = static_cast<MmaType>((p >> 16) & 3);
  st.f16Accum = bit(19);
  st.sizeOperand = static_cast<int>((p >> 21) & 7) - 1;
  st.srcSizeOperand = static_cast<int>((p >> 24) & 7) - 1;
  st.integer = bit(27);
  st.aUnsigned = bit(28);
  st.bUnsigned = bit(29);
  st.satfinite = bit(30);
  st.fp8 = bit(31);
  st.k = bit(18) ? 16 : bit(20) ? 32 : bit(11) ? 64 : 8;
  st.elementBits = bit(12) ? 4 : 8;
  return st;
}

}  // namespace td::cpu
