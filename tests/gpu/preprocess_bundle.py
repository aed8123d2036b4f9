"""Makes a self-contained copy of a captured TileLang bundle for the GPU machine, which has neither
TileLang's templates nor necessarily the CUDA SDK or a C++ library's headers: the source is preprocessed
here (clang -E, with the flags tile-doctor uses for headers = "cuda") and the copy says headers = "none".
Usage: preprocess_bundle.py BUNDLE_DIR OUT_DIR"""

import os
import re
import subprocess
import sys
import tomllib

bundle_dir, out_dir = sys.argv[1], sys.argv[2]
with open(os.path.join(bundle_dir, "bundle.toml"), "rb") as f:
    kernel = tomllib.load(f)["kernel"]
arch = kernel.get("arch", "sm_80")
sdk = os.environ.get("CUDA_HOME", "/usr/local/cuda")
shim = os.path.join(out_dir, ".shim")
os.makedirs(shim, exist_ok=True)
open(os.path.join(shim, "texture_fetch_functions.h"), "w").write("#pragma once\n")
cmd = ["clang-19", "-E", "-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={arch}", "-nocudalib",
       f"--cuda-path={sdk}", "--cuda-feature=+ptx80", "-std=c++17", "-w", "-Wno-unknown-cuda-version",
       "-isystem", shim, "-isystem", f"{sdk}/include/cccl", f"-D__CUDA_ARCH_LIST__={arch[3:]}0", "-DTILE_DOCTOR=1"]
cmd += [f"-I{d}" for d in kernel.get("include", [])] + kernel.get("flags", [])
cmd += [os.path.join(bundle_dir, kernel["source"]), "-o", os.path.join(out_dir, "kernel.cu")]
subprocess.run(cmd, check=True)
with open(os.path.join(bundle_dir, "bundle.toml")) as f:
    text = f.read()
text = re.sub(r'^(include|flags|line_map) = .*\n', "", text, flags=re.M)
text = text.replace('headers = "cuda"', 'headers = "none"')
with open(os.path.join(out_dir, "bundle.toml"), "w") as f:
    f.write(text)
