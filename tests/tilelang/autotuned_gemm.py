"""An autotuned GEMM as TileLang's examples write it: @tilelang.autotune over a list of tile
configurations on top of @tilelang.jit, called on CUDA tensors and checked against torch. With --given
the script passes every tunable itself (the autotuner then compiles that configuration directly)."""
import argparse

import tilelang
import tilelang.language as T
import torch


def configs():
    return [{"block_M": bm, "block_N": bn, "block_K": 32} for bm in (64, 128) for bn in (64, 128)]


@tilelang.autotune(configs=configs(), warmup=3, rep=5)
@tilelang.jit(out_idx=[2])
def matmul(M, N, K, block_M=128, block_N=128, block_K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "float16")
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--given", action="store_true")
    opts = parser.parse_args()
    M = N = K = 256
    if opts.given:
        kernel = matmul(M, N, K, block_M=64, block_N=64, block_K=32)
    else:
        kernel = matmul(M, N, K)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = kernel(a, b)
    torch.testing.assert_close(c, a @ b, rtol=1e-2, atol=1e-2)
    print("autotuned_gemm: best config", kernel.config, "latency", kernel.latency)


if __name__ == "__main__":
    main()
