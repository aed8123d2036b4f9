// CuTe's MMA atoms for MetaX's MXC MMA, on top of the CUTLASS CuTe that TileLang ships (mcTlass, MetaX's
// CuTe fork that tilelang-metax's tl_templates/maca build on, is not public). Read in two parts, each after
// the CUTLASS header it extends (frontend/hip_dialect.cpp serves both as CUTLASS's names, ahead of them):
// part 1 after <cute/arch/mma.hpp> (the operations), part 2 after <cute/atom/mma_atom.hpp> (their traits,
// and mcTlass's TiledMMA form). Written from tile-doctor's model of the operation (td_matrix64.h,
// runtime/cpu/mfma_semantics.cpp): A[i][k] in lane i + 16(k/4), element k%4; B[k][j] in lane j + 16(k/4),
// element k%4; D[i][j] in lane j + 16(i/4), register i%4. The atoms' names are mcTlass's as
// tl_templates/maca/gemm.h uses them; their thread-value layouts say that model in CuTe's terms, so a CuTe
// GEMM over them computes A*B whatever MetaX's own layouts are (not public).
#if TD_MACA_CUTE_PART == 1
#include <td_matrix64.h>

// The CUDA SDK's __dp4a (sm_61_intrinsics.hpp, here through the SDK's headers) is not MACA's: the templates
// define their own (tl_templates/maca/common.h), which this name keeps apart.
#define __dp4a __td_maca_dp4a

namespace cute {
#define TD_MACA_CUTE_OP(NAME, IMPL)                                                                         \
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
  };
TD_MACA_CUTE_OP(MACA_16x16x16_F32F16F16F32, __td_mma64_f32_16x16x16_f16)
TD_MACA_CUTE_OP(MACA_16x16x16_F32BF16BF16F32, __td_mma64_f32_16x16x16_bf16)
#undef TD_MACA_CUTE_OP
}  // namespace cute

#elif TD_MACA_CUTE_PART == 2
namespace cute {
#define TD_MACA_CUTE_TRAITS(NAME, VAL)                                                                      \
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
TD_MACA_CUTE_TRAITS(MACA_16x16x16_F32F16F16F32, half_t)
TD_MACA_CUTE_TRAITS(MACA_16x16x16_F32BF16BF16F32, bfloat16_t)
#undef TD_MACA_CUTE_TRAITS

// mcTlass's CuTe is of CUTLASS 3.0's generation, where TiledMMA's third parameter is the value layout
// (tl_templates/maca/gemm.h passes Layout<Shape<_1, _1, _1>>); the CuTe here (CUTLASS 3.4 and later) takes
// a permutation there. The unit value layout is no permutation: the default one.
template <class Atom, class AtomLayoutMNK, class ValShape, class ValStride>
struct TiledMMA<Atom, AtomLayoutMNK, Layout<ValShape, ValStride>> : TiledMMA<Atom, AtomLayoutMNK> {
  static_assert(decltype(size(Layout<ValShape, ValStride>{}))::value == 1,
                "tile-doctor models mcTlass's TiledMMA value layout only as the unit layout");
  using TiledMMA<Atom, AtomLayoutMNK>::TiledMMA;
};
}  // namespace cute
#endif
