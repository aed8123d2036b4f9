"""A half-precision GEMV as decoding kernels write it: y = W @ x with W [N, K] and x [K] in float16, each
block owning a few rows, each thread a strided slice of K accumulated in float, then a warp/block
reduction. The half -> float conversions are the CUDA SDK's (__half2float). Checked against torch."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def gemv(N, K, block_N=4, threads=128):
    @T.prim_func
    def main(W: T.Tensor((N, K), "float16"), x: T.Tensor((K,), "float16"), y: T.Tensor((N,), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), threads=threads) as bx:
            prod = T.alloc_fragment((block_N, K), "float32")
            acc = T.alloc_fragment((block_N,), "float32")
            for i, k in T.Parallel(block_N, K):
                prod[i, k] = T.Cast("float32", W[bx * block_N + i, k]) * T.Cast("float32", x[k])
            T.reduce_sum(prod, acc, dim=1)
            for i in T.Parallel(block_N):
                y[bx * block_N + i] = T.Cast("float16", acc[i])

    return main


def main():
    N, K = 64, 512
    W = torch.randn(N, K, device="cuda", dtype=torch.float16)
    x = torch.randn(K, device="cuda", dtype=torch.float16)
    y = gemv(N, K)(W, x)
    torch.testing.assert_close(y, (W.float() @ x.float()).half(), rtol=1e-2, atol=1e-2)
    print("half_gemv: output matches torch")


if __name__ == "__main__":
    main()
