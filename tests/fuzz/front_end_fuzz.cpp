// A process-level fuzzer for what tile-doctor reads: manifests (with their expressions and initialisers),
// expressions alone, NVPTX IR, and generated sources' host wrappers (init()/call()). It mutates a seed corpus (the test bundles' manifests, expressions,
// IR compiled from the test kernels) and feeds each input to the real parser. Bad input must come back
// as InputError / ExprError; any other exception is a finding (what would be an exit 4), a crash or a
// hang (each input runs under alarm()) ends the process, with the input kept in OUT/last-input.
//
//   td_fuzz manifest|expr|ir|wrapper ITERATIONS SEED OUT_DIR
// Prints the counts; exit 0 when every input was handled as bad input or accepted.
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <random>
#include <unistd.h>

#include "frontend/compiler.h"
#include "frontend/expr.h"
#include "frontend/input_error.h"
#include "frontend/host_wrapper.h"
#include "frontend/manifest.h"
#include "instrument/pipeline.h"

namespace fs = std::filesystem;
using namespace td;

namespace {

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Tokens a mutation may insert: the grammar's own words and the numbers at the edges of the types.
const std::vector<std::string> kDictionary = {
    "[kernel]", "[launch]", "[params]", "[[args]]", "source = ", "entry = ", "ir = ", "grid = ", "block = ",
    "shared = ", "name = ", "type = ", "shape = ", "init = ", "value = ", "output = true", "headers = ", "arch = ",
    "flags = ", "line_map = ", "\"float*\"", "\"int32\"", "\"half*\"", "\"int4*\"", "\"uint64\"", "\"bfloat16*\"",
    "\"zeros\"", "\"uniform(-1, 1)\"", "\"normal(0, 1)\"", "\"fill(1e999)\"", "\"file('x.npy')\"", "\"uninit\"",
    "cdiv(", "min(", "max(", "(", ")", "[", "]", "{", "}", ",", "\"", "'", "=", "\n", "${N}", "N", "-", "+", "*",
    "/", "%", "9223372036854775807", "-9223372036854775808", "4294967296", "2147483648", "65536", "0", "-1",
    "1e308", "nan", "inf", "0x7fffffff", "18446744073709551615", "\\u0000", "\xff\xfe", "#", "true", "false",
    "tma = { data_type = 7, dims = [32, 32], strides = [4, 128], box = [32, 32], element_strides = [1, 1], "
    "interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0 }", "data_type = ", "box = [", "strides = [",
    "swizzle = ", "256", "257",
};

std::string mutate(std::string s, std::mt19937_64& rng, const std::vector<std::string>& corpus) {
  std::uniform_int_distribution<int> op(0, 7);
  int rounds = 1 + static_cast<int>(rng() % 4);
  for (int r = 0; r < rounds; ++r) {
    size_t at = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (op(rng)) {
      case 0: if (!s.empty() && at < s.size()) s[at] = static_cast<char>(rng()); break;               // flip a byte
      case 1: if (!s.empty() && at < s.size()) s.erase(at, 1 + rng() % 16); break;                    // delete
      case 2: s.insert(at, kDictionary[rng() % kDictionary.size()]); break;                          // a token
      case 3: s.insert(at, std::string(1 + rng() % 64, static_cast<char>("(9x\"[,-"[rng() % 7]))); break;  // a run
      case 4: {                                                                                        // splice
        const std::string& o = corpus[rng() % corpus.size()];
        if (!o.empty()) s.insert(at, o.substr(rng() % o.size(), 1 + rng() % 200));
        break;
      }
      case 5: if (at < s.size()) s.insert(at, s.substr(at, 1 + rng() % 32)); break;                  // repeat
      case 6: if (rng() % 64 == 0) s.insert(at, std::string(1000 + rng() % 60000, "(1,x["[rng() % 5])); break;
      default: {                                                                                       // a number
        static const char* nums[] = {"0", "-0", "1", "-1", "99999999999999999999", "1e-400", "3.5", "-2147483649"};
        s.insert(at, nums[rng() % 8]);
      }
    }
  }
  return s;
}

void keep(const fs::path& out, const std::string& input) {
  std::ofstream(out / "last-input", std::ios::binary) << input;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: td_fuzz manifest|expr|ir ITERATIONS SEED OUT_DIR\n";
    return 2;
  }
  std::string mode = argv[1];
  uint64_t iterations = std::stoull(argv[2]);
  std::mt19937_64 rng(std::stoull(argv[3]));
  fs::path out = argv[4];
  fs::create_directories(out);
  fs::path tests = TD_TESTS_DIR;

  std::vector<std::string> corpus;
  if (mode == "manifest") {
    for (const auto& e : fs::directory_iterator(tests / "bundles"))
      if (fs::exists(e.path() / "bundle.toml")) corpus.push_back(readAll(e.path() / "bundle.toml"));
    for (const auto& e : fs::directory_iterator(tests / "bundles"))  // the sources the manifests name
      for (const auto& f : fs::directory_iterator(e.path()))
        if (f.path().extension() == ".cu") fs::copy_file(f.path(), out / f.path().filename(), fs::copy_options::overwrite_existing);
  } else if (mode == "expr") {
    corpus = {"N", "cdiv(N, 64) * 64", "min(M, N) + max(K, 1)", "(N + 127) / 128", "N % 7 - -3", "2 * (3 + (4 * 5))",
              "-9223372036854775807 - 1", "cdiv(9223372036854775807, 2)"};
  } else if (mode == "wrapper") {  // generated sources with their host wrapper (tests/dumps)
    for (const auto& e : fs::recursive_directory_iterator(tests / "dumps"))
      if (e.path().extension() == ".maca") corpus.push_back(readAll(e.path()));
  } else if (mode == "ir") {
    // hostile kernels too (issue 32): a pointer made from an integer, and the containment tests' shapes
    for (const char* k : {"shared_overflow/overflow.cu", "reduce/reduce.cu", "transpose/transpose.cu",
                          "wild_pointer/wild.cu", "hostile/hostile.cu"}) {
      llvm::LLVMContext ctx;
      if (!fs::exists(tests / "bundles" / k)) continue;
      auto m = compileCuda(ctx, (tests / "bundles" / k).string(), CompileOptions{});
      std::string text;
      llvm::raw_string_ostream os(text);
      m->print(os, nullptr);
      corpus.push_back(os.str());
    }
  } else {
    std::cerr << "td_fuzz: unknown mode " << mode << "\n";
    return 2;
  }
  if (corpus.empty()) {
    std::cerr << "td_fuzz: no seed inputs\n";
    return 2;
  }

  uint64_t accepted = 0, refused = 0;
  ParamMap params = {{"N", 1000}, {"M", 64}, {"K", 3}};
  for (uint64_t i = 0; i < iterations; ++i) {
    std::string input = mutate(corpus[rng() % corpus.size()], rng, corpus);
    keep(out, input);
    alarm(10);  // an input that hangs the parser kills the fuzzer (SIGALRM): the input is in last-input
    try {
      if (mode == "expr") {
        evalExpr(input, params);
      } else if (mode == "wrapper") {
        readHostWrapper("kernel.maca", input);
      } else if (mode == "manifest") {
        std::ofstream(out / "bundle.toml", std::ios::binary) << input;
        loadBundle((out / "bundle.toml").string(), {});
      } else {
        std::ofstream(out / "k.ll", std::ios::binary) << input;
        llvm::LLVMContext ctx;
        std::unique_ptr<llvm::Module> m = loadIR(ctx, (out / "k.ll").string());
        // A module the verifier accepts goes through every check family and containment, as a kernel would.
        if (!llvm::verifyModule(*m, &llvm::nulls())) {
          SiteTable sites;
          instrumentModule(*m, sites, CheckSet::parse("all"));
          if (llvm::verifyModule(*m, &llvm::errs())) throw std::logic_error("the instrumented module is invalid");
        }
      }
      ++accepted;
    } catch (const InputError&) {
      ++refused;
    } catch (const ExprError&) {
      ++refused;
    } catch (const std::exception& e) {
      std::ofstream(out / "internal-error", std::ios::binary) << input;
      std::cerr << "td_fuzz: input " << i << " is an internal error (exit 4 in the tool): " << e.what()
                << "\n  kept in " << (out / "internal-error").string() << "\n";
      return 1;
    }
    alarm(0);
  }
  std::cout << fmt::format("td_fuzz {}: {} inputs, {} accepted, {} refused as bad input, 0 crashes, 0 hangs, 0 "
                           "internal errors\n", mode, iterations, accepted, refused);
  return 0;
}
