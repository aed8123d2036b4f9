"""Eager-style @tilelang.jit, the newest way TileLang code is written: shapes come from the tensors the
script passes, the output is declared with T.empty and returned, and calling the function compiles (once
per shape) and runs it. Row sums of a half matrix, accumulated in float, checked against torch."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit
def row_sum(X, block_M: int = 4):
    M, N = T.const("M N")
    X: T.Tensor[[M, N], "float16"]
    Y = T.empty([M], "float32")
    with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
        x = T.alloc_fragment((block_M, N), "float32")
        s = T.alloc_fragment((block_M,), "float32")
        T.copy(X[bx * block_M, 0], x)
        T.reduce_sum(x, s, dim=1)
        T.copy(s, Y[bx * block_M])
    return Y


def main():
    x = torch.randn(64, 256, device="cuda", dtype=torch.float16)
    torch.testing.assert_close(row_sum(x), x.float().sum(dim=1), rtol=1e-3, atol=1e-3)
    y = torch.randn(32, 256, device="cuda", dtype=torch.float16)  # a second shape: a second compile
    torch.testing.assert_close(row_sum(y), y.float().sum(dim=1), rtol=1e-3, atol=1e-3)
    print("eager_rowsum: outputs match torch")


if __name__ == "__main__":
    main()
