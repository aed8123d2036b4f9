// ORC JIT for the retargeted kernel module: optimises it for the host CPU (O2), binds the host ABI, libm
// for the __nv_* math functions and the run's addresses, and returns the trampoline's address. The object
// code of a module seen before comes from the object cache (object_cache.h) instead.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>

namespace llvm {
class Module;
class LLVMContext;
class DataLayout;
namespace orc {
class LLJIT;
}
}  // namespace llvm

namespace td::cpu {

class KernelObjectCache;

class CpuJit {
 public:
  CpuJit();
  ~CpuJit();
  const llvm::DataLayout& dataLayout() const;
  const std::string& triple() const { return triple_; }
  // Optimises and compiles `m` (which owns nothing else of ctx), binding `addressSymbols` (bake.h) to
  // their addresses; throws InputError for a math function the host cannot provide.
  void add(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx,
           const std::map<std::string, uint64_t>& addressSymbols = {});
  void* lookup(const std::string& name);
  void* find(const std::string& name);  // nullptr when the module does not define it

 private:
  std::unique_ptr<KernelObjectCache> objectCache_;  // outlives the JIT, which holds a pointer to it
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::string triple_, cpu_, features_;
};

}  // namespace td::cpu
