#include "frontend/signature.h"

#include <fmt/format.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include "frontend/input_error.h"

namespace td {

namespace {

// Parameter types of a demangled C++ signature ("k(__half const*, float*, int)"), split at top-level commas.
std::vector<std::string> demangledParams(const std::string& mangled) {
  std::string d = llvm::demangle(mangled);
  size_t open = d.find('(');
  if (open == std::string::npos || d == mangled) return {};
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (size_t i = open + 1; i < d.size(); ++i) {
    char c = d[i];
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    if (!(cur.empty() && c == ' ')) cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The element type a C++ pointer parameter points to, in manifest spelling, or "" when not a known one.
std::string pointee(std::string t) {
  for (const char* strip : {" const", "const ", " volatile", "volatile ", " __restrict", "__restrict"}) {
    size_t p;
    while ((p = t.find(strip)) != std::string::npos) t.erase(p, std::string(strip).size());
  }
  if (t.empty() || t.back() != '*') return "";
  t.pop_back();
  while (!t.empty() && t.back() == ' ') t.pop_back();
  static const std::pair<const char*, const char*> names[] = {
      {"__half", "half"}, {"half", "half"}, {"__nv_bfloat16", "bfloat16"}, {"float", "float"}, {"double", "double"},
      {"signed char", "int8"}, {"char", "int8"}, {"unsigned char", "uint8"}, {"short", "int16"}, {"int", "int32"},
      {"unsigned int", "uint32"}, {"long", "int64"}, {"long long", "int64"}, {"unsigned long", "uint64"},
      {"unsigned long long", "uint64"}};
  for (auto& [c, m] : names)
    if (t == c) return m;
  return "";
}

std::string irTypeName(llvm::Type* t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  t->print(os);
  return os.str();
}

bool scalarMatches(ElemType e, llvm::Type* t) {
  if (isFloat(e)) {
    if (e == ElemType::F16) return t->isHalfTy() || t->isIntegerTy(16);
    if (e == ElemType::BF16) return t->isBFloatTy() || t->isIntegerTy(16);
    if (e == ElemType::F32) return t->isFloatTy();
    return t->isDoubleTy();
  }
  return t->isIntegerTy(static_cast<unsigned>(elemSize(e) * 8));
}

}  // namespace

void checkSignature(const llvm::Function& kernel, const Bundle& b) {
  const std::string& file = b.manifestPath;
  size_t n = kernel.arg_size();
  std::vector<std::string> cxx = demangledParams(kernel.getName().str());
  std::string sig = cxx.empty() ? "" : " (" + llvm::demangle(kernel.getName().str()) + ")";
  if (b.args.size() != n)
    throw InputError(file, b.args.empty() ? b.entryLine : b.args.back().line,
                     fmt::format("kernel '{}' takes {} parameter{}{}; the bundle lists {} [[args]]", b.entry, n,
                                 n == 1 ? "" : "s", sig, b.args.size()));
  for (size_t i = 0; i < n; ++i) {
    const ArgSpec& a = b.args[i];
    llvm::Type* t = kernel.getArg(static_cast<unsigned>(i))->getType();
    std::string declared = i < cxx.size() ? cxx[i] : irTypeName(t);
    // A CUtensorMap by value arrives as a pointer with byval of its 128 bytes.
    const llvm::Argument* arg = kernel.getArg(static_cast<unsigned>(i));
    bool byValueMap = arg->hasByValAttr() &&
                      kernel.getParent()->getDataLayout().getTypeAllocSize(arg->getParamByValType()) == kTensorMapBytes;
    if (a.isTensorMap != byValueMap)
      throw InputError(file, a.line, fmt::format("argument {} '{}' is {} in the bundle but the kernel's parameter {} is "
                                                 "'{}'", i + 1, a.name,
                                                 a.isTensorMap ? "passed as a TMA descriptor (tma)" : "no TMA descriptor",
                                                 i + 1, declared));
    if (a.isTensorMap) continue;
    if (a.isBuffer != t->isPointerTy())
      throw InputError(file, a.line, fmt::format("argument {} '{}' is a {} in the bundle but the kernel's parameter {} is "
                                                 "'{}'", i + 1, a.name, a.isBuffer ? "buffer" : "scalar", i + 1, declared));
    if (a.isBuffer) {
      std::string want = i < cxx.size() ? pointee(cxx[i]) : "";
      std::string have = elemTypeName(a.type);
      if (!want.empty() && want != have && !(elemSize(*parseElemType(want)) == elemSize(a.type) && !isFloat(a.type) &&
                                             !isFloat(*parseElemType(want))))
        throw InputError(file, a.line, fmt::format("argument {} '{}' is declared {}* in the bundle but the kernel's "
                                                   "parameter is '{}'", i + 1, a.name, have, declared));
    } else if (!scalarMatches(a.type, t)) {
      throw InputError(file, a.line, fmt::format("argument {} '{}' is {} in the bundle but the kernel's parameter is "
                                                 "'{}'", i + 1, a.name, elemTypeName(a.type), declared));
    }
  }
}

}  // namespace td
