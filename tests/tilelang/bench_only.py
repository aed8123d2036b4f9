"""A benchmark script, as TileLang's examples write one (linear_attention/example_retention_fwd.py): the
kernel's only call is inside `do_bench(lambda: ...)`. Under tile-doctor the benchmark runs its function once,
untimed, so the launch is checked with the script's own tensors. `--shift` plants the bug of
shifted_copy_bug.py: each block copies one place to the right and the last block writes past B."""
import sys

import tilelang
import tilelang.language as T
from tilelang.profiler import do_bench

N = 1024


def copy(n, shift, block=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i + shift] = A[bx * block + i]

    return main


def main():
    shift = 1 if "--shift" in sys.argv else 0
    kernel = tilelang.compile(copy(N, shift), out_idx=[1], pass_configs={"tl.disable_safe_memory_legalize": True})
    import torch

    a = torch.randn(N, device="cuda")
    latency = do_bench(lambda: kernel(a), warmup=5, rep=20)
    print(f"copy: {latency} ms")


if __name__ == "__main__":
    main()
