"""Weight-only int4 dequantisation as quantised-inference code writes it: W holds int4 weights (TileLang's
int4 buffer, which the caller passes as an int8 tensor packed two to a byte, the even column in the low
nibble), each row with a float16 scale; the kernel writes W * scale in float16. Checked against torch's own
unpacking."""
import tilelang
import tilelang.language as T
import torch


@tilelang.jit(out_idx=[2])
def dequantize(N, K, block_N=4):
    @T.prim_func
    def main(W: T.Tensor((N, K), "int4"), scale: T.Tensor((N,), "float16"), out: T.Tensor((N, K), "float16")):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:
            for i, k in T.Parallel(block_N, K):
                out[bx * block_N + i, k] = T.Cast("float16", W[bx * block_N + i, k]) * scale[bx * block_N + i]

    return main


def pack_int4(values: torch.Tensor) -> torch.Tensor:
    low, high = values[..., ::2].to(torch.int16) & 0xF, values[..., 1::2].to(torch.int16) & 0xF
    return (low | (high << 4)).to(torch.uint8).view(torch.int8)


def main():
    n, k = 16, 64
    w = torch.randint(-8, 8, (n, k), device="cuda", dtype=torch.int8)
    scale = torch.rand(n, device="cuda", dtype=torch.float16) + 0.5
    out = dequantize(n, k)(pack_int4(w), scale)
    torch.testing.assert_close(out, w.to(torch.float16) * scale[:, None])
    print("int4_dequant: outputs match torch")


if __name__ == "__main__":
    main()
