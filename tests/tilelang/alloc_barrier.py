"""A Hopper-style producer/consumer hand-off through T.alloc_barrier (an mbarrier), written for an H100
and then run on a MetaX GPU, which has no mbarrier: the copy reverses each block of A into B."""
import tilelang
import tilelang.language as T
import torch


def reverse_blocks(N, block=128):
    @T.prim_func
    def main(A: T.Tensor((N,), "float32"), B: T.Tensor((N,), "float32")):
        with T.Kernel(T.ceildiv(N, block), threads=block) as bx:
            ready = T.alloc_barrier(block)
            stage = T.alloc_shared((block,), "float32")
            for i in T.Parallel(block):
                stage[i] = A[bx * block + i]
            T.barrier_arrive(ready)
            T.barrier_wait(ready, 0)
            for i in T.Parallel(block):
                B[bx * block + i] = stage[block - 1 - i]

    return main


def main():
    kernel = tilelang.compile(reverse_blocks(1024), out_idx=[1])
    a = torch.randn(1024, device="cuda")
    torch.testing.assert_close(kernel(a), a.view(-1, 128).flip(1).reshape(-1))


if __name__ == "__main__":
    main()
