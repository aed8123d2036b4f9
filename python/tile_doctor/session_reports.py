"""One SARIF log and one JUnit file for a whole pytest session (pytest --tile-doctor-sarif / -junit): each
checked test's serve writes its report in the format through `tile-doctor check --report FORMAT:FILE` into a
parts folder beside the target (pytest-xdist's workers each write their own tests'); the session's end folds
the parts into the one file. SARIF keeps one run per test, named by its node id (automationDetails.id);
JUnit one testsuite per test."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import xml.etree.ElementTree as ElementTree
from typing import Dict, List

FORMATS = ("sarif", "junit")
_SUFFIX = {"sarif": ".sarif", "junit": ".xml"}


def parts_folder(target: str) -> str:
    return os.path.abspath(target) + ".parts"


def file_name(nodeid: str) -> str:
    """A file name for a test: its node id made safe, cut short, and a hash so that no two tests share one."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", nodeid).strip("_")[:160]
    return f"{safe}-{hashlib.sha1(nodeid.encode()).hexdigest()[:10]}"


def part_path(target: str, fmt: str, nodeid: str) -> str:
    return os.path.join(parts_folder(target), file_name(nodeid) + _SUFFIX[fmt])


def start(target: str) -> None:
    """A session's first step (the controller's, before any worker runs): parts of an earlier session go."""
    shutil.rmtree(parts_folder(target), ignore_errors=True)
    os.makedirs(parts_folder(target), exist_ok=True)


def name_part(fmt: str, path: str, nodeid: str) -> None:
    """Names the test in the part just written (its report names only the test's file as the script)."""
    if not os.path.exists(path):
        return
    if fmt == "sarif":
        with open(path) as f:
            log = json.load(f)
        for run in log.get("runs", []):
            run["automationDetails"] = {"id": f"pytest/{nodeid}/"}
        with open(path, "w") as f:
            json.dump(log, f, indent=1)
    else:
        tree = ElementTree.parse(path)
        for suite in tree.getroot().iter("testsuite"):
            suite.set("name", f"{nodeid}: {suite.get('name', '')}")
        tree.write(path, encoding="utf-8", xml_declaration=True)


def _merged_sarif(paths: List[str]) -> Dict:
    merged: Dict = {}
    runs = []
    for path in paths:
        with open(path) as f:
            log = json.load(f)
        if not merged:
            merged = {k: v for k, v in log.items() if k != "runs"}
        runs += log.get("runs", [])
    merged.setdefault("$schema", "https://json.schemastore.org/sarif-2.1.0.json")
    merged.setdefault("version", "2.1.0")
    merged["runs"] = runs
    return merged


def _merged_junit(paths: List[str]) -> ElementTree.ElementTree:
    root = ElementTree.Element("testsuites", name="tile-doctor")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for path in paths:
        part = ElementTree.parse(path).getroot()
        for suite in [part] if part.tag == "testsuite" else part.iter("testsuite"):
            root.append(suite)
            for key in totals:
                totals[key] += int(suite.get(key, "0") or 0)
    for key, value in totals.items():
        root.set(key, str(value))
    return ElementTree.ElementTree(root)


def finish(target: str, fmt: str) -> int:
    """Folds the parts into TARGET and removes them; returns how many tests' reports it holds."""
    folder = parts_folder(target)
    paths = sorted(os.path.join(folder, n) for n in os.listdir(folder) if n.endswith(_SUFFIX[fmt])) \
        if os.path.isdir(folder) else []
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    if fmt == "sarif":
        with open(target, "w") as f:
            json.dump(_merged_sarif(paths), f, indent=1)
    else:
        _merged_junit(paths).write(target, encoding="utf-8", xml_declaration=True)
    shutil.rmtree(folder, ignore_errors=True)
    return len(paths)
