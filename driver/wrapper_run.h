// `check kernel.maca` (or a CUDA/HIP dump): a TileLang-generated source with its host wrapper, checked
// as its call() runs it. The launches come from call() (frontend/host_wrapper.h); buffers' shapes, which
// the generated code does not state, from --shape; call()'s scalars from --param. Each launch is checked in
// call()'s order on the buffers the launches before it left, as on the GPU.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "driver/check.h"
#include "sanitizer/run_set.h"

namespace td {

struct WrapperCheckRequest {
  CheckRequest check;  // bundlePath: the dump; params: call()'s scalars (and what shapes name)
  std::vector<std::pair<std::string, std::string>> shapes;  // --shape NAME=D0,D1,...
  std::vector<std::pair<std::string, std::string>> inits;   // --init NAME=SPEC (a manifest initialiser)
  std::string templatesDir;  // --maca-templates: tilelang-metax's src/ (or its tl_templates/maca)
  std::string keep, saveOutputs;
};

// True for a file check reads as a dump: a .maca file, or a source whose text has call().
bool isWrapperSource(const std::string& path);

// InputError (exit 2) for what the dump or the options leave open, naming the dump's line.
RunSet checkWrapperRuns(const WrapperCheckRequest& req);

}  // namespace td
