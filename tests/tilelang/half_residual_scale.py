"""A half-precision epilogue as model code writes it: out = x * scale + residual, all float16, computed in
float16 (no float accumulator). TileLang's generated code does this arithmetic on CUTLASS's half_t, whose
operators call the CUDA SDK's __hmul and __hadd: inline PTX (mul.f16, add.f16) on the device. Two calls
with different scales; checked against torch (within fp16's tolerance: on a GPU ptxas may fuse the
mul.f16 and add.f16, which carry no .rn, into one fma; the CPU executor rounds each)."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def residual_scale(M, N, scale, block=128):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float16"), R: T.Tensor((M, N), "float16"), Out: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block), M, threads=block) as (bx, by):
            for i in T.Parallel(block):
                if bx * block + i < N:
                    Out[by, bx * block + i] = X[by, bx * block + i] * T.float16(scale) + R[by, bx * block + i]

    return main


def main():
    x = torch.randn(8, 200, device="cuda", dtype=torch.float16)
    r = torch.randn(8, 200, device="cuda", dtype=torch.float16)
    for scale in (0.5, 1.75):
        out = residual_scale(8, 200, scale)(x, r)
        # on a GPU, ptxas may fuse mul.f16 and add.f16 (no .rn) into one fma: a rounding apart from torch
        torch.testing.assert_close(out, x * scale + r, rtol=1e-2, atol=1e-2)
    print("half_residual_scale: outputs match torch")


if __name__ == "__main__":
    main()
