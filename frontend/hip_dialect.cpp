#include "frontend/hip_dialect.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

extern const char td_counted_copy_h[];
extern const char td_hip_copy_h[];
extern const char td_hip_h[];
extern const char td_maca_h[];
extern const char td_maca_cute_h[];
extern const char td_maca_mctlass_h[];
extern const char td_matrix64_h[];
extern const char td_wave64_h[];

namespace td {

std::string hipTemplateText(const std::string& text) {
  static const std::regex amdConstraint(R"re("([sv])"\s*\()re");
  return std::regex_replace(text, amdConstraint, "\"r\"(");
}

// tl_templates/hip/copy.h with its copies and wait renamed out of the way: td_hip_copy.h gives MACA's in
// their place (asynchronous copies counted one by one, a wait that ends in the block's barrier).
static std::string hipCopyTemplateText(const std::string& text) {
  static const char* const kMacaOwns[] = {"cp_async_gs", "cp_async_gs_conditional", "cp_async_commit", "cp_async_wait"};
  std::string out;
  for (const char* name : kMacaOwns) out += fmt::format("#define {0} __td_hip_own_{0}\n", name);
  out += hipTemplateText(text) + "\n";
  for (const char* name : kMacaOwns) out += fmt::format("#undef {}\n", name);
  return out + "#include <td_hip_copy.h>\n";
}

std::string macaCuteDir(const std::string& preludeDir) {
  return preludeDir.substr(0, preludeDir.find_last_of('/')) + "/maca-cute";
}

std::vector<std::pair<std::string, std::string>> macaDialectFiles(const std::string& preludeDir) {
  std::vector<std::pair<std::string, std::string>> files = {{preludeDir + "/td_maca.h", td_maca_h},
                                                            {preludeDir + "/td_matrix64.h", td_matrix64_h},
                                                            {preludeDir + "/td_wave64.h", td_wave64_h},
                                                            {preludeDir + "/td_counted_copy.h", td_counted_copy_h}};
  for (const char* name : {"mcr/mc_runtime.h", "mc_runtime.h", "common/maca_fp16.h", "maca_fp16.h",
                           "common/maca_bfloat16.h", "maca_bfloat16.h"})
    files.emplace_back(preludeDir + "/" + name, "#pragma once\n#include <td_maca.h>\n");
  files.emplace_back(preludeDir + "/mctlass/fast_math.h", td_maca_mctlass_h);
  // mcTlass is MetaX's CUTLASS fork: its numeric types (atomic.h includes them, debug.h prints
  // mctlass::half_t) are CUTLASS's, from the CUTLASS an include folder brings (headers = "cuda").
  files.emplace_back(preludeDir + "/mctlass/numeric_types.h",
                     "#pragma once\n#include <cutlass/numeric_types.h>\nnamespace mctlass {\n"
                     "using cutlass::half_t;\nusing cutlass::bfloat16_t;\nusing cutlass::tfloat32_t;\n"
                     "using cutlass::float_e4m3_t;\nusing cutlass::float_e5m2_t;\nusing cutlass::int4b_t;\n"
                     "using cutlass::uint4b_t;\nusing cutlass::sizeof_bits;\n}  // namespace mctlass\n");
  // mcTlass's asynchronous copies (copy.h's maca_cp_async_zfill/wait) are td_maca.h's.
  files.emplace_back(preludeDir + "/mctlass/arch/maca_memory.h", "#pragma once\n#include <td_maca.h>\n");
  // MACA's fp8 types as CUDA's (the same OCP formats, a byte `__x`, conversions rounding to nearest with
  // saturation), which exist here only with the CUDA SDK's headers.
  files.emplace_back(preludeDir + "/maca_fp8.h",
                     "#pragma once\n#include <td_maca.h>\n"
                     "#ifndef __CUDACC_VER_MAJOR__\n"
                     "#error \"tile-doctor: MACA's fp8 types (maca_fp8.h) stand on the CUDA SDK's here: compile with headers = cuda\"\n"
                     "#endif\n#include <cuda_fp8.h>\n"
                     "typedef __nv_fp8_e4m3 __maca_fp8_e4m3;\ntypedef __nv_fp8_e5m2 __maca_fp8_e5m2;\n"
                     "typedef __nv_fp8x2_e4m3 __maca_fp8x2_e4m3;\ntypedef __nv_fp8x2_e5m2 __maca_fp8x2_e5m2;\n"
                     "typedef __nv_fp8_storage_t __maca_fp8_storage_t;\ntypedef __nv_fp8x2_storage_t __maca_fp8x2_storage_t;\n"
                     "typedef __nv_fp8_interpretation_t __maca_fp8_interpretation_t;\n"
                     "#define __MACA_E4M3 __NV_E4M3\n#define __MACA_E5M2 __NV_E5M2\n"
                     "#ifndef __MACA_ALIGN__\n#define __MACA_ALIGN__(n) __align__(n)\n#endif\n");
  files.emplace_back(preludeDir + "/td_maca_cute.h", td_maca_cute_h);
  for (auto [header, part] : {std::pair{"cute/arch/mma.hpp", 1}, {"cute/atom/mma_atom.hpp", 2}})
    files.emplace_back(macaCuteDir(preludeDir) + "/" + header,
                       "#pragma once\n#include_next <" + std::string(header) + ">\n#define TD_MACA_CUTE_PART " +
                           std::to_string(part) + "\n#include <td_maca_cute.h>\n#undef TD_MACA_CUTE_PART\n");
  return files;
}

std::vector<std::pair<std::string, std::string>> hipDialectFiles(const std::string& preludeDir,
                                                                 const std::vector<std::string>& includeDirs) {
  std::vector<std::pair<std::string, std::string>> files = {{preludeDir + "/td_hip.h", td_hip_h},
                                                            {preludeDir + "/td_matrix64.h", td_matrix64_h},
                                                            {preludeDir + "/td_wave64.h", td_wave64_h},
                                                            {preludeDir + "/td_counted_copy.h", td_counted_copy_h},
                                                            {preludeDir + "/td_hip_copy.h", td_hip_copy_h}};
  for (const char* name : {"hip/hip_runtime.h", "hip/hip_fp16.h", "hip/hip_bf16.h", "hip/amd_detail/amd_warp_functions.h",
                           "hip/amd_detail/amd_hip_fp8.h", "rocwmma/rocwmma.hpp"})
    files.emplace_back(preludeDir + "/" + name, "#pragma once\n#include <td_hip.h>\n");
  namespace fs = std::filesystem;
  for (const std::string& dir : includeDirs) {
    std::error_code ec;
    fs::path templates = fs::path(dir) / "tl_templates" / "hip";
    for (const fs::directory_entry& e : fs::directory_iterator(templates, ec)) {
      if (!e.is_regular_file(ec) || e.path().extension() != ".h") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream text;
      text << in.rdbuf();
      files.emplace_back(fs::absolute(e.path()).lexically_normal().string(),
                         e.path().filename() == "copy.h" ? hipCopyTemplateText(text.str()) : hipTemplateText(text.str()));
    }
  }
  return files;
}

}  // namespace td
