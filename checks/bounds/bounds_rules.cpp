// The rules of the bounds family's finding kinds (model/rules.h lists every kind's id).
#include "model/rules.h"

namespace td {

std::vector<Rule> boundsRules() {
  return {
      {rule::GlobalOutOfBounds, "bounds", Severity::Error, "Access outside a global buffer",
       "A load, store, atomic or copy reached global memory outside every buffer the kernel was given, or outside "
       "the one its pointer came from. The access was skipped (a read returned 0), so the run went on.",
       "Guard the index against the buffer's extent (edge tiles: `if (row < M && col < N)`), or fix the index "
       "arithmetic; the coordinates say which element it meant.",
       fields::access},
      {rule::SharedOutOfBounds, "bounds", Severity::Error, "Access outside a shared array",
       "An access left the __shared__ array (or the dynamic shared memory) its pointer came from.",
       "Size the shared tile for the block (padding included), or fix the index; on MetaX the whole block gets "
       "64 KiB.",
       fields::access},
      {rule::MisalignedAccess, "bounds", Severity::Error, "Misaligned access",
       "A vector or wide access at an address that is not a multiple of its width; the GPU faults on it.",
       "Align the buffer or the offset to the access width, or access narrower elements.", fields::access},
  };
}

}  // namespace td
