// The functions that cross floors by name (model/hooks.def), as C++ sees them: an id per function, its
// symbol, which floor defines it, and its C signature. Like sanitizer runtimes' interface headers, this is
// the one place those names and signatures are written; instrument/hook_functions.h makes LLVM
// declarations of them, and a test holds the device runtime's definitions to them.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace td {

enum class Hook : unsigned {
#define TD_HOOK(name, ...) name,
#include "model/hooks.def"
};

enum class HookFloor {
  Check,      // a check pass calls it; the device runtime defines it
  Primitive,  // the device runtime calls it; each executor lowers it
  HostCall,   // the CPU executor's lowered module calls it; its host runtime defines it
};

// Every symbol of tile-doctor's own in a kernel module starts so (hooks, primitives, its globals).
inline constexpr std::string_view kOwnPrefix = "__td_";
inline bool isOwnSymbol(std::string_view name) { return name.substr(0, kOwnPrefix.size()) == kOwnPrefix; }

// The hooks' C signatures, by name: hook_c::check_global is `uint32_t(uint32_t, uint32_t, void*, ...)`.
namespace hook_c {
using u1 = bool;
using u32 = uint32_t;
using s32 = int32_t;
using u64 = uint64_t;
using f32 = float;
using f64 = double;
using ptr = void*;
#define TD_HOOK(name, ret, ...) using name = ret(__VA_ARGS__);
#include "model/hooks.def"
}  // namespace hook_c

// The C signature of a hook by id: HookSignature<Hook::check_global> is hook_c::check_global.
template <Hook H>
struct HookSignatureOf;
#define TD_HOOK(name, ...)                \
  template <>                             \
  struct HookSignatureOf<Hook::name> {    \
    using type = hook_c::name;            \
  };
#include "model/hooks.def"
template <Hook H>
using HookSignature = typename HookSignatureOf<H>::type;

struct HookInfo {
  Hook id;
  const char* name;  // without the prefix
  HookFloor floor;
};

inline constexpr HookInfo kHooks[] = {
#define TD_HOOK(name, ...) {Hook::name, #name, HookFloor::Check},
#define TD_PRIMITIVE(name, ...) {Hook::name, #name, HookFloor::Primitive},
#define TD_HOST_CALL(name, ...) {Hook::name, #name, HookFloor::HostCall},
#include "model/hooks.def"
};

inline const HookInfo& hookInfo(Hook h) { return kHooks[static_cast<unsigned>(h)]; }
// The symbol in a module: "__td_" and the name.
inline std::string hookSymbol(Hook h) { return std::string(kOwnPrefix) + hookInfo(h).name; }
// Variables of tile-doctor's own that cross floors by name.
enum class OwnGlobal {
#define TD_GLOBAL(name) name,
#include "model/hooks.def"
};
inline std::string globalSymbol(OwnGlobal g) {
  static const char* const names[] = {
#define TD_GLOBAL(name) #name,
#include "model/hooks.def"
  };
  return std::string(kOwnPrefix) + names[static_cast<unsigned>(g)];
}

// The hook of that symbol; false where it is none.
bool hookOfSymbol(std::string_view symbol, Hook& out);

// Whether a C function implements a hook's signature at the machine level: the same arity and each type
// alike, any pointer standing for `ptr` (a host runtime's functions take their own pointer types).
namespace hook_detail {
template <typename Want, typename Have>
constexpr bool sameAbiType() {
  if constexpr (std::is_pointer_v<Want>) return std::is_pointer_v<Have>;
  else return std::is_same_v<Want, Have>;
}
template <typename Want, typename Have>
struct SameSignature : std::false_type {};
template <typename WR, typename... WA, typename HR, typename... HA>
struct SameSignature<WR(WA...), HR(HA...)> {
  static constexpr bool value = [] {
    if constexpr (sizeof...(WA) != sizeof...(HA)) return false;
    else return sameAbiType<WR, HR>() && (sameAbiType<WA, HA>() && ...);
  }();
};
}  // namespace hook_detail
template <typename Want, typename Have>
inline constexpr bool implementsHook = hook_detail::SameSignature<Want, Have>::value;

}  // namespace td
