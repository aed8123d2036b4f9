"""FlashAttention forward in TileLang, in its non-Hopper form (sm_80: mma.sync, no TMA/wgmma): for each
block of queries, stream key/value blocks, keep a running row maximum and sum (online softmax) and
rescale the output accumulator. Layout [batch, seq, heads, dim], non-causal."""
import math

import tilelang
import tilelang.language as T


def flash_attention(batch, heads, seq, dim, block_M=64, block_N=64):
    scale = (1.0 / math.sqrt(dim)) * 1.44269504  # softmax in base 2: exp(x) = exp2(x * log2(e))
    shape = [batch, seq, heads, dim]

    @T.prim_func
    def main(Q: T.Tensor(shape, "float16"), K: T.Tensor(shape, "float16"), V: T.Tensor(shape, "float16"),
             Out: T.Tensor(shape, "float16")):
        with T.Kernel(T.ceildiv(seq, block_M), heads, batch, threads=128) as (bx, by, bz):
            Q_shared = T.alloc_shared([block_M, dim], "float16")
            K_shared = T.alloc_shared([block_N, dim], "float16")
            V_shared = T.alloc_shared([block_N, dim], "float16")
            scores = T.alloc_fragment([block_M, block_N], "float")
            probs = T.alloc_fragment([block_M, block_N], "float16")
            acc = T.alloc_fragment([block_M, dim], "float")
            max_prev = T.alloc_fragment([block_M], "float")
            max_cur = T.alloc_fragment([block_M], "float")
            rescale = T.alloc_fragment([block_M], "float")
            row_sum = T.alloc_fragment([block_M], "float")
            block_sum = T.alloc_fragment([block_M], "float")

            T.copy(Q[bz, bx * block_M:(bx + 1) * block_M, by, :], Q_shared)
            T.fill(acc, 0)
            T.fill(row_sum, 0)
            T.fill(max_cur, -T.infinity("float"))
            for k in T.Pipelined(T.ceildiv(seq, block_N), num_stages=1):
                T.copy(K[bz, k * block_N:(k + 1) * block_N, by, :], K_shared)
                T.clear(scores)
                T.gemm(Q_shared, K_shared, scores, transpose_B=True, policy=T.GemmWarpPolicy.FullRow)
                T.copy(max_cur, max_prev)
                T.reduce_max(scores, max_cur, dim=1, clear=False)
                for i in T.Parallel(block_M):
                    rescale[i] = T.exp2(max_prev[i] * scale - max_cur[i] * scale)
                for i, j in T.Parallel(block_M, block_N):
                    scores[i, j] = T.exp2(scores[i, j] * scale - max_cur[i] * scale)
                T.reduce_sum(scores, block_sum, dim=1)
                for i in T.Parallel(block_M):
                    row_sum[i] = row_sum[i] * rescale[i] + block_sum[i]
                for i, j in T.Parallel(block_M, dim):
                    acc[i, j] *= rescale[i]
                T.copy(scores, probs)
                T.copy(V[bz, k * block_N:(k + 1) * block_N, by, :], V_shared)
                T.gemm(probs, V_shared, acc, policy=T.GemmWarpPolicy.FullRow)
            for i, j in T.Parallel(block_M, dim):
                acc[i, j] /= row_sum[i]
            T.copy(acc, Out[bz, bx * block_M:(bx + 1) * block_M, by, :])

    return main


def main():
    batch, heads, seq, dim = 1, 2, 256, 64
    kernel = tilelang.compile(flash_attention(batch, heads, seq, dim), out_idx=[3])
    import torch  # from here on the script needs a GPU

    q, k, v = (torch.randn(batch, seq, heads, dim, device="cuda", dtype=torch.float16) for _ in range(3))
    ref = torch.nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
    torch.testing.assert_close(kernel(q, k, v), ref.transpose(1, 2), rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
