"""The capture channel's messages and capture.json against docs/capture-channel.schema.json (which forbids
fields it does not name): every request and reply of a real script run, logged through
$TILE_DOCTOR_CHANNEL_LOG, and the capture.json the run keeps. Then a capture of another protocol version is
refused by name: a request whose version differs gets a reply that says so, and the script's launch fails
with that message.

    validate_channel.py TILE_DOCTOR_BINARY
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
    import tilelang  # noqa: F401  (the run below captures a TileLang script)
except ImportError as e:
    print("SKIP:", e, "for", sys.executable, "(scripts/setup-tilelang.sh installs it)")
    sys.exit(77)

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "capture-channel.schema.json").read_text())
SCRIPT = ROOT / "tests" / "tilelang" / "eager_rowsum.py"  # two kernels, two launches
BINARY = None


def validator(form):
    return jsonschema.Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{form}"})


class Channel(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="td-channel-")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def run_check(self, *extra_env):
        log = os.path.join(self.work, "channel.log")
        env = dict(os.environ, TILE_DOCTOR_CHANNEL_LOG=log, TILE_DOCTOR_PYTHON=sys.executable, **dict(extra_env))
        proc = subprocess.run([BINARY, "check", str(SCRIPT), "--keep", os.path.join(self.work, "keep"), "--format",
                               "json"], capture_output=True, text=True, env=env, timeout=600)
        with open(log) as f:
            messages = [json.loads(line) for line in f]
        return proc, messages

    def assertValid(self, form, message):
        errors = sorted(validator(form).iter_errors(message), key=lambda e: list(e.absolute_path))
        self.assertEqual(errors, [], f"{form}: " + "\n".join(
            f"at /{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5]))
        jsonschema.Draft202012Validator(SCHEMA).validate(message)

    def test_schema_is_a_valid_schema(self):
        jsonschema.Draft202012Validator.check_schema(SCHEMA)

    def test_every_message_of_a_run_and_its_capture_file(self):
        proc, messages = self.run_check()
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        self.assertEqual(len(messages), 4, "a request and a reply for each of the two launches")
        for request, reply in zip(messages[0::2], messages[1::2]):
            self.assertValid("launchRequest", request)
            self.assertValid("reply", reply)
            self.assertTrue(reply["ran"])
        self.assertEqual([m["launch"] for m in messages[0::2]], [1, 2])
        with open(os.path.join(self.work, "keep", "capture.json")) as f:
            capture = json.load(f)
        self.assertValid("captureFile", capture)
        self.assertEqual([k["launched"] for k in capture["kernels"]], [True, True])

    def test_a_capture_of_another_protocol_version_is_refused_by_name(self):
        # The capture's own module, with its version moved on: every launch is refused with the two
        # versions named, and the run says the script failed there (exit 5), checking nothing.
        shadow = os.path.join(self.work, "python")
        shutil.copytree(ROOT / "python" / "tile_doctor_capture", os.path.join(shadow, "tile_doctor_capture"))
        channel = os.path.join(shadow, "tile_doctor_capture", "channel.py")
        text = pathlib.Path(channel).read_text().replace("PROTOCOL = 1\n", "PROTOCOL = 2\n")
        pathlib.Path(channel).write_text(text)
        proc, messages = self.run_check(("TILE_DOCTOR_PYTHONPATH", shadow))
        report = json.loads(proc.stdout)
        self.assertEqual(proc.returncode, 2, proc.stderr[-3000:])
        self.assertIn("channel protocol 2", report["error"]["message"])
        self.assertIn("version 1", report["error"]["message"])
        self.assertEqual(messages[0]["protocol"], 2)
        self.assertFalse(messages[1]["ran"])
        self.assertIn("channel protocol 2", messages[1]["message"])


if __name__ == "__main__":
    BINARY = sys.argv.pop(1)
    unittest.main()
