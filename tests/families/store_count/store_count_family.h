// A test-only check family, "store-count": counts the stores of every source site, on either executor,
// and reports each store site with its count. It exists to show that a family is one folder and one
// registration (docs/architecture.md, "Adding a check family"): its pass, its device source, its region,
// its decoder and its rule are all here, and no executor or collector names it.
#pragma once
#include "model/family.h"

namespace td::test {

inline constexpr const char* kStoreCountKind = "store-count";

// The family, its device files read from this folder.
Family storeCountFamily();
// Registered while it lives: the family list is the process's, and other tests must not see it.
struct ScopedStoreCountFamily {
  ScopedStoreCountFamily();
  ~ScopedStoreCountFamily();
  bool added;
};

}  // namespace td::test
