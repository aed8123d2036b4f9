// Shared writes no other thread's write can meet. A plain store that is the only access to its array in
// every barrier interval it runs in (barrier_intervals.h: no read, no other write shares them) can race only
// with itself, run by other threads or in other iterations of its loop. Where its byte offset in the array is
//   uniform + a * threadIdx.x + b * k
// (uniform: the same for every thread of the block — arguments, blockIdx, blockDim, constants; k: the
// iteration of its innermost loop), every thread writes its own bytes when the launch has
//   blockDim.y == blockDim.z == 1,  |a| >= the store's size,  |b| >= blockDim.x * |a|
// — the tile loads of a tiled kernel (`As[i / BK][i % BK]` for i from threadIdx.x by blockDim.x), whose race
// checks were most of the race family's cost on the GPU. Such a store needs no race check; the condition is
// a value computed where the store is (the launch's sizes fold it to a constant on the GPU), and a launch that
// breaks it keeps the check: two threads writing one element are still found.
//
// Only loops that are the store's innermost may lack a barrier: an outer loop without one would let two
// threads run the store in different outer iterations within one interval.
#pragma once
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace td {

class DisjointWrites {
 public:
  explicit DisjointWrites(llvm::Function& f);
  // The condition (i1, built before `store`) under which every thread's executions of `store` write bytes
  // of their own, `size` bytes at `ptr` into a shared array; null where the offset is not of that form.
  llvm::Value* condition(llvm::StoreInst& store, llvm::Value* ptr, uint64_t size);

 private:
  llvm::DominatorTree dt_;
  llvm::LoopInfo li_;
};

}  // namespace td
