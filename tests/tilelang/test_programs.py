"""TileLang programs checked with `tile-doctor check kernel.py` on the CPU executor: correct ones report
nothing and their outputs match a reference computed here; planted bugs are reported with the numbers
that matter. Usage: test_programs.py TILE_DOCTOR_BINARY TestCase.test_name"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = None


def check(script, *options, script_args=()):
    """Runs tile-doctor check on a script (or bundle); returns (exit code, JSON report, work folder)."""
    work = tempfile.mkdtemp(prefix="td-tilelang-")
    report = os.path.join(work, "report.json")
    cmd = [TOOL, "check", script, "--format", "json", "--out", report, "--keep", os.path.join(work, "bundles"),
           "--save-inputs", os.path.join(work, "in"), "--save-outputs", os.path.join(work, "out"), *options]
    if script.endswith(".toml"):
        cmd = [c for c in cmd if c != "--keep" and c != os.path.join(work, "bundles")]
    if script_args:
        cmd += ["--", *script_args]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if not os.path.exists(report):
        raise AssertionError(f"no report; exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    with open(report) as f:
        return proc.returncode, json.load(f), work


def kernel_reports(report):
    """Bundle reports have their findings at the top; script reports one per checked launch, then one per
    compiled kernel the script never launched."""
    if "launches" in report:
        return [l["report"] for l in report["launches"] if l["checked"]] + [k["report"] for k in report["kernels"]]
    return [report]


def load(work, kind, folder, name):
    return np.load(os.path.join(work, kind, folder, name + ".npy")).astype(np.float64)


def load_bf16(work, kind, folder, name):
    """bfloat16 buffers travel as their raw 16-bit patterns (numpy has no bfloat16)."""
    bits = np.load(os.path.join(work, kind, folder, name + ".npy")).astype(np.uint32) << 16
    return bits.view(np.float32).astype(np.float64)


def source_of(bundle_dir):
    """The generated source a kept bundle compiles (launch bundles share their kernel's)."""
    with open(os.path.join(bundle_dir, "bundle.toml")) as f:
        path = re.search(r'^source = "(.*)"$', f.read(), re.M).group(1)
    return path if os.path.isabs(path) else os.path.join(bundle_dir, path)


def expect_softmax_output(work):
    """softmax.py's launch: Y is the row softmax of X."""
    x, y = load(work, "in", "launch1", "X"), load(work, "out", "launch1", "Y")
    ref = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, ref / ref.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)


def expect_attention_output(work):
    """flash_attention_fwd.py's launch: Out is softmax(Q K^T / sqrt(d)) V per batch and head."""
    q, kk, v = (load(work, "in", "launch1", n) for n in "QKV")
    out = load(work, "out", "launch1", "Out")
    s = np.einsum("bqhd,bkhd->bhqk", q, kk) / np.sqrt(q.shape[-1])
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    np.testing.assert_allclose(out, np.einsum("bhqk,bkhd->bqhd", p, v), rtol=1e-2, atol=2e-3)


def line_of(script, text):
    with open(os.path.join(HERE, script)) as src:
        return src.read().splitlines().index(text) + 1


class TileLangPrograms(unittest.TestCase):
    def tearDown(self):
        for work in getattr(self, "work", []):
            shutil.rmtree(work, ignore_errors=True)

    def run_clean(self, script, *options, script_args=(), launches=1):
        """A correct script: it runs to its end (its own torch check passes), each launch is checked and
        reports nothing."""
        rc, report, work = check(os.path.join(HERE, script), *options, script_args=script_args)
        self.work = [work]
        self.assertEqual(report["script_exit"]["code"], 0, report["script_exit"])
        self.assertEqual(len(report["launches"]), launches)
        for launch in report["launches"]:
            self.assertNotIn("error", launch)
            self.assertEqual(launch["report"]["findings"], [], "a correct kernel reports nothing")
        self.assertEqual(rc, 0)
        return report, work

    def test_gemm_tensorcore(self):
        report, work = self.run_clean("gemm_tensorcore.py")
        (launch,) = report["launches"]
        self.assertEqual(launch["shapes"], {"A": "float16[256, 256]", "B": "float16[256, 256]", "C": "float16[256, 256]"})
        self.assertTrue(launch["called_at"].endswith("gemm_tensorcore.py:" + str(
            line_of("gemm_tensorcore.py", "    torch.testing.assert_close(kernel(a, b), a @ b, rtol=1e-2, atol=1e-2)"))))
        a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
        np.testing.assert_allclose(c, a @ b, rtol=1e-2, atol=2e-2)
        with open(source_of(os.path.join(work, "bundles", "launch1"))) as src:
            source = src.read()
        self.assertIn("tl::mma_sync", source)
        self.assertIn("tl::ptx_ldmatrix", source)

    # --- numerics (--checks numerics): shadows through mma.sync, drift at the T.gemm line ---
    def test_half_accumulating_gemm_drifts_at_the_gemm_line(self):
        script = "gemm_accum_dtype.py"
        rc, report, work = check(os.path.join(HERE, script), "--checks", "numerics", script_args=("--accum", "float16"))
        self.work = [work]
        self.assertEqual(report["script_exit"]["code"], 0, report["script_exit"])
        (launch,) = report["launches"]
        (finding,) = launch["report"]["findings"]
        self.assertEqual(finding["kind"], "precision-drift")
        gemm_line = line_of(script, "                T.gemm(A_shared, B_shared, C_local)")
        store_line = line_of(script, "            T.copy(C_local, C[by * block_M, bx * block_N])")
        self.assertTrue(finding["location"]["python"].endswith(f"{script}:{gemm_line}"), finding["location"])
        (stored,) = finding["related"]
        self.assertEqual(stored["what"], "stored at")
        self.assertTrue(stored["python"].endswith(f"{script}:{store_line}"), stored)
        self.assertIn("first at iteration", " ".join(finding["notes"]))
        # The drift the finding states agrees with one computed here in fp64 from the launch's own buffers.
        a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
        exact = a @ b
        independent = np.abs(c - exact).max() / np.abs(exact).max()
        stated = float(re.search(r"([0-9.e-]+) from exact arithmetic", finding["message"]).group(1))
        self.assertGreater(independent, 2 ** -9)
        self.assertAlmostEqual(stated, independent, delta=0.1 * independent)
        self.assertEqual(rc, 1)

    def test_diff_of_the_script_against_fp64_names_the_gemm_line(self):
        script = "gemm_accum_dtype.py"
        work = tempfile.mkdtemp(prefix="td-tilelang-diff-")
        self.work = [work]
        proc = subprocess.run([TOOL, "diff", os.path.join(HERE, script), "--against", "fp64", "--format", "json",
                               "--save-inputs", os.path.join(work, "in"), "--save-outputs", os.path.join(work, "out"),
                               "--", "--accum", "float16"], capture_output=True, text=True)
        report = json.loads(proc.stdout)
        self.assertEqual(proc.returncode, 1, proc.stderr[-2000:])
        (launch,) = report["launches"]
        c_diff = next(o for o in launch["outputs"] if o["name"] == "C")
        self.assertFalse(c_diff["rules"]["torch"]["pass"], "PyTorch's float16 rule fails the half accumulator")
        # the errors are those of the launch's output against its product computed here in float64; an
        # mma.sync's shadow sums its 16 products in float on the tensor core, so the reference is exact to
        # about 1e-7 of the values, not to double's rounding
        a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
        exact = a.astype(np.float64) @ b.astype(np.float64)
        err = np.abs(c.astype(np.float64) - exact)
        self.assertAlmostEqual(c_diff["max_abs_error"]["abs_error"], err.max(), delta=1e-7 * np.abs(exact).max())
        findings = report["run"]["launches"][0]["report"]["findings"]
        gemm_line = line_of(script, "                T.gemm(A_shared, B_shared, C_local)")
        self.assertTrue(any(f["kind"] == "precision-drift" and f["location"]["python"].endswith(f"{script}:{gemm_line}")
                            for f in findings), findings)

    def test_diff_of_a_softmax_between_metax_and_nvidia(self):
        # each run lowered for its own target (the HIP stand-in at wave 64, CUDA at 32), the script seeded the same
        proc = subprocess.run([TOOL, "diff", os.path.join(HERE, "softmax.py"), "--target", "metax-c500", "--against",
                               "nvidia-h200", "--checks", "launch", "--format", "json"], capture_output=True, text=True)
        report = json.loads(proc.stdout)
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        (launch,) = report["launches"]
        self.assertNotIn("error", launch)
        y = next(o for o in launch["outputs"] if o["name"] == "Y")
        self.assertTrue(y["rules"]["torch"]["pass"], y["rules"]["torch"])
        self.assertLessEqual(y["max_rel_error"]["rel_error"] or 0, 1e-6, "within float rounding")

    def test_float_accumulating_gemm_is_clean_under_numerics(self):
        report, work = self.run_clean("gemm_accum_dtype.py", "--checks", "numerics")
        a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
        exact = a @ b
        self.assertLessEqual(np.abs(c - exact).max() / np.abs(exact).max(), 2 ** -11, "one rounding to half")

    def test_correct_programs_are_quiet_under_numerics(self):
        """The correct programs of this folder with the numerics family on: no drift, overflow or NaN (mma
        shadows in the GEMMs, exp/max/sum shadows in softmax and attention, bf16 and half conversions)."""
        for script, args, launches in (("gemm_tensorcore.py", (), 1), ("flash_attention_fwd.py", (), 1),
                                       ("autotuned_gemm.py", ("--given",), 1), ("softmax.py", (), 1),
                                       ("bf16_layernorm.py", (), 1), ("half_gemv.py", (), 1),
                                       ("three_kernels.py", (), 6)):
            with self.subTest(script=script):
                self.run_clean(script, "--checks", "numerics", script_args=args, launches=launches)

    # --- MetaX (wave 64): lowered by TileLang's HIP backend, the stand-in for MACA, and run at wave 64 ---
    def run_on_metax(self, script, *options, script_args=(), launches=1):
        report, work = self.run_clean(script, "--target", "metax-c500", *options, script_args=script_args,
                                      launches=launches)
        self.assertTrue(report["arch"].startswith("HIP gfx950, the wave-64 stand-in"), report["arch"])
        with open(source_of(os.path.join(work, "bundles", "launch1"))) as src:
            self.assertIn("#include <hip/hip_runtime.h>", src.read())
        return report, work

    def test_metax_pipelined_gemm_through_mfma(self):
        report, work = self.run_on_metax("gemm_pipelined.py")
        a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
        np.testing.assert_allclose(c, a @ b, rtol=1e-2, atol=2e-2)
        with open(source_of(os.path.join(work, "bundles", "launch1"))) as src:
            source = src.read()
        self.assertIn("__builtin_amdgcn_mfma_f32_16x16x16f16", source)
        # MACA's pipeline, run: three stages of 128x32 + 32x128 half tiles, refilled by asynchronous copies
        launch = kernel_reports(report)[0]["launch"]
        self.assertEqual(launch["dynamic_shared_bytes"], 3 * (128 * 32 + 32 * 128) * 2)
        self.assertNotIn("target_dynamic_shared_bytes", launch)
        self.assertIn("tl::cp_async_gs<16>", source)
        self.assertRegex(source, r"tl::cp_async_wait<[12]>")
        self.assertEqual(report["notes"], [])

    def test_race_between_pipeline_stages_on_both_targets(self):
        """A persistent GEMM's next tile refills the stage its last K step still reads (TileLang's stream-K
        bug): found on nvidia and on metax, where MACA's pipeline keeps CUDA's stages; with the barrier
        between tiles the same program is clean and right on both."""
        for target in ("nvidia-h200", "metax-c500"):
            with self.subTest(target=target):
                rc, report, work = check(os.path.join(HERE, "persistent_gemm.py"), "--target", target)
                self.addCleanup(shutil.rmtree, work, True)
                self.assertEqual(rc, 1)
                findings = kernel_reports(report)[0]["findings"]
                self.assertEqual({f["kind"] for f in findings}, {"shared-race-war"})
                for f in findings:  # the next tile's copies into A_shared and B_shared
                    self.assertRegex(f["location"]["python"], r"persistent_gemm\.py:2[78]$")
                report, work = self.run_clean("persistent_gemm.py", "--target", target,
                                              script_args=["--sync-between-tiles"])
                self.addCleanup(shutil.rmtree, work, True)
                a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
                np.testing.assert_allclose(c, a @ b, rtol=1e-2, atol=2e-2)

    def test_metax_row_sums_through_reduce_sum(self):
        report, work = self.run_on_metax("eager_rowsum.py", launches=2)
        x, y = load(work, "in", "launch1", "X"), load(work, "out", "launch1", "Y")
        np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-5, atol=1e-4)

    def test_metax_softmax(self):
        report, work = self.run_on_metax("softmax.py")
        expect_softmax_output(work)

    def test_rmsnorm_on_both_targets(self):
        for target in ("nvidia-h200", "metax-c500"):
            report, work = (self.run_on_metax("rmsnorm.py") if target == "metax-c500"
                            else self.run_clean("rmsnorm.py"))
            x, w, y = load(work, "in", "launch1", "X"), load(work, "in", "launch1", "W"), load(work, "out", "launch1", "Y")
            ref = x / np.sqrt((x * x).mean(axis=1, keepdims=True) + 1e-6) * w
            np.testing.assert_allclose(y, ref, rtol=1e-2, atol=1e-2, err_msg=target)

    def test_metax_flash_attention_forward(self):
        report, work = self.run_on_metax("flash_attention_fwd.py")
        expect_attention_output(work)

    def test_maca_lowering_without_tilelang_metax_is_a_clear_error(self):
        rc, report, work = check(os.path.join(HERE, "softmax.py"), "--target", "metax-c500", "--lowering", "maca")
        self.work = [work]
        self.assertEqual(rc, 2)
        self.assertEqual((report["error"]["kind"], report["error"]["line"]), ("bad-input", 28), report)
        self.assertIn("--lowering maca needs tilelang-metax", report["error"]["message"])
        self.assertTrue(report["error"]["file"].endswith("softmax.py"), report)

    def test_metax_alloc_barrier_is_target_unsupported(self):
        rc, report, work = check(os.path.join(HERE, "alloc_barrier.py"), "--target", "metax-c500")
        self.work = [work]
        self.assertEqual(rc, 1)
        self.assertIn("LaunchFailed", report["script_exit"]["why"])
        r = kernel_reports(report)[0]
        self.assertFalse(r["launch"]["launched"])
        (f,) = r["findings"]
        self.assertEqual(f["kind"], "target-unsupported")
        self.assertIn("mbarrier", f["message"])
        self.assertTrue(any("T.alloc_barrier fails" in n for n in f["notes"]), f["notes"])

    def test_gemm_pipelined_sampled_blocks(self):
        # 4x4 blocks of 128x128; three run (a corner, an inner block, the far corner): only those are compared.
        # The others keep torch.empty's memory, so the script's own assert_close fails, and the report says so.
        rc, report, work = check(os.path.join(HERE, "gemm_pipelined.py"), "--blocks", "0,5,15")
        self.work = [work]
        self.assertEqual(rc, 5, "the script failed, no finding")
        self.assertIn("AssertionError", report["script_exit"]["why"])
        r = kernel_reports(report)[0]
        self.assertEqual(r["findings"], [])
        self.assertEqual((r["launch"]["blocks_run"], r["launch"]["blocks_total"]), (3, 16))
        a, b, c = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B"), load(work, "out", "launch1", "C")
        ref = a @ b
        for block in (0, 5, 15):
            by, bx = divmod(block, 4)
            rows, cols = slice(by * 128, by * 128 + 128), slice(bx * 128, bx * 128 + 128)
            np.testing.assert_allclose(c[rows, cols], ref[rows, cols], rtol=1e-2, atol=2e-2, err_msg=f"block {block}")
        with open(source_of(os.path.join(work, "bundles", "launch1"))) as src:
            source = src.read()
        self.assertIn("tl::cp_async_gs", source)
        self.assertIn("tl::cp_async_wait", source)

    def test_softmax(self):
        report, work = self.run_clean("softmax.py")
        expect_softmax_output(work)

    def test_flash_attention_forward(self):
        report, work = self.run_clean("flash_attention_fwd.py")
        expect_attention_output(work)

    def test_three_kernels_on_cuda_tensors(self):
        # scale -> add_bias -> relu, twice: the second step repeats each kernel with the same shapes
        report, work = self.run_clean("three_kernels.py", launches=6)
        self.assertEqual([l["checked"] for l in report["launches"]], [True] * 3 + [False] * 3)
        self.assertEqual([l.get("same_as") for l in report["launches"][3:]], [1, 2, 3])
        self.assertTrue(report["host_device"], "no GPU here: the CUDA tensors lived in host memory")
        x, w = load(work, "in", "launch1", "X"), load(work, "in", "launch1", "W")
        y = load(work, "out", "launch1", "Y")
        np.testing.assert_allclose(y, x * w, rtol=1e-6)
        np.testing.assert_allclose(load(work, "in", "launch2", "Y"), y, err_msg="the second kernel consumed the first's output")
        rc, report, work = check(os.path.join(HERE, "three_kernels.py"), "--launches", "all")
        self.work.append(work)
        self.assertEqual((rc, [l["checked"] for l in report["launches"]]), (0, [True] * 6))
        # the script's own options are its own, even where they look like the capture's (--seed, --m)
        rc, report, work = check(os.path.join(HERE, "three_kernels.py"), script_args=["--seed", "3", "--m", "2"])
        self.work.append(work)
        self.assertEqual((rc, report["script_exit"]["code"]), (0, 0))
        self.assertEqual(report["launches"][0]["shapes"]["X"], "float32[2, 300]")

    def test_three_kernels_second_writes_past_its_output(self):
        # One row: the last block's overrun leaves Z and is dropped, so the script's own check passes
        # whatever the block order (with more rows it lands in the next row: see the test below).
        rc, report, work = check(os.path.join(HERE, "three_kernels.py"), script_args=["--buggy-bias", "--m", "1"])
        self.work = [work]
        self.assertEqual(rc, 1)
        self.assertEqual(report["script_exit"]["code"], 0, "the script still finishes")
        self.assertEqual(len(report["launches"]), 6)
        first, second, third = (l["report"]["findings"] for l in report["launches"][:3])
        self.assertEqual((first, third), ([], []))
        oob = [f for f in second if f["kind"] == "global-out-of-bounds"]
        write = next(f for f in oob if f["access"] == "write")
        self.assertEqual((write["buffer"], write["coordinates"]), ("Z", [1, 0]))
        kernel_line = line_of("three_kernels.py", "                    Z[by, bx * BLOCK + i] = Y[by, bx * BLOCK + i] + Bias[by]")
        self.assertTrue(write["location"]["python"].endswith(f"three_kernels.py:{kernel_line}"), write["location"])
        call_line = line_of("three_kernels.py", "    z = add_bias(m, n, guarded)(y, bias)")
        self.assertTrue(report["launches"][1]["called_at"].endswith(f"three_kernels.py:{call_line}"))
        self.assertIn(f"in the launch at {report['launches'][1]['called_at']}", write["notes"])
        self.assertEqual({f["buffer"] for f in oob}, {"Y", "Z"})

    def test_three_kernels_overrun_into_the_next_row_races(self):
        # Four rows: a row's last block writes the next row's first 84 elements, which that row's first
        # block writes too. Which value stays depends on the block order (on a GPU as on the CPU
        # executor's worker threads), so the script's own check may fail: only the findings are fixed.
        rc, report, work = check(os.path.join(HERE, "three_kernels.py"), "--launches", "first",
                                 script_args=["--buggy-bias"])
        self.work = [work]
        self.assertEqual(rc, 1)
        second = report["launches"][1]["report"]["findings"]
        races = [f for f in second if f["kind"] == "global-race-waw"]
        self.assertEqual([(f["buffer"], f["count"]) for f in races], [("Z", 252)])
        # the element named is one of the 84 at the start of rows 1-3 that two blocks write (which pair is
        # named depends on the schedule)
        row, column = races[0]["coordinates"]
        self.assertTrue(1 <= row <= 3 and 0 <= column < 84, races[0]["coordinates"])
        past = [(f["buffer"], f["access"], f["coordinates"]) for f in second if f["kind"] == "global-out-of-bounds"]
        self.assertEqual(sorted(past), [("Y", "read", [4, 0]), ("Z", "write", [4, 0])])

    def test_autotune_with_every_tunable_given(self):
        report, work = self.run_clean("autotuned_gemm.py", script_args=["--given"])
        self.assertEqual(report["launches"][0]["report"]["launch"]["grid"], [4, 4, 1], "block 64x64 as given")
        self.assertEqual(report["notes"], [])

    def test_autotune_takes_the_first_configuration_and_says_so(self):
        report, work = self.run_clean("autotuned_gemm.py")
        self.assertEqual(report["launches"][0]["report"]["launch"]["grid"], [4, 4, 1])
        (note,) = report["notes"]
        self.assertIn("took the first of 4 configurations", note["text"])
        self.assertIn("'block_M': 64", note["text"])
        rc, report, work = check(os.path.join(HERE, "autotuned_gemm.py"), "--autotune", "all")
        self.work.append(work)
        self.assertEqual(rc, 0)
        grids = [l["report"]["launch"]["grid"][:2] for l in report["launches"] if l["checked"]]
        self.assertEqual(grids, [[4, 4], [2, 4], [4, 2], [2, 2]], "every configuration checked with TileLang's inputs")

    def test_eager_jit_with_t_empty_output(self):
        report, work = self.run_clean("eager_rowsum.py", launches=2)
        self.assertEqual([l["shapes"]["X"] for l in report["launches"]], ["float16[64, 256]", "float16[32, 256]"])
        x, y = load(work, "in", "launch2", "X"), load(work, "out", "launch2", "Y")
        np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-3, atol=1e-3)

    def test_repeated_check_reuses_lowering_and_compiled_module(self):
        cache = tempfile.mkdtemp(prefix="td-cache-")
        self.work = [cache]
        env = dict(os.environ, TILE_DOCTOR_CACHE=cache)

        def run_and_list():
            report = os.path.join(cache, "report.json")
            proc = subprocess.run([TOOL, "check", os.path.join(HERE, "gemm_tensorcore.py"), "--format", "json",
                                   "--out", report], capture_output=True, text=True, env=env)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            with open(report) as f:
                result = json.load(f)
            entries = {d: sorted(os.listdir(os.path.join(cache, d))) for d in ("lowered", "modules", "sources", "objects")}
            return result, entries

        first, entries = run_and_list()
        self.assertEqual((len(entries["lowered"]), len(entries["sources"])), (1, 1))
        self.assertEqual(len([e for e in entries["modules"] if e.endswith(".bc")]), 3,
                         "the kernel, the checks' device runtime and the CPU libdevice")
        self.assertEqual(len(entries["objects"]), 1, "the instrumented kernel's host object code")
        again, entries_again = run_and_list()
        self.assertEqual(entries_again, entries, "the second check wrote nothing new: it was served, object code too")
        self.assertEqual(again["launches"][0]["report"]["findings"], [])
        self.assertEqual(again["script_exit"]["code"], 0)

    def test_edited_or_moved_script_is_lowered_again(self):
        # The lowering cache's key (the kernel's TVMScript) has no source lines: lines added above the kernel,
        # or the script in another folder, must not be served the earlier lowering's line map
        cache, first_dir, second_dir = (tempfile.mkdtemp(prefix=p) for p in ("td-cache-", "td-a-", "td-b-"))
        self.work = [cache, first_dir, second_dir]
        env = dict(os.environ, TILE_DOCTOR_CACHE=cache)
        with open(os.path.join(HERE, "pooled_overrun.py")) as f:
            text = f.read()

        def finding_at(script):
            report = os.path.join(cache, "report.json")
            proc = subprocess.run([TOOL, "check", script, "--format", "json", "--out", report],
                                  capture_output=True, text=True, env=env)
            self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
            with open(report) as f:
                return json.load(f)["launches"][1]["report"]["findings"][0]["location"]["python"]

        script = os.path.join(first_dir, "overrun.py")
        with open(script, "w") as f:
            f.write(text)
        line = text.splitlines().index("                C[bx * BLOCK + i] = B[bx * BLOCK + i] + 1.0") + 1
        self.assertTrue(finding_at(script).endswith(f"overrun.py:{line}"))
        with open(script, "w") as f:
            f.write("# one\n# two\n" + text)
        self.assertTrue(finding_at(script).endswith(f"overrun.py:{line + 2}"), "the edited script's line")
        moved = os.path.join(second_dir, "overrun.py")
        os.rename(script, moved)
        self.assertTrue(finding_at(moved).endswith(f"{os.path.basename(second_dir)}/overrun.py:{line + 2}"),
                        "the moved script's path")

    def test_overrun_inside_the_allocators_block(self):
        # 24 floats past 1000-element tensors: inside the caching allocator's block on a GPU, outside the tensor
        rc, report, work = check(os.path.join(HERE, "pooled_overrun.py"))
        self.work = [work]
        self.assertEqual(rc, 1)
        first, second = (l["report"]["findings"] for l in report["launches"])
        self.assertEqual(first, [])
        got = {(f["buffer"], f["access"], tuple(f["coordinates"]), f["count"]) for f in second}
        self.assertEqual(got, {("C", "write", (1000,), 24), ("B", "read", (1000,), 24)})

    def test_alloc_global_workspace_shared_by_two_kernels(self):
        report, work = self.run_clean("workspace_two_kernels.py", launches=2)
        parts = [(l["launch"], l["part"], l["parts"], l["entry"]) for l in report["launches"]]
        self.assertEqual(parts, [(1, 0, 2, "main_kernel"), (1, 1, 2, "main_kernel_1")])
        self.assertEqual(report["launches"][0]["shapes"]["partial"], "float32[8, 4]")
        x = load(work, "in", "launch1", "X")
        partial_in = load(work, "in", "launch1_1", "partial")  # what the first kernel left in the workspace
        # float32 sums of 128 (then 512) normal values, in another order than numpy's: a near-zero sum
        # needs an absolute tolerance (float32's rounding over the terms, not relative to the result)
        np.testing.assert_allclose(partial_in, x.reshape(8, 4, 128).sum(axis=2), rtol=1e-5, atol=1e-4)
        np.testing.assert_allclose(load(work, "out", "launch1_1", "Y"), x.sum(axis=1), rtol=1e-5, atol=1e-4)

    def test_half_gemv_with_the_sdks_conversions(self):
        report, work = self.run_clean("half_gemv.py")
        w, x = load(work, "in", "launch1", "W"), load(work, "in", "launch1", "x")
        np.testing.assert_allclose(load(work, "out", "launch1", "y"), w @ x, rtol=1e-2, atol=2e-2)

    def test_half_arithmetic_through_cutlass_half_t(self):
        report, work = self.run_clean("half_residual_scale.py", launches=2)
        self.assertEqual([l["checked"] for l in report["launches"]], [True, True], "two scales: two kernels")
        x, r, out = (load(work, kind, "launch2", n).astype(np.float16) for kind, n in (("in", "X"), ("in", "R"), ("out", "Out")))
        # one rounding per operation, as mul.f16 and add.f16 do: numpy's float16 arithmetic rounds the same way
        want = x * np.float16(1.75) + r
        np.testing.assert_array_equal(out.view(np.uint16), want.view(np.uint16))

    def test_views_over_parameters(self):
        report, work = self.run_clean("flat_view.py")
        self.assertEqual(report["launches"][0]["shapes"], {"X": "float32[3, 10, 64]", "Y": "float32[3, 10, 64]"})
        np.testing.assert_array_equal(load(work, "out", "launch1", "Y"), 2 * load(work, "in", "launch1", "X"))
        rc, report, work = check(os.path.join(HERE, "flat_view.py"), script_args=["--padded-view"])
        self.work.append(work)
        self.assertEqual((rc, report["script_exit"]["code"]), (1, 0))
        found = {(f["buffer"], f["access"], tuple(f["coordinates"])) for f in report["launches"][0]["report"]["findings"]}
        self.assertEqual(found, {("X", "read", (3, 0, 0)), ("Y", "write", (3, 0, 0))}, "past the tensors, not the views")

    def test_strided_views_keep_their_storage(self):
        """Column slices passed to T.StridedTensor: the kernel indexes with the wide tensor's row pitch, so
        the launch holds the storage (from the view's first element to the storage's end), not a dense copy."""
        report, work = self.run_clean("strided_view.py", launches=2)
        self.assertEqual(report["launches"][1]["shapes"]["A"], "float32[64, 64]", "the view the script passed")
        left, right = load(work, "in", "launch1", "A"), load(work, "in", "launch2", "A")
        self.assertEqual((left.shape, right.shape), ((64 * 160,), (64 * 160 - 96,)), "storage, in storage order")
        for launch, storage in (("launch1", left), ("launch2", right)):
            view = np.lib.stride_tricks.as_strided(storage, (64, 64), (160 * 8, 8))
            np.testing.assert_array_equal(load(work, "out", launch, "B"), 2 * view)
        rc, report, work = check(os.path.join(HERE, "strided_view.py"), script_args=["--read-past-view"])
        self.work.append(work)
        self.assertEqual((rc, report["script_exit"]["code"]), (1, 0))
        self.assertEqual(report["launches"][0]["report"]["findings"], [])
        found = [(f["kind"], f["buffer"], f["access"], tuple(f["coordinates"]), f["count"])
                 for f in report["launches"][1]["report"]["findings"]]
        # column 64 of a 64-wide view: the next row's first element (storage) except after the last row
        self.assertEqual(found, [("global-out-of-bounds", "A", "read", (63, 64), 1)])

    def test_written_like_tilelangs_own_tests(self):
        """pytest functions marked requires_cuda, a JITKernel built directly, a dynamic stride, a kernel
        compiled for a symbolic size and never launched: every test runs (none skipped for want of a GPU),
        and the unlaunched kernel is a note, not a failed run."""
        rc, report, work = check(os.path.join(HERE, "test_suite_style.py"), script_args=["-q", "-p", "no:cacheprovider"])
        self.work = [work]
        self.assertEqual((rc, report["script_exit"]["code"]), (0, 0), report["script_exit"])
        self.assertEqual(len(report["launches"]), 2, "both GPU tests ran: requires_cuda found the device")
        for launch in report["launches"]:
            self.assertEqual(launch["report"]["findings"], [])
        self.assertEqual(report["kernels"], [])
        (note,) = [n for n in report["notes"] if "not checked" in n["text"]]
        self.assertIn("symbolic dimensions without a value (M)", note["text"])
        self.assertRegex(note["where"], r"test_suite_style\.py:\d+$")
        a, b = load(work, "in", "launch1", "A"), load(work, "out", "launch1", "B")
        view = np.lib.stride_tricks.as_strided(a, (32, 48), (96 * 8, 8))
        np.testing.assert_array_equal(b, (np.float32(3) * view.astype(np.float32)).astype(np.float64))

    def test_a_failed_capture_leaves_no_trace_in_the_next_kernel(self):
        """A kernel that cannot become a bundle (a uint16 buffer) fails its compile; a script (a test runner)
        that goes on compiles the next kernel, of the same entry name, into a folder of its own: its own
        source runs, and the report names the kernel that was not checked."""
        work = tempfile.mkdtemp(prefix="td-tilelang-")
        self.work = [work]
        script = os.path.join(work, "two_compiles.py")
        with open(script, "w") as f:
            f.write(textwrap.dedent("""\
                import tilelang, torch
                import tilelang.language as T

                def copy(dtype, scale):
                    @T.prim_func
                    def main(A: T.Tensor((256,), dtype), B: T.Tensor((256,), dtype)):
                        with T.Kernel(2, threads=128) as bx:
                            for i in T.Parallel(128):
                                B[bx * 128 + i] = A[bx * 128 + i] * scale
                    return main

                try:
                    tilelang.compile(copy("uint16", 2), out_idx=[1])
                except Exception as e:
                    print("first compile failed:", type(e).__name__)
                kernel = tilelang.compile(copy("float32", 3.0), out_idx=[1])
                a = torch.randn(256, device="cuda")
                torch.testing.assert_close(kernel(a), a * 3)
                """))
        rc, report, _ = check(script)
        self.assertEqual((rc, report["script_exit"]["code"]), (0, 0), report["script_exit"])
        self.assertEqual(report["launches"][0]["report"]["findings"], [])
        (note,) = report["notes"]
        self.assertRegex(note["where"], r"two_compiles\.py:13$")
        self.assertIn("was not checked", note["text"])
        self.assertIn("uint16", note["text"])

    def test_int4_weights_packed_two_to_a_byte(self):
        report, work = self.run_clean("int4_dequant.py")
        self.assertEqual(report["launches"][0]["shapes"]["W"], "int8[16, 32]", "the caller's packed tensor")
        packed = np.load(os.path.join(work, "in", "launch1", "W.npy")).astype(np.uint8)
        low, high = (packed & 0xF).astype(np.int16), (packed >> 4).astype(np.int16)
        w = np.empty((16, 64), np.int16)
        w[:, ::2], w[:, 1::2] = np.where(low > 7, low - 16, low), np.where(high > 7, high - 16, high)
        scale = load(work, "in", "launch1", "scale").astype(np.float16)
        want = w.astype(np.float16) * scale[:, None]
        np.testing.assert_array_equal(load(work, "out", "launch1", "out").astype(np.float16), want)

    def test_bf16_layernorm_with_the_sdks_conversions(self):
        report, work = self.run_clean("bf16_layernorm.py")
        self.assertEqual(report["launches"][0]["shapes"]["X"], "bfloat16[16, 256]")
        x, g, b = (load_bf16(work, "in", "launch1", n) for n in ("X", "gamma", "beta"))
        ref = (x - x.mean(axis=1, keepdims=True)) / np.sqrt(x.var(axis=1, keepdims=True) + 1e-5) * g + b
        np.testing.assert_allclose(load_bf16(work, "out", "launch1", "Y"), ref, rtol=2e-2, atol=3e-2)

    def test_int8_gemm_on_the_tensor_core_emulation(self):
        report, work = self.run_clean("int8_gemm.py")
        a, b = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B")
        np.testing.assert_array_equal(load(work, "out", "launch1", "C"), a @ b.T, "integer sums are exact")
        with open(source_of(os.path.join(work, "bundles", "launch1"))) as src:
            self.assertIn("tl::mma_sync", src.read())

    def test_int64_symbolic_length_in_the_grid(self):
        report, work = self.run_clean("int64_extent.py")
        self.assertEqual(report["launches"][0]["shapes"]["x"], "bfloat16[1000]")
        with open(os.path.join(work, "bundles", "launch1", "bundle.toml")) as manifest:
            self.assertIn('"(n + 511) / 512"', manifest.read(), "TVM's T.int64 literals become plain numbers")

    def test_tf32_gemm_buffers_are_captured(self):
        report, work = self.run_clean("gemm_tf32.py")
        self.assertEqual(report["launches"][0]["shapes"]["A"], "float32[64, 64]")
        a, b = load(work, "in", "launch1", "A"), load(work, "in", "launch1", "B")
        truncate = lambda x: (x.astype(np.float32).view(np.int32) & ~0x1FFF).view(np.float32).astype(np.float64)
        np.testing.assert_allclose(load(work, "out", "launch1", "C"), truncate(a) @ truncate(b), rtol=1e-5, atol=1e-5)
        with open(source_of(os.path.join(work, "bundles", "launch1"))) as src:
            self.assertIn("kTensorFloat32", src.read(), "TileLang's TF32 tensor-core form, which the CPU executor runs")

    def test_fp8_gemm_for_sm89(self):
        import torch
        report, work = self.run_clean("fp8_gemm.py", "--tilelang-arch", "sm_89")
        self.assertEqual(report["launches"][0]["shapes"]["A"], "float8_e4m3fn[128, 128]")

        def fp8(kind, name):  # fp8 buffers travel as their raw bytes
            raw = np.load(os.path.join(work, kind, "launch1", name + ".npy"))
            return torch.from_numpy(raw).view(torch.float8_e4m3fn).double().numpy()

        np.testing.assert_allclose(load(work, "out", "launch1", "C"), fp8("in", "A") @ fp8("in", "B").T,
                                   rtol=1e-5, atol=1e-4)
        proc = subprocess.run([TOOL, "check", os.path.join(HERE, "fp8_gemm.py")], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 6, "below sm_89 the fp8 mma is a trap the CPU executor will not run")
        self.assertIn("try a newer --tilelang-arch", proc.stdout)

    def test_bisect_shape_through_a_script_argument(self):
        """bisect-shape over the script's own --stages: MACA's pipeline keeps a 16 KiB stage of A and B tiles
        per T.Pipelined stage, so 4 stages fit metax-c500's 65536 bytes and 5 do not."""
        work = tempfile.mkdtemp(prefix="td-tilelang-bisect-")
        self.work = [work]
        out = os.path.join(work, "bisect.json")
        proc = subprocess.run([TOOL, "bisect-shape", os.path.join(HERE, "gemm_pipelined.py"), "--axis", "S=2:16",
                               "--target", "metax-c500", "--blocks", "sample:2", "--no-cache", "--format", "json",
                               "--out", out, "--", "--shape", "256", "256", "128", "--stages", "{S}"],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 1, proc.stderr[-3000:])
        with open(out) as f:
            report = json.load(f)
        t = report["threshold"]
        self.assertEqual((t["passing"], t["failing"]), ({"S": 4}, {"S": 5}))
        self.assertEqual(t["failure"]["kind"], "shared-memory-limit")
        self.assertRegex(t["failure"]["place"], r"gemm_pipelined\.py:\d+$")
        self.assertTrue(any("65536 -> 81920 bytes" in c["text"] for c in t["changes"]), t["changes"])
        self.assertLessEqual(report["probes_run"], 4 + 4)  # ceil(log2(15)) + 4
        # every probe ran the script with its own --stages, in a process of its own
        self.assertEqual(sorted(p["command"][-1] for p in report["probes"]),
                         sorted(str(p["shape"]["S"]) for p in report["probes"]))
        with open(report["repro"]["path"]) as f:
            self.assertIn("--stages 5", f.read())

    def test_profile_of_the_gemm_on_metax_and_nvidia(self):
        """profile kernel.py: the script's launch on each target, lowered for it; shared memory equals the two
        T.alloc_shared tiles (64x32 + 32x64 half = 8192 bytes); occupancy by hand from the profiles."""
        import jsonschema
        proc = subprocess.run([TOOL, "profile", os.path.join(HERE, "gemm_tensorcore.py"), "--target", "metax-c500",
                               "--target", "nvidia-h200", "--format", "json"], capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        report = json.loads(proc.stdout)
        with open(os.path.join(HERE, "..", "..", "docs", "report-schema.json")) as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/profileScriptReport"}).validate(report)
        by_target = {l["profile"]["targets"][0]["target"]: l["profile"] for l in report["launches"]}
        self.assertEqual(set(by_target), {"metax-c500", "nvidia-h200"})
        for target, p in by_target.items():
            self.assertEqual(p["shared"]["static_bytes"] + p["shared"]["dynamic_bytes"], 64 * 32 * 2 + 32 * 64 * 2, target)
            self.assertEqual(p["threads_per_block"], 128)
        metax = by_target["metax-c500"]["targets"][0]
        # 128 threads = 2 waves of 64; 65536 / 8192 = 8 blocks by shared memory, 32 / 2 = 16 by waves
        self.assertEqual((metax["blocks_per_sm"], metax["limiting"]), (8, ["shared memory"]))
        self.assertIsNone(metax["registers_per_thread"])
        h200 = by_target["nvidia-h200"]
        regs = h200["registers"].get("per_thread")
        if regs:  # ptxas here: 65536 / roundup(32 R, 256) / 4 warps, against 16 by warps and 25 by shared memory
            self.assertIn("ptxas", h200["registers"]["source"])
            by_regs = 65536 // ((regs * 32 + 255) // 256 * 256) // 4
            self.assertEqual(h200["targets"][0]["blocks_per_sm"], min(16, 25, 32, by_regs))

    def test_memory_peak_of_a_fused_intermediate_and_of_its_split(self):
        """profile kernel.py's memory timeline: the fused intermediate H (1024 x 512 floats) makes the peak and is
        named with its line; the split version frees each half before the next and peaks 1 MiB lower."""
        import jsonschema
        with open(os.path.join(HERE, "..", "..", "docs", "report-schema.json")) as f:
            schema = json.load(f)
        validator = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/profileScriptReport"})
        script = os.path.join(HERE, "fused_intermediate.py")
        peaks = {}
        work = tempfile.mkdtemp(prefix="td-memory-")
        self.addCleanup(shutil.rmtree, work, True)
        png, viz = os.path.join(work, "timeline.png"), os.path.join(work, "snapshot.pickle")
        for args in ([], ["--split"]):
            images = ["--timeline-png", png, "--memory-viz", viz] if not args else []
            proc = subprocess.run([TOOL, "profile", script, "--target", "metax-c500", "--format", "json", *images, "--",
                                   *args], capture_output=True, text=True, timeout=600)
            self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
            report = json.loads(proc.stdout)
            validator.validate(report)
            memory = report["memory"]
            peaks[tuple(args)] = memory["peak_bytes"]
            largest = memory["alive_at_peak"][0]
            with open(script) as src:
                wanted = "h = torch.empty(half" if args else "h = torch.empty(ROWS"
                line = next(i + 1 for i, text in enumerate(src.read().splitlines()) if wanted in text)
            self.assertTrue(largest["where"].endswith(f"fused_intermediate.py:{line}"), largest)
            self.assertEqual(largest["bytes"], (512 if args else 1024) * 512 * 4)
            self.assertEqual(memory["end_bytes"], 0)
            if not args:
                self.assertEqual(memory["timeline_png"], {"path": png})
                with open(png, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
                self.assertEqual(memory["memory_viz"], {"path": viz, "holds": "tensors"})
                self.check_memory_viz_snapshot(viz, memory["peak_bytes"], largest["where"])
        self.assertEqual(peaks[()] - peaks[("--split",)], 512 * 512 * 4)  # half of H

    def check_memory_viz_snapshot(self, path, peak, where_largest):
        """The snapshot in torch.cuda.memory._snapshot()'s form: replaying its trace reaches the report's peak;
        the largest allocation's innermost frame is the script line the report names; PyTorch's own
        _memory_viz reads it."""
        import pickle
        with open(path, "rb") as f:
            snapshot = pickle.load(f)
        (trace,) = snapshot["device_traces"]
        current = most = 0
        for e in trace:
            current += e["size"] if e["action"] == "alloc" else -e["size"] if e["action"] == "free_completed" else 0
            most = max(most, current)
        self.assertEqual(most, peak)
        self.assertEqual(snapshot["segments"], [])  # nothing alive at the end
        big = max((e for e in trace if e["action"] == "alloc"), key=lambda e: e["size"])
        self.assertTrue(where_largest.endswith(f"{os.path.basename(big['frames'][0]['filename'])}:{big['frames'][0]['line']}"))
        code = ("import pickle, sys, torch.cuda._memory_viz as v; "
                "print(v.trace(pickle.load(open(sys.argv[1], 'rb'))).count('= MEM['))")
        proc = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        self.assertEqual(int(proc.stdout.split()[-1]), sum(e["action"] == "alloc" for e in trace))

    def test_shared_memory_over_metax_limit(self):
        # 128x128x64 fp16 tiles in three stages: 3 * (128*64 + 64*128) * 2 = 98304 bytes
        rc, report, work = check(os.path.join(HERE, "gemm_pipelined.py"), "--target", "metax-c500",
                                 script_args=["--block", "128", "128", "64", "--stages", "3"])
        self.work = [work]
        self.assertEqual(rc, 1)
        self.assertIn("LaunchFailed", report["script_exit"]["why"], "the launch fails in the script, as on the C500")
        r = kernel_reports(report)[0]
        self.assertFalse(r["launch"]["launched"])
        (f,) = r["findings"]
        self.assertEqual(f["kind"], "shared-memory-limit")
        self.assertIn("98304", f["message"])
        self.assertIn("65536", f["message"])
        self.assertRegex(f["location"]["python"], r"gemm_pipelined\.py:\d+$")
        # the figure is the stand-in's own: it keeps MACA's three stages
        self.assertFalse(any("stand-in" in n for n in f["notes"]), f["notes"])

    def test_index_past_the_buffer(self):
        rc, report, work = check(os.path.join(HERE, "shifted_copy_bug.py"))
        self.work = [work]
        self.assertEqual(rc, 1)
        (f,) = kernel_reports(report)[0]["findings"]
        self.assertEqual(f["kind"], "global-out-of-bounds")
        self.assertEqual((f["buffer"], f["coordinates"], f["access"], f["count"]), ("B", [1024], "write", 1))
        with open(os.path.join(HERE, "shifted_copy_bug.py")) as src:
            line = src.read().splitlines().index("                B[bx * block + i + 1] = A[bx * block + i]") + 1
        self.assertTrue(f["location"]["python"].endswith(f"shifted_copy_bug.py:{line}"), f["location"])

    def test_torch_dynamo_rules_with_the_host_device(self):
        self.run_clean("dynamo_rules.py")

    def test_benchmark_only_call_is_checked_once(self):
        report, work = self.run_clean("bench_only.py")
        self.assertTrue(any("ran its function once, untimed" in n["text"] for n in report["notes"]), report["notes"])
        np.testing.assert_array_equal(load(work, "out", "launch1", "B"), load(work, "in", "launch1", "A"))
        rc, report, work = check(os.path.join(HERE, "bench_only.py"), script_args=("--shift",))
        self.work.append(work)
        self.assertEqual(rc, 1)
        (f,) = kernel_reports(report)[0]["findings"]
        self.assertEqual((f["kind"], f["buffer"], f["coordinates"]), ("global-out-of-bounds", "B", [1024]))

    def test_cp_async_destination_edited_out_of_bounds(self):
        # Capture the pipelined GEMM, then edit its generated source so the first cp.async writes 128 KiB
        # past the start of A's shared tile: the check inside the asm statement catches it.
        rc, report, work = check(os.path.join(HERE, "gemm_pipelined.py"), "--blocks", "0")
        self.work = [work]
        self.assertEqual(rc, 5, "no finding; the script's own check fails on the blocks that did not run")
        bundle_dir = os.path.join(work, "bundles", "launch1")
        source_path = source_of(bundle_dir)
        self.assertTrue(source_path.startswith(os.path.join(work, "bundles")), "with --keep the source is kept too")
        with open(source_path) as src:
            lines = src.read().splitlines()
        edited = next(i for i, l in enumerate(lines) if "tl::cp_async_gs<16>((&(((half_t*)A_shared)[" in l)
        lines[edited] = lines[edited].replace("(half_t*)A_shared)[", "(half_t*)A_shared)[65536 + ", 1)
        with open(source_path, "w") as f:
            f.write("\n".join(lines) + "\n")
        # a kept launch bundle compiles its kernel's source in the folder beside it: named as a folder it may read
        rc, report, work2 = check(os.path.join(bundle_dir, "bundle.toml"), "--blocks", "0",
                                  "--include-root", os.path.join(work, "bundles"))
        self.work.append(work2)
        self.assertEqual(rc, 1)
        (f,) = [f for f in report["findings"] if f["kind"] == "shared-out-of-bounds"]
        # The skipped copy leaves part of A's tile unwritten, which ldmatrix then reads: the init check says so.
        self.assertEqual({f["kind"] for f in report["findings"]}, {"shared-out-of-bounds", "uninitialized-shared-read"})
        self.assertEqual(f["access"], "write")
        self.assertEqual(f["width"], 16)
        self.assertEqual(f["location"]["line"], edited + 1)
        self.assertIn("cp_async", f["location"].get("inside", ""))
        self.assertRegex(f["location"]["python"], r"gemm_pipelined\.py:\d+$")

    def test_symbolic_dimensions_from_the_call_or_param(self):
        report, work = self.run_clean("symbolic_scale.py")
        a, b = load(work, "in", "launch1", "A"), load(work, "out", "launch1", "B")
        self.assertEqual(a.shape, (1000,), "N = 1000 from the tensor the script passed")
        np.testing.assert_allclose(b, a * 0.5, rtol=1e-6)  # alpha = 0.5 from the call
        self.assertEqual(report["launches"][0]["scalars"], {"alpha": "0.5"})
        proc = subprocess.run([TOOL, "check", os.path.join(HERE, "symbolic_scale.py"), "--", "--no-call"],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertRegex(proc.stdout, r"symbolic_scale\.py:\d+: kernel scale_kernel has symbolic dimensions without a "
                                      r"value \(N\)")
        rc, report, work = check(os.path.join(HERE, "symbolic_scale.py"), "--param", "N=300", script_args=["--no-call"])
        self.work.append(work)
        self.assertEqual(rc, 0)
        (kernel,) = report["kernels"]
        self.assertEqual(load(work, "in", kernel["folder"], "A").shape, (300,))

    def test_jit_factory_two_configurations(self):
        rc, report, work = check(os.path.join(HERE, "jit_factory.py"))
        self.work = [work]
        self.assertEqual(rc, 0)
        self.assertEqual(report["script_exit"]["code"], 0, "the script ran to its end")
        self.assertEqual(report["launches"], [], "it compiles, it never launches")
        self.assertEqual([k["report"]["launch"]["grid"][0] for k in report["kernels"]], [2, 16])
        for kernel, n in zip(report["kernels"], (256, 1000)):
            self.assertEqual(kernel["report"]["findings"], [])
            folder = kernel["folder"]
            a, b, c = (load(work, "in" if x != "C" else "out", folder, x) for x in "ABC")
            self.assertEqual(c.shape, (n,))
            np.testing.assert_allclose(c, a + b, rtol=1e-6)

    def test_nothing_captured_is_a_clear_error(self):
        work = tempfile.mkdtemp(prefix="td-tilelang-")
        self.work = [work]
        script = os.path.join(work, "no_kernel.py")
        with open(script, "w") as f:
            f.write("import tilelang\nprint('no kernel here')\n")
        proc = subprocess.run([TOOL, "check", script], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("without compiling a TileLang kernel", proc.stderr)
        with open(script, "w") as f:  # CUDA tensors work without a GPU; the script's own error stops it
            f.write("import torch\nx = torch.zeros(1, device='cuda')\nraise RuntimeError('no kernel: ' + str(x.sum().item()))\n")
        proc = subprocess.run([TOOL, "check", script], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no_kernel.py:3", proc.stderr)
        self.assertIn("RuntimeError: no kernel: 0.0", proc.stderr)
        self.assertIn("before it compiled a TileLang kernel", proc.stderr)
        with open(script, "w") as f:  # a package the script imports is missing: where to install it
            f.write("import tilelang\nimport a_package_nobody_has\n")
        proc = subprocess.run([TOOL, "check", script], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no_kernel.py:2", proc.stderr)
        self.assertIn("install a_package_nobody_has there, or point TILE_DOCTOR_PYTHON", proc.stderr)

    def test_interrupted_check_leaves_no_process_or_folder(self):
        """SIGTERM or SIGINT to `check kernel.py` ends the script and removes the capture folder; after
        SIGKILL the script dies with the tool and the next run removes the folder it left."""
        import glob
        import signal
        import time
        work = tempfile.mkdtemp(prefix="td-tilelang-")
        self.work = [work]
        script = os.path.join(work, "slow_script.py")
        with open(script, "w") as f:
            f.write("import time\nimport tilelang\ntime.sleep(120)\n")

        def python_running():
            for pid in os.listdir("/proc"):
                try:
                    with open(f"/proc/{pid}/cmdline", "rb") as c:
                        if script.encode() in c.read():
                            return True
                except OSError:
                    pass
            return False

        def wait_for(done, seconds):
            end = time.time() + seconds
            while time.time() < end and not done():
                time.sleep(0.1)
            return done()

        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGKILL):
            proc = subprocess.Popen([TOOL, "check", script], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            folders = lambda: glob.glob(os.path.join(tempfile.gettempdir(), f"tile-doctor-capture-{proc.pid}-*"))
            self.assertTrue(wait_for(lambda: folders() and python_running(), 60), "the script started")
            proc.send_signal(sig)
            self.assertEqual(proc.wait(30), -sig, "the tool ended by the signal itself")
            self.assertTrue(wait_for(lambda: not python_running(), 10), f"no Python left after signal {sig}")
            if sig != signal.SIGKILL:
                self.assertEqual(folders(), [], f"no capture folder left after signal {sig}")
        left = folders()
        self.assertEqual(len(left), 1, "SIGKILL leaves the folder")
        subprocess.run([TOOL, "check", os.path.join(HERE, "..", "bundles", "reduce", "bundle.toml")],
                       capture_output=True)
        self.assertFalse(os.path.exists(left[0]), "the next run removed it")

    def test_hopper_tma_descriptors_are_named(self):
        # The bundle holds the descriptors (the CUDA executor builds them); the CPU executor refuses them by
        # name, with the script line of the launch, and says what to do instead (exit 6: cannot run).
        with tempfile.TemporaryDirectory() as keep:
            proc = subprocess.run([TOOL, "check", os.path.join(HERE, "gemm_pipelined.py"), "--tilelang-arch", "sm_90",
                                   "--keep", keep], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 6, proc.stdout + proc.stderr)
            self.assertRegex(proc.stdout, r"from .*gemm_pipelined\.py:\d+: kernel \w+ takes a Hopper TMA descriptor "
                                          r"for A:")
            self.assertIn("--executor cuda", proc.stdout)
            self.assertIn("--tilelang-arch sm_80", proc.stdout)
            manifests = [os.path.join(d, "bundle.toml") for d, _, files in os.walk(keep) if "bundle.toml" in files]
            text = open(manifests[0]).read()
            # A and B travel as buffers the kernel takes as descriptors, built the way TileLang's host code does
            self.assertRegex(text, r'name = "A"\ntype = "half\*"\nshape = \[512, 128\]\n.*\n.*\ntma = \{ data_type = 6, '
                                   r'dims = \[128, 512\], strides = \[2, 256\], box = \[32, 128\]')
            self.assertIn('arch = "sm_90a"', text)


if __name__ == "__main__":
    TOOL = sys.argv[1]
    unittest.main(argv=[sys.argv[0], *sys.argv[2:]], verbosity=2)
