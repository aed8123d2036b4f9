"""A fused intermediate that makes the memory peak: each row of X expanded four times into H (a TileLang
kernel), then summed back by torch. The whole H lives at once; with --split the rows go in two halves and
each half of H is freed before the next is made, which lowers the peak by half of H (1 MiB here)."""
import argparse

import tilelang
import tilelang.language as T
import torch

ROWS, D, E = 1024, 128, 4


def expand(rows, block=32):
    @T.prim_func
    def main(X: T.Tensor((rows, D), "float32"), H: T.Tensor((rows, D * E), "float32")):
        with T.Kernel(T.ceildiv(rows, block), threads=128) as bx:
            for i, j in T.Parallel(block, D * E):
                H[bx * block + i, j] = X[bx * block + i, j % D] * 2.0

    return main


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", action="store_true")
    split = parser.parse_args().split
    x = torch.randn(ROWS, D, device="cuda")
    y = torch.empty(ROWS, device="cuda")
    if not split:
        kernel = tilelang.compile(expand(ROWS))
        h = torch.empty(ROWS, D * E, device="cuda")  # the fused intermediate: 2 MiB
        kernel(x, h)
        torch.sum(h, dim=1, out=y)
        del h
    else:
        half = ROWS // 2
        kernel = tilelang.compile(expand(half))
        for start in (0, half):
            h = torch.empty(half, D * E, device="cuda")  # half of it: 1 MiB
            kernel(x[start:start + half], h)
            torch.sum(h, dim=1, out=y[start:start + half])
            del h
    torch.testing.assert_close(y, x.sum(dim=1) * 2 * E, rtol=1e-4, atol=1e-3)
    print("fused_intermediate: sums match torch")


if __name__ == "__main__":
    main()
