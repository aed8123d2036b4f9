// The site table: every instrumented place in the kernel, by id. Records carry only the id; the host
// decodes it to file:line, access kind and object. Filled by the passes, read by the collector.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class Function;
class Instruction;
}

namespace td {

struct SourceLoc {
  std::string file;  // as clang saw it (absolute for bundle sources)
  unsigned line = 0, col = 0;
  std::string function;  // demangled, without parameters
  std::string helper;    // "tl::cp_async_gs at copy.h:42:5" when the access is inside a header's function
  std::string python;    // "gemm.py:14" where the bundle maps generated lines to the script (TileLang)
  std::string str() const;  // "file:line:col"
};

enum class SiteKind { Load, Store, Atomic, MemIntrinsic, Barrier, WarpOp, AsmStatement, Loop, Stop, FloatOp, Accumulator };
enum class Space { Global, Shared, Unknown };

struct SharedObject {
  std::string name;            // the variable's name as written ("As")
  uint64_t bytes = 0;          // 0 for the dynamic (extern) array
  std::vector<uint64_t> dims;  // array dimensions, outermost first ({} for the dynamic array)
  unsigned elemSize = 1;
  unsigned align = 1;
  bool dynamic = false;
};

struct Site {
  SiteKind kind = SiteKind::Load;
  SourceLoc loc;
  unsigned size = 0;        // access width in bytes
  unsigned align = 1;       // alignment the access needs
  Space space = Space::Unknown;
  int object = -1;          // kernel argument index (Global) or shared object id (Shared); -1 unknown
  std::string what;         // barriers and warp ops: the operation ("__syncthreads", "shfl.sync.bfly");
                            // stops: "assert(i < n)" or "__trap()"; numerics stores: the stored type
  std::string roundedThrough;  // numerics stores: a narrower type the value was rounded to on its way ("")
  int origin = -1;             // numerics stores: the accumulator site (a loop's FP phi) the value comes from
  unsigned updatesPerStep = 0; // numerics accumulators: operations that update it per iteration of its loop
  uint64_t objectBytes = 0;    // containment: the size of the local array or variable named by `what`
  bool isWrite() const { return kind == SiteKind::Store; }
};

// Site::what of containment's check of a call through a function pointer (its record has no access width).
inline constexpr const char* kIndirectCallSite = "a call through a function pointer";

// The word a finding uses for a memory access: "read", "write", "atomic", "copy"; "" for other sites.
inline const char* accessName(SiteKind k) {
  switch (k) {
    case SiteKind::Load: return "read";
    case SiteKind::Store: return "write";
    case SiteKind::Atomic: return "atomic";
    case SiteKind::MemIntrinsic: return "copy";
    default: return "";
  }
}

struct SiteTable {
  std::vector<Site> sites;
  std::vector<SharedObject> shared;
  std::vector<std::string> unchecked;  // what the checks could not see in this kernel, for the report
  unsigned add(Site s);
};

// Site id attached to an instruction as metadata !td.site, or -1.
int siteOf(const llvm::Instruction& inst);
void tagSite(llvm::Instruction& inst, unsigned id);

// Where an instruction is in the user's source: the innermost inlined location outside tile-doctor's
// prelude, so a bad access inside atomicAdd() is reported at the user's call; inside another header's
// function, the innermost call in the kernel's own file (the header location goes to `helper`).
SourceLoc userLocation(const llvm::Instruction& inst);
// Where a function is defined (its DISubprogram); only `function` without debug info.
SourceLoc definitionLocation(const llvm::Function& f);

}  // namespace td
