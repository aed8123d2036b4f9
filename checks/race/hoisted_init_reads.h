// Init checks moved out of loops. A shared read that no write of its array can share a barrier interval
// with (barrier_intervals.h) reads bytes whose init state cannot change while its loop runs, when the loop
// holds no barrier: nobody writes the array then. Its init check can then run before the loop, once per
// element the loop will read — a strided range, from the address's affine recurrence and the loop's trip
// count — and the loop itself runs as it would unchecked (the GEMM's compute loop: eight hooks an
// iteration before, none after).
//
// Only where the check stays exact: the read runs once in every iteration (its block dominates the latch,
// the latch is the only exit), so every element checked is one the loop reads; the reported offset, thread
// and site are the read's own.
#pragma once
#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <memory>
#include <optional>

namespace td {

// Where a loop's reads of one array element after another are checked: before `before` (the preheader's
// end), `count` elements (i64) at byte offsets `first` (i64, in the array) + k * `stride`.
struct HoistedRead {
  llvm::Instruction* before;
  llvm::Value* first;
  llvm::Value* count;
  int64_t stride;
};

class LoopReadRanges {
 public:
  explicit LoopReadRanges(llvm::Function& f);
  ~LoopReadRanges();
  // The range of a quiet read `load` of `var` (a read no write shares an interval with), or nothing where
  // its loop, its address or its trip count does not allow the move. Inserts the range's arithmetic.
  std::optional<HoistedRead> of(llvm::LoadInst& load, llvm::Value* ptr, const llvm::GlobalVariable& var);

 private:
  llvm::DominatorTree dt_;
  llvm::LoopInfo li_;
  llvm::TargetLibraryInfoImpl tlii_;
  llvm::TargetLibraryInfo tli_;
  llvm::AssumptionCache ac_;
  std::unique_ptr<llvm::ScalarEvolution> se_;
};

}  // namespace td
