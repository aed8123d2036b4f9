"""A @tilelang.jit kernel factory called for two configurations: each call compiles one kernel, and
tile-doctor captures both (the script needs no GPU and runs to its end)."""
import tilelang
import tilelang.language as T


@tilelang.jit(out_idx=[-1])
def vector_add(n, block=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32"), C: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                C[bx * block + i] = A[bx * block + i] + B[bx * block + i]

    return main


small = vector_add(256)
wide = vector_add(1000, block=64)  # 16 blocks, the last one partly outside: TileLang guards it
assert "main_kernel" in small.get_kernel_source() and "main_kernel" in wide.kernel_source
