"""Checks the session reports of tests/python/pytest_plugin_test.sh: session_reports_check.py SARIF JUNIT."""
import json, os, sys, xml.etree.ElementTree as ET
sarif, junit = sys.argv[1], sys.argv[2]
good_id, tail_id = "test_scale_kernels.py::test_scale_matches_torch[1000]", "test_scale_kernels.py::test_scale_tail_block"
log = json.load(open(sarif))
runs = {r["automationDetails"]["id"]: r for r in log["runs"]}
assert log["version"] == "2.1.0" and sorted(runs) == [f"pytest/{good_id}/", f"pytest/{tail_id}/"], list(runs)
assert runs[f"pytest/{good_id}/"]["results"] == [], runs[f"pytest/{good_id}/"]["results"]
assert any(r["ruleId"] == "global-out-of-bounds" for r in runs[f"pytest/{tail_id}/"]["results"])
root = ET.parse(junit).getroot()
suites = list(root.iter("testsuite"))
assert sorted(s.get("name").split(": ")[0] for s in suites) == [good_id, tail_id], [s.get("name") for s in suites]
failed = [s.get("name").split(": ")[0] for s in suites if list(s.iter("failure"))]
assert failed == [tail_id] and int(root.get("failures")) >= 1, (failed, root.attrib)
assert any("global-out-of-bounds" in f.get("type", "") for f in root.iter("failure"))
assert not os.path.exists(sarif + ".parts") and not os.path.exists(junit + ".parts")
