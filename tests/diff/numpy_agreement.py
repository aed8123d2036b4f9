"""tile-doctor diff --against FILE.npy agrees with NumPy: the half-accumulating GEMM's saved output against
its product computed here by NumPy in float64 (saved as a .npy of its own precision), every figure of the
JSON report recomputed from the same two arrays.

    numpy_agreement.py TILE_DOCTOR_BINARY
"""
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUNDLE = ROOT / "tests" / "bundles" / "numerics" / "gemm_half_accum.toml"
BINARY = None


class NumpyAgreement(unittest.TestCase):
    def test_against_a_float64_reference_file(self):
        with tempfile.TemporaryDirectory(prefix="td-diff-numpy-") as tmp:
            tmp = pathlib.Path(tmp)
            subprocess.run([BINARY, "check", BUNDLE, "--checks", "launch", "--save-inputs", tmp / "in",
                            "--save-outputs", tmp / "out"], capture_output=True, check=True)
            a, b = np.load(tmp / "in" / "A.npy"), np.load(tmp / "in" / "B.npy")
            result = np.load(tmp / "out" / "C.npy").astype(np.float64)
            reference = a.astype(np.float64) @ b.astype(np.float64)
            np.save(tmp / "reference.npy", reference)
            proc = subprocess.run([BINARY, "diff", BUNDLE, "--checks", "launch", "--against", tmp / "reference.npy",
                                   "--format", "json", "--worst", "3"], capture_output=True, text=True)
            report = json.loads(proc.stdout)
        out = report["outputs"][0]
        err = np.abs(result - reference)
        self.assertEqual(proc.returncode, 1, "PyTorch's float16 rule fails the half accumulator")
        self.assertEqual(out["max_abs_error"]["abs_error"], err.max())
        self.assertEqual(out["max_abs_error"]["coordinates"], list(np.unravel_index(err.argmax(), err.shape)))
        self.assertAlmostEqual(out["rmse"], float(np.sqrt(np.mean(err ** 2))), delta=1e-12 * err.max())
        rel = err / np.abs(reference)
        self.assertAlmostEqual(out["max_rel_error"]["rel_error"], float(rel.max()), delta=1e-12)
        torch_ok = np.isclose(result, reference, rtol=1e-3, atol=1e-5, equal_nan=False)
        self.assertEqual(out["rules"]["torch"]["mismatched"], int((~torch_ok).sum()))
        tilelang_ok = np.isclose(result, reference, rtol=1e-2, atol=1e-3, equal_nan=True)
        self.assertEqual(out["rules"]["tilelang"]["mismatched"], int((~tilelang_ok).sum()))
        self.assertEqual(out["rules"]["tilelang"]["allowed_mismatched"], int(result.size * 0.001))
        self.assertEqual(out["rules"]["tilelang"]["pass"], int((~tilelang_ok).sum()) <= int(result.size * 0.001))
        # ULPs of half at the reference's magnitude, bucketed as the report does
        exponent = np.maximum(np.floor(np.log2(np.abs(reference))), -14)
        ulps = err / np.ldexp(1.0, (exponent - 10).astype(int))
        bounds = [b["at_most"] for b in out["ulp_histogram"]]
        counts = [b["count"] for b in out["ulp_histogram"]]
        expected, lower = [], -1.0
        for bound in bounds:
            upper = np.inf if bound is None else bound
            expected.append(int(((ulps > lower) & (ulps <= upper)).sum()) if bound != 0 else int((ulps == 0).sum()))
            lower = upper
        self.assertEqual(counts, expected)
        worst = sorted(range(err.size), key=lambda i: -err.flat[i])[:3]
        self.assertEqual([w["coordinates"] for w in out["worst"]], [list(np.unravel_index(i, err.shape)) for i in worst])


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
