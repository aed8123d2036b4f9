"""Row softmax in TileLang: each row is spread over 64 threads (two warps), so T.reduce_max / T.reduce_sum
need warp shuffles and a shared-memory exchange between the warps (tl::AllReduce)."""
import tilelang
import tilelang.language as T


def softmax(M, N, block_M=2):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x = T.alloc_fragment((block_M, N), "float32")
            row_max = T.alloc_fragment((block_M,), "float32")
            row_sum = T.alloc_fragment((block_M,), "float32")
            T.copy(X[bx * block_M, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.exp(x[i, j] - row_max[i])
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] / row_sum[i]
            T.copy(x, Y[bx * block_M, 0])

    return main


def main():
    M, N = 64, 256
    kernel = tilelang.compile(softmax(M, N), out_idx=[1])
    import torch  # from here on the script needs a GPU

    x = torch.randn(M, N, device="cuda")
    torch.testing.assert_close(kernel(x), torch.softmax(x, dim=1))


if __name__ == "__main__":
    main()
