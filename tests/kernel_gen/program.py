"""A generated kernel as it is written: numbered source lines, the spots a mutant may change, and the
shapes its bundle launches with. The stages (stages.py) write into it; generate.py makes the files."""
from dataclasses import dataclass, field


@dataclass
class MutationSpot:
    """One line a mutant may rewrite, and what the checks must then report."""
    kind: str             # "drop-barrier" or "off-by-one"
    line: int             # 1-based line of the kernel source
    replacement: str      # the line as the mutant writes it
    finding_kinds: tuple  # any of these kinds, reported ...
    lines: tuple          # ... at a line in this closed range, finds the mutant


@dataclass
class Program:
    seed: int
    block: int            # threads per block (1-D)
    grid: int             # blocks (1-D)
    n: int                # elements of every per-thread buffer; n <= grid * block
    iters: int            # the `iters` scalar argument (a loop bound the compiler cannot see)
    headers: str          # "prelude" or "cuda"
    lines: list = field(default_factory=list)
    spots: list = field(default_factory=list)
    features: list = field(default_factory=list)
    globals_: list = field(default_factory=list)   # file-scope declarations (constant arrays, helpers)
    scratch_regions: int = 0                       # per-block regions of the global scratch buffer
    dynamic_floats: int = 0                        # floats of the dynamic shared array the launch gives

    def emit(self, text: str) -> int:
        """Appends a line of the kernel body; returns its index (0-based) in `lines`."""
        self.lines.append(text)
        return len(self.lines) - 1

    def spot(self, kind, index, replacement, finding_kinds, first, last):
        """Records that line `index` may be rewritten; first/last are body line indices of where the
        finding must stand. Turned into source line numbers by `source()`."""
        self.spots.append(MutationSpot(kind, index, replacement, tuple(finding_kinds), (first, last)))

    def source(self, mutant: int | None = None) -> tuple[str, list]:
        """The whole .cu text (with spot `mutant` applied, an index into `spots`), and every spot with
        source line numbers."""
        head = []
        if self.headers == "cuda":
            head += ["#include <cuda_fp16.h>", "#include <cuda_bf16.h>", "#include <cstdio>"]
        head += [f"// tile-doctor kernel generator, seed {self.seed}: valid and race-free by construction",
                 "// (tests/kernel_gen); a mutant changes one line."]
        head += self.globals_
        body = list(self.lines)
        if mutant is not None:
            body[self.spots[mutant].line] = self.spots[mutant].replacement
        first = len(head) + 1  # source line of body line 0
        numbered = [MutationSpot(s.kind, s.line + first, s.replacement, s.finding_kinds,
                                 (s.lines[0] + first, s.lines[1] + first)) for s in self.spots]
        return "\n".join(head + body) + "\n", numbered
