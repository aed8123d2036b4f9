"""Tensor-core GEMM in TileLang: C = A @ B (fp16 in, fp32 accumulate, fp16 out). No software pipeline:
tiles are copied to shared memory with plain loads, T.gemm becomes ldmatrix + mma.sync."""
import argparse

import tilelang
import tilelang.language as T


def matmul(M, N, K, block_M=64, block_N=64, block_K=32):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "float16")
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.serial(T.ceildiv(K, block_K)):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=256)
    size = parser.parse_args().size
    kernel = tilelang.compile(matmul(size, size, size), out_idx=[2])
    import torch  # from here on the script needs a GPU

    a = torch.randn(size, size, device="cuda", dtype=torch.float16)
    b = torch.randn(size, size, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(kernel(a, b), a @ b, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
