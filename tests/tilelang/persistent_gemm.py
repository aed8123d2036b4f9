"""A persistent GEMM: a fixed number of blocks, each taking output tiles in a `while` loop, the pipelined K
loop (T.Pipelined, two stages) inside it. With an odd number of K steps the last step of one tile computes on
stage 0 while the next tile's first copies already refill stage 0, and TileLang's barrier insertion does not
order them across the `while` loop: a shared-memory race between pipeline stages, the bug of TileLang's own
stream-K example. --sync-between-tiles adds the barrier that removes it."""
import argparse

import tilelang
import tilelang.language as T


def matmul(M, N, K, block_M, block_N, block_K, stages, blocks, sync_between_tiles):
    tiles_n = N // block_N
    tiles = (M // block_M) * tiles_n

    @T.prim_func
    def main(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"), C: T.Tensor((M, N), "float16")):
        with T.Kernel(blocks, threads=128) as bx:
            A_shared = T.alloc_shared((block_M, block_K), "float16")
            B_shared = T.alloc_shared((block_K, block_N), "float16")
            C_local = T.alloc_fragment((block_M, block_N), "float")
            tile = T.alloc_var("int32")
            tile = bx
            while tile < tiles:
                T.clear(C_local)
                for k in T.Pipelined(K // block_K, num_stages=stages):
                    T.copy(A[(tile // tiles_n) * block_M, k * block_K], A_shared)
                    T.copy(B[k * block_K, (tile % tiles_n) * block_N], B_shared)
                    T.gemm(A_shared, B_shared, C_local)
                T.copy(C_local, C[(tile // tiles_n) * block_M, (tile % tiles_n) * block_N])
                if sync_between_tiles:
                    T.sync_threads()
                tile = tile + blocks

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shape", type=int, nargs=3, default=[128, 128, 96], metavar=("M", "N", "K"))
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--sync-between-tiles", action="store_true")
    args = parser.parse_args()
    M, N, K = args.shape
    kernel = tilelang.compile(matmul(M, N, K, 64, 64, 32, 2, args.blocks, args.sync_between_tiles), out_idx=[2])
    import torch  # from here on the script needs a GPU

    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(kernel(a, b), a @ b, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
