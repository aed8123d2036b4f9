// CuTe's MMA atoms for MetaX's MXC MMA, on top of the CUTLASS CuTe that TileLang ships (mcTlass, MetaX's
// CuTe fork that tilelang-metax's tl_templates/maca build on, is not public). Found as <cute/arch/mma.hpp>
// ahead of CUTLASS's, which it includes first. Written from tile-doctor's model of the operation
// (td_matrix64.h, runtime/cpu/mfma_semantics.cpp): A[i][k] in lane i + 16(k/4), element k%4; B[k][j] in lane
// j + 16(k/4), element k%4; D[i][j] in lane j + 16(i/4), register i%4. The atoms' names are mcTlass's as
// tl_templates/maca/gemm.h uses them; their thread-value layouts say that model in CuTe's terms, so a
// CuTe GEMM over them computes A*B whatever MetaX's own layouts are (not public).
#pragma once
#include_next <cute/arch/mma.hpp>
#include <cute/atom/mma_traits.hpp>
#include <td_matrix64.h>

namespace cute {

#define TD_MACA_CUTE_ATOM(NAME, IMPL, VAL)                                                                  \
  struct NAME {                                                                                            \
    using DRegisters = float[4];                                                                           \
    using ARegisters = uint32_t[2];                                                                        \
    using BRegisters = uint32_t[2];                                                                        \
    using CRegisters = float[4];                                                                           \
    CUTE_HOST_DEVICE static void fma(float& d0, float& d1, float& d2, float& d3, uint32_t const& a0,         \
                                     uint32_t const& a1, uint32_t const& b0, uint32_t const& b1,           \
                                     float const& c0, float const& c1, float const& c2, float const& c3) {  \
      unsigned long long a = (unsigned long long)a1 << 32 | a0, b = (unsigned long long)b1 << 32 | b0;      \
      __td_f32x4 c = {c0, c1, c2, c3};                                                                     \
      __td_f32x4 d = IMPL(a, b, c);                                                                        \
      d0 = d[0], d1 = d[1], d2 = d[2], d3 = d[3];                                                          \
    }                                                                                                      \
  };                                                                                                       \
  template <> struct MMA_Traits<NAME> {                                                                    \
    using ValTypeD = float;                                                                                \
    using ValTypeA = VAL;                                                                                  \
    using ValTypeB = VAL;                                                                                  \
    using ValTypeC = float;                                                                                \
    using Shape_MNK = Shape<_16, _16, _16>;                                                                \
    using ThrID = Layout<_64>;                                                                             \
    /* (thread, value) -> (m, k) column-major: thread i + 16 kq, value k % 4 */                            \
    using ALayout = Layout<Shape<Shape<_16, _4>, _4>, Stride<Stride<_1, _64>, _16>>;                       \
    using BLayout = Layout<Shape<Shape<_16, _4>, _4>, Stride<Stride<_1, _64>, _16>>;                       \
    /* (thread, value) -> (m, n): thread j + 16 (i/4), value i % 4 */                                      \
    using CLayout = Layout<Shape<Shape<_16, _4>, _4>, Stride<Stride<_16, _4>, _1>>;                        \
  };

TD_MACA_CUTE_ATOM(MACA_16x16x16_F32F16F16F32, __td_mma64_f32_16x16x16_f16, half_t)
TD_MACA_CUTE_ATOM(MACA_16x16x16_F32BF16BF16F32, __td_mma64_f32_16x16x16_bf16, bfloat16_t)
#undef TD_MACA_CUTE_ATOM

}  // namespace cute
