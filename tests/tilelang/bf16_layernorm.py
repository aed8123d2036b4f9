"""LayerNorm over rows of a bfloat16 activation, statistics in float, as transformer kernels write it:
mean and variance by block reductions, then (x - mean) * rstd * gamma + beta back in bfloat16. The
bf16 <-> float conversions are the CUDA SDK's (__bfloat162float, __float2bfloat16). Checked against
torch.nn.functional.layer_norm."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[3])
def layernorm(M, N, eps=1e-5, block_M=2):
    @T.prim_func
    def main(X: T.Tensor((M, N), "bfloat16"), gamma: T.Tensor((N,), "bfloat16"), beta: T.Tensor((N,), "bfloat16"),
             Y: T.Tensor((M, N), "bfloat16")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x = T.alloc_fragment((block_M, N), "float32")
            sq = T.alloc_fragment((block_M, N), "float32")
            mean = T.alloc_fragment((block_M,), "float32")
            var = T.alloc_fragment((block_M,), "float32")
            for i, j in T.Parallel(block_M, N):
                x[i, j] = T.Cast("float32", X[bx * block_M + i, j])
            T.reduce_sum(x, mean, dim=1)
            for i in T.Parallel(block_M):
                mean[i] = mean[i] / N
            for i, j in T.Parallel(block_M, N):
                sq[i, j] = (x[i, j] - mean[i]) * (x[i, j] - mean[i])
            T.reduce_sum(sq, var, dim=1)
            for i in T.Parallel(block_M):
                var[i] = T.rsqrt(var[i] / N + eps)
            for i, j in T.Parallel(block_M, N):
                Y[bx * block_M + i, j] = T.Cast(
                    "bfloat16", (x[i, j] - mean[i]) * var[i] * T.Cast("float32", gamma[j]) + T.Cast("float32", beta[j]))

    return main


def main():
    M, N = 16, 256
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    gamma = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    beta = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    y = layernorm(M, N)(x, gamma, beta)
    ref = torch.nn.functional.layer_norm(x.float(), (N,), gamma.float(), beta.float(), eps=1e-5).bfloat16()
    torch.testing.assert_close(y, ref, rtol=2e-2, atol=2e-2)
    print("bf16_layernorm: output matches torch")


if __name__ == "__main__":
    main()
