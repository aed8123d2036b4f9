"""Two kernels on 1000-element CUDA tensors; the second one's tile loop runs to 1024 with TileLang's
guard turned off, so it reads 24 floats past B and writes 24 past C. PyTorch's caching allocator hands
out blocks rounded up (to 512 bytes and more), so the overrun lands inside memory the allocator owns and
compute-sanitizer's memcheck does not see it; tile-doctor bounds each buffer by its tensor."""
import tilelang
import tilelang.language as T
import torch

N, BLOCK = 1000, 256


def double(n):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, BLOCK), threads=BLOCK) as bx:
            for i in T.Parallel(BLOCK):
                if bx * BLOCK + i < n:
                    B[bx * BLOCK + i] = A[bx * BLOCK + i] * 2.0

    return main


def add_one_unguarded(n):
    @T.prim_func
    def main(B: T.Tensor((n,), "float32"), C: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, BLOCK), threads=BLOCK) as bx:
            for i in T.Parallel(BLOCK):
                C[bx * BLOCK + i] = B[bx * BLOCK + i] + 1.0

    return main


def main():
    first = tilelang.compile(double(N), out_idx=[1])
    second = tilelang.compile(add_one_unguarded(N), out_idx=[1],
                              pass_configs={"tl.disable_safe_memory_legalize": True})
    a = torch.randn(N, device="cuda")
    c = second(first(a))
    torch.testing.assert_close(c, a * 2 + 1)
    print("pooled_overrun: outputs match torch")


if __name__ == "__main__":
    main()
