"""A training-script-like program that checks two TileLang kernels from inside its own Python process with
tile_doctor.checking(): a correct copy and the same copy with its store one place to the right (the last
block writes B[N], one past the end). The test (inprocess_test.sh) runs it with plain `python` and reads
what it prints."""
import sys

import tilelang
import tilelang.language as T
import tile_doctor

N = 512


def copy(n, shift, block=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i + shift] = A[bx * block + i]

    return main


def checked(shift):
    config = {"tl.disable_safe_memory_legalize": True}  # as kernels tuned for speed turn it off
    with tile_doctor.checking(checks="bounds") as run:
        import torch
        a = torch.arange(N, dtype=torch.float32, device="cuda")
        kernel = tilelang.compile(copy(N, shift), out_idx=[1], pass_configs=config)
        b = kernel(a)
        if shift == 0:
            torch.testing.assert_close(b, a)  # the script's own check still runs on the checked outputs
    return run


good = checked(0)
print(f"correct: launches={good.launches} findings={len(good.findings)}")
good.raise_for_findings()
bad = checked(1)
print(f"shifted: launches={bad.launches} findings={len(bad.findings)}")
for f in bad.findings:
    print(f"finding: {f.kind} buffer={f.buffer} python={','.join(f.python_lines)}")
try:
    bad.raise_for_findings()
    sys.exit("the shifted copy's finding was not raised")
except tile_doctor.FindingsError as e:
    print("raised:", str(e).splitlines()[0])

# tile_doctor.check: one launch of a kernel compiled before and outside any block — a real TileLang JITKernel
# (built for sm_80, as on a GPU machine) — and of a PrimFunc, on tensors made beforehand.
tile_doctor.use_host_memory_without_gpu()
import torch  # noqa: E402
a = torch.arange(N, dtype=torch.float32, device="cuda")
b = torch.zeros(N + 1, dtype=torch.float32, device="cuda")[:N]
shifted = tilelang.compile(copy(N, 1), target={"kind": "cuda", "arch": "sm_80"},
                           pass_configs={"tl.disable_safe_memory_legalize": True})
one = tile_doctor.check(shifted, a, b, checks="bounds")
print(f"check(JITKernel): launches={one.launches} findings={len(one.findings)} "
      f"python={','.join(one.findings[0].python_lines) if one.findings else ''}")
clean = tile_doctor.check(copy(N, 0), a, out_idx=[1], checks="bounds")
print(f"check(PrimFunc): launches={clean.launches} findings={len(clean.findings)} "
      f"equal={bool(torch.equal(clean.result, a))}")
