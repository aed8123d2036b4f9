// The rules of the init family's finding kinds (model/rules.h lists every kind's id).
#include "model/rules.h"

namespace td {

std::vector<Rule> initRules() {
  return {
      {rule::UninitializedSharedRead, "init", Severity::Error, "Read of shared memory no thread wrote",
       "A thread read shared bytes that no thread of the block had written in this launch.",
       "Fill the tile before reading it (all of it, edges included), with a barrier between.", fields::access},
      {rule::UninitializedGlobalRead, "init", Severity::Error, "Read of an uninitialised buffer",
       "A kernel read bytes of a buffer marked init = \"uninit\" (torch.empty) that it had not written.",
       "Initialise the buffer, or read only what the kernel wrote.", fields::access},
  };
}

}  // namespace td
