"""A TileLang GEMM on TensorFloat-32 inputs, as TileLang's own kernel tests write one (`in_dtype=T.tfloat32`
on float32 tensors, float32 accumulators): the buffers are float32 storage that the tensor core reads with
a 10-bit mantissa. Checked against torch on the inputs truncated to TF32's precision."""
import tilelang
import tilelang.language as T


def matmul(M, N, K, block_M=32, block_N=32, block_K=16):
    @T.prim_func
    def main(A: T.Tensor((M, K), T.tfloat32), B: T.Tensor((K, N), T.tfloat32), C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), T.tfloat32)
            B_shared = T.alloc_shared((block_K, block_N), T.tfloat32)
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    import torch

    M, N, K = 64, 32, 64
    kernel = tilelang.compile(matmul(M, N, K), out_idx=[2])
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float32)
    b = torch.randn(K, N, device="cuda", dtype=torch.float32)
    c = kernel(a, b)
    # TF32 keeps 10 of float32's 23 mantissa bits
    truncate = lambda x: (x.view(torch.int32) & ~0x1FFF).view(torch.float32)
    ref = truncate(a).double() @ truncate(b).double()
    err = ((c.double() - ref).abs().max() / ref.abs().max()).item()
    print(f"max relative error against the truncated inputs: {err:.2e}")
    assert err < 2e-3, err


if __name__ == "__main__":
    main()
