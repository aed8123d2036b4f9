"""RMSNorm in TileLang, as a model's normalisation layer is written: fp16 activations and weight, the sum
of squares in float through T.reduce_sum (warp shuffles, then shared memory across warps), the result
scaled by rsqrt and the weight. Called on CUDA tensors, checked against torch."""
import argparse

import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def rms_norm(M, N, block_M=4, eps=1e-6):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float16"), W: T.Tensor((N,), "float16"), Y: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x = T.alloc_fragment((block_M, N), "float32")
            sq = T.alloc_fragment((block_M, N), "float32")
            ssum = T.alloc_fragment((block_M,), "float32")
            T.copy(X[bx * block_M, 0], x)
            for i, j in T.Parallel(block_M, N):
                sq[i, j] = x[i, j] * x[i, j]
            T.reduce_sum(sq, ssum, dim=1)
            for i in T.Parallel(block_M):
                ssum[i] = T.rsqrt(ssum[i] / N + eps)
            for i, j in T.Parallel(block_M, N):
                x[i, j] = x[i, j] * ssum[i] * W[j]
            T.copy(x, Y[bx * block_M, 0])

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=64)
    parser.add_argument("--hidden", type=int, default=512)
    args = parser.parse_args()
    x = torch.randn(args.rows, args.hidden, device="cuda", dtype=torch.float16)
    w = torch.rand(args.hidden, device="cuda", dtype=torch.float16) + 0.5
    y = rms_norm(args.rows, args.hidden)(x, w)
    ref = (x.float() * torch.rsqrt(x.float().pow(2).mean(dim=1, keepdim=True) + 1e-6) * w.float()).half()
    torch.testing.assert_close(y, ref, rtol=1e-2, atol=1e-2)
    print("rmsnorm: matches torch")


if __name__ == "__main__":
    main()
