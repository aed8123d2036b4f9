#include "model/site_table.h"

#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/Metadata.h>

namespace td {

std::string SourceLoc::str() const {
  if (line == 0) return file.empty() ? "<unknown>" : file;
  return col ? fmt::format("{}:{}:{}", file, line, col) : fmt::format("{}:{}", file, line);
}

unsigned SiteTable::add(Site s) {
  sites.push_back(std::move(s));
  return static_cast<unsigned>(sites.size() - 1);
}

int siteOf(const llvm::Instruction& inst) {
  llvm::MDNode* md = inst.getMetadata("td.site");
  if (!md) return -1;
  auto* c = llvm::mdconst::extract<llvm::ConstantInt>(md->getOperand(0));
  return static_cast<int>(c->getZExtValue());
}

void tagSite(llvm::Instruction& inst, unsigned id) {
  llvm::LLVMContext& ctx = inst.getContext();
  llvm::Metadata* op = llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), id));
  inst.setMetadata("td.site", llvm::MDNode::get(ctx, op));
}

namespace {
std::string shortName(llvm::StringRef linkage) {
  std::string d = llvm::demangle(linkage.str());
  size_t paren = d.find('(');
  if (paren != std::string::npos) d = d.substr(0, paren);
  return d;
}
// tile-doctor's prelude and clang's CUDA wrappers (atomicAdd's __iAtomicAdd): the user called these, so
// the call is the user's line.
bool inPrelude(const llvm::DILocation* l) {
  return l->getFilename().starts_with("/__tile_doctor__/") || l->getFilename().contains("/__clang_cuda_");
}
}  // namespace

namespace {
std::string fullPath(const llvm::DIFile* f) {
  std::string file = f->getFilename().str();
  if (!f->getDirectory().empty() && !file.empty() && file[0] != '/') file = f->getDirectory().str() + "/" + file;
  return file;
}

std::string fullPath(const llvm::DILocation* l) { return l->getFile() ? fullPath(l->getFile()) : std::string(); }

SourceLoc toSourceLoc(const llvm::DILocation* l) {
  SourceLoc loc;
  loc.file = fullPath(l);
  loc.line = l->getLine();
  loc.col = l->getColumn();
  llvm::DISubprogram* sp = l->getScope()->getSubprogram();
  loc.function = shortName(sp->getLinkageName().empty() ? sp->getName() : sp->getLinkageName());
  return loc;
}

// The kernel's own source file: where its function is written (a generated source compiled through
// `#line` names the user's file there, the compile unit's being tile-doctor's copy), else the unit's.
std::string mainFile(const llvm::Instruction& inst) {
  const llvm::DISubprogram* sp = inst.getFunction()->getSubprogram();
  if (sp && sp->getFile()) return fullPath(sp->getFile());
  if (!sp || !sp->getUnit()) return {};
  return fullPath(sp->getUnit()->getFile());
}
}  // namespace

SourceLoc definitionLocation(const llvm::Function& f) {
  SourceLoc loc;
  loc.function = shortName(f.getName());
  if (const llvm::DISubprogram* sp = f.getSubprogram(); sp && sp->getFile()) {
    loc.file = fullPath(sp->getFile());
    loc.line = sp->getLine();
  }
  return loc;
}

// An instruction the optimiser moved may have lost its location: the nearest one in its block stands in.
const llvm::DILocation* locationOf(const llvm::Instruction& inst) {
  if (const llvm::DILocation* l = inst.getDebugLoc().get(); l && l->getLine()) return l;
  for (const llvm::Instruction* i = inst.getNextNode(); i; i = i->getNextNode())
    if (const llvm::DILocation* l = i->getDebugLoc().get(); l && l->getLine()) return l;
  for (const llvm::Instruction* i = inst.getPrevNode(); i; i = i->getPrevNode())
    if (const llvm::DILocation* l = i->getDebugLoc().get(); l && l->getLine()) return l;
  return inst.getDebugLoc().get();
}

SourceLoc userLocation(const llvm::Instruction& inst) {
  const llvm::DILocation* l = locationOf(inst);
  while (l && inPrelude(l) && l->getInlinedAt()) l = l->getInlinedAt();
  if (!l) {
    SourceLoc loc;
    loc.function = shortName(inst.getFunction()->getName());
    return loc;
  }
  // An access inside a library template (TileLang's tl::cp_async_gs, a CUTLASS helper) is reported at
  // the innermost call in the kernel's own file, with the helper's line kept beside it.
  std::string main = mainFile(inst);
  const llvm::DILocation* inMain = nullptr;
  for (const llvm::DILocation* c = l; c && !main.empty(); c = c->getInlinedAt())
    if (fullPath(c) == main) {
      inMain = c;
      break;
    }
  if (!inMain || inMain == l) return toSourceLoc(l);
  SourceLoc loc = toSourceLoc(inMain);
  SourceLoc helper = toSourceLoc(l);
  loc.helper = helper.function + " at " + helper.str();
  return loc;
}

}  // namespace td
