#include "profiler/launch_resources.h"

#include "frontend/elem_type.h"
#include "frontend/input_error.h"
#include "frontend/manifest.h"
#include "instrument/pipeline.h"
#include "instrument/shared_layout.h"
#include "profiler/register_budget.h"

namespace td {

LaunchProfile profileLaunch(const std::string& manifest, const std::vector<std::pair<std::string, std::string>>& params,
                            const std::string& ptxArch) {
  Bundle b = loadBundle(manifest, params);
  // The kernel as written: no family instruments it, so what the assembler allocates is the user's code's.
  KernelModule km = buildKernelModule(b, CheckSet::asWritten());
  return profileModule(b, km, ptxArch);
}

LaunchProfile profileModule(const Bundle& b, KernelModule& km, const std::string& ptxArch) {
  LaunchProfile p;
  p.kernel = b.entry;
  p.bundle = b.manifestPath;
  p.grid = b.grid;
  p.block = b.block;
  p.dynamicShared = b.dynamicShared;
  p.targetDynamicShared = b.targetShared;
  for (const ArgSpec& a : b.args)
    if (a.isBuffer) {
      p.buffers.push_back({a.name, elemTypeName(a.type), a.shape, static_cast<int64_t>(a.byteSize()), a.output});
      p.globalBytes += static_cast<int64_t>(a.byteSize());
    }
  for (const SharedObject& s : km.sites.shared)
    if (!s.dynamic) p.staticShared.push_back({s.name, static_cast<int64_t>(s.bytes)});
  p.staticSharedBytes = static_cast<int64_t>(layOutShared(km.sites).staticBytes);
  p.privateBytes = static_cast<int64_t>(km.privateMemory.bytes);
  if (ptxArch.empty()) {
    p.registersWhy = "no NVIDIA target asked for: NVIDIA's assembler counts for NVIDIA only, and no MACA compiler runs here";
    return p;
  }
  p.registers = kernelRegisters(km, b, ptxArch, &p.registersWhy);
  return p;
}

}  // namespace td
