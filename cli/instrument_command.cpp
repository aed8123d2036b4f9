// `tile-doctor instrument IN.ll -o OUT.ll [--checks LIST]`: the checks' instrumentation as a step of its
// own, for a toolchain tile-doctor does not drive — the IR round trip through MetaX's mxcc
// (mxcc -emit-llvm -maca-device-only -> instrument -> mxcc --fatbin x.ll; docs/guide-metax.md, untested on
// hardware). Writes the instrumented module and its site table (OUT.sites.json), which decodes the
// records the hooks write.
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <nlohmann/json.hpp>
#include <set>

#include "model/family.h"
#include "cli/commands.h"
#include "frontend/compiler.h"
#include "frontend/input_error.h"
#include "instrument/pipeline.h"
#include "instrument/hook_functions.h"

namespace td::cli {

namespace {

const char* siteKindName(SiteKind k) {
  switch (k) {
    case SiteKind::Load: return "load";
    case SiteKind::Store: return "store";
    case SiteKind::Atomic: return "atomic";
    case SiteKind::MemIntrinsic: return "memory-intrinsic";
    case SiteKind::Barrier: return "barrier";
    case SiteKind::WarpOp: return "warp-op";
    case SiteKind::AsmStatement: return "asm";
    case SiteKind::Loop: return "loop";
    case SiteKind::Stop: return "stop";
    case SiteKind::FloatOp: return "float-op";
    case SiteKind::Accumulator: return "accumulator";
  }
  return "?";
}

nlohmann::json siteTableJson(const SiteTable& t, const std::string& source) {
  nlohmann::json j = {{"tool", "tile-doctor"}, {"module", source}, {"sites", nlohmann::json::array()}};
  for (size_t i = 0; i < t.sites.size(); ++i) {
    const Site& s = t.sites[i];
    j["sites"].push_back({{"id", i}, {"kind", siteKindName(s.kind)}, {"file", s.loc.file}, {"line", s.loc.line},
                          {"column", s.loc.col}, {"function", s.loc.function}, {"bytes", s.size}, {"what", s.what}});
  }
  return j;
}

struct InstrumentArgs {
  std::string input, output, checks = "all";
  bool passesOnly = false;  // the families' passes alone: no device runtime linked, the hooks left as calls
};

int runInstrument(const InstrumentArgs& a) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m = loadIR(ctx, a.input, /*amdgpuToo=*/true);
  bool amdgpu = m->getTargetTriple().rfind("amdgcn", 0) == 0;
  CheckSet checks = CheckSet::parse(a.checks);
  // Most families read NVVM barriers, warp operations and PTX; AMDGPU's (llvm.amdgcn.s.barrier, ds_bpermute)
  // are not read yet, so their checks would see nothing there: only families that say they read AMDGPU IR.
  if (amdgpu) {
    std::string readers;
    for (const Family& f : families())
      if (f.readsAmdgpuIr) readers += (readers.empty() ? "" : ",") + f.name;
    for (const Family& f : families())
      if (!f.readsAmdgpuIr && checks.has(f.name) && a.checks != "all")
        throw InputError("--checks", 0, fmt::format("the {} family reads NVVM barriers and warp operations; on AMDGPU "
                                                    "IR tile-doctor instruments {} only", f.name, readers));
    checks = CheckSet::parse(readers);
  }
  SiteTable sites;
  instrumentModule(*m, sites, checks);
  if (!amdgpu && !a.passesOnly) linkDeviceRuntime(*m);
  std::string problems;
  llvm::raw_string_ostream vs(problems);
  if (llvm::verifyModule(*m, &vs)) throw std::runtime_error("the instrumented module is invalid: " + vs.str());

  std::error_code ec;
  llvm::raw_fd_ostream out(a.output, ec);  // "-": standard output (FileCheck's input in tests/ir)
  if (ec) throw InputError(a.output, 0, "cannot write the instrumented module: " + ec.message());
  m->print(out, nullptr);
  std::string sitesPath = a.output == "-" ? "no site table (standard output)" : a.output + ".sites.json";
  if (a.output != "-") std::ofstream(sitesPath) << siteTableJson(sites, a.input).dump(1) << "\n";

  std::set<std::string> needed;  // what whoever loads the module must provide
  for (llvm::Function& f : *m)
    if (f.isDeclaration() && isOwn(f) && !f.use_empty()) needed.insert(f.getName().str());
  std::cerr << fmt::format("tile-doctor: instrumented {} ({}) for {}: {} sites; wrote {} and {}\n", a.input,
                           m->getTargetTriple(), amdgpu ? "bounds" : a.checks, sites.sites.size(), a.output, sitesPath);
  if (amdgpu)
    std::cerr << "tile-doctor: AMDGPU IR: bounds only; the device runtime is not linked for this target — its hooks "
                 "are declarations, to link from tile-doctor's runtime compiled for the target\n";
  std::string list;
  for (const std::string& n : needed) list += (list.empty() ? "" : ", ") + n;
  if (!list.empty())
    std::cerr << "tile-doctor: the module calls, and its loader must provide: " << list
              << " (and the control block __td_ctl); docs/guide-metax.md\n";
  return 0;
}

}  // namespace

std::function<int()> addInstrumentCommand(CLI::App& app) {
  auto args = std::make_shared<InstrumentArgs>();
  CLI::App* sub = app.add_subcommand("instrument", "instrument NVPTX or AMDGPU IR with the checks, as a step of its own "
                                                   "(the IR round trip of a toolchain tile-doctor does not drive)");
  sub->add_option("input", args->input, "the kernel's IR: .ll or .bc (nvptx64-nvidia-cuda or amdgcn-amd-amdhsa)")->required();
  sub->add_option("-o,--output", args->output,
                  "the instrumented module (.ll; - for standard output); its site table goes to OUTPUT.sites.json")
      ->required();
  sub->add_option("--checks", args->checks, "check families to instrument (default all; AMDGPU IR: bounds)");
  sub->add_flag("--passes-only", args->passesOnly,
                "write the module as the families' passes leave it: the device runtime not linked, each hook a call "
                "to its declaration (what tests/ir checks with FileCheck)");
  return [args] { return runInstrument(*args); };
}

}  // namespace td::cli
