// Every inline-PTX statement in the installed TileLang's tl_templates/cuda headers, template definitions
// included (clang's AST holds them uninstantiated), for sm_80 and sm_90, is either emulated by the CPU
// executor or refused by name. A TileLang release with a statement neither knows fails here, listing it
// with its header line. Skips without a Python that has TileLang (scripts/setup-tilelang.sh makes one).
#include <clang/AST/ASTConsumer.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <unistd.h>

#include "frontend/compiler.h"
#include "instrument/ptx_catalogue.h"

using namespace td;
namespace fs = std::filesystem;

namespace {

// The installed TileLang's package folder, asked of the interpreter the TileLang tests use.
std::string tilelangDir() {
  const char* env = std::getenv("TILE_DOCTOR_PYTHON");
  std::string python = env ? env : std::string(TD_TESTS_DIR) + "/../.venv-tilelang/bin/python";
  if (!fs::exists(python)) return {};
  std::string cmd = python + " -c 'import os, tilelang; print(os.path.dirname(tilelang.__file__))' 2>/dev/null";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// asm text in LLVM's form ($0, ${0:r}: what code generation hands the executor) -> "header:line".
using Statements = std::map<std::string, std::string>;

class AsmCollector : public clang::RecursiveASTVisitor<AsmCollector> {
 public:
  AsmCollector(clang::ASTContext& ctx, const std::string& under, Statements& out) : ctx_(ctx), under_(under), out_(out) {}
  bool VisitGCCAsmStmt(clang::GCCAsmStmt* s) {
    clang::PresumedLoc at = ctx_.getSourceManager().getPresumedLoc(s->getAsmLoc());
    if (!at.isValid()) return true;
    std::string file = at.getFilename();
    if (file.rfind(under_, 0) != 0) return true;
    std::string text = s->generateAsmString(ctx_);
    if (!text.empty()) out_.emplace(text, file.substr(under_.size()) + ":" + std::to_string(at.getLine()));
    return true;
  }

 private:
  clang::ASTContext& ctx_;
  std::string under_;
  Statements& out_;
};

class CollectAsm : public clang::ASTFrontendAction {
 public:
  CollectAsm(std::string under, Statements& out) : under_(std::move(under)), out_(out) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    struct Consumer : clang::ASTConsumer {
      std::string under;
      Statements& out;
      Consumer(std::string u, Statements& o) : under(std::move(u)), out(o) {}
      void HandleTranslationUnit(clang::ASTContext& ctx) override { AsmCollector(ctx, under, out).TraverseAST(ctx); }
    };
    return std::make_unique<Consumer>(under_, out_);
  }

 private:
  std::string under_;
  Statements& out_;
};

// One translation unit including every header of tl_templates/cuda, with the flags tile-doctor compiles
// TileLang kernels with (CUTLASS and TileLang's include folders, the CUDA SDK).
Statements templateStatements(const std::string& tilelang, const std::string& arch) {
  fs::path templates = fs::path(tilelang) / "src" / "tl_templates" / "cuda";
  fs::path src = fs::temp_directory_path() / ("td_tl_ptx_" + std::to_string(::getpid()) + ".cu");
  {
    std::ofstream out(src);
    for (const auto& e : fs::recursive_directory_iterator(templates)) {
      std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".h" || ext == ".hpp" || ext == ".cuh")) out << "#include \"" << e.path().string() << "\"\n";
    }
  }
  CompileOptions opts;
  opts.cudaSdk = findCudaSdk();
  opts.arch = arch;
  opts.optLevel = "-O0";
  opts.includeDirs = {tilelang + "/src", tilelang + "/3rdparty/cutlass/include"};
  opts.flags = {"-include", "cuda_fp8.h"};
  Statements found;
  CollectAsm action(templates.string() + "/", found);
  runClangAction(src.string(), opts, action);
  fs::remove(src);
  return found;
}

// A multi-line statement on one line of the failure message.
std::string oneLine(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\t') c = ' ';
  return text;
}

}  // namespace

TEST(TileLangTemplatesPtx, EveryStatementIsEmulatedOrNamed) {
  if (findCudaSdk().empty()) GTEST_SKIP() << "no CUDA SDK headers";
  std::string tilelang = tilelangDir();
  if (tilelang.empty() || !fs::exists(fs::path(tilelang) / "src" / "tl_templates" / "cuda"))
    GTEST_SKIP() << "no Python with TileLang (scripts/setup-tilelang.sh makes one)";
  for (const std::string arch : {"sm_80", "sm_90"}) {
    Statements statements = templateStatements(tilelang, arch);
    size_t emulated = 0, named = 0;
    std::string unknown;
    for (const auto& [text, where] : statements) {
      if (parsePtx(text)) ++emulated;
      else if (!ptxLimitation(text).empty()) ++named;
      else unknown += "\n  " + where + ": " + oneLine(text);
    }
    EXPECT_GT(statements.size(), 100u) << arch << ": the templates' statements were found";
    EXPECT_TRUE(unknown.empty()) << arch << ": neither emulated nor named:" << unknown;
    std::printf("%s: %zu statements in tl_templates/cuda: %zu emulated, %zu refused by name\n", arch.c_str(),
                statements.size(), emulated, named);
  }
}
