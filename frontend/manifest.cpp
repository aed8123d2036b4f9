#include "frontend/manifest.h"

#include <cmath>

#include <filesystem>
#include <optional>
#include <fmt/format.h>
#include <regex>
#include <set>
#include <toml++/toml.h>

#include "frontend/build_flags.h"
#include "frontend/host_wrapper.h"
#include "frontend/input_error.h"
#include "frontend/paths.h"
#include "frontend/read_roots.h"
#include "frontend/text_bounds.h"
#include "frontend/toml_reader.h"

namespace fs = std::filesystem;

namespace td {

namespace {
constexpr size_t kMaxInitLength = 4096;
constexpr size_t kMaxStringLength = 65536;
constexpr uint64_t kLargestManifest = 16u << 20;  // a manifest is a page of TOML; args inline as values stay far below
}  // namespace

uint64_t ArgSpec::elementCount() const {
  if (storageElements) return storageElements;
  uint64_t n = 1;
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

namespace {

class ManifestReader : public TomlReader {
 public:
  explicit ManifestReader(std::string path) : TomlReader(std::move(path)) {}

  // An integer or an expression string.
  int64_t count(const toml::node& n, const ParamMap& params, const std::string& what) const {
    if (n.is_integer()) return n.as_integer()->get();
    if (n.is_string()) {
      try {
        return evalExpr(std::string(n.as_string()->get()), params);
      } catch (const ExprError& e) {
        fail(&n, fmt::format("{}: {}", what, e.what()));
      }
    }
    fail(&n, fmt::format("{} must be an integer or an expression string", what));
  }

  std::array<int64_t, 3> dims(const toml::table& t, const char* key, const ParamMap& params) const {
    std::array<int64_t, 3> d{1, 1, 1};
    const toml::node* n = t.get(key);
    if (!n) fail(t.source().begin.line, fmt::format("[launch] needs '{}'", key));
    if (n->is_array()) {
      const toml::array& a = *n->as_array();
      if (a.empty() || a.size() > 3) fail(n, fmt::format("launch.{} takes 1 to 3 entries, got {}", key, a.size()));
      for (size_t i = 0; i < a.size(); ++i) d[i] = count(*a.get(i), params, fmt::format("launch.{}[{}]", key, i));
    } else {
      d[0] = count(*n, params, fmt::format("launch.{}", key));
    }
    for (int64_t v : d) {
      if (v <= 0) fail(n, fmt::format("launch.{} entries must be positive (got {})", key, v));
      // No GPU launches more in one dimension (CUDA takes unsigned 32-bit dimensions); the target's own
      // limits are the launch family's findings.
      if (v > int64_t{UINT32_MAX}) fail(n, fmt::format("launch.{} entry {} exceeds 2^32-1, which no GPU launches", key, v));
    }
    return d;
  }

  InitSpec parseInit(const toml::node& n, const std::string& baseDir) const {
    if (!n.is_string()) fail(&n, "init must be a string such as \"zeros\" or \"uniform(-1, 1)\"");
    InitSpec s;
    s.text = std::string(n.as_string()->get());
    // Bounded before any regex sees it: libstdc++'s regex recurses once per character.
    if (s.text.size() > kMaxInitLength)
      fail(&n, fmt::format("init \"{}\" is {} characters long; at most {}", quotable(s.text), s.text.size(), kMaxInitLength));
    static const std::regex call(R"(^\s*([a-z]+)\s*(?:\((.*)\))?\s*$)");
    std::smatch m;
    if (!std::regex_match(s.text, m, call)) fail(&n, fmt::format("cannot read init \"{}\"", s.text));
    std::string fn = m[1], argText = m[2];
    std::vector<double> nums;
    auto needNumbers = [&](size_t k) {
      static const std::regex num(R"(\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(,|$))");
      std::string rest = argText;
      std::smatch nm;
      while (!rest.empty() && std::regex_search(rest, nm, num) && nm.position(0) == 0) {
        double v = std::strtod(nm[1].str().c_str(), nullptr);  // stod throws on 1e999; strtod says inf
        if (!std::isfinite(v)) fail(&n, fmt::format("init \"{}\": {} is not a finite number", s.text, nm[1].str()));
        nums.push_back(v);
        rest = nm.suffix();
      }
      if (!rest.empty() || nums.size() != k)
        fail(&n, fmt::format("init \"{}\": {}() takes {} number{}", s.text, fn, k, k == 1 ? "" : "s"));
    };
    if (fn == "zeros") s.kind = InitSpec::Zeros;
    else if (fn == "ones") s.kind = InitSpec::Ones;
    else if (fn == "arange") s.kind = InitSpec::Arange;
    else if (fn == "uninit") s.kind = InitSpec::Uninit;
    else if (fn == "fill") { needNumbers(1); s.kind = InitSpec::Fill; s.a = nums[0]; }
    else if (fn == "uniform") {
      needNumbers(2);
      s.kind = InitSpec::Uniform, s.a = nums[0], s.b = nums[1];
      if (!(s.a < s.b)) fail(&n, fmt::format("init \"{}\": uniform(A, B) needs A < B", s.text));
    } else if (fn == "normal") {
      needNumbers(2);
      s.kind = InitSpec::Normal, s.a = nums[0], s.b = nums[1];
      if (!(s.b > 0)) fail(&n, fmt::format("init \"{}\": normal(MEAN, STD) needs STD > 0", s.text));
    }
    else if (fn == "file") {
      static const std::regex quoted(R"(^\s*["'](.+)["']\s*$)");
      std::smatch q;
      if (!std::regex_match(argText, q, quoted)) fail(&n, fmt::format("init \"{}\": file() takes a quoted path", s.text));
      s.kind = InitSpec::File;
      s.file = (fs::path(baseDir) / std::string(q[1])).string();
    } else {
      fail(&n, fmt::format("unknown init \"{}\" (zeros, ones, fill(V), arange, uniform(A, B), normal(MEAN, STD), "
                           "file(\"a.npy\"), uninit)", s.text));
    }
    return s;
  }

  // tma = {...}: the buffer goes to the kernel as a Hopper TMA descriptor (frontend/tensor_map.h).
  void parseTensorMap(const toml::node& n, ArgSpec& a, const ParamMap& params) const {
    if (!n.is_table()) fail(&n, fmt::format("tma of '{}' must be a table: tma = {{ data_type = 6, dims = [...], ... }}", a.name));
    const toml::table& t = *n.as_table();
    std::string where = fmt::format("the tma of '{}'", a.name);
    allowOnly(t, {"data_type", "dims", "strides", "box", "element_strides", "interleave", "swizzle", "l2_promotion",
                  "oob_fill"}, where);
    a.isTensorMap = true;
    TensorMapSpec& m = a.tensorMap;
    auto get = [&](const char* key) -> const toml::node& {
      const toml::node* v = t.get(key);
      if (!v) fail(&n, fmt::format("{} needs '{}'", where, key));
      return *v;
    };
    auto list = [&](const char* key) {
      const toml::node& v = get(key);
      if (!v.is_array() || v.as_array()->empty() || v.as_array()->size() > kTensorMapMaxRank)
        fail(&v, fmt::format("{} in {} must be an array of 1 to {} entries", key, where, kTensorMapMaxRank));
      std::vector<uint64_t> out;
      for (size_t i = 0; i < v.as_array()->size(); ++i) {
        int64_t x = count(*v.as_array()->get(i), params, fmt::format("{}[{}] in {}", key, i, where));
        if (x <= 0 || x > (int64_t{1} << 40))
          fail(&v, fmt::format("{}[{}] in {} is {}; it must be in 1..2^40", key, i, where, x));
        out.push_back(static_cast<uint64_t>(x));
      }
      return out;
    };
    auto small = [&](const char* key) {  // box and element strides: at most 256, checked with the rest
      std::vector<uint64_t> v = list(key);
      std::vector<uint32_t> out;
      for (uint64_t x : v) out.push_back(static_cast<uint32_t>(std::min<uint64_t>(x, UINT32_MAX)));
      return out;
    };
    auto enumValue = [&](const char* key) {
      int64_t v = count(get(key), params, fmt::format("{} in {}", key, where));
      if (v < 0 || v > 255) fail(&get(key), fmt::format("{} in {} is {}", key, where, v));
      return static_cast<int>(v);
    };
    m.dataType = enumValue("data_type");
    m.dims = list("dims");
    m.strides = list("strides");
    m.box = small("box");
    m.elementStrides = small("element_strides");
    m.interleave = enumValue("interleave");
    m.swizzle = enumValue("swizzle");
    m.l2Promotion = enumValue("l2_promotion");
    m.oobFill = enumValue("oob_fill");
    std::string problem = tensorMapProblem(m, a);
    if (!problem.empty()) fail(&n, fmt::format("the TMA descriptor of '{}': {}", a.name, problem));
  }

  ArgSpec parseArg(const toml::table& t, size_t index, const ParamMap& params, const std::string& baseDir) const {
    ArgSpec a;
    a.line = static_cast<int>(t.source().begin.line);
    std::string where = fmt::format("[[args]] entry {}", index + 1);
    allowOnly(t, {"name", "type", "shape", "elements", "init", "output", "value", "tma"}, where);
    a.name = str(t, "name", where, true);
    std::string type = str(t, "type", where + " ('" + a.name + "')", true);
    std::string base = type;
    while (!base.empty() && base.back() == ' ') base.pop_back();
    if (!base.empty() && base.back() == '*') {
      a.isBuffer = true;
      base.pop_back();
      while (!base.empty() && base.back() == ' ') base.pop_back();
      if (base.rfind("const ", 0) == 0) base = base.substr(6);
    }
    auto et = parseElemType(base);
    if (!et) fail(t.get("type"), fmt::format("argument '{}': unknown element type '{}' (half, bfloat16, float, double, "
                                             "int8, uint8, int16, int32, uint32, int64, uint64, int4, uint4, "
                                             "float8_e4m3, float8_e5m2, float8_e8m0)", a.name, base));
    a.type = *et;
    if (!a.isBuffer && isPacked(a.type))
      fail(t.get("type"), fmt::format("argument '{}': {} is a packed buffer type; a scalar needs a whole byte or more",
                                      a.name, base));
    if (a.isBuffer) {
      if (t.get("value")) fail(t.get("value"), fmt::format("argument '{}' is a buffer; it takes shape and init, not value", a.name));
      const toml::node* shape = t.get("shape");
      if (!shape) fail(a.line, fmt::format("buffer argument '{}' needs a shape", a.name));
      if (!shape->is_array() || shape->as_array()->empty()) fail(shape, fmt::format("shape of '{}' must be a non-empty array", a.name));
      uint64_t total = 1;
      for (size_t i = 0; i < shape->as_array()->size(); ++i) {
        int64_t d = count(*shape->as_array()->get(i), params, fmt::format("shape[{}] of '{}'", i, a.name));
        if (d <= 0) fail(shape, fmt::format("shape[{}] of '{}' is {}; dimensions must be positive", i, a.name, d));
        if (__builtin_mul_overflow(total, static_cast<uint64_t>(d), &total))
          fail(shape, fmt::format("element count of '{}' overflows 64 bits", a.name));
        a.shape.push_back(d);
      }
      if (const toml::node* e = t.get("elements")) {
        int64_t n = count(*e, params, fmt::format("elements of '{}'", a.name));
        if (n <= 0) fail(e, fmt::format("elements of '{}' is {}; it must be positive", a.name, n));
        if (isPacked(a.type)) fail(e, fmt::format("'{}' is a packed buffer; elements applies to whole-byte types", a.name));
        a.storageElements = static_cast<uint64_t>(n);
        total = a.storageElements;
      }
      uint64_t bytes;
      if (__builtin_mul_overflow(total, elemSize(a.type), &bytes))
        fail(shape, fmt::format("byte size of '{}' overflows 64 bits", a.name));
      a.init = t.get("init") ? parseInit(*t.get("init"), baseDir) : InitSpec{};
      if (const toml::node* o = t.get("output")) {
        if (!o->is_boolean()) fail(o, fmt::format("output of '{}' must be true or false", a.name));
        a.output = o->as_boolean()->get();
      }
      if (const toml::node* m = t.get("tma")) parseTensorMap(*m, a, params);
    } else {
      for (const char* k : {"shape", "elements", "init", "output", "tma"})
        if (t.get(k)) fail(t.get(k), fmt::format("argument '{}' is a scalar ({}); '{}' applies to buffers only", a.name, type, k));
      const toml::node* v = t.get("value");
      if (!v) fail(a.line, fmt::format("scalar argument '{}' needs a value", a.name));
      if (isFloat(a.type)) {
        if (v->is_floating_point()) a.floatValue = v->as_floating_point()->get();
        else a.floatValue = static_cast<double>(count(*v, params, fmt::format("value of '{}'", a.name)));
      } else {
        if (v->is_floating_point()) fail(v, fmt::format("'{}' is {}; its value must be an integer", a.name, type));
        a.intValue = count(*v, params, fmt::format("value of '{}'", a.name));
        // The kernel receives the value in its own type: one that does not fit would arrive truncated.
        if (!intFits(a.type, a.intValue)) fail(v, fmt::format("'{}' is {}; {} does not fit it", a.name, type, a.intValue));
      }
    }
    return a;
  }

  // A source given where a manifest is wanted: say what takes it rather than the TOML parser's complaint.
  [[noreturn]] void notAManifest() const {
    if (isHostWrapperFile(path()))
      throw InputError(path(), 0, "a generated source with its host wrapper (init()/call()): `tile-doctor check` reads it "
                                 "as it is; for this command, `tile-doctor check FILE --keep DIR` writes a bundle per "
                                 "launch (DIR/launch<N>_<kernel>/bundle.toml)");
    throw InputError(path(), 0, "a kernel source, not a bundle manifest: a manifest (a .toml file with a [kernel] "
                               "table) beside it names it (docs/bundle-format.md)");
  }

  Bundle read(const std::vector<std::pair<std::string, std::string>>& overrides) {
    toml::table root;
    std::string text = readInputFile(path(), "the manifest", kLargestManifest);
    try {
      root = parseText(text);
    } catch (const InputError&) {  // a syntax error
      if (isKernelSourceName(path())) notAManifest();
      throw;
    }
    Bundle b;
    b.manifestPath = path();
    b.dir = fs::absolute(path()).parent_path().string();
    allowOnly(root, {"version", "kernel", "params", "launch", "args"}, "the manifest");
    if (const toml::node* v = root.get("version")) {
      if (!v->is_integer() || v->as_integer()->get() != 1)
        fail(v, "unsupported bundle version (this tile-doctor reads version = 1)");
    }

    const toml::table& params = table(root, "params", false);
    for (auto&& [k, v] : params) {
      if (!v.is_integer()) fail(&v, fmt::format("parameter '{}' must be an integer", k.str()));
      b.params[std::string(k.str())] = v.as_integer()->get();
    }
    for (auto& [name, value] : overrides) {
      if (!b.params.count(name)) {
        std::string known;
        for (auto& [k, v] : b.params) known += (known.empty() ? "" : ", ") + k;
        throw InputError(path(), 0, fmt::format("--param {}: the bundle has no parameter '{}' (it has: {})", name, name,
                                               known.empty() ? "none" : known));
      }
      try {
        b.params[name] = evalExpr(value, b.params);
      } catch (const ExprError& e) {
        throw InputError(path(), 0, fmt::format("--param {}={}: {}", name, value, e.what()));
      }
    }

    const toml::table& kernel = table(root, "kernel", true);
    allowOnly(kernel, {"source", "ir", "entry", "flags", "include", "headers", "dialect", "arch", "line_map"}, "[kernel]");
    std::string source = str(kernel, "source", "[kernel]", false);
    std::string ir = str(kernel, "ir", "[kernel]", false);
    if (source.empty() == ir.empty()) fail(kernel.source().begin.line, "[kernel] needs exactly one of 'source' or 'ir'");
    auto resolve = [&](const std::string& rel, const char* key) {
      fs::path p = (fs::path(b.dir) / rel).lexically_normal();
      std::error_code ec;
      if (!fs::exists(p, ec))
        fail(kernel.get(key), fmt::format("{} file '{}' not found (looked at {}{})", key, quotable(rel), quotable(p.string()),
                                          ec ? ": " + ec.message() : ""));
      if (!fs::is_regular_file(p, ec))  // a FIFO or a device would block clang or never end
        fail(kernel.get(key), fmt::format("{} file '{}' is not a regular file (a FIFO or a device is not read)", key,
                                          quotable(rel)));
      if (auto why = outsideTheBundle(p.string(), b.dir, std::string("kernel.") + key)) fail(kernel.get(key), *why);
      return p.string();
    };
    if (!source.empty()) b.sourcePath = resolve(source, "source");
    if (!ir.empty()) b.irPath = resolve(ir, "ir");
    if (std::string lm = str(kernel, "line_map", "[kernel]", false); !lm.empty()) b.lineMapPath = resolve(lm, "line_map");
    if (const toml::node* h = kernel.get("headers")) {
      b.headers = str(kernel, "headers", "[kernel]", true);
      b.headersLine = static_cast<int>(h->source().begin.line);
      if (b.headers != "prelude" && b.headers != "cuda" && b.headers != "none")
        fail(h, fmt::format("kernel.headers is '{}'; it must be \"prelude\", \"cuda\" or \"none\"", b.headers));
    }
    if (const toml::node* d = kernel.get("dialect")) {
      b.dialect = str(kernel, "dialect", "[kernel]", true);
      b.dialectLine = static_cast<int>(d->source().begin.line);
      if (b.dialect != "cuda" && b.dialect != "hip" && b.dialect != "maca")
        fail(d, fmt::format("kernel.dialect is '{}'; it must be \"cuda\", \"hip\" or \"maca\"", quotable(b.dialect)));
      if (!ir.empty()) fail(d, "kernel.dialect says how to compile a source; an 'ir' kernel has none");
    }
    if (const toml::node* a = kernel.get("arch")) {
      b.arch = str(kernel, "arch", "[kernel]", true);
      static const std::regex smArch(R"(sm_\d+a?)");
      if (b.arch.size() > 16 || !std::regex_match(b.arch, smArch))
        fail(a, fmt::format("kernel.arch is '{}'; it must look like sm_80", quotable(b.arch)));
    }
    b.entry = str(kernel, "entry", "[kernel]", true);
    b.entryLine = static_cast<int>(kernel.get("entry")->source().begin.line);
    for (const char* key : {"flags", "include"}) {
      const toml::node* n = kernel.get(key);
      if (!n) continue;
      if (!n->is_array()) fail(n, fmt::format("kernel.{} must be an array of strings", key));
      for (auto& e : *n->as_array()) {
        if (!e.is_string()) fail(&e, fmt::format("kernel.{} entries must be strings", key));
        std::string s = substitute(std::string(e.as_string()->get()), b.params, &e);
        if (std::string(key) == "flags") b.flags.push_back(s);
        else if (auto why = outsideTheBundle((fs::path(b.dir) / s).string(), b.dir, "kernel.include")) fail(&e, *why);
        else b.includeDirs.push_back((fs::path(b.dir) / s).string());
      }
      if (std::string(key) == "flags") {
        BuildFlags checked = bundleBuildFlags(b.flags, b.dir);
        if (checked.refused) fail(n->as_array()->get(checked.refused->index), checked.refused->reason);
        b.flags = std::move(checked.flags);
      }
    }

    const toml::table& launch = table(root, "launch", true);
    allowOnly(launch, {"grid", "block", "shared", "shared_on_target"}, "[launch]");
    b.grid = dims(launch, "grid", b.params);
    b.block = dims(launch, "block", b.params);
    b.sharedLine = static_cast<int>(launch.source().begin.line);
    if (const toml::node* s = launch.get("shared")) {
      b.sharedLine = static_cast<int>(s->source().begin.line);
      b.dynamicShared = count(*s, b.params, "launch.shared");
      if (b.dynamicShared < 0) fail(s, "launch.shared must not be negative");
    }
    if (const toml::node* s = launch.get("shared_on_target")) {
      b.targetSharedLine = static_cast<int>(s->source().begin.line);
      b.targetShared = count(*s, b.params, "launch.shared_on_target");
      if (b.targetShared < 0) fail(s, "launch.shared_on_target must not be negative");
    }

    const toml::node* args = root.get("args");
    if (args) {
      if (!args->is_array_of_tables()) fail(args, "'args' must be written as [[args]] entries");
      const toml::array& arr = *args->as_array();
      std::set<std::string> names;
      for (size_t i = 0; i < arr.size(); ++i) {
        ArgSpec a = parseArg(*arr.get(i)->as_table(), i, b.params, b.dir);
        if (!names.insert(a.name).second) fail(a.line, fmt::format("two arguments are named '{}'", a.name));
        b.args.push_back(std::move(a));
      }
    }
    return b;
  }

  std::string substitute(const std::string& s, const ParamMap& params, const toml::node* at) const {
    if (s.size() > kMaxStringLength)
      fail(at, fmt::format("'{}' is {} characters long; at most {}", quotable(s), s.size(), kMaxStringLength));
    static const std::regex ref(R"(\$\{([A-Za-z_][A-Za-z0-9_]*)\})");
    std::string out;
    auto begin = std::sregex_iterator(s.begin(), s.end(), ref);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      std::string name = (*it)[1];
      auto p = params.find(name);
      if (p == params.end()) fail(at, fmt::format("'{}' names unknown parameter '{}'", s, name));
      out += s.substr(last, it->position(0) - last) + std::to_string(p->second);
      last = it->position(0) + it->length(0);
    }
    return out + s.substr(last);
  }
};

}  // namespace

Bundle loadBundle(const std::string& path, const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path, 0, "bundle manifest not found" + (ec ? ": " + ec.message() : ""));
  return ManifestReader(path).read(overrides);
}

}  // namespace td
