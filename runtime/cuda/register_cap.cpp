#include "runtime/cuda/register_cap.h"

#include <algorithm>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include "profiler/occupancy.h"

namespace td::cuda {

namespace {
constexpr int64_t kMostRegistersPerThread = 255;  // NVIDIA's per-thread maximum from compute capability 3.5 on
}

int64_t registerCap(const KernelResources& asWritten, int64_t checkedSharedPerBlock, int64_t threadsPerBlock,
                    const Profile& sm) {
  if (asWritten.registers <= 0 || threadsPerBlock <= 0 || sm.registersPerSm <= 0) return 0;
  int64_t wanted = occupancyOf({threadsPerBlock, asWritten.sharedPerBlock, asWritten.registers}, sm).blocksPerSm;
  int64_t room = occupancyOf({threadsPerBlock, checkedSharedPerBlock, 0}, sm).blocksPerSm;  // all but registers
  int64_t target = std::min(wanted, room);
  if (target <= 0) return 0;
  auto blocksAt = [&](int64_t r) { return occupancyOf({threadsPerBlock, checkedSharedPerBlock, r}, sm).blocksPerSm; };
  if (blocksAt(kMostRegistersPerThread) >= target) return 0;
  int64_t cap = kMostRegistersPerThread;
  while (cap > asWritten.registers && blocksAt(cap) < target) --cap;
  return cap;
}

bool capRegisters(llvm::Module& m, const std::string& entry, int64_t cap) {
  llvm::Function* kernel = m.getFunction(entry);
  if (!kernel || cap <= 0) return false;
  llvm::LLVMContext& ctx = m.getContext();
  llvm::NamedMDNode* annotations = m.getOrInsertNamedMetadata("nvvm.annotations");
  for (const llvm::MDNode* n : annotations->operands()) {
    if (n->getNumOperands() < 2) continue;
    auto* fn = llvm::mdconst::dyn_extract_or_null<llvm::Function>(n->getOperand(0));
    auto* key = llvm::dyn_cast_or_null<llvm::MDString>(n->getOperand(1));
    if (fn == kernel && key && key->getString() == "maxnreg") return false;
  }
  llvm::Metadata* node[] = {llvm::ConstantAsMetadata::get(kernel), llvm::MDString::get(ctx, "maxnreg"),
                            llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), cap))};
  annotations->addOperand(llvm::MDNode::get(ctx, node));
  return true;
}

}  // namespace td::cuda
