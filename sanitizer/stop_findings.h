// Findings of device code that stopped the kernel (TD_KIND_DEVICE_ASSERT, TD_KIND_TRAP records): the
// assertion or __trap, the line, and the threads that got there. Either ends the launch, as on the GPU.
#pragma once
#include <vector>

#include "model/abi.h"
#include "model/finding.h"

namespace td {

bool isStopKind(unsigned kind);

Finding stopFinding(unsigned kind, unsigned site, const std::vector<ThreadRef>& threads, uint64_t count,
                    const SiteTable& sites);

}  // namespace td
