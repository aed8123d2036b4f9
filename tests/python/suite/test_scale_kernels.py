"""A kernel test file written as TileLang projects write them: kernels compiled in the test, called on CUDA
tensors, checked against torch. test_scale_tail_block's kernel has no guard for the last, partial block: on a
GPU the test passes (the in-range elements are right; the writes past the end land on whatever follows), and
only a checker sees the overrun. Run by pytest_plugin_test.sh, never by the project's own test command."""
import pytest
import torch

import tilelang
import tilelang.language as T


def scale(n, block, guarded):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                if guarded:
                    if bx * block + i < n:
                        B[bx * block + i] = A[bx * block + i] * 2.0
                else:
                    B[bx * block + i] = A[bx * block + i] * 2.0

    return main


UNSAFE = {"tl.disable_safe_memory_legalize": True}  # as kernels tuned for speed turn it off


@pytest.mark.parametrize("n", [1000])
def test_scale_matches_torch(n):
    kernel = tilelang.compile(scale(n, 128, guarded=True), out_idx=[1], pass_configs=UNSAFE)
    a = torch.randn(n, device="cuda")
    torch.testing.assert_close(kernel(a), a * 2)


def test_scale_tail_block():
    n = 1000
    kernel = tilelang.compile(scale(n, 128, guarded=False), out_idx=[1], pass_configs=UNSAFE)
    a = torch.randn(n, device="cuda")
    b = kernel(a)
    torch.testing.assert_close(b, a * 2)
