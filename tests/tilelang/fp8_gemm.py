"""An fp8 GEMM as FP8 inference writes it: C = A @ B^T with A [M, K] and B [N, K] in float8_e4m3fn,
float accumulation on the tensor cores (mma.sync m16n8k32 e4m3, sm_89 and later), C in float. Checked
against torch, which computes the same products in float. Lower it for an fp8 architecture:
tile-doctor check fp8_gemm.py --tilelang-arch sm_89 (below sm_89 CUTLASS compiles a trap in its place)."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def matmul_fp8(M, N, K, block_M=64, block_N=64, block_K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "float8_e4m3fn"), B: T.Tensor((N, K), "float8_e4m3fn"),
             C: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "float8_e4m3fn")
            B_shared = T.alloc_shared((block_N, block_K), "float8_e4m3fn")
            C_local = T.alloc_fragment((block_M, block_N), "float32")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    M = N = K = 128
    a = torch.randn(M, K, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
    c = matmul_fp8(M, N, K)(a, b)
    torch.testing.assert_close(c, a.float() @ b.float().T, rtol=1e-3, atol=1e-3)
    print("fp8_gemm: output matches torch")


if __name__ == "__main__":
    main()
