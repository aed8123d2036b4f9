// The wave-64 dialects compiled with the CUDA frontend. HIP (TileLang's HIP backend: the stand-in for
// MetaX's MACA backend): tile-doctor's HIP prelude answers every ROCm header the generated code and
// tl_templates/hip include, and the templates' AMD-register asm constraints are read as NVPTX ones. MACA
// (tilelang-metax's output): the MACA prelude answers the MACA SDK's header names.
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

// The MACA dialect's (tilelang-metax's output): the MACA SDK header names resolve to the MACA prelude.
std::vector<std::pair<std::string, std::string>> macaDialectFiles(const std::string& preludeDir);
// Where the MACA dialect's <cute/arch/mma.hpp> and <cute/atom/mma_atom.hpp> live (each CUTLASS's, then
// td_maca_cute.h's part for it: CuTe's MXC MMA atoms on top of the CUTLASS CuTe an include folder brings):
// searched before the include folders.
std::string macaCuteDir(const std::string& preludeDir);

// A header's text with the AMDGPU register-class constraints of its asm statements ("s": scalar, "v":
// vector register) turned into the 32-bit register class NVPTX has ("r"), so that clang accepts the
// statements; such a statement still names an AMD instruction, which the executors refuse if it runs.
std::string hipTemplateText(const std::string& text);

}  // namespace td
