"""A kernel that sees a [B, M, N] activation as a [B*M, N] matrix through views, the way TileLang's
convolution example flattens its kernel and output (T.Tensor(shape, dtype, X.data)): the views share the
parameters' memory. With --padded-view the views claim the row count rounded up to the tile (a common slip
when the tiling wants whole tiles): the last tile reads and writes past both tensors."""
import argparse

import tilelang
import tilelang.language as T
import torch

BLOCK_ROWS = 16


@tilelang.jit(out_idx=[1])
def scale_rows(B, M, N, rows):
    @T.prim_func
    def main(X: T.Tensor((B, M, N), "float32"), Y: T.Tensor((B, M, N), "float32")):
        with T.Kernel(T.ceildiv(rows, BLOCK_ROWS), threads=128) as bx:
            X_rows = T.Tensor((rows, N), "float32", X.data)
            Y_rows = T.Tensor((rows, N), "float32", Y.data)
            for i, j in T.Parallel(BLOCK_ROWS, N):
                if bx * BLOCK_ROWS + i < rows:
                    Y_rows[bx * BLOCK_ROWS + i, j] = X_rows[bx * BLOCK_ROWS + i, j] * 2.0

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--padded-view", action="store_true")
    opts = parser.parse_args()
    b, m, n = 3, 10, 64
    rows = b * m
    if opts.padded_view:
        rows = -(-rows // BLOCK_ROWS) * BLOCK_ROWS
    x = torch.randn(b, m, n, device="cuda")
    y = scale_rows(b, m, n, rows)(x)
    torch.testing.assert_close(y, x * 2)
    print("flat_view: outputs match torch")


if __name__ == "__main__":
    main()
