"""A T.alloc_global workspace shared by the two kernels of one TileLang program, as split reductions are
written: the first kernel writes each block's partial sums of x into the workspace, the second adds
them up per row. Checked against torch."""
import tilelang
import tilelang.language as T
import torch

M, N, BLOCK = 8, 512, 128
PARTS = N // BLOCK


@tilelang.jit(out_idx=[1])
def row_sums(m, n):
    @T.prim_func
    def main(X: T.Tensor((m, n), "float32"), Y: T.Tensor((m,), "float32")):
        partial = T.alloc_global((m, PARTS), "float32")
        with T.Kernel(PARTS, m, threads=BLOCK) as (bx, by):
            chunk = T.alloc_fragment((BLOCK,), "float32")
            total = T.alloc_fragment((1,), "float32")
            for i in T.Parallel(BLOCK):
                chunk[i] = X[by, bx * BLOCK + i]
            T.reduce_sum(chunk, total, dim=0)
            if T.get_thread_binding() == 0:  # one thread writes the block's partial sum
                partial[by, bx] = total[0]
        with T.Kernel(m, threads=32) as bx:
            acc = T.alloc_local((1,), "float32")
            if T.get_thread_binding() == 0:
                acc[0] = 0.0
                for p in T.serial(PARTS):
                    acc[0] += partial[bx, p]
                Y[bx] = acc[0]

    return main


def main():
    x = torch.randn(M, N, device="cuda")
    torch.testing.assert_close(row_sums(M, N)(x), x.sum(dim=1), rtol=1e-4, atol=1e-4)
    print("workspace_two_kernels: outputs match torch")


if __name__ == "__main__":
    main()
