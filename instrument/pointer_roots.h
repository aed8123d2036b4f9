// Which object a pointer points into: a kernel argument, a __shared__ array, or unknown.
// Walks address arithmetic (GEPs, casts, phis, selects, int round trips) back to its source, and a device
// function's pointer parameter back to what every call passes (the module is the whole program).
#pragma once
#include <llvm/ADT/DenseMap.h>

namespace llvm {
class Value;
class Argument;
class Function;
class GlobalVariable;
}  // namespace llvm

namespace td {

struct PointerRoot {
  // Local: the thread's own stack; SharedAny: a __shared__ array, which one only the run knows (a helper
  // called with several).
  enum Kind { Unknown, KernelArg, SharedVar, SharedAny, Local } kind = Unknown;
  unsigned argNo = 0;
  llvm::GlobalVariable* var = nullptr;
  bool operator==(const PointerRoot& o) const { return kind == o.kind && argNo == o.argNo && var == o.var; }
  bool shared() const { return kind == SharedVar || kind == SharedAny; }
};

class PointerRoots {
 public:
  PointerRoot of(llvm::Value* p);

 private:
  PointerRoot walk(llvm::Value* p, unsigned depth);
  PointerRoot fromCalls(llvm::Argument& arg, unsigned depth);
  llvm::DenseMap<llvm::Value*, PointerRoot> memo_;
  llvm::DenseMap<llvm::Value*, bool> inProgress_;
};

bool isKernel(const llvm::Function& f);

}  // namespace td
