#include "checks/race/disjoint_writes.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include "checks/race/affine_offsets.h"
#include "checks/race/barrier_intervals.h"

namespace td {

DisjointWrites::DisjointWrites(llvm::Function& f) : dt_(f), li_(dt_) {}

llvm::Value* DisjointWrites::condition(llvm::StoreInst& store, llvm::Value* ptr, uint64_t size) {
  if (!store.isSimple() || size == 0) return nullptr;
  const llvm::DataLayout& dl = store.getModule()->getDataLayout();
  OffsetForm form(dl);
  Affine offset = form.of(ptr);
  if (offset.overflowed) return nullptr;
  llvm::Loop* loop = li_.getLoopFor(store.getParent());
  for (llvm::Loop* outer = loop ? loop->getParentLoop() : nullptr; outer; outer = outer->getParentLoop())
    if (!holdsFullBlockBarrier(*outer)) return nullptr;
  // The innermost loop's counter: i = start + k * step, from its header phi.
  int64_t perStep = 0;  // the offset's coefficient of the counter
  Affine step;
  if (loop) {
    llvm::BasicBlock* preheader = loop->getLoopPredecessor();  // the one block entering it
    llvm::BasicBlock* latch = loop->getLoopLatch();
    llvm::PHINode* counter = nullptr;
    for (auto& [v, c] : offset.terms) {
      auto* phi = llvm::dyn_cast<llvm::PHINode>(v);
      if (!c || !phi || phi->getParent() != loop->getHeader()) continue;
      if (counter) return nullptr;  // two counters
      counter = phi;
    }
    if (llvm::PHINode* phi = counter) {
      if (!preheader || !latch) return nullptr;  // no plain loop
      Affine start = form.of(phi->getIncomingValueForBlock(preheader));
      // i + step or i - step: the counter's own increment, which the loop's bound keeps from wrapping.
      auto* next = llvm::dyn_cast<llvm::BinaryOperator>(phi->getIncomingValueForBlock(latch));
      if (!next || (next->getOpcode() != llvm::Instruction::Add && next->getOpcode() != llvm::Instruction::Sub))
        return nullptr;
      bool sub = next->getOpcode() == llvm::Instruction::Sub;
      if (next->getOperand(0) != phi && (sub || next->getOperand(1) != phi)) return nullptr;
      step.add(form.of(next->getOperand(next->getOperand(0) == phi ? 1 : 0)), sub ? -1 : 1);
      perStep = offset.terms[phi];
      offset.terms[phi] = 0;
      offset.add(start, perStep);
      if (offset.overflowed || step.overflowed) return nullptr;
    }
  }
  // The run-time arithmetic below stays inside 64 bits: small coefficients, a few 32-bit leaves.
  constexpr int64_t kCoefficient = int64_t{1} << 12, kConstant = int64_t{1} << 40;
  auto small = [&](int64_t c, int64_t limit) { return c > -limit && c < limit; };
  int64_t perThread = 0;
  for (auto& [v, c] : offset.terms) {
    if (!c) continue;
    Leaf kind = leafKind(v);
    if (kind == Leaf::Varying) return nullptr;
    if (kind == Leaf::Thread && Affine::addScaled(perThread, c, 1)) return nullptr;
  }
  unsigned stepLeaves = 0;
  for (auto& [v, c] : step.terms) {
    if (!c) continue;
    if (!rebuildable(v) || !small(c, kCoefficient) || ++stepLeaves > 4) return nullptr;
  }
  if (!small(perThread, kCoefficient) || !small(perStep, kCoefficient) || !small(step.constant, kConstant))
    return nullptr;
  if (perThread == 0 || static_cast<uint64_t>(perThread < 0 ? -perThread : perThread) < size) return nullptr;

  // blockDim.y == blockDim.z == 1, and |perStep * step| >= blockDim.x * |perThread|.
  llvm::IRBuilder<> b(&store);
  llvm::Type* i64 = b.getInt64Ty();
  auto dim = [&](llvm::Intrinsic::ID id) { return b.CreateZExt(b.CreateIntrinsic(b.getInt32Ty(), id, {}), i64); };
  llvm::Value* flat = oneRowOfThreads(b);
  if (!perStep) return flat;
  llvm::Value* stride = b.getInt64(step.constant);
  for (auto& [v, c] : step.terms) {
    if (!c) continue;
    llvm::Value* leafValue = rebuild(b, v);
    stride = b.CreateAdd(stride, b.CreateMul(b.CreateSExt(leafValue, i64), b.getInt64(c)));
  }
  stride = b.CreateMul(stride, b.getInt64(perStep));
  llvm::Value* magnitude = b.CreateSelect(b.CreateICmpSLT(stride, b.getInt64(0)), b.CreateNeg(stride), stride);
  llvm::Value* span = b.CreateMul(dim(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                                  b.getInt64(perThread < 0 ? -perThread : perThread));
  return b.CreateAnd(flat, b.CreateICmpUGE(magnitude, span));
}

}  // namespace td
