#include "runtime/buffers.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <random>
#include <sys/mman.h>
#include <unistd.h>

#include "frontend/input_error.h"
#include "frontend/staged_file.h"
#include "frontend/lifetime.h"
#include "runtime/host_memory.h"
#include "frontend/paths.h"

namespace td {

ArgValue::~ArgValue() {
  if (data) munmap(data, bytes);
}

ArgValue::ArgValue(ArgValue&& o) noexcept : spec(o.spec), data(o.data), bytes(o.bytes), scalar(o.scalar) {
  o.data = nullptr;
}

namespace {

constexpr uint32_t kMaxNpyHeader = 65536;

// The text between `open` and `close` after 'key': in a .npy header dict ("" when it is not there).
std::string npyField(const std::string& header, const std::string& key, char open, char close) {
  size_t at = header.find("'" + key + "':");
  if (at == std::string::npos) return "";
  at = header.find_first_not_of(" ", at + key.size() + 3);
  if (at == std::string::npos || header[at] != open) return "";
  size_t end = header.find(close, at + 1);
  return end == std::string::npos ? "" : header.substr(at + 1, end - at - 1);
}

}  // namespace

void readNpy(const std::string& path, const ArgSpec& a, void* dst, const std::string& manifest,
             const WorkDeadline& deadline) {
  requireRegularFile(path, "init file", manifest, a.line);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(manifest, a.line, fmt::format("init file '{}' of '{}' cannot be opened", path, a.name));
  char magic[8];
  in.read(magic, 8);
  if (in.gcount() != 8 || std::string(magic, 6) != "\x93NUMPY")
    throw InputError(manifest, a.line, fmt::format("'{}' is not a .npy file", path));
  uint32_t hlen = 0;
  if (magic[6] == 1) { uint16_t h; in.read(reinterpret_cast<char*>(&h), 2); hlen = h; }
  else in.read(reinterpret_cast<char*>(&hlen), 4);
  if (hlen > kMaxNpyHeader)
    throw InputError(manifest, a.line, fmt::format("'{}' has a header of {} bytes; numpy writes at most {}", path, hlen,
                                                   kMaxNpyHeader));
  std::string header(hlen, '\0');
  in.read(header.data(), hlen);
  auto bad = [&](const std::string& what) { return InputError(manifest, a.line, fmt::format("'{}': {}", path, what)); };
  std::string descr = npyField(header, "descr", '\'', '\'');
  bool fortran = header.find("'fortran_order': True") != std::string::npos;
  std::vector<int64_t> shape;
  std::string dims = npyField(header, "shape", '(', ')');
  for (size_t at = 0; at < dims.size();) {
    size_t comma = dims.find(',', at);
    std::string d = dims.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    at = comma == std::string::npos ? dims.size() : comma + 1;
    d.erase(0, d.find_first_not_of(" \t"));
    d.erase(d.find_last_not_of(" \t") + 1);
    if (d.empty()) continue;  // "(5,)"
    if (d.find_first_not_of("0123456789") != std::string::npos)
      throw bad(fmt::format("shape dimension '{}' is not a whole number of 0 or more", d.substr(0, 40)));
    if (d.size() > 15) throw bad(fmt::format("shape dimension {}... is too large", d.substr(0, 20)));
    shape.push_back(std::stoll(d));
  }
  // The buffer's own dtype is read as it is (bfloat16 travels as raw '<u2' bits, which numpy has no name for).
  auto et = descr == npyDescr(a.type) ? std::optional<ElemType>(a.type) : elemTypeFromNpy(descr);
  if (!et) throw InputError(manifest, a.line, fmt::format("'{}' has dtype '{}', which tile-doctor cannot read", path, descr));
  if (fortran) throw InputError(manifest, a.line, fmt::format("'{}' is in Fortran order; save it C-contiguous", path));
  uint64_t count = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(d), &count)) throw bad("its shape's element count overflows");
  // A packed buffer's file holds its bytes (int8 / uint8, as PyTorch code packs int4) or one value an element.
  bool packedBytes = *et == a.type && isPacked(a.type) && count == a.byteSize();
  if (count != a.elementCount() && !packedBytes)
    throw InputError(manifest, a.line, fmt::format("'{}' holds {} elements; '{}' has {}{}", path, count, a.name,
                                                   a.elementCount(), isPacked(a.type) ? fmt::format(
                                                       " ({} packed bytes)", a.byteSize()) : ""));
  if (*et == ElemType::I4 && !packedBytes) et = ElemType::I8;  // one value an element, not packed
  if (*et == ElemType::U4 && !packedBytes) et = ElemType::U8;
  std::vector<char> raw(packedBytes ? count : storageBytes(*et, count));
  deadline.inSlices(raw.size(), kBytesPerSlice, [&](uint64_t from, uint64_t to) {
    in.read(raw.data() + from, static_cast<std::streamsize>(to - from));
    if (static_cast<uint64_t>(in.gcount()) != to - from)
      throw InputError(manifest, a.line, fmt::format("'{}' is truncated", path));
  });
  if (*et == a.type && (packedBytes || !isPacked(a.type))) {
    std::memcpy(dst, raw.data(), raw.size());
    return;
  }
  deadline.inSlices(count, kElementsPerSlice, [&](uint64_t from, uint64_t to) {
    for (uint64_t i = from; i < to; ++i) storeElemAt(a.type, dst, i, loadElemAt(*et, raw.data(), i));
  });
}

namespace {

void initBuffer(const ArgSpec& a, void* data, std::mt19937_64& rng, const std::string& manifest,
                const WorkDeadline& deadline) {
  const InitSpec& s = a.init;
  uint64_t n = a.elementCount();
  char* p = static_cast<char*>(data);
  switch (s.kind) {
    case InitSpec::Zeros: return;  // fresh mappings are zero
    case InitSpec::Uninit:
      // Uninitialised memory is filled with a recognisable pattern, not zeros, so reading it shows.
      deadline.inSlices(a.byteSize(), kBytesPerSlice, [&](uint64_t from, uint64_t to) { std::memset(p + from, 0xcd, to - from); });
      return;
    case InitSpec::File: return readNpy(s.file, a, data, manifest, deadline);
    default: break;
  }
  std::uniform_real_distribution<double> uni(s.a, s.b);
  std::normal_distribution<double> norm(s.a, s.b);
  deadline.inSlices(n, kElementsPerSlice, [&](uint64_t from, uint64_t to) {
    for (uint64_t i = from; i < to; ++i) {
      double v = 0;
      switch (s.kind) {
        case InitSpec::Ones: v = 1; break;
        case InitSpec::Fill: v = s.a; break;
        case InitSpec::Arange: v = static_cast<double>(i); break;
        case InitSpec::Uniform: v = uni(rng); break;
        case InitSpec::Normal: v = norm(rng); break;
        default: break;
      }
      storeElemAt(a.type, p, i, v);
    }
  });
}

}  // namespace

std::vector<ArgValue> makeArguments(const Bundle& b, uint64_t seed, int64_t targetMemoryBytes,
                                    const WorkDeadline& deadline) {
  uint64_t total = 0;
  for (const ArgSpec& a : b.args) {
    if (!a.isBuffer) continue;
    uint64_t bytes = a.byteSize();
    total += bytes;
    if (targetMemoryBytes > 0 && total > static_cast<uint64_t>(targetMemoryBytes))
      throw InputError(b.manifestPath, a.line, fmt::format("buffers up to '{}' need {} bytes; the target has {} bytes of "
                                                           "memory", a.name, total, targetMemoryBytes));
  }
  std::string source;
  uint64_t available = availableMemory(source);
  if (total > available)
    throw InputError(b.manifestPath, 0, fmt::format("the bundle's buffers need {} bytes; this machine has {} bytes "
                                                    "available ({})", total, available, source));
  std::vector<ArgValue> out;
  for (const ArgSpec& a : b.args) {
    ArgValue v;
    v.spec = &a;
    if (a.isBuffer) {
      v.bytes = a.byteSize();
      void* m = mmap(nullptr, v.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
      if (m == MAP_FAILED)
        throw InputError(b.manifestPath, a.line, fmt::format("cannot allocate {} bytes for '{}'", v.bytes, a.name));
      v.data = m;
      // Each buffer draws from its own stream, so changing one buffer's init leaves the others' values.
      std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + out.size());
      initBuffer(a, v.data, rng, b.manifestPath, deadline);
    } else if (isFloat(a.type)) {
      storeElem(a.type, &v.scalar, a.floatValue);
    } else {
      storeElem(a.type, &v.scalar, static_cast<double>(a.intValue));
      if (elemSize(a.type) == 8) std::memcpy(&v.scalar, &a.intValue, 8);  // exact for 64-bit values
    }
    out.push_back(std::move(v));
  }
  return out;
}

void writeNpy(const std::string& path, const ArgSpec& spec, const void* data, const WorkDeadline& deadline) {
  // A packed buffer is written as its bytes: the last dimension halved, as PyTorch code holds int4.
  std::vector<int64_t> dims = spec.shape;
  if (spec.storageElements) dims = {static_cast<int64_t>(spec.storageElements)};  // a strided view's storage, as laid out
  if (isPacked(spec.type) && !dims.empty()) {
    uint64_t leading = spec.elementCount() / static_cast<uint64_t>(dims.back());
    dims.back() = static_cast<int64_t>(spec.byteSize() / std::max<uint64_t>(leading, 1));
    if (static_cast<uint64_t>(dims.back()) * leading != spec.byteSize()) dims = {static_cast<int64_t>(spec.byteSize())};
  }
  std::string shape;
  for (size_t i = 0; i < dims.size(); ++i) shape += std::to_string(dims[i]) + (dims.size() == 1 ? "," : i + 1 < dims.size() ? ", " : "");
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", npyDescr(spec.type), shape);
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  StagedFile staged(path, "the array");  // a full disk leaves no truncated array; a link planted at the name is replaced
  std::ofstream& out = staged.out();
  out.write("\x93NUMPY\x01\x00", 8);
  uint16_t hl = static_cast<uint16_t>(header.size());
  out.write(reinterpret_cast<const char*>(&hl), 2);
  out << header;
  deadline.inSlices(spec.byteSize(), kBytesPerSlice, [&](uint64_t from, uint64_t to) {
    out.write(static_cast<const char*>(data) + from, static_cast<std::streamsize>(to - from));
  });
  staged.commit();
}

}  // namespace td
