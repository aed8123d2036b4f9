// ORC JIT for the retargeted kernel module: optimises it for the host CPU (O2), binds the host ABI and
// libm for the __nv_* math functions, and returns the trampoline's address.
#pragma once
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

class CpuJit {
 public:
  CpuJit();
  ~CpuJit();
  const llvm::DataLayout& dataLayout() const;
  const std::string& triple() const { return triple_; }
  // Optimises and compiles `m` (which owns nothing else of ctx); throws InputError for a math
  // function the host cannot provide.
  void add(std::unique_ptr<llvm::Module> m, std::unique_ptr<llvm::LLVMContext> ctx);
  void* lookup(const std::string& name);

 private:
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  std::string triple_;
};

}  // namespace td::cpu
