#include "checks/numerics/numerics_settings.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <sstream>

#include "checks/numerics/numerics_abi.h"
#include "checks/numerics/numerics_findings.h"
#include "frontend/input_error.h"

namespace td {

namespace {

const char* kThreshold = "drift-threshold";
const char* kShadow = "shadow";
const char* kSubnormals = "subnormals";

// A stored type as the option may spell it, as the sites spell it; "" when unknown.
std::string typeNamed(const std::string& t) {
  if (t == "half" || t == "fp16" || t == "float16") return "half";
  if (t == "bfloat16" || t == "bf16") return "bfloat16";
  if (t == "float" || t == "fp32" || t == "float32") return "float";
  return "";
}

double positiveNumber(const std::string& text) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(v > 0) || !std::isfinite(v))
    throw InputError("--drift-threshold", 0, fmt::format("'{}' is not a positive number", text));
  return v;
}

// "0.001" -> every type; "half=1e-3,float=1e-6" -> those types.
std::map<std::string, double> thresholds(const std::string& text) {
  std::map<std::string, double> out;
  if (text.find('=') == std::string::npos) {
    double v = positiveNumber(text);
    for (const char* t : {"half", "bfloat16", "float"}) out[t] = v;
    return out;
  }
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t eq = item.find('=');
    std::string type = eq == std::string::npos ? "" : typeNamed(item.substr(0, eq));
    if (type.empty())
      throw InputError("--drift-threshold", 0,
                       fmt::format("'{}' is not TYPE=NUMBER with TYPE one of half, bfloat16, float", item));
    out[type] = positiveNumber(item.substr(eq + 1));
  }
  return out;
}

}  // namespace

const char* const kKeepOutputShadows = "output-shadows";

bool keepsOutputShadows(const FamilySettings& settings) {
  auto it = settings.find(kKeepOutputShadows);
  return it != settings.end() && it->second == "kept";
}

double driftThreshold(const FamilySettings& settings, const std::string& type) {
  if (auto it = settings.find(kThreshold); it != settings.end()) {
    std::map<std::string, double> given = thresholds(it->second);
    if (auto t = given.find(type); t != given.end()) return t->second;
  }
  return defaultDriftThreshold(type);
}

int driftLevelAtOrBelow(double relative) {
  return std::clamp(static_cast<int>(std::floor(std::log2(relative))) + TD_NUM_LEVELS, 0, TD_NUM_LEVELS - 1);
}

bool wideShadowsForNarrowTypes(const FamilySettings& settings) {
  auto it = settings.find(kShadow);
  return it != settings.end() && it->second == "fp64";
}

bool countsSubnormals(const FamilySettings& settings) {
  auto it = settings.find(kSubnormals);
  return it != settings.end() && it->second == "on";
}

void checkNumericsSettings(const FamilySettings& settings) {
  if (auto it = settings.find(kThreshold); it != settings.end()) thresholds(it->second);
  if (auto it = settings.find(kShadow); it != settings.end() && it->second != "fp32" && it->second != "fp64")
    throw InputError("--shadow", 0, fmt::format("'{}' is not fp32 or fp64", it->second));
  if (auto it = settings.find(kSubnormals); it != settings.end() && it->second != "on" && it->second != "off")
    throw InputError("--subnormals", 0, fmt::format("'{}' is not on or off", it->second));
}

}  // namespace td
