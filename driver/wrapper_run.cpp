#include "driver/wrapper_run.h"

#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <sys/wait.h>
#include <toml++/toml.h>

#include "driver/outputs.h"
#include "driver/script_capture.h"
#include "frontend/compiler.h"
#include "frontend/expr.h"
#include "frontend/host_wrapper.h"
#include "frontend/input_error.h"
#include "frontend/read_roots.h"
#include "frontend/lifetime.h"
#include "runtime/buffers.h"
#include "runtime/executor_limit.h"

namespace fs = std::filesystem;

namespace td {

namespace {

// A C string literal of `s` (the `#line` directive's file name).
std::string cString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += static_cast<char>(c);
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\{:03o}", c);
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

toml::array stringArray(const std::vector<std::string>& items) {
  toml::array a;
  for (const std::string& s : items) a.push_back(s);
  return a;
}

// Where the installed TileLang (tilelang-metax installs as `tilelang` too) lives, without importing it.
std::string installedTilelang(const TemporaryFolder& tmp) {
  std::string log = tmp.path() + "/find-tilelang.txt";
  pid_t pid = spawnChildOfTool({capturePython(), "-c",
                                "import importlib.util as u\ns = u.find_spec('tilelang')\n"
                                "print(list(s.submodule_search_locations)[0] if s and s.submodule_search_locations else '')"},
                               log, false);
  if (pid < 0) return "";
  int status = 0;
  waitpid(pid, &status, 0);
  releaseChild(pid);
  std::ifstream in(log);
  std::string dir;
  std::getline(in, dir);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? dir : "";
}

// The include folders (and headers) the dump's templates need.
struct Templates {
  std::vector<std::string> include;
  std::string headers = "prelude";
};

// CUTLASS's include folder beside a TileLang installation (its CuTe is what tl_templates/maca build on,
// with tile-doctor's MACA atoms: frontend/prelude/td_maca_cute.h); "" when there is none.
std::string cutlassOf(const fs::path& tilelang) {
  fs::path cutlass = tilelang / "3rdparty" / "cutlass" / "include";
  std::error_code ec;
  return !tilelang.empty() && fs::is_directory(cutlass / "cute", ec) ? cutlass.string() : "";
}

Templates templatesOf(const HostWrapper& w, const WrapperCheckRequest& req, const TemporaryFolder& tmp) {
  Templates t;
  const std::string& path = req.check.bundlePath;
  if (w.dialect == "cuda") t.headers = "cuda";  // TileLang's CUDA templates need the SDK (docs/guide-tilelang.md)
  if (w.templates.empty()) return t;
  std::string family = fs::path(w.templates).filename().string();  // maca, hip, cuda
  std::optional<std::string> found;  // the installed TileLang, asked of Python only when needed
  auto tilelang = [&]() -> const std::string& {
    if (!found) found = installedTilelang(tmp);
    return *found;
  };
  if (!req.templatesDir.empty()) {
    fs::path dir = fs::absolute(req.templatesDir);
    if (fs::is_directory(dir / "tl_templates" / family)) t.include.push_back(dir.string());
    else if (dir.filename() == family && dir.parent_path().filename() == "tl_templates")
      t.include.push_back(dir.parent_path().parent_path().string());
    else
      throw InputError("--maca-templates", 0, fmt::format("{} holds no tl_templates/{} (give tilelang-metax's src/ folder)",
                                                          req.templatesDir, family));
  } else {
    fs::path src = fs::path(tilelang()) / "src";
    if (tilelang().empty() || !fs::is_directory(src / "tl_templates" / family))
      throw InputError(path, w.templatesLine,
                       fmt::format("the source includes <{}/...>, and no installed TileLang has them ({}): give "
                                   "--maca-templates DIR (the src/ folder of tilelang-metax or TileLang, holding "
                                   "tl_templates/{}), or set TILE_DOCTOR_PYTHON to an interpreter that has it",
                                   w.templates, tilelang().empty() ? capturePython() + " finds no tilelang" : tilelang(), family));
    t.include.push_back(src.string());
  }
  // TileLang's CUDA templates and tilelang-metax's MACA ones build on CuTe: CUTLASS's, compiled against the
  // CUDA SDK's headers (its config includes the runtime's), the MACA prelude on top for MACA sources.
  if (family != "cuda" && family != "maca") return t;
  std::string cutlass = cutlassOf(fs::path(t.include.front()).parent_path());
  if (cutlass.empty()) cutlass = cutlassOf(tilelang());
  if (!cutlass.empty()) {
    t.include.push_back(cutlass);
    if (!findCudaSdk().empty()) t.headers = "cuda";
  }
  return t;
}

class WrapperChecker {
 public:
  WrapperChecker(const WrapperCheckRequest& req, const HostWrapper& w, std::string folder)
      : req_(req), w_(w), folder_(std::move(folder)), path_(req.check.bundlePath) {
    for (const auto& [name, value] : req.check.params) {  // each may use the ones before it, as a manifest's
      try {
        params_[name] = evalExpr(value, params_);
      } catch (const ExprError& e) {
        throw InputError("--param", 0, fmt::format("{}={}: {}", name, value, e.what()));
      }
    }
    for (const auto& [name, value] : req.shapes) shapes_[name] = value;
    for (const auto& [name, value] : req.inits) inits_[name] = value;
    for (const WrapperParam& p : w.params) {
      if (p.isStream || p.isPointer) continue;
      if (!params_.count(p.name))
        throw InputError(path_, w.callLine, fmt::format("call() takes '{}' ({}): give its value with --param {}=VALUE",
                                                        p.name, p.typeText, p.name));
    }
    for (const auto& [name, spec] : shapes_)
      if (!param(name) || !param(name)->isPointer)
        throw InputError("--shape", 0, fmt::format("'{}' is not a buffer call() takes ({})", name, bufferNames()));
    for (const auto& [name, spec] : inits_)
      if (!param(name) || !param(name)->isPointer)
        throw InputError("--init", 0, fmt::format("'{}' is not a buffer call() takes ({})", name, bufferNames()));
  }

  void writeSource(const Templates& templates) {
    templates_ = templates;
    source_ = (fs::path(folder_) / fs::path(path_).filename()).string();
    std::ofstream out(source_, std::ios::binary);
    // The compile reads the user's file names and lines: findings point at the dump, not at this copy.
    out << "#line 1 " << cString(fs::absolute(path_).string()) << "\n" << w_.deviceSource;
    if (!out.flush()) throw std::runtime_error("cannot write " + source_);
  }

  const std::string& sourceCopy() const { return source_; }

  // Launch `n` (from 1) as a bundle, its buffers as the launches before it left them.
  std::string writeManifest(int n, const WrapperLaunch& l) {
    std::string dir = (fs::path(folder_) / fmt::format("launch{}_{}", n, l.kernel)).string();
    fs::create_directories(dir);
    toml::table kernel{{"source", source_}, {"entry", l.kernel}, {"dialect", w_.dialect}, {"headers", templates_.headers}};
    if (!templates_.include.empty()) kernel.insert("include", stringArray(templates_.include));
    toml::table params;
    for (const auto& [name, value] : params_) params.insert(name, value);
    toml::array args;
    for (const std::string& name : l.args) args.push_back(argEntry(*param(name), l));
    toml::table root{{"kernel", std::move(kernel)},
                     {"params", std::move(params)},
                     {"launch", toml::table{{"grid", stringArray({l.grid.begin(), l.grid.end()})},
                                            {"block", stringArray({l.block.begin(), l.block.end()})},
                                            {"shared", l.shared}}},
                     {"args", std::move(args)}};
    std::string manifest = dir + "/bundle.toml";
    std::ofstream out(manifest, std::ios::binary);
    out << fmt::format("# launch {} of {}'s call() (line {}), written by tile-doctor\n", n, path_, l.line)
        << toml::toml_formatter(root) << "\n";
    if (!out.flush()) throw InputError(manifest, 0, "cannot write the launch's manifest");
    return manifest;
  }

  // After a launch: its buffers are what the next launch reads.
  void keepBuffers(const CheckResult& res) {
    std::string state = (fs::path(folder_) / "buffers").string();
    fs::create_directories(state);
    for (const ArgValue& a : res.args) {
      if (!a.spec->isBuffer) continue;
      std::string file = state + "/" + a.spec->name + ".npy";
      writeNpy(file, *a.spec, a.data);
      written_[a.spec->name] = file;
    }
  }

 private:
  const WrapperParam* param(const std::string& name) const {
    for (const WrapperParam& p : w_.params)
      if (p.name == name) return &p;
    return nullptr;
  }

  std::string bufferNames() const {
    std::string s;
    for (const WrapperParam& p : w_.params)
      if (p.isPointer) s += (s.empty() ? "" : ", ") + p.name;
    return s.empty() ? "it takes none" : "its buffers: " + s;
  }

  toml::table argEntry(const WrapperParam& p, const WrapperLaunch& l) const {
    if (!p.type)
      throw InputError(path_, l.line, fmt::format("the launch passes '{}' of type '{}', which tile-doctor has no {} of",
                                                  p.name, p.typeText, p.isPointer ? "buffers" : "scalars"));
    if (!p.isPointer) return toml::table{{"name", p.name}, {"type", elemTypeName(*p.type)}, {"value", p.name}};
    auto shape = shapes_.find(p.name);
    if (shape == shapes_.end())
      throw InputError(path_, w_.callLine, fmt::format("buffer '{}' ({}) has no shape (the generated code does not state "
                                                       "it): give --shape {}=D0,D1,... (numbers or expressions of --param "
                                                       "names)", p.name, p.typeText, p.name));
    std::vector<std::string> dims;
    std::stringstream ss(shape->second);
    for (std::string d; std::getline(ss, d, ',');) dims.push_back(d);
    // Integers are indices, offsets and masks more often than data: zeros index nothing out of bounds.
    std::string init = isFloat(*p.type) ? "uniform(-1, 1)" : "zeros";
    if (auto it = inits_.find(p.name); it != inits_.end()) init = it->second;
    if (auto it = written_.find(p.name); it != written_.end()) init = "file(\"" + it->second + "\")";
    return toml::table{{"name", p.name}, {"type", std::string(elemTypeName(*p.type)) + "*"}, {"shape", stringArray(dims)},
                       {"output", true}, {"init", init}};
  }

  const WrapperCheckRequest& req_;
  const HostWrapper& w_;
  std::string folder_, path_, source_;
  Templates templates_;
  ParamMap params_;
  std::map<std::string, std::string> shapes_, inits_, written_;
};

// One launch's check. What its generated manifest is blamed for is the launch's line in the dump, and
// the compiled copy of the dump is named as the dump.
CheckResult checkLaunch(const CheckRequest& req, const std::string& dump, const std::string& copy, const WrapperLaunch& l) {
  auto asDump = [&](std::string text) {
    for (size_t at; !copy.empty() && (at = text.find(copy)) != std::string::npos;) text.replace(at, copy.size(), dump);
    return text;
  };
  try {
    return runCheck(req);
  } catch (const InputError& e) {
    bool manifest = e.file == req.bundlePath;
    throw InputError(manifest ? dump : asDump(e.file), manifest ? l.line : e.line, asDump(e.what()));
  } catch (ExecutorCannotRun& e) {
    if (e.loc.file == req.bundlePath) e.loc.file = dump, e.loc.line = static_cast<unsigned>(l.line);
    throw;
  }
}

}  // namespace

bool isWrapperSource(const std::string& path) { return isHostWrapperFile(path); }

RunSet checkWrapperRuns(const WrapperCheckRequest& req) {
  const std::string& path = req.check.bundlePath;
  HostWrapper w = readHostWrapper(path, readKernelSource(path));
  TemporaryFolder tmp("dump");
  std::string folder = req.keep.empty() ? tmp.path() : req.keep;
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) throw InputError(folder, 0, "cannot create the --keep folder: " + ec.message());
  // The bundles written there name the source the user gave and what sits beside it (frontend/read_roots.h).
  addIncludeRoot(folder);
  addIncludeRoot(fs::absolute(path).parent_path().string());

  WrapperChecker checker(req, w, folder);
  checker.writeSource(templatesOf(w, req, tmp));
  CheckRequest creq = req.check;
  creq.params.clear();  // they are the manifests' [params]
  if (creq.target.empty() && w.dialect != "cuda") creq.target = "metax-c500";  // MACA's (and HIP's) wave-64 GPU

  RunSet set;
  ScriptRun& s = set.script.emplace();
  s.script = path;
  s.scriptAbsolute = fs::absolute(path).string();
  s.generatedDialect = w.dialect;
  s.arch = "sm_80";  // what the compile assumes (a bundle's default arch)
  s.keptIn = req.keep;
  s.keptBundles = !req.keep.empty();
  if (creq.target != req.check.target)
    s.notes.push_back({path, fmt::format("{} source: checked on {} (--target chooses another wave-64 target)", w.dialect,
                                         creq.target)});
  int n = 0;
  for (const WrapperLaunch& l : w.launches) {
    ++n;
    Run item;
    item.launch = n;
    item.entry = l.kernel;
    item.calledAt = fmt::format("{}:{}", path, l.line);
    item.compiledAt = path;
    creq.bundlePath = checker.writeManifest(n, l);
    item.bundle = creq.bundlePath;
    item.folder = fs::path(item.bundle).parent_path().filename().string();
    CheckResult res = checkLaunch(creq, path, checker.sourceCopy(), l);
    for (const ArgSpec& a : res.bundle.args) {
      std::string dims;
      for (int64_t d : a.shape) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
      if (a.isBuffer) item.shapes[a.name] = fmt::format("{}[{}]", elemTypeName(a.type), dims);
      else item.scalars[a.name] = isFloat(a.type) ? fmt::format("{}", a.floatValue) : std::to_string(a.intValue);
    }
    for (Finding& f : res.report.findings) {
      if (f.loc.file == res.bundle.manifestPath) {  // launch limits: the launch's line
        f.loc.file = path;
        f.loc.line = static_cast<unsigned>(l.line);
        f.loc.col = 0;
      }
      f.notes.push_back("in the launch at " + item.calledAt);
    }
    if (w.initSharedLimit >= 0 && res.bundle.dynamicShared > w.initSharedLimit)
      s.notes.push_back({item.calledAt, fmt::format("init() refuses this source before call() runs: the launch asks {} "
                                                    "bytes of dynamic shared memory, init() allows {}",
                                                    res.bundle.dynamicShared, w.initSharedLimit)});
    if (n < static_cast<int>(w.launches.size())) checker.keepBuffers(res);
    else saveOutputs(res, req.saveOutputs, true);
    item.report = std::move(res.report);
    set.runs.push_back(std::move(item));
  }
  return set;
}

}  // namespace td
