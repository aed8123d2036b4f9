#include "model/finding.h"

#include <filesystem>
#include <fmt/format.h>

namespace td {

int Report::exitCode() const {
  bool any = false;
  for (const Finding& f : findings) {
    if (f.fatal) return 3;
    any = true;
  }
  return any ? 1 : 0;
}

std::string fingerprint(const Finding& f) {
  return fmt::format("{}|{}:{}:{}|{}:{}:{}|{}", f.kind, f.loc.file, f.loc.line, f.loc.col, f.partner.file,
                     f.partner.line, f.partner.col, f.buffer);
}

std::string portablePath(const std::string& path) {
  if (path.empty()) return path;
  std::error_code ec;
  std::filesystem::path rel = std::filesystem::relative(path, std::filesystem::current_path(), ec);
  if (!ec && !rel.empty() && rel.native().rfind("..", 0) != 0) return rel.generic_string();
  return std::filesystem::absolute(path, ec).generic_string();
}

namespace {

std::string stablePlace(const SourceLoc& l) {
  if (l.file.empty()) return "";
  if (!l.python.empty()) {  // a script's kernel: its generated file lives in a temporary folder
    size_t colon = l.python.rfind(':');
    std::string py = colon == std::string::npos ? l.python : portablePath(l.python.substr(0, colon)) + l.python.substr(colon);
    return fmt::format("{}@{}:{}:{}", py, std::filesystem::path(l.file).filename().string(), l.line, l.col);
  }
  return fmt::format("{}:{}:{}", portablePath(l.file), l.line, l.col);
}

}  // namespace

std::string stableFingerprint(const Finding& f) {
  return fmt::format("{}|{}|{}|{}", f.kind, stablePlace(f.loc), stablePlace(f.partner), f.buffer);
}

std::string findingId(const Finding& f) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits: short, stable, no dependency
  for (unsigned char c : stableFingerprint(f)) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return fmt::format("{:016x}", h);
}

// Row-major coordinates of a linear element index; the outermost may run past its extent.
std::vector<int64_t> unravel(int64_t index, const std::vector<int64_t>& shape) {
  std::vector<int64_t> c(shape.size(), 0);
  for (size_t i = shape.size(); i-- > 1;) {
    int64_t d = shape[i];
    int64_t q = index / d, r = index % d;
    if (r < 0) { r += d; --q; }
    c[i] = r;
    index = q;
  }
  if (!c.empty()) c[0] = index;
  return c;
}

std::string coordText(const std::string& name, const std::vector<int64_t>& coords) {
  std::string s = name + "[";
  for (size_t i = 0; i < coords.size(); ++i) s += (i ? ", " : "") + std::to_string(coords[i]);
  return s + "]";
}

std::string threadText(const ThreadRef& t) {
  return fmt::format("thread ({},{},{}) of block ({},{},{})", t.thread[0], t.thread[1], t.thread[2], t.block[0],
                     t.block[1], t.block[2]);
}

}  // namespace td

namespace td {

ThreadRef threadOfLinearId(const ThreadRef& sameBlockAs, uint64_t linearId, const std::array<int64_t, 3>& blockDims) {
  ThreadRef t = sameBlockAs;
  t.thread[0] = static_cast<uint32_t>(linearId % blockDims[0]);
  t.thread[1] = static_cast<uint32_t>(linearId / blockDims[0] % blockDims[1]);
  t.thread[2] = static_cast<uint32_t>(linearId / (blockDims[0] * blockDims[1]));
  return t;
}

ThreadRef threadOfLinearIds(uint64_t blockLinear, uint64_t threadLinear, const std::array<int64_t, 3>& gridDims,
                            const std::array<int64_t, 3>& blockDims) {
  ThreadRef inBlock;
  inBlock.block[0] = static_cast<uint32_t>(blockLinear % gridDims[0]);
  inBlock.block[1] = static_cast<uint32_t>(blockLinear / gridDims[0] % gridDims[1]);
  inBlock.block[2] = static_cast<uint32_t>(blockLinear / (gridDims[0] * gridDims[1]));
  return threadOfLinearId(inBlock, threadLinear, blockDims);
}

}  // namespace td
