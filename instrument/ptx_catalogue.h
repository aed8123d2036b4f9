// The inline-PTX catalogue: which asm statements tile-doctor understands, what memory they touch and
// which CPU semantics run them. One table serves the passes (memory effects) and the CPU executor.
#pragma once
#include <optional>
#include <string>

namespace td {

enum class PtxOp {
  CpAsync,        // cp.async.{ca,cg}.shared.global [dst], [src], size[, src_size]
  CpAsyncCommit,  // cp.async.commit_group
  CpAsyncWait,    // cp.async.wait_group N / cp.async.wait_all
  LdMatrix,       // ldmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16
  MmaF16F32,      // mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
};

struct PtxStatement {
  PtxOp op;
  int count = 0;        // ldmatrix: matrices (1, 2, 4); cp.async: bytes; wait_group: N (-1: from operand)
  bool trans = false;   // ldmatrix .trans
  bool srcSize = false; // cp.async with a src-size operand (zero fill)
  bool waitAll = false;
};

// Recognises an asm string (whitespace-insensitive). nullopt: not in the catalogue.
std::optional<PtxStatement> parsePtx(const std::string& asmText);

// Why an unknown statement is unknown, for the error message ("Hopper-only: TMA", ...), or "".
std::string ptxLimitation(const std::string& asmText);

}  // namespace td
