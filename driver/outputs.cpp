#include "driver/outputs.h"

#include <filesystem>
#include <fmt/format.h>

#include "frontend/input_error.h"
#include "runtime/buffers.h"

namespace td {

void makeOutputFolder(const std::string& dir, const char* option) {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError(dir, 0, fmt::format("cannot create the {} folder: {}", option, ec.message()));
}

void saveOutputs(const CheckResult& res, const std::string& dir, bool everyBuffer) {
  if (dir.empty()) return;
  for (const ArgValue& a : res.args)
    if (a.spec->isBuffer && (everyBuffer || a.spec->output)) writeNpy(dir + "/" + a.spec->name + ".npy", *a.spec, a.data);
}

}  // namespace td
