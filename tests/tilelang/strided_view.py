"""Column slices of one wide activation passed to a kernel that declares them T.StridedTensor, as a user
splits a fused QKV or a [gate | up] projection without copying: a[:, :N] and a[:, NN - N:] keep the wide
tensor's row pitch, the second given through a dynamic stride. With --read-past-view the kernel reads one
column to the right through a full-pitch view of the storage (T.Tensor((M, NN), ..., A.data): "the row is NN
wide, the next column is there"), which TileLang's guards check against NN, not N: inside the storage that is
the wide tensor's next column, but the right-hand view's last row reads one element past the whole tensor."""
import argparse

import tilelang
import tilelang.language as T
import torch

BLOCK = 32


@tilelang.jit(out_idx=[1])
def scale_columns(M, N, NN, shift=0):
    @T.prim_func
    def main(A: T.StridedTensor((M, N), (NN, 1), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, BLOCK), T.ceildiv(M, BLOCK), threads=128) as (bx, by):
            A_pitched = T.Tensor((M, NN), "float32", A.data)
            for i, j in T.Parallel(BLOCK, BLOCK):
                B[by * BLOCK + i, bx * BLOCK + j] = A_pitched[by * BLOCK + i, bx * BLOCK + j + shift] * 2.0

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--read-past-view", action="store_true")
    opts = parser.parse_args()
    m, n, nn = 64, 64, 160
    wide = torch.randn(m, nn, device="cuda")
    left = scale_columns(m, n, nn)(wide[:, :n])
    torch.testing.assert_close(left, wide[:, :n] * 2)
    shift = 1 if opts.read_past_view else 0
    right = scale_columns(m, n, T.dynamic("NN"), shift)(wide[:, nn - n:])
    if not opts.read_past_view:
        torch.testing.assert_close(right, wide[:, nn - n:] * 2)
    print("strided_view: outputs match torch")


if __name__ == "__main__":
    main()
