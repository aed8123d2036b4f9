"""Planted bug: each block copies its 128 elements one place to the right, so the last block writes
B[1024], one past the end. TileLang would guard the store (LegalizeSafeMemoryAccess); this program turns
that pass off, as kernels tuned for speed do, and the bug is the user's own."""
import tilelang
import tilelang.language as T

N = 1024


def shifted_copy(n, block=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i + 1] = A[bx * block + i]

    return main


def main():
    kernel = tilelang.compile(shifted_copy(N), out_idx=[1], pass_configs={"tl.disable_safe_memory_legalize": True})
    import torch  # from here on the script needs a GPU

    kernel(torch.randn(N, device="cuda"))


if __name__ == "__main__":
    main()
