// What a target does differently from NVIDIA with the same source: statements it does not execute (a
// profile's `ignores`). MetaX's MACA: a partial (named) barrier — a barrier with a thread count — is
// empty there ("all threads will sync in a warp in maca, does not need partial version",
// tilelang-metax tl_templates/maca/common.h), so the threads it orders on NVIDIA are not ordered.
// Dropped from the module before instrumentation, so the checks see the program the target runs.
#pragma once
#include <string>
#include <vector>

#include "model/site_table.h"

namespace llvm {
class Module;
}

namespace td {

struct IgnoredStatement {
  std::string semantics;  // one of targetSemanticsNames() (frontend/profile.h): why it is not executed
  std::string what;       // the statement, as the source wrote it
  SourceLoc loc;
};

// Removes what `ignores` names from the module's functions; returns what was removed, in module order.
std::vector<IgnoredStatement> dropIgnoredStatements(llvm::Module& m, const std::vector<std::string>& ignores);

}  // namespace td
