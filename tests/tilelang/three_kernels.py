"""Three kernels in a row, the way a model layer is written: scale = x * w, then a row-wise bias add that
consumes it, then a ReLU; each called on CUDA tensors and checked against torch at the end. With
--buggy-bias the second kernel drops its edge guard: when N is not a multiple of the tile, the last block
writes past its output (and reads past its input): past the buffer's end in the last row, into the next
row's first elements in the others, where it races with that row's first block. TileLang would guard those accesses itself
(LegalizeSafeMemoryAccess); the buggy kernel turns that pass off, as kernels tuned for speed do."""
import argparse

import tilelang
import tilelang.language as T
import torch

BLOCK = 128


@tilelang.jit(out_idx=[2])
def scale(M, N):
    @T.prim_func
    def main(X: T.Tensor((M, N), "float32"), W: T.Tensor((N,), "float32"), Y: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, BLOCK), M, threads=BLOCK) as (bx, by):
            for i in T.Parallel(BLOCK):
                if bx * BLOCK + i < N:
                    Y[by, bx * BLOCK + i] = X[by, bx * BLOCK + i] * W[bx * BLOCK + i]

    return main


def add_bias(M, N, guarded=True):
    configs = {} if guarded else {"tl.disable_safe_memory_legalize": True}
    return tilelang.compile(add_bias_program(M, N, guarded), out_idx=[2], pass_configs=configs)


def add_bias_program(M, N, guarded):
    @T.prim_func
    def main(Y: T.Tensor((M, N), "float32"), Bias: T.Tensor((M,), "float32"), Z: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, BLOCK), M, threads=BLOCK) as (bx, by):
            for i in T.Parallel(BLOCK):
                if guarded:
                    if bx * BLOCK + i < N:
                        Z[by, bx * BLOCK + i] = Y[by, bx * BLOCK + i] + Bias[by]
                else:
                    Z[by, bx * BLOCK + i] = Y[by, bx * BLOCK + i] + Bias[by]

    return main


@tilelang.jit(out_idx=[1])
def relu(M, N):
    @T.prim_func
    def main(Z: T.Tensor((M, N), "float32"), R: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, BLOCK), M, threads=BLOCK) as (bx, by):
            for i in T.Parallel(BLOCK):
                if bx * BLOCK + i < N:
                    R[by, bx * BLOCK + i] = T.max(Z[by, bx * BLOCK + i], 0.0)

    return main


def layer(x, w, bias, guarded):
    m, n = x.shape
    y = scale(m, n)(x, w)
    z = add_bias(m, n, guarded)(y, bias)
    return relu(m, n)(z)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--m", type=int, default=4)
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--buggy-bias", action="store_true")
    parser.add_argument("--seed", type=int, default=None)
    opts = parser.parse_args()
    if opts.seed is not None:
        torch.manual_seed(opts.seed)
    x = torch.randn(opts.m, opts.n, device="cuda")
    w = torch.randn(opts.n, device="cuda")
    bias = torch.randn(opts.m, device="cuda")
    out = layer(x, w, bias, guarded=not opts.buggy_bias)
    torch.testing.assert_close(out, torch.relu(x * w + bias[:, None]))
    out = layer(x, w, bias, guarded=not opts.buggy_bias)  # a second step: the same launches again
    print("three_kernels: outputs match torch")


if __name__ == "__main__":
    main()
