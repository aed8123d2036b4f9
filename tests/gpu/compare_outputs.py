"""Compares the outputs the CPU executor and the GPU wrote for the same bundles and inputs (same seed):
compare_outputs.py CPU_DIR GPU_DIR — each holds one folder per bundle with NAME.npy files. Prints, per
output, the largest absolute and relative difference and how many elements differ beyond the dtype's
tolerance (fp16: 1e-2 relative + 1e-3 absolute; fp32: 1e-5 + 1e-6)."""
import os
import sys

import numpy as np

cpu_dir, gpu_dir = sys.argv[1], sys.argv[2]
worst = 0
for bundle in sorted(os.listdir(cpu_dir)):
    for name in sorted(os.listdir(os.path.join(cpu_dir, bundle))):
        c = np.load(os.path.join(cpu_dir, bundle, name))
        g = np.load(os.path.join(gpu_dir, bundle, name))
        rtol, atol = (1e-2, 1e-3) if c.dtype == np.float16 else (1e-5, 1e-6)
        c64, g64 = c.astype(np.float64), g.astype(np.float64)
        diff = np.abs(c64 - g64)
        bad = int((diff > atol + rtol * np.abs(g64)).sum())
        identical = int((c.view(np.uint8) == g.view(np.uint8)).all())
        rel = float((diff / np.maximum(np.abs(g64), 1e-30)).max())
        print(f"{bundle}/{name}: {c.dtype} {list(c.shape)}  max |cpu-gpu| {diff.max():.3g}  max rel {rel:.3g}  "
              f"beyond tolerance {bad} of {c.size}  bit-identical {bool(identical)}")
        worst = max(worst, bad)
sys.exit(1 if worst else 0)
