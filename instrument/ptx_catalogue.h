// The inline-PTX catalogue: which asm statements tile-doctor understands, what memory they touch and
// which CPU semantics run them. One table serves the passes (memory effects) and the CPU executor.
#pragma once
#include <optional>
#include <string>

namespace td {

// The device function through which the CPU executor lands an asynchronous copy (cp.async, MACA's
// memcpy_async) when its thread waits for it (frontend/prelude): plain stores of the copied bytes by that
// thread at that moment, so every check sees the write where it happens, not only where it was issued.
// Its destination (argument 0) is shared memory.
constexpr const char* kAsyncCopyLanding = "tile_doctor_async_copy_lands";

enum class PtxOp {
  CpAsync,        // cp.async.{ca,cg}.shared.global [dst], [src], size[, src_size]
  CpAsyncCommit,  // cp.async.commit_group; td.cp.async.commit_ticket d: the same, d = the group's number
  CpAsyncWait,    // cp.async.wait_group N / cp.async.wait_all; td.cp.async.wait_ticket t: the groups up to t land
                  // (the td. forms are tile-doctor's own, never real PTX: MACA's memcpy_async tickets,
                  // frontend/prelude/td_maca.h)
  LdMatrix,       // ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16
  Mma,            // mma.sync.aligned.m16n8k{8,16}.row.col.{f32,f16}.{f16,bf16,tf32}x2.{f32,f16}, and
                  // m16n8k{16,32}.row.col[.satfinite].s32.{s8,u8}.{s8,u8}.s32,
                  // m16n8k32.row.col.{f32,f16}.{e4m3,e5m2}.{e4m3,e5m2}.{f32,f16}
  Mfma,           // td.mfma.{f32,i32}.{16x16,32x32}xK.{f16,bf16,f32,tf32,i8,fp8,bf8} {d}, {a}, {b}, {c}: tile-doctor's
                  // pseudo-instruction for a wave-64 matrix builtin (AMD MFMA, MetaX MXC MMA;
                  // frontend/prelude/td_matrix64.h), never real PTX;
                  // k = M = N, count = K, type / integer / fp8 (aUnsigned = bUnsigned = E5M2) the inputs
  StMatrix,       // stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16
  Shfl,           // shfl.sync.{idx,up,down,bfly}.b32 d, a, b, c, membermask
  Redux,          // redux.sync.{add,min,max,and,or,xor}.{s32,u32,b32} d, a, membermask
  Barrier,        // bar.sync / barrier.sync / bar.arrive id[, count]
  MbarInit,       // mbarrier.init.shared.b64 [addr], count
  MbarArrive,     // mbarrier.arrive.shared.b64 _, [addr]
  MbarTryWait,    // { mbarrier.try_wait.parity ...; selp.b32 d, 1, 0, P; }  (does not block)
  MbarWait,       // { LAB_WAIT: mbarrier.{try,test}_wait.parity ...; @P bra DONE; bra LAB_WAIT; DONE: }
  CpAsyncMbarArrive,  // cp.async.mbarrier.arrive[.noinc].shared.b64 [addr]
  Vote,           // vote.sync.ballot.b32 d, p, mask / vote.sync.{all,any,uni}.pred q, p, mask, with the
                  // setp (and selp) that carry the predicate in and out of a C++ asm statement
  CvtPack,        // cvt.rn.{f16,bf16}x2.f32 d, hi, lo  (two floats rounded and packed in one b32)
  Lop3,           // lop3.b32 d, a, b, c, immLut: any function of three bit vectors (dequantising GEMVs)
  Dp4a,           // dp4a.{s32,u32}.{s32,u32} d, a, b, c: c + the four byte products of a and b (__dp4a);
                  // operands[0..2] a, b, c, aUnsigned / bUnsigned the byte types
  CvtToFp8x2,     // cvt.rn.satfinite[.relu].{e4m3,e5m2}x2.f32 d, hi, lo: two floats to two fp8 bytes in a b16
  CvtFromFp8x2,   // cvt.rn.f16x2.{e4m3,e5m2}x2 d, a: two fp8 bytes to two halves (exact)
  ScopedLoad,     // ld.{relaxed,acquire}.{cta,gpu,sys}[.global].TYPE d, [a] and ld.volatile.TYPE (libcu++'s
                  // atomic_ref loads)
  ScopedStore,    // st.{relaxed,release}.{cta,gpu,sys}[.global].TYPE [a], b and st.volatile.TYPE (its stores)
  ScopedAtomic,   // atom[.SEM][.SCOPE][.global].OP[.noftz].TYPE d, [a], b[, c], either order of the qualifiers,
                  // OP in `atomic` (libcu++'s fetch_add/min/max/and/or/xor, exchange and compare_exchange; the
                  // SDK's atomicAdd on half, half2, bfloat16 and bfloat162)
  CvtFloatWidth,  // cvt.rn.f32.f64 d, a / cvt.f64.f32 d, a: double to float at round-to-nearest (no .ftz:
                  // subnormals kept), float to double (exact); the SDK's fp8 e8m0 conversions below sm_100
  Fence,          // fence.{sc,acq_rel,acquire,release}.{cta,gpu,sys}
  HalfScalar,     // the CUDA SDK's one-instruction half/bfloat16 helpers (cuda_fp16.hpp, cuda_bf16.hpp):
                  // cvt between f32/f64 and f16/bf16 (round to nearest), neg/abs of f16, bf16 and x2 pairs,
                  // mov.b32 packs of two 16-bit halves, the arithmetic and comparisons; `mode` says which
                  // (HalfScalarKind)
};

enum class HalfScalarKind : int {
  WidenF16,     // cvt.f32.f16 d, h; count 0 / 1: the low / high half of a pair (__low2float, __high2float)
  WidenBF16,    // cvt.f32.bf16 d, h
  NarrowF16,    // cvt.rn.f16.f32 d, f   (and .f64 sources: the operand's own type); count 2: into both
                // halves of a pair (__float2half2_rn)
  NarrowBF16,   // cvt.rn.bf16.f32 d, f
  FlipSign,     // neg.{f16,bf16}[x2]: the sign bit of each half (count: 1 or 2 halves)
  ClearSign,    // abs.{f16,bf16}[x2]
  Pack,         // mov.b32 d, {lo, hi}: operand numbers in valueOperand / addrOperand, 0 for a literal zero half
  Arith,        // {add,sub,mul}[.rn][.sat], fma.rn[.sat|.relu], {min,max}[.NaN] on f16/bf16[x2] (HalfOperation)
  Compare,      // setp.CMP + selp.u16 (__heq ...), set.CMP.{f16x2,bf16x2,u32}.{f16x2,bf16x2}, set.nan
  IntToHalf,    // cvt.rn.{f16,bf16}.{s,u}{16,32,64} (__int2half_rn ...)
  HalfToInt,    // cvt.r{n,z,m,p}i.{s,u}{8,16,32,64}.{f16,bf16} (__half2int_rz ...): saturating, NaN to 0
  Shuffle,      // pairs unpacked into named halves, then mov.b32 d, {x, y} or mov.b16 d, x (__low2half,
                // __lows2half2, __lowhigh2highlow ...): HalfOperation::pick
};

// atom's operations: Cas takes two values (compare, new), the rest one.
enum class ScopedAtomicOp : int { Add, Cas, Exch, Min, Max, And, Or, Xor };

enum class HalfArith : int { Add, Sub, Mul, Fma, Min, Max };
// PTX comparisons: the ordered six, their unordered forms (true where either operand is NaN), num, nan.
enum class HalfCompare : int { Eq, Ne, Lt, Le, Gt, Ge, Num, Nan };
enum class CompareResult : int {
  Bool,  // 0 or 1 (setp, then selp.u16 1, 0)
  One,   // per half 1.0 or 0.0 in the half type (set.CMP.f16x2.f16x2)
  Mask,  // per half 0xffff or 0 (set.CMP.u32.f16x2)
  Float, // 1.0f or 0 in a b32: the SDK's sm_80 bf16 comparison, both widened to f32 (set.CMP.f32.f32)
};

// One SDK half/bfloat16 arithmetic or comparison statement: the operation and its modifiers.
struct HalfOperation {
  HalfArith arith = HalfArith::Add;
  HalfCompare compare = HalfCompare::Eq;
  bool unordered = false;
  CompareResult result = CompareResult::Bool;
  bool bf16 = false;
  int lanes = 1;             // 1 (f16, bf16) or 2 (x2 pairs)
  bool saturate = false;     // .sat: clamp to [0, 1], NaN to +0
  bool relu = false;         // .relu: negative to +0, NaN stays NaN
  bool propagateNaN = false; // min/max .NaN: a NaN operand gives NaN (else the other operand)
  int src[3] = {1, 2, 3};    // the source operands' numbers
  int pick[2] = {0, 0};      // Shuffle: the result's low and high half, each operand * 2 + (1 for a high half)
  int intBits = 32;          // IntToHalf / HalfToInt: the integer's width and signedness,
  bool intSigned = true;
  char rounding = 'n';       // and HalfToInt's rounding: n(earest even), z(ero), m(inus inf), p(lus inf)
};

enum class MmaType : int { F16 = 0, BF16 = 1, TF32 = 2, F32 = 3 };

struct PtxStatement {
  PtxOp op;
  int count = 0;        // ldmatrix: matrices (1, 2, 4); cp.async: bytes; wait_group: N (-1: from operand)
  bool trans = false;   // ldmatrix .trans
  bool srcSize = false; // cp.async with a src-size operand (zero fill)
  int sizeOperand = -1;     // cp.async: the operand holding the copy size when it is not a literal ("n")
  int srcSizeOperand = -1;  // cp.async: the operand holding the src size
  bool waitAll = false;
  bool ticket = false;  // td.cp.async.{commit,wait}_ticket
  // mma: k (8 or 16); td.mfma: k = the tile edge M = N (16 or 32), count = K; input type, f16 accumulators; shfl: mode 0..3 (idx, up, down, bfly);
  // redux: 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor, signed; barrier: arrive (no wait), with a count
  int k = 16;
  MmaType type = MmaType::F16;
  bool f16Accum = false;
  bool integer = false, satfinite = false, aUnsigned = false, bUnsigned = false;  // mma on s8/u8/s4/u4 -> s32
  int elementBits = 8;  // integer mma: 8 (s8/u8) or 4 (s4/u4)
  bool fp8 = false;  // mma on e4m3/e5m2; aUnsigned / bUnsigned then say "E5M2"
  int mode = 0;
  bool isSigned = false;
  bool arrive = false;
  bool hasCount = false;
  int addrOperand = -1, valueOperand = -1;  // mbarrier: the address and the count / phase parity operands
  bool noinc = false;
  // vote: mode 0 all, 1 any, 2 uni, 3 ballot; valueOperand = the predicate's source, addrOperand unused.
  // cvt pack: k = 1 for bf16; valueOperand = the high half's source, mode = the low half's operand.
  // half scalar: mode = HalfScalarKind, count = halves (neg/abs), Pack: valueOperand = lo, addrOperand = hi
  // (-1 for a literal 0); Arith and Compare: `half`.
  HalfOperation half;
  // lop3: the three sources' operand numbers and the truth table (immediate, or lutOperand >= 0); the fp8
  // conversions: operands[0..1] the sources (hi, lo), aUnsigned = E5M2, relu.
  // ScopedLoad / ScopedStore / ScopedAtomic: `valueType` the PTX type ("f32", "u32", "f16x2" ...), `acquire`
  // for an ordering stronger than relaxed; `atomic` the read-modify-write.
  std::string valueType;
  bool acquire = false;
  ScopedAtomicOp atomic = ScopedAtomicOp::Add;
  int operands[3] = {-1, -1, -1};
  uint32_t immediate = 0;
  int lutOperand = -1;
  bool relu = false;
};

// bar.sync / bar.arrive: the asm operand holding the barrier id, and the one holding the thread count;
// -1 where it is an immediate (kept in `count` and `mode`) or, for the count, absent (`hasCount`).
inline int barrierIdOperand(const PtxStatement& st) { return st.count >= 0 ? -1 : 0; }
inline int barrierCountOperand(const PtxStatement& st) {
  return !st.hasCount || st.mode >= 0 ? -1 : barrierIdOperand(st) + 1;
}

// Statements the whole warp executes together (every lane's operands in, every lane's results out).
inline bool isWarpCollective(const PtxStatement& st) {
  return st.op == PtxOp::LdMatrix || st.op == PtxOp::StMatrix || st.op == PtxOp::Mma || st.op == PtxOp::Mfma;
}

// Bytes of a PTX value type ("f16x2": 4, "u64": 8).
inline unsigned ptxTypeBytes(const std::string& type) {
  unsigned bits = 0;
  for (char c : type) {
    if (c == 'x') break;
    if (c >= '0' && c <= '9') bits = bits * 10 + static_cast<unsigned>(c - '0');
  }
  return (bits / 8) * (type.find("x2") != std::string::npos ? 2 : 1);
}

// Recognises an asm string (whitespace-insensitive). nullopt: not in the catalogue.
std::optional<PtxStatement> parsePtx(const std::string& asmText);

// Why an unknown statement is unknown, for the error message ("Hopper-only: TMA", "half/bfloat16
// arithmetic written as PTX (add.f16), not emulated", ...), or "" for one no family names.
std::string ptxLimitation(const std::string& asmText);

}  // namespace td
