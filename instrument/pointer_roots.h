// Which object a pointer points into: a kernel argument, a __shared__ array, or unknown.
// Walks address arithmetic (GEPs, casts, phis, selects, int round trips) back to its source.
#pragma once
#include <llvm/ADT/DenseMap.h>

namespace llvm {
class Value;
class Function;
class GlobalVariable;
}  // namespace llvm

namespace td {

struct PointerRoot {
  enum Kind { Unknown, KernelArg, SharedVar, Local } kind = Unknown;  // Local: the thread's own stack
  unsigned argNo = 0;
  llvm::GlobalVariable* var = nullptr;
  bool operator==(const PointerRoot& o) const { return kind == o.kind && argNo == o.argNo && var == o.var; }
};

class PointerRoots {
 public:
  explicit PointerRoots(bool isKernel) : isKernel_(isKernel) {}
  PointerRoot of(llvm::Value* p);

 private:
  PointerRoot walk(llvm::Value* p, unsigned depth);
  bool isKernel_;
  llvm::DenseMap<llvm::Value*, PointerRoot> memo_;
  llvm::DenseMap<llvm::Value*, bool> inProgress_;
};

bool isKernel(const llvm::Function& f);

}  // namespace td
