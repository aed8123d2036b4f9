"""Pipelined GEMM in TileLang: T.Pipelined with num_stages >= 2 turns the tile copies into cp.async with
commit/wait groups over a ring of shared-memory stages. --block and --stages change the tile
configuration (a large one is the shared-memory-limit test on metax-c500)."""
import argparse

import tilelang
import tilelang.language as T


def matmul(M, N, K, block_M, block_N, block_K, stages):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "float16")
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=stages):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", type=int, nargs=3, default=[512, 512, 128], metavar=("M", "N", "K"))
    parser.add_argument("--block", type=int, nargs=3, default=[128, 128, 32], metavar=("BM", "BN", "BK"))
    parser.add_argument("--stages", type=int, default=3)
    args = parser.parse_args()
    M, N, K = args.shape
    kernel = tilelang.compile(matmul(M, N, K, *args.block, args.stages), out_idx=[2])
    import torch  # from here on the script needs a GPU

    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(kernel(a, b), a @ b, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
