"""Every JSON report tile-doctor writes validates against docs/report-schema.json (the schema forbids fields
it does not name, so an undocumented field fails here), and the exit code the report states is the one
the process ends with. Reports come from every test bundle and example, a --repeat run, bad input of
several kinds, a kernel the CPU executor cannot run, a run past --timeout and, where TileLang is
installed, a script.

    validate_reports.py TILE_DOCTOR_BINARY
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

try:
    import jsonschema
except ImportError:
    print("SKIP: jsonschema is not installed for", sys.executable, "(scripts/setup-tilelang.sh installs it)")
    sys.exit(77)

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "report-schema.json").read_text())
BINARY = None


def run(*args, timeout=300):
    """(exit code, the report as parsed JSON) of `check ARGS --format json` written to stdout."""
    proc = subprocess.run([BINARY, "check", "--format", "json", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError as e:
        raise AssertionError(f"{args}: exit {proc.returncode}, stdout is no JSON ({e}):\n{proc.stdout[:2000]}\n"
                             f"stderr:\n{proc.stderr[-2000:]}")
    return proc.returncode, report


class Reports(unittest.TestCase):
    def assertValid(self, what, code, report):
        # Against the one form the report says it is, for errors that point at the field (oneOf would only
        # say that no form matched); the whole schema's oneOf must hold too.
        diff = report.get("command") == "diff"
        form = ("stopped" if "error" in report else "bisectReport" if report.get("command") == "bisect-shape"
                else "multiReport" if report.get("command") == "check"
                else ("profileScriptReport" if "script" in report else "profileReport") if report.get("command") == "profile"
                else ("diffScriptReport" if "script" in report else "diffReport") if diff
                else "scriptReport" if "script" in report else "bundleReport")
        validator = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{form}"})
        errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
        self.assertEqual(errors, [], f"{what}: " + "\n".join(
            f"at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5]))
        jsonschema.Draft202012Validator(SCHEMA).validate(report)
        self.assertEqual(report["exit_code"], code, f"{what}: the report's exit_code is the process's")

    def test_schema_is_a_valid_schema(self):
        jsonschema.Draft202012Validator.check_schema(SCHEMA)

    def test_finding_kinds_are_the_rules(self):
        """The schema's finding kinds are exactly `tile-doctor rules`: one registry, documented both ways."""
        rules = json.loads(subprocess.run([BINARY, "rules", "--format", "json"], capture_output=True, text=True,
                                          check=True).stdout)["rules"]
        self.assertEqual(sorted(r["id"] for r in rules), sorted(SCHEMA["$defs"]["findingKind"]["enum"]))
        for r in rules:
            self.assertIn(r["severity"], ("error", "warning"))
            self.assertTrue(r["short_description"] and r["full_description"] and r["help"], r["id"])

    def test_every_bundle_and_example(self):
        manifests = sorted((ROOT / "tests" / "bundles").glob("*/*.toml")) + sorted((ROOT / "examples").glob("*/*.toml"))
        self.assertGreater(len(manifests), 40)
        kinds, codes = set(), set()
        for m in manifests:
            with self.subTest(bundle=str(m.relative_to(ROOT))):
                code, report = run(m, "--timeout", "5", "--jobs", "2")
                self.assertValid(m, code, report)
                codes.add(code)
                kinds.update(f["kind"] for f in report.get("findings", []))
        # The bundles cover clean runs, findings, stops and kernels the CPU cannot run, and most kinds.
        self.assertTrue({0, 1, 3, 6} <= codes, codes)
        self.assertGreaterEqual(len(kinds), 15, sorted(kinds))

    def test_diff_reports(self):
        """tile-doctor diff against saved outputs, another target, fp64 (dynamo weighed), and a bad reference."""
        tmp = tempfile.mkdtemp(prefix="td-schema-diff-")
        self.addCleanup(shutil.rmtree, tmp, True)
        gemm = ROOT / "tests" / "bundles" / "diff" / "bundle.toml"
        floor = ROOT / "tests" / "bundles" / "diff" / "bundle_floor_grid.toml"
        half = ROOT / "tests" / "bundles" / "numerics" / "gemv_half_accum.toml"
        subprocess.run([BINARY, "check", gemm, "--checks", "launch", "--save-outputs", tmp], capture_output=True, check=True)
        cases = [([floor, "--against", tmp, "--images", pathlib.Path(tmp) / "images"], 1), ([gemm, "--against", "metax-c500"], 0),
                 ([half, "--against", "fp64"], 1), ([half, "--against", "metax-c500", "--rule", "dynamo"], 0),
                 ([gemm, "--against", "/no/such/reference"], 2)]
        for args, expected in cases:
            with self.subTest(args=[str(a) for a in args]):
                proc = subprocess.run([BINARY, "diff", "--format", "json", "--jobs", "2", *map(str, args)],
                                      capture_output=True, text=True, timeout=300)
                report = json.loads(proc.stdout)
                self.assertEqual(proc.returncode, expected, proc.stderr[-2000:])
                self.assertValid(args, proc.returncode, report)

    def test_bisect_reports(self):
        """bisect-shape: a threshold with its changes and repro, non-monotone evidence with residues, no failure
        in the range, a search stopped by a probe that is bad input, and one interrupted by --max-probes."""
        tmp = tempfile.mkdtemp(prefix="td-schema-bisect-")
        self.addCleanup(shutil.rmtree, tmp, True)
        bundles = ROOT / "tests" / "bundles" / "bisect"
        cases = [([bundles / "row_tile.toml", "--axis", "TILE=256:65536:256", "--target", "metax-c500"], 1),
                 ([bundles / "vector16.toml", "--axis", "N=16:256:8", "--checks", "bounds", "--scan-residues"], 1),
                 ([bundles / "row_buffer.toml", "--axis", "N=64:1024", "--checks", "bounds"], 0),
                 ([bundles / "row_tile.toml", "--axis", "Q=1:4"], 2),
                 ([bundles / "row_buffer.toml", "--axis", "N=64:8192", "--max-probes", "2"], 7)]
        for i, (args, expected) in enumerate(cases):
            with self.subTest(args=[str(a) for a in args]):
                proc = subprocess.run([BINARY, "bisect-shape", "--format", "json", "--no-cache", "--repro",
                                       pathlib.Path(tmp) / f"repro{i}.toml", *map(str, args)],
                                      capture_output=True, text=True, timeout=300)
                self.assertEqual(proc.returncode, expected, proc.stderr[-2000:])
                self.assertValid(args, proc.returncode, json.loads(proc.stdout))

    def test_history_listings(self):
        """tile-doctor history's JSON: the runs, one run, a comparison."""
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="td-schema-history-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        db = tmp / "history.sqlite"
        barrier = ROOT / "tests" / "bundles" / "missing_barrier" / "bundle.toml"
        overflow = ROOT / "tests" / "bundles" / "shared_overflow" / "bundle.toml"
        subprocess.run([BINARY, "check", barrier, "--jobs", "2", "--db", db], capture_output=True)
        subprocess.run([BINARY, "check", barrier, overflow, "--jobs", "2", "--db", db, "--baseline", "last"], capture_output=True)
        for args, form in ((["history"], "historyList"), (["history", "show", "2"], "historyShow"),
                           (["history", "compare", "1", "2"], "historyCompare")):
            with self.subTest(args=args):
                proc = subprocess.run([BINARY, *args, "--format", "json", "--db", db], capture_output=True, text=True)
                report = json.loads(proc.stdout)
                validator = jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{form}"})
                errors = [f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(report)]
                self.assertEqual(errors, [])
                jsonschema.Draft202012Validator(SCHEMA).validate(report)

    def test_profile_reports(self):
        """tile-doctor profile on the examples, on MetaX and NVIDIA side by side (a tile over MetaX's limit too)."""
        for example in ("gemm", "gemm_edge_bug", "tile_too_large"):
            with self.subTest(example=example):
                proc = subprocess.run([BINARY, "profile", "--format", "json", ROOT / "examples" / example / "bundle.toml",
                                       "--target", "metax-c500", "--target", "nvidia-h200"],
                                      capture_output=True, text=True, timeout=300)
                self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
                self.assertValid(example, 0, json.loads(proc.stdout))
        # the launch run on the CPU executor: simulated work, no time (on a GPU machine: the timing, judged)
        proc = subprocess.run([BINARY, "profile", "--format", "json", ROOT / "examples" / "gemm" / "bundle.toml",
                               "--executor", "auto", "--timing-launches", "50"], capture_output=True, text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
        report = json.loads(proc.stdout)
        self.assertValid("--executor auto", 0, report)
        if report["timing"]["executor"] == "cpu":
            self.assertEqual(report["timing"]["simulated_work"], {"blocks": 16, "threads": 16 * 256})
        else:
            self.assertEqual(report["timing"]["gpu"]["launches"], 50)

    def test_repeat_and_target_variants(self):
        races = ROOT / "tests" / "bundles" / "races" / "bundle_two_writers.toml"
        code, report = run(races, "--repeat", "3", "--jobs", "2")
        self.assertValid("--repeat 3", code, report)
        self.assertEqual(report["launch"]["runs"], 3)
        code, report = run(ROOT / "examples" / "tile_too_large" / "bundle.toml", "--target", "metax-c500")
        self.assertValid("over the shared-memory limit", code, report)
        self.assertFalse(report["launch"]["launched"])

    def test_runs_that_stop(self):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = pathlib.Path(tmp)
            (tmp / "k.cu").write_text("__global__ void k(float* out) { out[threadIdx.x] = 1.0f; }\n")
            good = ('[kernel]\nsource = "k.cu"\nentry = "k"\n[launch]\ngrid = [1]\nblock = [32]\n'
                    '[[args]]\nname = "out"\ntype = "float*"\nshape = [SIZE]\noutput = true\nINIT\n')
            cases = {
                "bad-input": (good.replace("SIZE", "32").replace("INIT", 'init = "uniform(1, -1)"'), []),
                "option": (good.replace("SIZE", "32").replace("INIT", ""), ["--repeat", "0"]),
                "timeout": (good.replace("SIZE", "268435456").replace("INIT", 'init = "normal(0, 1)"'),
                            ["--timeout", "0.3"]),
            }
            for name, (manifest, extra) in cases.items():
                with self.subTest(case=name):
                    (tmp / f"{name}.toml").write_text(manifest)
                    code, report = run(tmp / f"{name}.toml", *extra)
                    self.assertValid(name, code, report)
                    self.assertIn("error", report)
            code, report = run(tmp / "missing.toml")
            self.assertValid("missing manifest", code, report)
            self.assertEqual(report["error"]["kind"], "bad-input")

    def test_sarif_and_junit(self):
        """--format sarif validates against OASIS's SARIF 2.1.0 schema (tests/data) and has what GitHub code
        scanning requires; --format junit parses, a failure per finding of the same run's JSON report."""
        import xml.etree.ElementTree as ET
        sarif_schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
        validator = jsonschema.Draft4Validator(sarif_schema)
        bundles = ["shared_overflow", "warp_probe", "missing_barrier", "reduce"]
        for name in bundles:
            manifest = ROOT / "tests" / "bundles" / name / "bundle.toml"
            with self.subTest(bundle=name):
                code, report = run(manifest, "--jobs", "2", "--target", "metax-c500")
                sarif_proc = subprocess.run([BINARY, "check", manifest, "--jobs", "2", "--target", "metax-c500",
                                             "--format", "sarif"], capture_output=True, text=True, timeout=300)
                self.assertEqual(sarif_proc.returncode, code)
                sarif = json.loads(sarif_proc.stdout)
                errors = sorted(validator.iter_errors(sarif), key=lambda e: list(e.absolute_path))
                self.assertEqual(errors, [], [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]])
                self.assertEqual(sarif["version"], "2.1.0")
                self.assertIn("$schema", sarif)
                (sarif_run,) = sarif["runs"]
                rules = sarif_run["tool"]["driver"]["rules"]
                self.assertEqual(sarif_run["tool"]["driver"]["name"], "tile-doctor")
                self.assertEqual(sorted(r["ruleId"] for r in sarif_run["results"]),
                                 sorted(f["kind"] for f in report["findings"]))
                messages = {}
                for f in report["findings"]:
                    messages.setdefault(f["kind"], []).append(f["message"])
                for result in sarif_run["results"]:
                    self.assertEqual(rules[result["ruleIndex"]]["id"], result["ruleId"])
                    first_line = result["message"]["text"].split("\n")[0]
                    self.assertTrue(first_line, result)
                    if not result["ruleId"].startswith(("shared-race", "global-race")):  # threads vary with order
                        self.assertIn(first_line, messages[result["ruleId"]])
                    self.assertGreaterEqual(result["locations"][0]["physicalLocation"]["region"]["startLine"], 1)
                    self.assertTrue(result["partialFingerprints"])
                junit = subprocess.run([BINARY, "check", manifest, "--jobs", "1", "--target", "metax-c500",
                                        "--format", "junit"], capture_output=True, text=True, timeout=300)
                self.assertEqual(junit.returncode, code)
                suite = ET.fromstring(junit.stdout)
                self.assertEqual(suite.tag, "testsuite")
                self.assertEqual(len(suite.findall("testcase")), 1)
                self.assertEqual(int(suite.get("failures")), len(report["findings"]))
                self.assertEqual(len(suite.findall("testcase/failure")), len(report["findings"]))

    def test_ci_options(self):
        """Several inputs (multiReport), --suppressions, --baseline and --shard in JSON against the report
        schema; SARIF with suppressed, unchanged, new and absent results against OASIS's SARIF schema; JUnit
        of several inputs as testsuites."""
        import xml.etree.ElementTree as ET
        tmp = pathlib.Path(tempfile.mkdtemp(prefix="td-schema-ci-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        overflow = ROOT / "tests" / "bundles" / "shared_overflow" / "bundle.toml"
        barrier = ROOT / "tests" / "bundles" / "missing_barrier" / "bundle.toml"
        (tmp / "known.supp").write_text("shared-out-of-bounds:*\nrace:no_such_kernel\n")
        (tmp / "broken.toml").write_text("[kernel]\nsource = 'nowhere.cu'\n")
        base = tmp / "base.json"
        subprocess.run([BINARY, "check", barrier, "--jobs", "2", "--format", "json", "--out", base], capture_output=True)
        cases = [([overflow, barrier], 1), ([overflow, tmp / "broken.toml"], 2),
                 ([overflow, "--suppressions", tmp / "known.supp"], 0), ([barrier, overflow, "--baseline", base], 1),
                 ([barrier, "--baseline", base], 0), ([overflow, barrier, "--shard", "2/2"], 1),
                 ([barrier.with_name("bundle_fixed.toml"), "--baseline", base], 0)]
        sarif_schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
        sarif_validator = jsonschema.Draft4Validator(sarif_schema)
        states = set()
        for args, expected in cases:
            with self.subTest(args=[str(a) for a in args]):
                code, report = run(*args, "--jobs", "2")
                self.assertEqual(code, expected)
                self.assertValid(args, code, report)
                proc = subprocess.run([BINARY, "check", *map(str, args), "--jobs", "2", "--format", "sarif"],
                                      capture_output=True, text=True, timeout=300)
                self.assertEqual(proc.returncode, expected)
                sarif = json.loads(proc.stdout) if proc.stdout.strip() else None
                if sarif is None:
                    continue
                errors = sorted(sarif_validator.iter_errors(sarif), key=lambda e: list(e.absolute_path))
                self.assertEqual(errors, [], [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors[:5]])
                for r in sarif["runs"][0]["results"]:
                    states.add(r.get("baselineState", "suppressed" if r.get("suppressions") else "plain"))
        self.assertEqual(states, {"plain", "suppressed", "new", "unchanged", "absent"})
        junit = subprocess.run([BINARY, "check", overflow, barrier, "--jobs", "2", "--format", "junit"],
                               capture_output=True, text=True, timeout=300)
        suites = ET.fromstring(junit.stdout)
        self.assertEqual(suites.tag, "testsuites")
        self.assertEqual(len(suites.findall("testsuite")), 2)

    def test_a_generated_source_report(self):
        dump = ROOT / "tests" / "dumps" / "row_scale"
        code, report = run(dump / "kernel_unguarded.maca", "--shape", "A=m,256", "--shape", "S=m", "--shape", "B=m,256",
                           "--param", "m=6", "--maca-templates", dump / "templates")
        self.assertValid("kernel_unguarded.maca", code, report)
        self.assertEqual(code, 1)
        self.assertEqual(len(report["launches"]), 2)

    def test_a_script_report(self):
        python = os.environ.get("TILE_DOCTOR_PYTHON", str(ROOT / ".venv-tilelang" / "bin" / "python"))
        if subprocess.run([python, "-c", "import tilelang"], capture_output=True).returncode != 0:
            self.skipTest(f"no TileLang at {python}")
        script = ROOT / "tests" / "tilelang" / "three_kernels.py"
        code, report = run(script, "--", "--buggy-bias")
        self.assertValid("three_kernels.py --buggy-bias", code, report)
        self.assertGreaterEqual(len(report["launches"]), 3)
        # and the script's diff against fp64
        proc = subprocess.run([BINARY, "diff", "--format", "json", ROOT / "tests" / "tilelang" / "gemm_accum_dtype.py",
                               "--against", "fp64", "--", "--accum", "float16"], capture_output=True, text=True,
                              timeout=600)
        self.assertValid("diff gemm_accum_dtype.py --against fp64", proc.returncode, json.loads(proc.stdout))
        # SARIF of a script: the Python line is the first location of each result
        sarif_proc = subprocess.run([BINARY, "check", "--format", "sarif", script, "--", "--buggy-bias"],
                                    capture_output=True, text=True, timeout=600)
        sarif = json.loads(sarif_proc.stdout)
        schema = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text())
        jsonschema.Draft4Validator(schema).validate(sarif)
        results = sarif["runs"][0]["results"]
        self.assertTrue(results)
        for r in results:
            self.assertTrue(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("three_kernels.py"), r)


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main(verbosity=2)
