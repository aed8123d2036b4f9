// Memory no shadow ever differs from its value in: the numerics pass skips its hooks there. A shared tile
// filled by copying inputs (a GEMM's As and Bs) holds values whose shadows are the values themselves, so
// a load from it would only look up what it could compute; keeping shadow memory for it is the family's
// largest cost on the CPU executor. Memory is shadowless unless a store may write into it a value whose
// shadow the pass computes otherwise (the result of arithmetic, a rounding, a math call, an inline-PTX
// operation, or a load from memory that is not shadowless), followed through phis, selects, element and
// bit moves to a fixed point over the module.
#pragma once
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <set>
#include <tuple>

#include "instrument/pointer_roots.h"

namespace llvm {
class Function;
class GlobalVariable;
class Module;
class Value;
}  // namespace llvm

namespace td {

// Where the numerics hooks keep a pointer's shadows: space 0 a global buffer (object = the kernel argument),
// 1 shared memory (object = the shared object's id, -1 unknown), -1 neither (the thread's own memory).
struct ShadowMemory {
  int space = -1;
  int object = -1;
};
ShadowMemory shadowMemoryOf(PointerRoots& roots, llvm::Value* ptr,
                            const llvm::DenseMap<const llvm::GlobalVariable*, int>& sharedIds);

class ShadowlessMemory {
 public:
  ShadowlessMemory(llvm::Module& m, const llvm::DenseMap<const llvm::GlobalVariable*, int>& sharedIds);
  // `f`'s global buffer or a shared object (any function's): shadowless?
  bool shadowless(const llvm::Function& f, ShadowMemory at) const;
  // Whether a load of the module may read back the shadows a store to `at` (in `f`) leaves: a load of the
  // same buffer or shared object, or of shared memory it cannot tell apart.
  bool readBack(const llvm::Function& f, ShadowMemory at) const;
  // Whether the pass may give `v` a shadow other than its value (false: computed from inputs by moves only).
  bool mayCarryShadow(const llvm::Value* v) const { return computed_.count(v) != 0; }

 private:
  // (function, 0, argument) for global buffers, (nullptr, 1, id) for shared objects
  std::set<std::tuple<const llvm::Function*, int, int>> shadowful_;
  std::set<std::tuple<const llvm::Function*, int, int>> loaded_;  // the same keys: memory some load reads
  llvm::DenseSet<const llvm::Value*> computed_;
  std::tuple<const llvm::Function*, int, int> key(const llvm::Function& f, ShadowMemory at) const;
};

}  // namespace td
