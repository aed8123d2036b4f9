#include "frontend/host_wrapper.h"

#include <algorithm>
#include <fmt/format.h>
#include <filesystem>
#include <regex>
#include <set>

#include "frontend/paths.h"
#include "frontend/input_error.h"

namespace td {

namespace {

// Longer expressions and declarations are not generated code (the manifest's expressions stop there too);
// bounding them also bounds std::regex's recursion.
constexpr size_t kLongestExpression = 4096;
constexpr uintmax_t kLargestSource = 64u << 20;

// The text with comments turned to spaces (newlines kept), so that patterns and brackets see code only.
std::string withoutComments(const std::string& s) {
  std::string out = s;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"' || s[i] == '\'') {  // a literal: skipped whole, escapes included
      char quote = s[i];
      for (++i; i < s.size() && s[i] != quote && s[i] != '\n'; ++i)
        if (s[i] == '\\') ++i;
    } else if (s.compare(i, 2, "//") == 0) {
      for (; i < s.size() && s[i] != '\n'; ++i) out[i] = ' ';
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t end = s.find("*/", i + 2);
      end = end == std::string::npos ? s.size() : end + 2;
      for (; i < end; ++i)
        if (s[i] != '\n') out[i] = ' ';
      --i;
    }
  }
  return out;
}

int lineAt(const std::string& s, size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<long>(std::min(pos, s.size())), '\n'));
}

// The bracket closing the one at `open` (same kind), skipping literals; npos when it never closes.
size_t closingOf(const std::string& s, size_t open) {
  char o = s[open], c = o == '(' ? ')' : o == '{' ? '}' : o == '[' ? ']' : '>';
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    if (s[i] == '"' || s[i] == '\'') {
      char quote = s[i];
      for (++i; i < s.size() && s[i] != quote && s[i] != '\n'; ++i)
        if (s[i] == '\\') ++i;
    } else if (s[i] == o) {
      ++depth;
    } else if (s[i] == c && --depth == 0) {
      return i;
    }
  }
  return std::string::npos;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Splits at the commas outside brackets.
std::vector<std::string> topLevelSplit(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char ch : s) {
    if (ch == '(' || ch == '{' || ch == '[') ++depth;
    if (ch == ')' || ch == '}' || ch == ']') --depth;
    if (ch == ',' && depth == 0) {
      parts.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!trim(cur).empty() || !parts.empty()) parts.push_back(trim(cur));
  return parts;
}

// The C integer expression as the manifest's expression language reads it: integer casts dropped (the
// wrapper writes `(int)`/`(int64_t)` around symbolic sizes; the checked 64-bit arithmetic covers them).
std::string manifestExpr(const std::string& c) {
  static const std::regex cast(R"(\(\s*(?:unsigned\s+int|unsigned|int|long|long\s+long|u?int(?:8|16|32|64)_t|size_t)\s*\))");
  return trim(std::regex_replace(c, cast, " "));
}

std::array<std::string, 3> dims(const std::string& c) {
  std::array<std::string, 3> d{"1", "1", "1"};
  std::string t = trim(c);
  static const std::regex dim3(R"(^dim3\s*\(([\s\S]*)\)$)");
  std::smatch m;
  std::vector<std::string> parts = std::regex_match(t, m, dim3) ? topLevelSplit(m[1].str()) : std::vector<std::string>{t};
  for (size_t i = 0; i < parts.size() && i < 3; ++i) d[i] = manifestExpr(parts[i]);
  return d;
}

std::optional<ElemType> cElemType(std::string base) {
  static const std::regex fixed(R"(^(u?int(?:8|16|32|64))_t$)");
  std::smatch m;
  if (std::regex_match(base, m, fixed)) base = m[1].str();
  if (base == "unsigned int" || base == "unsigned") base = "uint32";
  if (base == "signed char" || base == "char") base = "int8";
  if (base == "unsigned char" || base == "uchar") base = "uint8";
  if (base == "long long" || base == "long") base = "int64";
  return parseElemType(base);
}

WrapperParam readParam(const std::string& text) {
  WrapperParam p;
  std::string decl = trim(text.substr(0, text.find('=')));
  static const std::regex last(R"(([A-Za-z_]\w*)\s*$)");
  std::smatch m;
  if (!std::regex_search(decl, m, last)) return p;
  p.name = m[1].str();
  p.typeText = trim(decl.substr(0, static_cast<size_t>(m.position(0))));
  p.isPointer = p.typeText.find('*') != std::string::npos;
  std::string base = p.typeText;
  for (const char* word : {"__restrict__", "__restrict", "const", "volatile", "*"})
    for (size_t at; (at = base.find(word)) != std::string::npos;) base.replace(at, std::string(word).size(), " ");
  base = std::regex_replace(trim(base), std::regex(R"(\s+)"), " ");
  p.isStream = base.size() > 8 && base.compare(base.size() - 8, 8, "Stream_t") == 0;
  p.type = cElemType(base);
  return p;
}

struct HostFunction {
  std::string name;
  size_t begin = 0, paramsOpen = 0, paramsClose = 0, bodyOpen = 0, bodyClose = 0;
};

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The identifier that ends just before `pos` (spaces skipped), or "".
std::string identifierBefore(const std::string& s, size_t pos) {
  size_t end = pos;
  while (end > 0 && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  size_t begin = end;
  while (begin > 0 && identChar(s[begin - 1])) --begin;
  return s.substr(begin, end - begin);
}

// Every `extern "C" ... init|call|get_last_error(...) { ... }`: scanned by hand, not by std::regex, whose
// recursion a long declaration would overflow.
std::vector<HostFunction> hostFunctions(const std::string& code) {
  std::vector<HostFunction> out;
  for (size_t at = code.find("extern"); at != std::string::npos; at = code.find("extern", at + 6)) {
    if ((at > 0 && identChar(code[at - 1])) || at + 6 >= code.size() || identChar(code[at + 6])) continue;
    size_t q = code.find_first_not_of(" \t\r\n", at + 6);
    if (q == std::string::npos || code.compare(q, 3, "\"C\"") != 0) continue;
    size_t stop = code.find_first_of(";{}(", q + 3);
    if (stop == std::string::npos || code[stop] != '(') continue;
    HostFunction f;
    f.name = identifierBefore(code, stop);
    if (f.name != "init" && f.name != "call" && f.name != "get_last_error") continue;
    f.begin = at;
    f.paramsOpen = stop;
    f.paramsClose = closingOf(code, f.paramsOpen);
    if (f.paramsClose == std::string::npos) continue;
    f.bodyOpen = code.find_first_of("{;", f.paramsClose);
    if (f.bodyOpen == std::string::npos || code[f.bodyOpen] != '{') continue;  // a declaration
    f.bodyClose = closingOf(code, f.bodyOpen);
    if (f.bodyClose == std::string::npos) continue;
    out.push_back(f);
  }
  return out;
}

// The last `config.FIELD = EXPR;` between `from` and `at` (cudaLaunchKernelEx's form), or "".
std::string configField(const std::string& code, size_t from, size_t at, const std::string& field) {
  std::string key = "config." + field;
  size_t pos = code.rfind(key, at);
  if (pos == std::string::npos || pos < from) return "";
  size_t eq = code.find_first_not_of(" \t", pos + key.size());
  if (eq == std::string::npos || code[eq] != '=') return "";
  size_t end = code.find(';', eq);
  return end == std::string::npos || end > at ? "" : trim(code.substr(eq + 1, end - eq - 1));
}

class LaunchReader {
 public:
  LaunchReader(const std::string& path, const std::string& code, const HostFunction& call,
               const std::vector<WrapperParam>& params)
      : path_(path), code_(code), call_(call), params_(params) {}

  std::vector<WrapperLaunch> read() {
    std::vector<WrapperLaunch> out;
    size_t from = call_.bodyOpen, to = call_.bodyClose;
    // Each launch form by its marker, in the order they stand.
    std::vector<std::pair<size_t, char>> marks;
    for (size_t at = code_.find("<<<", from); at != std::string::npos && at < to; at = code_.find("<<<", at + 3))
      marks.push_back({at, '<'});
    for (const char* api : {"LaunchKernelEx", "LaunchCooperativeKernel"})
      for (size_t at = code_.find(api, from); at != std::string::npos && at < to; at = code_.find(api, at + 1)) {
        std::string prefix = identifierBefore(code_, at + std::string(api).size());
        if (prefix == std::string("cuda") + api || prefix == std::string("hip") + api || prefix == std::string("mc") + api)
          marks.push_back({at - (prefix.size() - std::string(api).size()), api[6] == 'K' ? 'x' : 'c'});
      }
    std::sort(marks.begin(), marks.end());
    for (auto [at, form] : marks) {
      if (form == '<') out.push_back(chevron(at, identifierBefore(code_, at)));
      else if (form == 'x') out.push_back(launchEx(at, from));
      else out.push_back(cooperative(at, from));
    }
    if (out.empty())
      throw InputError(path_, lineAt(code_, call_.begin),
                       "call() launches no kernel in a form tile-doctor reads (KERNEL<<<grid, block, shared, stream>>>(...), "
                       "cudaLaunchKernelEx or a cooperative launch)");
    return out;
  }

 private:
  [[noreturn]] void bad(size_t at, const std::string& what) const { throw InputError(path_, lineAt(code_, at), what); }

  std::string paramOf(size_t at, std::string arg) const {
    arg = trim(arg);
    if (arg.rfind("(void*)&", 0) == 0) arg = trim(arg.substr(8));
    for (const WrapperParam& p : params_)
      if (p.name == arg) return arg;
    bad(at, fmt::format("the launch passes '{}', which is not one of call()'s parameters (tile-doctor reads "
                        "launches whose arguments are call()'s parameters by name)", arg));
  }

  std::vector<std::string> argsOf(size_t at, const std::string& list) const {
    std::vector<std::string> out;
    for (const std::string& a : topLevelSplit(list)) out.push_back(paramOf(at, a));
    return out;
  }

  // The text inside the parentheses that open after `pos`, their closing found once.
  std::string parenthesised(size_t pos, size_t at) const {
    size_t open = code_.find('(', pos);
    size_t close = open == std::string::npos ? open : closingOf(code_, open);
    if (close == std::string::npos) bad(at, "the launch's argument list does not close");
    return code_.substr(open + 1, close - open - 1);
  }

  // The launch's grid, block and dynamic shared memory as written, each a C expression of bounded length
  // (the manifest's expressions stop there too, and std::regex recurses per character).
  void configure(WrapperLaunch& l, size_t at, const std::string& grid, const std::string& block,
                 const std::string& shared) const {
    if (grid.size() + block.size() > kLongestExpression || shared.size() > kLongestExpression)
      bad(at, "a launch configuration over 4096 characters");
    l.grid = dims(grid);
    l.block = dims(block);
    if (!trim(shared).empty()) l.shared = manifestExpr(shared);
  }

  WrapperLaunch chevron(size_t at, const std::string& kernel) const {
    WrapperLaunch l;
    l.kernel = kernel;
    l.line = lineAt(code_, at);
    if (kernel.empty()) bad(at, "a <<< launch without a kernel name before it");
    size_t cfg = at + 3, cfgEnd = code_.find(">>>", cfg);
    if (cfgEnd == std::string::npos) bad(at, "the launch's <<< is not closed by >>>");
    if (cfgEnd - cfg > kLongestExpression) bad(at, "a launch configuration over 4096 characters");
    std::vector<std::string> cfgParts = topLevelSplit(code_.substr(cfg, cfgEnd - cfg));
    if (cfgParts.size() < 2) bad(at, "a launch needs <<<grid, block[, shared[, stream]]>>>");
    configure(l, at, cfgParts[0], cfgParts[1], cfgParts.size() > 2 ? cfgParts[2] : "");
    l.args = argsOf(at, parenthesised(cfgEnd, at));
    return l;
  }

  WrapperLaunch launchEx(size_t at, size_t from) const {
    WrapperLaunch l;
    l.line = lineAt(code_, at);
    std::vector<std::string> parts = topLevelSplit(parenthesised(at, at));
    if (parts.size() < 2) bad(at, "cudaLaunchKernelEx(&config, KERNEL, ...) expected");
    l.kernel = trim(parts[1]);
    std::string grid = configField(code_, from, at, "gridDim"), block = configField(code_, from, at, "blockDim");
    if (grid.empty() || block.empty()) bad(at, "the launch's config.gridDim and config.blockDim are not set before it");
    configure(l, at, grid, block, configField(code_, from, at, "dynamicSmemBytes"));
    for (size_t i = 2; i < parts.size(); ++i) l.args.push_back(paramOf(at, parts[i]));
    return l;
  }

  // LaunchCooperativeKernel((void*)KERNEL, grid, block, KERNEL_args, shared, stream), the arguments in
  // `void* KERNEL_args[] = {(void*)&A, ...};` before it.
  WrapperLaunch cooperative(size_t at, size_t from) const {
    WrapperLaunch l;
    l.line = lineAt(code_, at);
    std::vector<std::string> parts = topLevelSplit(parenthesised(at, at));
    if (parts.size() < 4) bad(at, "a cooperative launch needs (kernel, grid, block, args[, shared, stream])");
    l.kernel = identifierBefore(parts[0], parts[0].size());  // `(void*)KERNEL`
    configure(l, at, parts[1], parts[2], parts.size() > 4 ? parts[4] : "");
    std::string array = trim(parts[3]);
    size_t name = code_.rfind(array, at);
    while (name != std::string::npos && name >= from && code_.find_first_not_of(" \t", name + array.size()) != code_.find('[', name))
      name = name == 0 ? std::string::npos : code_.rfind(array, name - 1);
    size_t brace = name == std::string::npos || name < from ? std::string::npos : code_.find('{', name);
    if (brace == std::string::npos || brace > at) bad(at, fmt::format("the argument array '{}' is not set before the launch", array));
    l.args = argsOf(at, code_.substr(brace + 1, closingOf(code_, brace) - brace - 1));
    return l;
  }

  const std::string &path_, &code_;
  const HostFunction& call_;
  const std::vector<WrapperParam>& params_;
};

std::string dialectOf(const std::string& path, const std::string& code) {
  auto has = [&](const char* s) { return code.find(s) != std::string::npos; };
  if ((path.size() > 5 && path.compare(path.size() - 5, 5, ".maca") == 0) || has("tl_templates/maca") ||
      has("mcr/mc_runtime") || has("mcStream_t"))
    return "maca";
  if (has("tl_templates/hip") || has("hip/hip_runtime") || has("hipStream_t")) return "hip";
  return "cuda";
}

}  // namespace

bool isKernelSourceName(const std::string& path) {
  static const std::set<std::string> sources = {".maca", ".cu", ".cuh", ".cpp", ".cc", ".hip", ".h"};
  return sources.count(std::filesystem::path(path).extension().string()) > 0;
}

std::string readKernelSource(const std::string& path) {
  return readInputFile(path, "the kernel source", kLargestSource);
}

bool isHostWrapperFile(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".maca") return true;
  if (!isKernelSourceName(path)) return false;
  try {
    return hasHostWrapper(readKernelSource(path));
  } catch (const InputError&) {
    return false;  // not a readable source of the size generated ones have: whatever reads it says so
  }
}

bool hasHostWrapper(const std::string& text) {
  std::string code = withoutComments(text);
  for (const HostFunction& f : hostFunctions(code))
    if (f.name == "call") return true;
  return false;
}

HostWrapper readHostWrapper(const std::string& path, const std::string& text) {
  HostWrapper w;
  std::string code = withoutComments(text);
  w.dialect = dialectOf(path, code);
  std::vector<HostFunction> fns = hostFunctions(code);
  auto call = std::find_if(fns.begin(), fns.end(), [](const HostFunction& f) { return f.name == "call"; });
  if (call == fns.end())
    throw InputError(path, 0, "no host function `extern \"C\" int call(...)`: not a TileLang dump (a kernel source "
                              "needs a bundle manifest: docs/bundle-format.md)");
  w.callLine = lineAt(code, call->begin);
  for (const std::string& p : topLevelSplit(code.substr(call->paramsOpen + 1, call->paramsClose - call->paramsOpen - 1))) {
    if (p.size() > kLongestExpression) throw InputError(path, w.callLine, "a call() parameter over 4096 characters");
    WrapperParam param = readParam(p);
    if (param.name.empty()) throw InputError(path, w.callLine, fmt::format("call()'s parameter '{}' has no name", p));
    w.params.push_back(param);
  }
  w.launches = LaunchReader(path, code, *call, w.params).read();

  for (size_t at = code.find("tl_templates/"); at != std::string::npos; at = code.find("tl_templates/", at + 1)) {
    size_t lineStart = code.rfind('\n', at);
    lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
    size_t hash = code.find_first_not_of(" \t", lineStart);
    if (hash != at && (code[hash] != '#' || code.substr(hash, at - hash).find("include") == std::string::npos)) continue;
    size_t family = at + 13, end = family;
    while (end < code.size() && identChar(code[end])) ++end;
    if (end == family || end >= code.size() || code[end] != '/') continue;
    w.templates = code.substr(at, end - at);
    w.templatesLine = lineAt(code, at);
    break;
  }
  for (const HostFunction& f : fns) {
    if (f.name != "init") continue;
    for (size_t at = code.find("if", f.bodyOpen); at != std::string::npos && at < f.bodyClose; at = code.find("if", at + 2)) {
      static const std::regex limit(R"(^if\s*\(\s*\d+\s*>\s*(\d{1,15})\s*\)[\s\S]*)");
      std::smatch m;
      std::string head = code.substr(at, 64);  // bounded: std::regex recurses per character
      if (std::regex_match(head, m, limit)) {
        w.initSharedLimit = std::stoll(m[1].str());
        break;
      }
    }
  }
  // The device compile reads the kernels only: the host functions become blank lines.
  w.deviceSource = text;
  for (const HostFunction& f : fns)
    for (size_t i = f.begin; i <= f.bodyClose; ++i)
      if (w.deviceSource[i] != '\n') w.deviceSource[i] = ' ';
  return w;
}

}  // namespace td
