"""A script that imports a library built on torch._dynamo's rule tables (as `fla`, flash-linear-attention,
does at import): with no GPU, tile-doctor answers `torch.cuda`'s queries, and each answer must be its own
function object, or dynamo refuses one object under two names ("Duplicate torch object")."""
import tilelang
import tilelang.language as T
import torch
from torch._dynamo import trace_rules


def double(n, block=128):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32"), B: T.Tensor((n,), "float32")):
        with T.Kernel(T.ceildiv(n, block), threads=block) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * 2

    return main


def main():
    trace_rules.get_torch_obj_rule_map()
    kernel = tilelang.compile(double(256), out_idx=[1])
    a = torch.randn(256, device="cuda")
    torch.testing.assert_close(kernel(a), a * 2)


if __name__ == "__main__":
    main()
