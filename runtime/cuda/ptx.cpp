#include "runtime/cuda/ptx.h"

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <fmt/format.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include "frontend/compiler.h"
#include "frontend/input_error.h"
#include "frontend/isolated.h"
#include "instrument/pointer_roots.h"

extern const char td_prim_nvptx_cu[];

namespace td::cuda {

std::string findLibdevice() {
  std::vector<std::string> roots;
  if (const char* h = std::getenv("CUDA_HOME")) roots.push_back(h);
  if (const char* h = std::getenv("CUDA_PATH")) roots.push_back(h);
  roots.push_back("/usr/local/cuda");
  for (auto& r : roots) {
    std::filesystem::path p = std::filesystem::path(r) / "nvvm" / "libdevice" / "libdevice.10.bc";
    if (std::filesystem::exists(p)) return p.string();
  }
  return "";
}

namespace {

void link(llvm::Module& m, std::unique_ptr<llvm::Module> lib, const char* what) {
  lib->setDataLayout(m.getDataLayout());
  lib->setTargetTriple(m.getTargetTriple());
  if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::Flags::LinkOnlyNeeded))
    throw std::runtime_error(fmt::format("linking {} failed", what));
}

bool callsLibdevice(const llvm::Module& m) {
  for (const llvm::Function& f : m)
    if (f.isDeclaration() && f.getName().starts_with("__nv_")) return true;
  return false;
}

}  // namespace

namespace {

// %ntid/%nctaid become the launch's constants; %tid/%ctaid carry their ranges.
void specializeToLaunch(llvm::Module& m, const int64_t* grid, const int64_t* block) {
  std::vector<llvm::CallInst*> calls;
  for (llvm::Function& f : m)
    if (f.getName().starts_with("llvm.nvvm.read.ptx.sreg."))
      for (llvm::User* u : f.users())
        if (auto* c = llvm::dyn_cast<llvm::CallInst>(u)) calls.push_back(c);
  for (llvm::CallInst* c : calls) {
    llvm::StringRef reg = c->getCalledFunction()->getName().drop_front(24);
    auto [name, axis] = reg.split('.');
    int d = axis == "x" ? 0 : axis == "y" ? 1 : axis == "z" ? 2 : -1;
    if (d < 0) continue;
    auto* i32 = llvm::Type::getInt32Ty(m.getContext());
    if (name == "ntid" || name == "nctaid") {
      c->replaceAllUsesWith(llvm::ConstantInt::get(i32, name == "ntid" ? block[d] : grid[d]));
      c->eraseFromParent();
    } else if (name == "tid" || name == "ctaid") {
      int64_t n = name == "tid" ? block[d] : grid[d];
      c->removeRetAttr(llvm::Attribute::Range);
      if (n == 1) {
        c->replaceAllUsesWith(llvm::ConstantInt::get(i32, 0));
        c->eraseFromParent();
      } else {
        c->addRangeRetAttr(llvm::ConstantRange(llvm::APInt(32, 0), llvm::APInt(32, static_cast<uint64_t>(n))));
      }
    }
  }
}

}  // namespace

std::unique_ptr<llvm::Module> compileGpuPrimitives(llvm::LLVMContext& ctx) {
  CompileOptions opts;
  opts.optLevel = "-O2";
  return compileCuda(ctx, "/__tile_doctor__/src/prim_nvptx.cu", opts, td_prim_nvptx_cu);
}

namespace {

std::string generatePtxHere(llvm::Module& m, const std::string& arch, const int64_t* grid, const int64_t* block,
                            const std::function<void(llvm::Module&)>& beforeCodegen) {
  link(m, compileGpuPrimitives(m.getContext()), "the GPU primitives");
  LLVMInitializeNVPTXTargetInfo();  // in this child only (frontend/isolated.h says why)
  LLVMInitializeNVPTXTarget();
  LLVMInitializeNVPTXTargetMC();
  LLVMInitializeNVPTXAsmPrinter();
  if (callsLibdevice(m)) {
    std::string path = findLibdevice();
    if (path.empty())
      throw InputError("libdevice.10.bc", 0, "the kernel calls CUDA math functions and no libdevice was found "
                                             "(set CUDA_HOME to the CUDA toolkit)");
    llvm::SMDiagnostic err;
    std::unique_ptr<llvm::Module> lib = llvm::parseIRFile(path, err, m.getContext());
    if (!lib) throw InputError(path, 0, "cannot read libdevice");
    link(m, std::move(lib), "libdevice");
  }
  if (grid && block) specializeToLaunch(m, grid, block);
  // The frontend compiled for sm_80; the target machine decides now. Everything but the kernels is
  // internal, so device functions, hooks and libdevice inline into them.
  for (llvm::Function& f : m) {
    f.removeFnAttr("target-cpu");
    f.removeFnAttr("target-features");
    if (!f.isDeclaration() && !isKernel(f)) f.setLinkage(llvm::GlobalValue::InternalLinkage);
  }

  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(m.getTargetTriple(), error);
  if (!target) throw std::runtime_error("NVPTX target: " + error);
  // PTX ISA 8.5, the newest LLVM 19 writes: fp8 mma.sync (CUTLASS's SM89 forms) needs 8.4 or later.
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(m.getTargetTriple(), arch, "+ptx85",
                                                                      llvm::TargetOptions(), std::nullopt));
  m.setDataLayout(tm->createDataLayout());

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm.get());  // brings NVVMReflect (libdevice's __nvvm_reflect) and NVPTX's own passes
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
  if (beforeCodegen) beforeCodegen(m);

  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    throw std::runtime_error("the NVPTX back end cannot emit PTX");
  pm.run(m);
  if (const char* dump = std::getenv("TILE_DOCTOR_DUMP_PTX")) {  // for debugging the executor
    std::error_code ec;
    llvm::raw_fd_ostream f(dump, ec);
    if (!ec) f << ptx.str();
  }
  return std::string(ptx.str());
}

}  // namespace

std::string ptxVersionTheLogAsks(const std::string& ptxasLog) {
  static const std::regex asks(R"(requires PTX ISA \.version (\d+)\.(\d+))");
  int best = -1;
  std::string version;
  for (std::sregex_iterator it(ptxasLog.begin(), ptxasLog.end(), asks), end; it != end; ++it) {
    int v = std::stoi((*it)[1]) * 100 + std::stoi((*it)[2]);
    if (v > best) best = v, version = (*it)[1].str() + "." + (*it)[2].str();
  }
  return version;
}

std::string withPtxVersion(const std::string& ptx, const std::string& version) {
  static const std::regex line(R"((^|\n)\.version \d+\.\d+)");
  return std::regex_replace(ptx, line, "$1.version " + version, std::regex_constants::format_first_only);
}

std::string generatePtx(llvm::Module& m, const std::string& arch, const int64_t* grid, const int64_t* block,
                        const std::function<void(llvm::Module&)>& beforeCodegen) {
  // The child works on its copy of the module: the caller's stays as it was.
  return runIsolated("the NVPTX back end", 0, [&] {
    return std::vector<std::string>{generatePtxHere(m, arch, grid, block, beforeCodegen)};
  }).at(0);
}

}  // namespace td::cuda
