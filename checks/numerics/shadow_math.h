// The wide twin of a math operation, for the numerics family's shadows: the libdevice function or LLVM
// intrinsic a kernel calls on float (or half) values, computed again on the shadows in double. A math
// call whose twin is unknown gets no computed shadow (the pass starts a fresh one from its result).
#pragma once
#include <string>

#include <llvm/ADT/StringRef.h>

namespace td {

struct MathTwin {
  std::string name;      // the operation as reports name it ("expf", "sqrt")
  std::string wide;      // libdevice double function ("__nv_exp"), or "" for an intrinsic or an operator
  unsigned intrinsic = 0;  // llvm::Intrinsic::ID to call on the wide type, 0 for none
  bool divide = false;   // __nv_fdividef: a plain division
};

// The twin of a call to `callee` (a libdevice float function or an FP intrinsic); false: none known.
bool mathTwinOf(llvm::StringRef callee, unsigned intrinsicId, MathTwin& out);

}  // namespace td
