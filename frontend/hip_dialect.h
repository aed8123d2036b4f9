// The HIP dialect (TileLang's HIP backend: the wave-64 stand-in for MetaX's MACA backend) compiled with
// the CUDA frontend: tile-doctor's HIP prelude answers every ROCm header the generated code and
// tl_templates/hip include, and the templates' AMD-register asm constraints are read as NVPTX ones.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace td {

// The files the dialect adds to the compile's virtual file system: (absolute path, content). The ROCm
// header names resolve to the prelude under `preludeDir`; each tl_templates/hip header found in an
// include folder is served with its asm constraints rewritten (hipTemplateText).
std::vector<std::pair<std::string, std::string>> hipDialectFiles(const std::string& preludeDir,
                                                                 const std::vector<std::string>& includeDirs);

// A header's text with the AMDGPU register-class constraints of its asm statements ("s": scalar, "v":
// vector register) turned into the 32-bit register class NVPTX has ("r"), so that clang accepts the
// statements; such a statement still names an AMD instruction, which the executors refuse if it runs.
std::string hipTemplateText(const std::string& text);

}  // namespace td
