"""Written the way TileLang's own test files are: pytest functions marked tilelang.testing.requires_cuda
(answered from the target profile when there is no GPU), a kernel built as JITKernel(program, target="cuda")
instead of through tilelang.compile, column slices passed to a T.StridedTensor (one of the wrong pitch,
refused), and a kernel compiled for a symbolic size and never launched; run as `python test_suite_style.py`
(tilelang.testing.main: pytest)."""
import pytest
import tilelang
import tilelang.language as T
import tilelang.testing
import torch
from tilelang.jit.kernel import JITKernel


def row_scale(M, N, NN, block_M=16):
    @T.prim_func
    def main(A: T.StridedTensor((M, N), (NN, 1), "float32"), B: T.Tensor((M, N), "float32")):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            for i, j in T.Parallel(block_M, N):
                B[bx * block_M + i, j] = A[bx * block_M + i, j] * 3.0

    return main


@tilelang.testing.requires_cuda
def test_jit_kernel_built_directly_on_a_column_slice():
    kernel = JITKernel(row_scale(32, 48, 96), out_idx=[1], target="cuda")
    a = torch.randn(32, 96, device="cuda")
    torch.testing.assert_close(kernel(a[:, 48:]), a[:, 48:] * 3)


@tilelang.testing.requires_cuda_compute_version_ge(8, 0)
def test_compiled_for_a_dynamic_stride():
    kernel = tilelang.compile(row_scale(32, 48, T.dynamic("NN")), out_idx=[1])
    a = torch.randn(32, 80, device="cuda")
    torch.testing.assert_close(kernel(a[:, 16:64]), a[:, 16:64] * 3)


@tilelang.testing.requires_cuda
def test_a_slice_of_another_pitch_is_refused():
    kernel = tilelang.compile(row_scale(32, 48, 96), out_idx=[1])
    a = torch.randn(32, 80, device="cuda")
    with pytest.raises(Exception):  # TileLang's host code checks a constant stride before the launch
        kernel(a[:, :48])


def test_compiled_for_a_symbolic_size_and_never_launched():
    kernel = tilelang.compile(row_scale(T.dynamic("M"), 48, 48), out_idx=[1])
    assert "main_kernel" in kernel.get_kernel_source()


if __name__ == "__main__":
    tilelang.testing.main()
