#include "instrument/site_table.h"

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
bool inPrelude(const llvm::DILocation* l) { return l->getFilename().starts_with("/__tile_doctor__/"); }
}  // namespace

SourceLoc userLocation(const llvm::Instruction& inst) {
  SourceLoc loc;
  const llvm::DILocation* l = inst.getDebugLoc().get();
  while (l && inPrelude(l) && l->getInlinedAt()) l = l->getInlinedAt();
  if (l) {
    loc.file = l->getFilename().str();
    if (!l->getDirectory().empty() && !loc.file.empty() && loc.file[0] != '/')
      loc.file = l->getDirectory().str() + "/" + loc.file;
    loc.line = l->getLine();
    loc.col = l->getColumn();
    loc.function = shortName(l->getScope()->getSubprogram()->getLinkageName().empty()
                                 ? l->getScope()->getSubprogram()->getName()
                                 : l->getScope()->getSubprogram()->getLinkageName());
  } else {
    loc.function = shortName(inst.getFunction()->getName());
  }
  return loc;
}

}  // namespace td
