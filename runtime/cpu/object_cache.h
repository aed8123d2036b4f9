// Host object code of instrumented kernels, kept between runs: optimising and compiling the retargeted
// module is most of what a repeated check of an unchanged kernel pays. The module carries no address of
// this run (bake.h turns them into symbols bound at link time), so its bitcode, with the host CPU, its
// features and tile-doctor's own identity, is the key. Entries live in cacheDir()/objects.
#pragma once
#include <llvm/ExecutionEngine/ObjectCache.h>
#include <memory>
#include <string>

namespace llvm {
class Module;
class MemoryBuffer;
}  // namespace llvm

namespace td::cpu {

// The entry name of module `m` for host `cpu` with `features`; "" when the cache is off.
std::string objectKey(const llvm::Module& m, const std::string& cpu, const std::string& features);

// The module identifier that makes KernelObjectCache store a compiled module under `key`.
std::string objectCacheIdentifier(const std::string& key);

// ORC's cache hook: modules whose identifier is a key (objectKey) are looked up and stored by it.
class KernelObjectCache : public llvm::ObjectCache {
 public:
  void notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef object) override;
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module* m) override;
  // The stored object for `key`, or null.
  static std::unique_ptr<llvm::MemoryBuffer> load(const std::string& key);
};

}  // namespace td::cpu
