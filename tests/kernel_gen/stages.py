"""The generator's menu: each stage appends correct, race-free code to the kernel body and records where a
mutant could break it. Every thread runs every stage (barriers stay at the top level, never under a
branch), values stay bounded (no NaN, no overflow: inputs are in [-1, 1] and results are squashed), and
half/bfloat16 chains stay short enough to be within the numerics family's drift threshold (four units of
roundoff) — so any finding on a generated program is a false alarm."""

CONSTANTS = ["0.5", "0.25", "0.75", "0.125", "1.5", "-0.5", "0.375", "-0.25"]  # exact in half and bfloat16

RACE_KINDS = ("shared-race-raw", "shared-race-war", "shared-race-waw",
              "uninitialized-shared-read")
GLOBAL_RACE_KINDS = ("global-race-raw", "global-race-war", "global-race-waw",
                     "uninitialized-global-read")


class Budget:
    """Roundings left for the half and bfloat16 chains (each stored value may carry at most four)."""
    def __init__(self):
        self.half = 3
        self.bf16 = 2   # the initial conversion of bf from float is one
        self.shared_arrays = 0


def c(rng):
    return rng.choice(CONSTANTS) + "f"


def neighbour(rng, prog):
    return f"(live ? x[(gid + {rng.randint(1, prog.n)}) % n] : 0.0f)"


def squash(prog):
    prog.emit("  a = a / (1.0f + fabsf(a));  // keeps a in (-1, 1)")


def float_math(prog, rng, budget):
    ops = [
        lambda: f"a = fmaf(a, {c(rng)}, xv);",
        lambda: f"a = a * {c(rng)} + sinf(xv);",
        lambda: f"a = a + expf(-fabsf(xv)) * {c(rng)};",
        lambda: "a = sqrtf(fabsf(a) + 1.0f) - 1.0f;",
        lambda: f"a = a / (1.0f + fabsf({neighbour(rng, prog)}));",
        lambda: f"a = max(a, xv * {c(rng)});",
        lambda: f"a = min(a, {neighbour(rng, prog)}) + 0.5f;",
        lambda: f"a = fminf(a, {c(rng)}) + fmaxf(xv, -0.5f);",
        lambda: "a = tanhf(a + xv);",
        lambda: "a = a * rsqrtf(xv * xv + 1.0f);",
        lambda: "a = __fdividef(a, 2.0f + xv);",
        lambda: f"a = a + __expf(xv) * {c(rng)};",
        lambda: "a = logf(1.0f + fabsf(a));",
        lambda: f"a = a + (float)(u & 7u) * {c(rng)};",
        lambda: f"a = cosf(a) * {c(rng)} + a;",
    ]
    for _ in range(rng.randint(1, 3)):
        prog.emit("  " + rng.choice(ops)())
    squash(prog)
    prog.features.append("float-math")


def double_math(prog, rng, budget):
    ops = [
        lambda: "b = fma(b, 0.5, (double)a);",
        lambda: "b = sqrt(fabs(b) + 1.0) - 1.0;",
        lambda: "b = b + sin(b) * 0.25;",
        lambda: "b = exp(-fabs(b)) + b * 0.5;",
        lambda: "b = fmax(b, (double)xv) - 0.125;",
        lambda: "b = b + max(b, 0.5 * (double)a);",
    ]
    for _ in range(rng.randint(1, 3)):
        prog.emit("  " + rng.choice(ops)())
    prog.emit("  b = b / (1.0 + fabs(b));")
    prog.features.append("double-math")


def half_math(prog, rng, budget):
    """Half arithmetic that cannot cancel: products, maxima, sign flips and fmas of magnitudes (every term
    positive), so each rounding adds at most half a unit of roundoff to the relative error of every element
    (a sum that cancels would multiply it: a correct kernel's numerics finding)."""
    if budget.half <= 0:
        return float_math(prog, rng, budget)
    hv = "(live ? xh[gid] : __float2half(0.0f))"
    positive = rng.choice(["0.5", "0.25", "0.75", "0.375"]) + "f"
    ops = [  # (text, roundings)
        (f"h = __hfma(__habs(h), __float2half({positive}), __habs({hv}));", 1),
        (f"h = __hmax(h, {hv});", 0),
        ("h = __hneg(h);", 0),
        (f"h = __hmul(h, __float2half({c(rng)}));", 1),
        (f"{{ __half2 p = __halves2half2(h, {hv}); p = __hmul2(p, __float2half2_rn({c(rng)}));"
         " h = __hmin(__high2half(p), h); }", 1),
    ]
    text, cost = rng.choice(ops)
    budget.half -= cost
    prog.emit("  " + text)
    prog.features.append("half-math")


def bf16_math(prog, rng, budget):
    """As half_math: a product, or a sum of magnitudes."""
    if budget.bf16 <= 0:
        return double_math(prog, rng, budget)
    positive = rng.choice(["0.5", "0.25", "0.75", "0.375"]) + "f"
    text = rng.choice([
        f"bf = __hmul(bf, __float2bfloat16({c(rng)}));",
        f"bf = __float2bfloat16(fabsf(__bfloat162float(bf)) * {positive} + fabsf(xv) * 0.25f);",
    ])
    budget.bf16 -= 1
    prog.emit("  " + text)
    prog.features.append("bf16-math")


def int_math(prog, rng, budget):
    ops = [
        "u = u * 2654435761u + (unsigned)gid;",
        "u ^= u >> 13;",
        "u = __popc(u) + (u << 3);",
        "u = (u & 0xffffu) | ((unsigned)tid << 16);",
        "u = __brev(u) ^ (unsigned)blockIdx.x;",
    ]
    for _ in range(rng.randint(1, 3)):
        prog.emit("  " + rng.choice(ops))
    prog.features.append("int-math")


def loop(prog, rng, budget):
    bound = "iters" if rng.random() < 0.5 else str(rng.randint(1, 12))
    step = rng.randint(1, 7)
    prog.emit(f"  for (int j = 0; j < {bound}; ++j) {{")
    prog.emit(f"    a = fmaf(a, 0.5f, (live ? x[(gid + j * {step}) % n] : 0.0f) * {c(rng)});")
    prog.emit("  }")
    squash(prog)
    prog.features.append("loop")


def shared_array(prog, rng, budget):
    """A shared array of a random size and type: written (each slot by one thread), a barrier, read by
    other threads. Sizes 1 and 2 with constant indices are the ones LLVM splits into scalar globals."""
    name = f"s{budget.shared_arrays}"
    budget.shared_arrays += 1
    ty, to_ty, from_ty = rng.choice([("float", "", ""), ("double", "(double)", "(float)"),
                                     ("int", "(int)(u & 255u) + (int)", "0.01f * (float)")])
    size = rng.choice([1, 2, 2, 3, 4, 7, 16, 31, 32, prog.block, 2 * prog.block, 3 * prog.block + 5])
    first = prog.emit(f"  __shared__ {ty} {name}[{size}];")
    if size <= 2:
        writer = rng.choice([0, prog.block - 1])
        stores = " ".join(f"{name}[{i}] = {to_ty}(a * {c(rng)});" for i in range(size))
        prog.emit(f"  if (tid == {writer}) {{ {stores} }}")
        barrier = prog.emit("  __syncthreads();")
        reads = " + ".join(f"{from_ty}{name}[{i}] * {c(rng)}" for i in range(size))
        last = prog.emit(f"  a = a * 0.5f + {reads};")
    else:
        loop_line = prog.emit(f"  for (int i = tid; i < {size}; i += blockDim.x) {name}[i] = "
                              f"{to_ty}(a + (float)i * {c(rng)});")
        prog.spot("off-by-one", loop_line, prog.lines[loop_line].replace(f"i < {size}", f"i <= {size}"),
                  ("shared-out-of-bounds",), loop_line, loop_line)
        barrier = prog.emit("  __syncthreads();")
        step = rng.choice([1, 3, 5])
        # the slot read is another thread's: with step 1, an offset that is a multiple of the block would
        # give every thread its own slot back (and a dropped barrier would break nothing)
        offsets = [q for q in range(1, size) if step != 1 or q % prog.block != 0]
        reader = f"(tid * {step} + {rng.choice(offsets)}) % {size}"
        if ty == "float" and rng.random() < 0.5:
            read = f"td_gen_read({name}, {reader})"  # a generic pointer into shared memory
            helper = "__device__ __noinline__ float td_gen_read(const float* p, int i) { return p[i]; }"
            if helper not in prog.globals_:
                prog.globals_.append(helper)
            prog.features.append("generic-shared-pointer")
        else:
            read = f"{from_ty}{name}[{reader}]"
        last = prog.emit(f"  a = a * 0.5f + {read} * {c(rng)};")
    prog.spot("drop-barrier", barrier, "  // (the mutant dropped this barrier)", RACE_KINDS, first, last)
    squash(prog)
    prog.features.append("shared-scalarised" if size <= 2 else "shared-array")


def tree_reduction(prog, rng, budget):
    ty = rng.choice(["float", "double"])
    name = f"s{budget.shared_arrays}"
    budget.shared_arrays += 1
    top = 1
    while top * 2 < prog.block:
        top *= 2
    first = prog.emit(f"  __shared__ {ty} {name}[{prog.block}];")
    prog.emit(f"  {name}[tid] = a;")
    b1 = prog.emit("  __syncthreads();")
    prog.emit(f"  for (int s = {top}; s > 0; s >>= 1) {{")
    prog.emit(f"    if (tid < s && tid + s < {prog.block}) {name}[tid] += {name}[tid + s];")
    b2 = prog.emit("    __syncthreads();")
    prog.emit("  }")
    last = prog.emit(f"  a = a * 0.5f + (float){name}[0] * (1.0f / {prog.block});")
    drop = rng.choice([b1, b2])
    prog.spot("drop-barrier", drop, "  // (the mutant dropped this barrier)" if drop == b1 else
              "    // (the mutant dropped this barrier)", RACE_KINDS, first, last)
    squash(prog)
    prog.features.append("tree-reduction")


def warp_reduction(prog, rng, budget):
    form = rng.choice(["xor", "down", "ballot"])
    if form == "xor":
        prog.emit("  { float v = a; for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);"
                  " a = a * 0.5f + v * (1.0f / 32); }")
    elif form == "down":
        prog.emit("  { float v = a; for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);"
                  " a = a * 0.5f + __shfl_sync(0xffffffffu, v, 0) * (1.0f / 32); }")
    else:
        prog.emit("  { unsigned m = __ballot_sync(0xffffffffu, a > 0.0f); u += __popc(m);"
                  " a = a + (float)__popc(m) * (1.0f / 64); }")
    squash(prog)
    prog.features.append("warp-shuffle")


def atomics(prog, rng, budget):
    name = f"s{budget.shared_arrays}"
    budget.shared_arrays += 1
    # (type, zero, what each thread adds, how the total is used); float sums of small integers are exact in
    # any order
    forms = [("int", "0", "(int)(u & 7u)", f"u += (unsigned){name}; a = a + (float)({name} & 15) * 0.0625f;"),
             ("float", "0.0f", "(float)(tid & 3)", f"a = a * 0.5f + {name} * (1.0f / {3 * prog.block});")]
    ty, zero, addend, use = forms[0] if rng.random() < 0.5 else forms[1]
    first = prog.emit(f"  __shared__ {ty} {name};")
    prog.emit(f"  if (tid == 0) {name} = {zero};")
    b1 = prog.emit("  __syncthreads();")
    prog.emit(f"  atomicAdd(&{name}, {addend});")
    b2 = prog.emit("  __syncthreads();")
    last = prog.emit(f"  {use}")
    prog.emit("  atomicAdd(counter, 1u + (u & 1u));")
    prog.spot("drop-barrier", rng.choice([b1, b2]), "  // (the mutant dropped this barrier)", RACE_KINDS,
              first, last)
    squash(prog)
    prog.features.append("atomics")


def global_scratch(prog, rng, budget):
    """Threads of a block exchange values through global memory, ordered by a barrier; each stage has its
    own region of the scratch buffer, which starts uninitialised."""
    region = prog.scratch_regions
    prog.scratch_regions += 1
    base = f"({region} * gridDim.x + blockIdx.x) * blockDim.x"
    first = prog.emit(f"  scratch[{base} + tid] = a;")
    barrier = prog.emit("  __syncthreads();")
    last = prog.emit(f"  a = a * 0.5f + scratch[{base} + (tid + {rng.randint(1, prog.block - 1)}) % blockDim.x]"
                     f" * {c(rng)};")
    prog.spot("drop-barrier", barrier, "  // (the mutant dropped this barrier)", GLOBAL_RACE_KINDS, first, last)
    prog.features.append("global-exchange")


def dynamic_shared(prog, rng, budget):
    """The block's dynamic shared array (`extern __shared__`, sized by the launch to what this stage uses,
    so one element past it is past the launch's bytes); once a program."""
    if prog.dynamic_floats:
        return shared_array(prog, rng, budget)
    size = rng.choice([1, 5, prog.block, 2 * prog.block + 3])
    prog.dynamic_floats = size
    prog.globals_.append("extern __shared__ float td_gen_dynamic[];")
    first = prog.emit(f"  for (int i = tid; i < {size}; i += blockDim.x) td_gen_dynamic[i] = a * {c(rng)};")
    prog.spot("off-by-one", first, prog.lines[first].replace(f"i < {size}", f"i <= {size}"),
              ("shared-out-of-bounds",), first, first)
    barrier = prog.emit("  __syncthreads();")
    # another thread's element: an offset that gives every thread back its own (tid + block of a
    # 2 * block + 3 array is thread tid's second element) is moved on, so a dropped barrier breaks something
    def own(offset):
        return all((t + offset) % size % prog.block == t for t in range(prog.block))
    offset = rng.randint(1, size - 1) if size > 1 else 0
    for _ in range(size - 1):
        if not own(offset):
            break
        offset = offset % (size - 1) + 1
    reader = f"(tid + {offset}) % {size}" if size > 1 else "0"
    last = prog.emit(f"  a = a * 0.5f + td_gen_dynamic[{reader}];")
    if not own(offset):  # (a one-thread block reads only its own elements: no barrier to drop)
        prog.spot("drop-barrier", barrier, "  // (the mutant dropped this barrier)", RACE_KINDS, first, last)
    squash(prog)
    prog.features.append("dynamic-shared")


def warp_exchange(prog, rng, budget):
    """Lanes of a warp exchange values through shared memory, ordered by __syncwarp() alone."""
    name = f"s{budget.shared_arrays}"
    budget.shared_arrays += 1
    first = prog.emit(f"  __shared__ float {name}[{prog.block}];")
    prog.emit(f"  {name}[tid] = a;")
    barrier = prog.emit("  __syncwarp();")
    last = prog.emit(f"  a = a * 0.5f + {name}[tid ^ {rng.randint(1, 31)}] * {c(rng)};")
    prog.spot("drop-barrier", barrier, "  // (the mutant dropped this __syncwarp)", RACE_KINDS, first, last)
    squash(prog)
    prog.features.append("warp-exchange")


def constant_memory(prog, rng, budget):
    size = rng.randint(1, 9)
    name = f"coeff{len(prog.globals_)}"
    values = ", ".join(c(rng) for _ in range(size))
    prog.globals_.append(f"__constant__ float {name}[{size}] = {{{values}}};")
    prog.emit(f"  a = fmaf(a, {name}[tid % {size}], xv * 0.25f);")
    squash(prog)
    prog.features.append("constant-memory")


def vector_load(prog, rng, budget):
    if rng.random() < 0.5:
        prog.emit("  if (gid < n / 4) { float4 v = reinterpret_cast<const float4*>(x)[gid];"
                  f" a = a + (v.x - v.w + v.y * v.z) * {c(rng)}; }}")
    else:
        prog.emit("  if (gid < n / 2) { float2 v = reinterpret_cast<const float2*>(x)[gid];"
                  f" a = a + (v.x - v.y) * {c(rng)}; }}")
    squash(prog)
    prog.features.append("vector-load")


def local_memory(prog, rng, budget):
    size = rng.randint(2, 8)
    if rng.random() < 0.5:
        prog.emit(f"  {{ float loc[{size}]; for (int j = 0; j < {size}; ++j) loc[j] = a * (float)j + xv;"
                  f" a = loc[(tid + {rng.randint(0, size - 1)}) % {size}] * 0.5f; }}")
        prog.features.append("local-array")
    else:
        helper = ["struct TdGenPair { float lo, hi; };",
                  "__device__ TdGenPair td_gen_swap(TdGenPair p) { return TdGenPair{p.hi * 0.5f, p.lo}; }"]
        if helper[0] not in prog.globals_:
            prog.globals_.extend(helper)
        prog.emit("  { TdGenPair p = td_gen_swap(TdGenPair{a, xv}); a = p.lo + p.hi; }")
        prog.features.append("aggregate")
    squash(prog)


def device_printf(prog, rng, budget):
    who = rng.randint(0, prog.n - 1)
    prog.emit(f'  if (gid == {who}) printf("gen {prog.seed}: a=%f u=%u\\n", a, u);')
    prog.features.append("printf")


MENU = [float_math, double_math, half_math, bf16_math, int_math, loop, shared_array, shared_array,
        tree_reduction, warp_reduction, atomics, global_scratch, constant_memory, vector_load,
        local_memory, device_printf, dynamic_shared, warp_exchange]
