#include "model/hooks.h"

namespace td {

bool hookOfSymbol(std::string_view symbol, Hook& out) {
  if (!isOwnSymbol(symbol)) return false;
  std::string_view name = symbol.substr(kOwnPrefix.size());
  for (const HookInfo& h : kHooks)
    if (name == h.name) {
      out = h.id;
      return true;
    }
  return false;
}

}  // namespace td
