// Compiles CUDA-dialect source to NVPTX LLVM IR in-process with clang 19 and debug line tables — with
// tile-doctor's device prelude (no CUDA SDK needed) or against the CUDA SDK — or loads an NVPTX .ll/.bc file.
#pragma once
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm
namespace clang {
class FrontendAction;
}  // namespace clang

namespace td {

struct CompileOptions {
  std::vector<std::string> flags;        // extra clang flags (-D..., -I...)
  std::vector<std::string> includeDirs;
  std::string arch = "sm_80";            // PTX target the IR is generated for
  std::string optLevel = "-O3";          // before instrumentation
  // Empty: tile-doctor's prelude on clang's CUDA headers (no SDK). Else the CUDA SDK at this path, through
  // clang's CUDA wrapper headers, as real TileLang/CUTLASS code needs.
  std::string cudaSdk;
  bool selfContained = false;  // a preprocessed source (clang -E output): no headers at all
  // "cuda", "hip" or "maca": HIP or MACA source (frontend/hip_dialect.h) compiled by the same CUDA frontend.
  std::string dialect = "cuda";
  // More files in the prelude folder, by path relative to it (the check families' device files).
  std::vector<std::pair<std::string, std::string>> preludeFiles;
  // Folders besides the source's own, its include folders and the toolchain's where the compile may open
  // files (frontend/read_roots.h): the bundle's folder.
  std::vector<std::string> readRoots;
};

// The CUDA SDK to compile against: $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda; empty when none has
// include/cuda_runtime.h.
std::string findCudaSdk();

// How long clang may run on one source before it is stopped (bad input naming the file): the CLI sets
// max(--timeout, 120 s), since a cold compile of CUTLASS-heavy code takes seconds; 600 s until set.
void setCompileTimeLimit(double seconds);

// Clang runs in a child process (frontend/isolated.h). `path` names the file for diagnostics; `text` is its content when it does not exist on disk
// (the embedded device runtime), else empty. `filesRead`, when given, receives every file the
// preprocessor entered (for the compile cache). Throws InputError carrying clang's diagnostics.
std::unique_ptr<llvm::Module> compileCuda(llvm::LLVMContext& ctx, const std::string& path, const CompileOptions& opts,
                                          const std::string& text = {}, std::vector<std::string>* filesRead = nullptr);

// compileCuda's module as the bitcode the child wrote (what the compile cache stores as it is), and a
// module read from such bitcode (`name` for messages).
std::string compileCudaToBitcode(const std::string& path, const CompileOptions& opts, const std::string& text = {},
                                 std::vector<std::string>* filesRead = nullptr);
std::unique_ptr<llvm::Module> moduleFromBitcode(llvm::LLVMContext& ctx, const std::string& bitcode,
                                                const std::string& name);

// Runs any clang action (code generation, an AST walk) on the source with compileCuda's command line and
// virtual headers; throws InputError carrying clang's diagnostics when the source does not compile.
void runClangAction(const std::string& path, const CompileOptions& opts, clang::FrontendAction& action,
                    const std::string& text = {}, std::vector<std::string>* filesRead = nullptr);

// The clang command line compileCuda runs (what the compile cache keys on).
std::vector<std::string> clangArguments(const std::string& path, const CompileOptions& opts);

// `amdgpuToo`: AMDGPU IR (amdgcn-*) is accepted beside NVPTX IR (tile-doctor instrument).
std::unique_ptr<llvm::Module> loadIR(llvm::LLVMContext& ctx, const std::string& path, bool amdgpuToo = false);

}  // namespace td
