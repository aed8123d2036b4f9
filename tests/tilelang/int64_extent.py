"""A fill over a 64-bit symbolic length, as TileLang's own int64 tests write it (`T.symbolic("n", "int64")`,
`T.ceildiv(n, block_n)` blocks): TVM writes the grid as `(n + T.int64(511)) // T.int64(512)`, which the
capture turns into the bundle expression `(n + 511) / 512`. The length is no multiple of the block: TileLang
guards the stores itself."""
import tilelang
import tilelang.language as T


@tilelang.jit
def fill_symbolic(value: float, dtype=T.bfloat16):
    n = T.symbolic("n", "int64")
    block_n = 512

    @T.prim_func
    def main(x: T.Tensor[n, dtype]):
        with T.Kernel(T.ceildiv(n, block_n), threads=128) as bx:
            for i in T.Parallel(block_n):
                x[bx * block_n + i] = value

    return main


def main():
    import torch

    x = torch.zeros(1000, dtype=torch.bfloat16, device="cuda")
    fill_symbolic(1.0)(x)
    assert x.min() == 1.0 and x.max() == 1.0


if __name__ == "__main__":
    main()
