// Barrier intervals of a kernel: the stretches of code between block-wide barriers (and the entry).
// Two threads in one epoch run code of one interval, so a shared read no write of its array shares an
// interval with cannot race (every write to it is ordered before or after by a barrier) and needs no
// race check - the compute phase of a tiled kernel, which only reads the tiles the load phase wrote.
// Sound where every thread passes the same barriers in the same order; where it does not, the sync
// family reports barrier divergence (the race pass uses these intervals only with it on).
#pragma once
#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>

namespace llvm {
class Loop;
}

namespace td {

// A call that makes every thread of the block wait for all the others (__syncthreads, bar.sync without
// a thread count, their reductions): what starts a new interval.
bool isFullBlockBarrier(const llvm::Instruction& i);
// Does such a barrier lie anywhere in the loop's body?
bool holdsFullBlockBarrier(const llvm::Loop& loop);

class BarrierIntervals {
 public:
  explicit BarrierIntervals(llvm::Function& kernel);
  // False when the kernel calls code whose barriers and writes this cannot see: then nothing is known.
  bool known() const { return known_; }
  // The intervals `i` may run in (bit k: the k-th start, 0 the entry).
  const llvm::BitVector& of(const llvm::Instruction* i) const;

 private:
  bool known_ = true;
  unsigned starts_ = 1;
  llvm::DenseMap<const llvm::Instruction*, llvm::BitVector> at_;
  llvm::BitVector none_;
};

}  // namespace td
