// Offsets as sums of leaves times constants (threadIdx.x, values the same for every thread of a block,
// anything else), for the race pass's proofs that threads touch bytes of their own (disjoint_writes.h,
// own_bytes.h).
#pragma once
#include <cstdint>
#include <optional>
#include <llvm/ADT/MapVector.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/Value.h>

namespace td {

// What a leaf of an offset is to the threads of one block.
enum class Leaf {
  Thread,   // threadIdx.x
  Uniform,  // the same value for every thread of the block: an argument, blockIdx, blockDim, a constant address
  Varying,  // anything else (another thread index, a load, a division of a thread-dependent value)
};

// An integer as a sum of leaves times constant coefficients, plus a constant: exact where the arithmetic
// does not wrap (the flags that say so are required under extensions). A division stays a leaf of its own,
// so `64 * (i / 32) + 2 * (i - 32 * (i / 32))` comes out as 2 * i.
struct Affine {
  int64_t constant = 0;
  llvm::MapVector<llvm::Value*, int64_t> terms;
  bool overflowed = false;  // a coefficient past 64 bits: nothing is known

  void add(const Affine& o, int64_t scale) {
    overflowed |= o.overflowed || addScaled(constant, o.constant, scale);
    for (auto& [v, c] : o.terms) overflowed |= addScaled(terms[v], c, scale);
  }
  static bool addScaled(int64_t& into, int64_t c, int64_t scale) {
    int64_t product = 0;
    return __builtin_mul_overflow(c, scale, &product) || __builtin_add_overflow(into, product, &into);
  }
  bool isConstant() const {
    for (auto& [v, c] : terms)
      if (c) return false;
    return true;
  }
};

// The NVVM special register `v` reads (an intrinsic id), or not_intrinsic.
unsigned sregOf(const llvm::Value* v);
// blockDim, blockIdx, gridDim: one value for the block.
bool uniformSreg(unsigned id);
// The same for every thread of the block: arguments, constants, blockIdx and blockDim, and arithmetic of
// them (`blockIdx.y * 64` without its no-wrap flags stays one leaf; it is uniform all the same).
bool isUniform(const llvm::Value* v, unsigned depth = 0);
Leaf leafKind(const llvm::Value* v);
// Below 2^(bits - 1), so its signed and unsigned readings agree: LLVM's known bits, or CUDA's limits on
// thread and block indices and what shifts, divisions and non-wrapping arithmetic keep of them.
bool knownNonNegative(const llvm::Value* v, const llvm::DataLayout& dl);

class OffsetForm {
 public:
  explicit OffsetForm(const llvm::DataLayout& dl) : dl_(dl) {}
  Affine of(llvm::Value* v, unsigned depth = 0);

 private:
  bool exact(llvm::Operator* op) const;
  std::optional<Affine> unsignedForm(llvm::Value* v, unsigned depth);
  static std::optional<Affine> combined(unsigned opcode, const Affine& l, const Affine& r);
  Affine arithmetic(llvm::Operator* op, unsigned depth);
  const llvm::DataLayout& dl_;
};

// blockDim.y == 1 && blockDim.z == 1 (i1, built at the builder): the launches where threadIdx.x alone tells
// two threads of a block apart, which both proofs need.
llvm::Value* oneRowOfThreads(llvm::IRBuilder<>& b);

// A uniform leaf that can be had anywhere in the kernel, at most 32 bits: an argument, a constant, blockDim,
// blockIdx or gridDim (read again).
bool rebuildable(const llvm::Value* v);
llvm::Value* rebuild(llvm::IRBuilder<>& b, llvm::Value* v);

}  // namespace td
