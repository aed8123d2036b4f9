"""An int8 GEMM with int32 accumulation, as quantised inference writes it: C = A @ B^T with A [M, K] and
B [N, K] in int8 (B stored transposed, the tensor cores' TN layout), T.gemm becomes mma.sync
m16n8k32 s8.s8.s32. Checked exactly against torch (in int32 on the host: integer sums are exact)."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def matmul_int8(M, N, K, block_M=64, block_N=64, block_K=64):
    @T.prim_func
    def main(A: T.Tensor((M, K), "int8"), B: T.Tensor((N, K), "int8"), C: T.Tensor((M, N), "int32")):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), "int8")
            B_shared = T.alloc_shared((block_N, block_K), "int8")
            C_local = T.alloc_fragment((block_M, block_N), "int32")
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[bx * block_N, k * block_K], B_shared)
                T.gemm(A_shared, B_shared, C_local, transpose_B=True)
            T.copy(C_local, C[by * block_M, bx * block_N])

    return main


def main():
    M = N = K = 128
    a = torch.randint(-128, 128, (M, K), device="cuda", dtype=torch.int8)
    b = torch.randint(-128, 128, (N, K), device="cuda", dtype=torch.int8)
    c = matmul_int8(M, N, K)(a, b)
    ref = (a.cpu().int() @ b.cpu().int().T).to(c.device)
    torch.testing.assert_close(c, ref, rtol=0, atol=0)
    print("int8_gemm: output matches torch exactly")


if __name__ == "__main__":
    main()
