"""tile-doctor's capture module for `tile-doctor check kernel.py`.

Runs a user's TileLang script with TileLang's compile step replaced: every kernel the script compiles is
lowered for a chosen CUDA architecture (no GPU or nvcc needed), written out as a tile-doctor bundle, and
handed to a stand-in kernel object. docs/guide-tilelang.md describes what is captured and which script
shapes work.
"""
