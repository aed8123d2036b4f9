"""A kernel with a symbolic length N and a float scalar: B = A * alpha. The call resolves both (the script
uses CPU tensors, so it reaches the call with no GPU); with --no-call, N has no value and tile-doctor says
so, naming the compile line."""
import sys

import tilelang
import tilelang.language as T

N = T.symbolic("N")


@T.prim_func
def scale(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32"), alpha: T.float32):
    with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
        for i in T.Parallel(128):
            if bx * 128 + i < N:
                B[bx * 128 + i] = A[bx * 128 + i] * alpha


def main():
    kernel = tilelang.compile(scale, out_idx=[1])
    if "--no-call" in sys.argv:
        return
    import torch

    kernel(torch.randn(1000), 0.5)


if __name__ == "__main__":
    main()
