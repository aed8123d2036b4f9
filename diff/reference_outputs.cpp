#include "diff/reference_outputs.h"

#include <filesystem>
#include <fmt/format.h>

#include "frontend/input_error.h"
#include "frontend/profile.h"

namespace td {

namespace {

bool isTargetName(const std::string& name) {
  for (const Profile& p : loadAllProfiles())
    if (p.name == name) return true;
  return false;
}

}  // namespace

Against parseAgainst(const std::string& ref) {
  if (ref == "fp64") return {Against::Fp64, ref};
  if (ref == "cpu" || ref == "cuda") return {Against::Executor, ref};
  if (isTargetName(ref)) return {Against::Target, ref};
  std::error_code ec;
  if (std::filesystem::exists(ref, ec)) return {Against::Files, ref};
  throw InputError("--against", 0, fmt::format("'{}' is not fp64, an executor (cpu, cuda), a target (tile-doctor "
                                               "targets) or an existing .npy file or folder", ref));
}

std::vector<double> valuesOf(const ArgValue& a) {
  std::vector<double> v(a.spec->elementCount());
  for (uint64_t i = 0; i < v.size(); ++i) v[i] = loadElemAt(a.spec->type, a.data, i);
  return v;
}

std::map<std::string, std::vector<double>> readReferenceFiles(const Against& against, const CheckResult& tested) {
  std::vector<const ArgValue*> outputs;
  for (const ArgValue& a : tested.args)
    if (a.spec->isBuffer && a.spec->output) outputs.push_back(&a);
  bool folder = std::filesystem::is_directory(against.name);
  if (!folder && outputs.size() != 1) {
    std::string names;
    for (const ArgValue* a : outputs) names += (names.empty() ? "" : ", ") + a->spec->name;
    throw InputError(against.name, 0, fmt::format("the kernel has {} outputs ({}): give a folder holding NAME.npy for "
                                                  "each", outputs.size(), names));
  }
  std::map<std::string, std::vector<double>> refs;
  for (const ArgValue* a : outputs) {
    std::string path = folder ? (std::filesystem::path(against.name) / (a->spec->name + ".npy")).string() : against.name;
    if (!std::filesystem::is_regular_file(path))
      throw InputError(path, 0, fmt::format("no reference for output '{}' (expected {})", a->spec->name, path));
    ArgSpec spec = *a->spec;
    spec.line = 0;  // errors name the file, not the manifest's line
    // A float reference keeps its own precision (a float64 file for a half output is not rounded to half);
    // bfloat16 and fp8 files hold raw bits, integers may pass 2^53: those are read as the output's type.
    if (spec.type == ElemType::F16 || spec.type == ElemType::F32) spec.type = ElemType::F64;
    std::vector<unsigned char> buffer(spec.byteSize());
    readNpy(path, spec, buffer.data(), path);
    std::vector<double> v(spec.elementCount());
    for (uint64_t i = 0; i < v.size(); ++i) v[i] = loadElemAt(spec.type, buffer.data(), i);
    refs[a->spec->name] = std::move(v);
  }
  return refs;
}

}  // namespace td
