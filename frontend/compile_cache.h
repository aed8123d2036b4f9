// Clang's output for a kernel source, kept between runs: parsing the CUDA SDK, TileLang's templates and
// CUTLASS is most of a check's compile time, and a script's launches compile the same source again and
// again. An entry is keyed by tile-doctor's own executable, clang's whole command line and the source's
// bytes, and holds the bitcode with the size and modification time of every file the preprocessor read;
// it is used only while all of those still match. Entries are written under a temporary name and renamed,
// so concurrent runs share the cache safely.
#pragma once
#include <memory>
#include <string>

#include "frontend/cache_files.h"
#include "frontend/compiler.h"

namespace td {

// compileCuda for a source on disk, through the cache.
std::unique_ptr<llvm::Module> compileCudaCached(llvm::LLVMContext& ctx, const std::string& path,
                                                const CompileOptions& opts);

// compileCuda for a source tile-doctor carries in its binary (`name` for diagnostics), through the cache.
std::unique_ptr<llvm::Module> compileEmbeddedCached(llvm::LLVMContext& ctx, const std::string& name,
                                                    const std::string& text, const CompileOptions& opts);

}  // namespace td
