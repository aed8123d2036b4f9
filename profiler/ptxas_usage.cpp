#include "profiler/ptxas_usage.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>
#include <vector>
#include <sys/wait.h>

#include "frontend/lifetime.h"

namespace td {

namespace {

// Runs argv, standard output and error together into `out`; the exit status (-1 when it could not run).
int runCapturing(const std::vector<std::string>& argv, const std::string& logPath, std::string* out) {
  pid_t pid = spawnChildOfTool(argv, logPath, false);
  if (pid < 0) return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  releaseChild(pid);
  std::ifstream in(logPath);
  out->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

std::string findPtxas() {
  namespace fs = std::filesystem;
  for (const char* env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* dir = std::getenv(env); dir && *dir && fs::is_regular_file(fs::path(dir) / "bin" / "ptxas"))
      return (fs::path(dir) / "bin" / "ptxas").string();
  if (fs::is_regular_file("/usr/local/cuda/bin/ptxas")) return "/usr/local/cuda/bin/ptxas";
  if (const char* path = std::getenv("PATH")) {
    std::string p = path;
    for (size_t start = 0; start <= p.size();) {
      size_t colon = p.find(':', start);
      std::string dir = p.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      if (!dir.empty() && fs::is_regular_file(fs::path(dir) / "ptxas")) return (fs::path(dir) / "ptxas").string();
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
  }
  return "";
}

std::optional<PtxasUsage> parsePtxasVerbose(const std::string& text, const std::string& entry) {
  // ptxas info    : Compiling entry function 'gemm' for 'sm_90'
  // ptxas info    : Function properties for gemm
  //     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
  // ptxas info    : Used 40 registers, used 1 barriers, 16384 bytes smem, 384 bytes cmem[0]
  static const std::regex compiling(R"(Compiling entry function '([^']+)')");
  static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  std::optional<PtxasUsage> u;
  bool inEntry = false;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, compiling)) inEntry = entry.empty() || m[1] == entry;
    if (!inEntry) continue;
    if (std::regex_search(line, m, frame)) {
      if (!u) u.emplace();
      u->stackFrame = std::stoll(m[1]);
      u->spillStores = std::stoll(m[2]);
      u->spillLoads = std::stoll(m[3]);
    }
    if (std::regex_search(line, m, used)) {
      if (!u) u.emplace();
      u->registers = std::stoll(m[1]);
      inEntry = false;  // the entry's report ends with its register line
    }
  }
  return u;
}

std::optional<PtxasUsage> ptxasUsage(const std::string& ptx, const std::string& arch, const std::string& entry,
                                     std::string* why) {
  std::string ptxas = findPtxas();
  if (ptxas.empty()) {
    *why = "no ptxas (the CUDA toolkit's assembler) on this machine";
    return std::nullopt;
  }
  TemporaryFolder dir("ptxas");
  std::string in = dir.path() + "/kernel.ptx";
  std::ofstream(in) << ptx;
  std::string out;
  int rc = runCapturing({ptxas, "-v", "--gpu-name", arch, "-o", dir.path() + "/kernel.cubin", in}, dir.path() + "/log", &out);
  if (rc != 0) {
    std::string first = out.substr(0, out.find('\n'));
    *why = fmt::format("ptxas failed (exit {}): {}", rc, first.substr(0, 200));
    return std::nullopt;
  }
  std::optional<PtxasUsage> u = parsePtxasVerbose(out, entry);
  if (!u) {
    *why = "ptxas -v reported nothing for the kernel";
    return std::nullopt;
  }
  std::string version;
  int vrc = runCapturing({ptxas, "--version"}, dir.path() + "/version", &version);
  std::smatch m;
  static const std::regex release(R"(release ([0-9.]+))");
  u->source = fmt::format("ptxas{} -v, {}", vrc == 0 && std::regex_search(version, m, release) ? " " + m[1].str() : "", arch);
  return u;
}

}  // namespace td
