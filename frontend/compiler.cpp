#include "frontend/compiler.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <fmt/format.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "frontend/confined_file_system.h"
#include "frontend/hip_dialect.h"
#include "frontend/input_error.h"
#include "frontend/isolated.h"
#include "frontend/paths.h"
#include "frontend/read_roots.h"
#include "frontend/text_bounds.h"

extern const char td_prelude_h[];
extern const char td_fp16_h[];
extern const char td_sdk_builtins_h[];
extern const char td_abi_h[];
extern const char td_async_copy_h[];
extern const char td_warp_size_h[];

namespace td {
namespace {

constexpr const char* kPreludeDir = "/__tile_doctor__/include";
constexpr const char* kSdkShimDir = "/__tile_doctor__/sdk-shim";

void addFile(llvm::vfs::InMemoryFileSystem& fs, const std::string& path, const char* text) {
  fs.addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
}

std::string resourceDir();

// Where the compile may open files (frontend/read_roots.h): the source's and the bundle's folders, its
// include folders (an installed TileLang's whole tree for one of its folders), the user's --include-root
// folders, the toolchain's headers and the CUDA SDK.
std::vector<std::string> readableFolders(const std::string& path, const CompileOptions& opts) {
  std::vector<std::string> roots = opts.readRoots;
  roots.push_back(std::filesystem::path(path).parent_path().string());
  for (const std::string& d : opts.includeDirs) {
    roots.push_back(d);
    if (std::string tree = tileLangTreeOf(d); !tree.empty()) roots.push_back(tree);
  }
  for (const std::string& r : includeRoots()) roots.push_back(r);
  for (const char* system : {"/usr/include", "/usr/local/include", "/usr/lib/gcc"}) roots.push_back(system);
  // what clang's driver reads to know the distribution (its default paths depend on it): public facts
  for (const char* release : {"/etc/os-release", "/usr/lib/os-release", "/etc/debian_version", "/etc/lsb-release"})
    roots.push_back(release);
  roots.push_back(resourceDir());
  if (!opts.cudaSdk.empty()) roots.push_back(opts.cudaSdk);
  return roots;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> makeFileSystem(const std::string& path, const std::string& text,
                                                               const CompileOptions& opts,
                                                               std::shared_ptr<std::vector<std::string>> refused) {
  auto mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  addFile(*mem, std::string(kPreludeDir) + "/td_prelude.h", td_prelude_h);
  addFile(*mem, std::string(kPreludeDir) + "/td_fp16.h", td_fp16_h);
  addFile(*mem, std::string(kPreludeDir) + "/td_abi.h", td_abi_h);
  addFile(*mem, std::string(kPreludeDir) + "/td_warp_size.h", td_warp_size_h);
  // clang's __clang_cuda_intrinsics.h includes the SDK's crt/sm_70_rt.hpp; the match/reduce intrinsics it
  // would add are not part of the prelude. With the SDK (a HIP or MACA source on it too) the SDK's own.
  if (opts.cudaSdk.empty()) addFile(*mem, std::string(kPreludeDir) + "/crt/sm_70_rt.hpp", "#pragma once\n");
  // CUDA 13 dropped texture_fetch_functions.h, which clang 19's CUDA wrapper still includes (SDK mode).
  addFile(*mem, std::string(kSdkShimDir) + "/texture_fetch_functions.h", "#pragma once\n");
  addFile(*mem, std::string(kSdkShimDir) + "/td_sdk_builtins.h", td_sdk_builtins_h);
  for (const char* dir : {kPreludeDir, kSdkShimDir}) addFile(*mem, std::string(dir) + "/td_async_copy.h", td_async_copy_h);
  for (const auto& [name, content] : opts.preludeFiles) addFile(*mem, std::string(kPreludeDir) + "/" + name, content.c_str());
  if (opts.dialect == "hip")
    for (const auto& [file, content] : hipDialectFiles(kPreludeDir, opts.includeDirs)) addFile(*mem, file, content.c_str());
  if (opts.dialect == "maca")
    for (const auto& [file, content] : macaDialectFiles(kPreludeDir)) addFile(*mem, file, content.c_str());
  if (!text.empty()) addFile(*mem, path, text.c_str());
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      confinedFileSystem(llvm::vfs::getRealFileSystem(), readableFolders(path, opts), std::move(refused)));
  overlay->pushOverlay(mem);
  return overlay;
}

// The first "file:line:col: error:" of clang's output, for the InputError's location.
// Where clang's first error is: its own file and line (a header's, where the error is in one), else the
// kernel's file.
// Read by hand: clang echoes the source line, which may be as long as the user made it.
std::pair<std::string, int> firstError(const std::string& diags, const std::string& path) {
  for (size_t at = 0; at < diags.size();) {
    size_t end = diags.find('\n', at);
    std::string line = diags.substr(at, end == std::string::npos ? std::string::npos : end - at);
    at = end == std::string::npos ? diags.size() : end + 1;
    size_t e = line.find(": error:");
    if (e == std::string::npos) e = line.find(": fatal error:");
    if (e == std::string::npos) continue;
    std::string head = line.substr(0, e);  // FILE:LINE:COL
    size_t c2 = head.rfind(':');
    size_t c1 = c2 == std::string::npos || c2 == 0 ? std::string::npos : head.rfind(':', c2 - 1);
    if (c1 == std::string::npos || !isDecimal(head.substr(c1 + 1, c2 - c1 - 1), 9) || !isDecimal(head.substr(c2 + 1), 9))
      continue;
    return {head.substr(0, c1), std::stoi(head.substr(c1 + 1, c2 - c1 - 1))};
  }
  return {path, 0};
}

// clang's own headers (the CUDA wrappers the prelude builds on): $TILE_DOCTOR_CLANG_RESOURCE_DIR, then
// clang-resource/ next to the executable (how the static build travels), then the build machine's.
std::string resourceDir() {
  if (const char* env = std::getenv("TILE_DOCTOR_CLANG_RESOURCE_DIR")) return env;
  std::filesystem::path beside = std::filesystem::path(executableDir()) / "clang-resource";
  if (std::filesystem::exists(beside / "include" / "__clang_cuda_builtin_vars.h")) return beside.string();
  return TD_CLANG_RESOURCE_DIR;
}

// "sm_80" -> "800", the form nvcc gives __CUDA_ARCH_LIST__ (TileLang's headers choose code paths by it).
std::string archList(const std::string& arch) {
  std::string digits;
  for (char c : arch)
    if (c >= '0' && c <= '9') digits += c;
  return digits.empty() ? "800" : digits + "0";
}

// nvcc's own version macros for the SDK's version (cuda.h's CUDA_VERSION, 13000 -> 13 and 0), which clang does
// not define: TileLang's templates choose types by them (fp8_e8_t is __nv_fp8_e8m0 from 12.8 on, an empty
// placeholder before). None where cuda.h does not say.
std::vector<std::string> nvccVersionMacros(const std::string& sdk) {
  const std::string key = "#define CUDA_VERSION ";
  std::ifstream in(sdk + "/include/cuda.h");
  std::string line;
  for (int n = 0; n < 4000 && std::getline(in, line); ++n) {
    if (line.rfind(key, 0) != 0) continue;
    int version = std::atoi(line.c_str() + key.size());
    if (version < 1000) break;
    return {fmt::format("-D__CUDACC_VER_MAJOR__={}", version / 1000), fmt::format("-D__CUDACC_VER_MINOR__={}", version % 1000 / 10)};
  }
  return {};
}

std::vector<std::string> headerArgs(const CompileOptions& opts) {
  // What the driver adds for a CUDA SDK it found (variadic device functions), kept for its output.
  if (opts.selfContained) return {"--cuda-path=/nonexistent", "-nocudainc", "-Xclang", "-fcuda-allow-variadic-functions"};
  if (opts.cudaSdk.empty())
    return {"--cuda-path=/nonexistent", "-nocudainc", "-isystem", kPreludeDir, "-include", "td_prelude.h"};
  std::vector<std::string> args = {"--cuda-path=" + opts.cudaSdk, "-isystem", kSdkShimDir, "-isystem",
                                   opts.cudaSdk + "/include/cccl", "-D__CUDA_ARCH_LIST__=" + archList(opts.arch),
                                   "-DTILE_DOCTOR=1", "-Wno-deprecated-declarations", "-include", "td_sdk_builtins.h"};
  // nvcc (12.9+) says an architecture-specific target (sm_90a: wgmma, setmaxnreg) by this macro, which
  // TileLang's templates test; clang 19 defines only __CUDA_ARCH_FEAT_SM90_ALL.
  if (!opts.arch.empty() && opts.arch.back() == 'a') args.push_back("-D__CUDA_ARCH_SPECIFIC__=" + archList(opts.arch));
  if (opts.dialect != "cuda") args.insert(args.end(), {"-isystem", kPreludeDir});  // the ROCm / MACA header names
  std::vector<std::string> version = nvccVersionMacros(opts.cudaSdk);
  args.insert(args.end(), version.begin(), version.end());
  return args;
}

}  // namespace

std::string findCudaSdk() {
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* v = std::getenv(var); v && std::filesystem::exists(std::filesystem::path(v) / "include/cuda_runtime.h"))
      return v;
  if (std::filesystem::exists("/usr/local/cuda/include/cuda_runtime.h")) return "/usr/local/cuda";
  return {};
}

std::vector<std::string> clangArguments(const std::string& path, const CompileOptions& opts) {
  std::vector<std::string> args = {
      "clang", "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + opts.arch, "-nocudalib",
      "--cuda-feature=+ptx80", "-resource-dir", resourceDir(), opts.optLevel, "-gline-tables-only",
      "-std=c++17", "-fno-exceptions", "-w", "-Wno-unknown-cuda-version"};  // warnings are not shown: only an error stops a check
  for (auto& a : headerArgs(opts)) args.push_back(a);
  if (opts.dialect == "hip") args.push_back("-DTD_HIP_DIALECT=1");
  if (opts.dialect == "maca") args.push_back("-I" + macaCuteDir(kPreludeDir));
  for (auto& d : opts.includeDirs) args.push_back("-I" + d);
  for (auto& f : opts.flags) args.push_back(f);
  args.push_back(path);
  return args;
}

namespace {
// Every file the preprocessor entered, system headers too (the SDK's and clang's own).
class EveryFileRead : public clang::DependencyCollector {
 public:
  bool needSystemDependencies() override { return true; }
};
}  // namespace

void runClangAction(const std::string& path, const CompileOptions& opts, clang::FrontendAction& action,
                    const std::string& text, std::vector<std::string>* filesRead) {
  auto refused = std::make_shared<std::vector<std::string>>();
  auto vfs = makeFileSystem(path, text, opts, refused);
  std::vector<std::string> args = clangArguments(path, opts);
  std::vector<const char*> argv;
  for (auto& a : args) argv.push_back(a.c_str());

  std::string diagText;
  llvm::raw_string_ostream diagOut(diagText);
  auto diagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  auto printer = std::make_unique<clang::TextDiagnosticPrinter>(diagOut, diagOpts.get());
  auto diags = clang::CompilerInstance::createDiagnostics(diagOpts.get(), printer.get(), false);

  clang::CreateInvocationOptions cio;
  cio.Diags = diags;
  cio.VFS = vfs;
  std::shared_ptr<clang::CompilerInvocation> inv = clang::createInvocation(argv, cio);
  if (!inv) throw InputError(path, 0, "clang rejected the compile flags:\n" + diagOut.str());
  inv->getFrontendOpts().ProgramAction = clang::frontend::EmitLLVMOnly;  // what the driver line would run

  clang::CompilerInstance ci;
  ci.setInvocation(std::move(inv));
  ci.createDiagnostics(printer.get(), false);
  ci.setVerboseOutputStream(std::make_unique<llvm::raw_null_ostream>());  // no "N warnings generated" on stderr
  ci.createFileManager(vfs);
  auto collector = std::make_shared<EveryFileRead>();
  if (filesRead) ci.addDependencyCollector(collector);
  bool ok = ci.ExecuteAction(action);
  diagOut.flush();
  if (!ok || ci.getDiagnostics().hasErrorOccurred()) {
    auto [file, line] = firstError(diagText, path);
    std::string why;
    for (const std::string& f : *refused)
      why += fmt::format("note: tile-doctor did not let clang read {}: it lies outside the bundle's folder, its include "
                         "folders and the toolchain's (name its folder with --include-root; docs/security.md)\n", f);
    throw InputError(file, line, "the kernel does not compile:\n" + diagText + why);
  }
  if (filesRead)
    for (const std::string& f : collector->getDependencies()) filesRead->push_back(f);
}

namespace {
double gCompileTimeLimit = 600;
}  // namespace

void setCompileTimeLimit(double seconds) { gCompileTimeLimit = seconds; }

namespace {

// Modules cross from a child to its parent as bitcode.
std::string bitcodeOf(const llvm::Module& m) {
  std::string bitcode;
  llvm::raw_string_ostream os(bitcode);
  llvm::WriteBitcodeToFile(m, os);
  os.flush();
  return bitcode;
}

}  // namespace

std::unique_ptr<llvm::Module> moduleFromBitcode(llvm::LLVMContext& ctx, const std::string& bitcode,
                                                const std::string& name) {
  auto module = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, name), ctx);
  if (!module) throw std::runtime_error("reading the bitcode of " + name + ": " + llvm::toString(module.takeError()));
  return std::move(*module);
}

namespace {

// clang 19's CUDA header passes __reduce_*_sync's (mask, value) to __nvvm_redux_sync_* in that order, but
// the intrinsics take (value, mask) (llvm-project issue 131415, fixed in clang 20 by swapping the
// intrinsics' order): compiled as written, the value becomes the member mask — an illegal instruction on
// the GPU, a wait for absent lanes on the CPU executor. Code from clang 19 has no other source of these
// calls, so every one is put back to (value, mask).
void putReduxOperandsInOrder(llvm::Module& m) {
  for (llvm::Function& f : m) {
    if (!f.getName().starts_with("llvm.nvvm.redux.sync.")) continue;
    for (llvm::User* u : f.users())
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(u); call && call->getCalledFunction() == &f && call->arg_size() == 2) {
        llvm::Value* first = call->getArgOperand(0);
        call->setArgOperand(0, call->getArgOperand(1));
        call->setArgOperand(1, first);
      }
  }
}

}  // namespace

std::string compileCudaToBitcode(const std::string& path, const CompileOptions& opts, const std::string& text,
                                 std::vector<std::string>* filesRead) {
  std::vector<std::string> parts;
  try {
    parts = runIsolated("clang", gCompileTimeLimit, [&] {
      llvm::LLVMContext own;
      std::vector<std::string> files;
      clang::EmitLLVMOnlyAction action(&own);
      runClangAction(path, opts, action, text, &files);
      std::unique_ptr<llvm::Module> m = action.takeModule();
      if (!m) throw InputError(path, 0, "clang produced no module");
      putReduxOperandsInOrder(*m);
      std::string list;
      for (const std::string& f : files) list += f + "\n";
      return std::vector<std::string>{bitcodeOf(*m), list};
    });
  } catch (const IsolatedFailure& e) {
    throw InputError(path, 0, fmt::format("{} compiling this file: a compiler bug the source triggers (clang's report, "
                                          "if any, is above); tile-doctor cannot check the kernel",
                                          e.what()));
  }
  if (filesRead)
    for (llvm::StringRef rest = parts.at(1); !rest.empty();) {
      auto [line, tail] = rest.split('\n');
      filesRead->push_back(line.str());
      rest = tail;
    }
  return parts.at(0);
}

std::unique_ptr<llvm::Module> compileCuda(llvm::LLVMContext& ctx, const std::string& path, const CompileOptions& opts,
                                          const std::string& text, std::vector<std::string>* filesRead) {
  return moduleFromBitcode(ctx, compileCudaToBitcode(path, opts, text, filesRead), path);
}

namespace {
std::string gIrPath;  // the file a child reads, for its fatal-error handler
}  // namespace

// Read in a child: LLVM ends the process on some invalid IR (a module that fails the verifier while its
// debug info is upgraded, a malformed bitcode record) instead of returning an error.
std::unique_ptr<llvm::Module> loadIR(llvm::LLVMContext& ctx, const std::string& path, bool amdgpuToo) {
  requireRegularFile(path, "the IR file");
  std::vector<std::string> parts;
  try {
    parts = runIsolated("LLVM reading the IR", gCompileTimeLimit, [&] {
      gIrPath = path;
      llvm::install_fatal_error_handler([](void*, const char* reason, bool) {
        answerFromIsolatedChild(InputError(gIrPath, 0, std::string("LLVM cannot read the IR: ") + reason));
      });
      llvm::LLVMContext own;
      llvm::SMDiagnostic err;
      std::unique_ptr<llvm::Module> m;
      if (llvm::StringRef(path).ends_with(".ll"))
        m = std::move(llvm::parseAssemblyFileWithIndexNoUpgradeDebugInfo(
                path, err, own, nullptr, [](llvm::StringRef, llvm::StringRef) { return std::nullopt; }).Mod);
      else
        m = llvm::parseIRFile(path, err, own);
      if (!m) {
        std::string msg;
        llvm::raw_string_ostream os(msg);
        err.print("tile-doctor", os, false);
        throw InputError(path, err.getLineNo(), "cannot read the IR file:\n" + os.str());
      }
      std::string problems;
      llvm::raw_string_ostream vs(problems);
      if (llvm::verifyModule(*m, &vs))
        throw InputError(path, 0, "the IR is not valid (LLVM's verifier):\n" + vs.str().substr(0, 4000));
      bool amdgpu = m->getTargetTriple().rfind("amdgcn", 0) == 0;
      if (m->getTargetTriple().rfind("nvptx", 0) != 0 && !(amdgpuToo && amdgpu))
        throw InputError(path, 0, fmt::format("IR target is '{}'; tile-doctor reads NVPTX IR (nvptx64-nvidia-cuda){}",
                                              m->getTargetTriple(), amdgpuToo ? " or AMDGPU IR (amdgcn-amd-amdhsa)" : ""));
      return std::vector<std::string>{bitcodeOf(*m)};
    });
  } catch (const IsolatedFailure& e) {
    throw InputError(path, 0, std::string(e.what()) + " reading this file");
  }
  try {
    return moduleFromBitcode(ctx, parts.at(0), path);
  } catch (const std::runtime_error& e) {
    // LLVM 19 writes some attribute groups of a parsed .ll (found by the IR fuzzer) that its own bitcode
    // reader then refuses: the input's attributes, not ours
    throw InputError(path, 0, std::string("LLVM cannot carry this IR across (its attributes): ") + e.what());
  }
}

}  // namespace td
