#!/usr/bin/env python3
"""squall-compose against the Redfish emulator: every exit path frees, partial failures
roll back, a busy fabric is ridden out, a crashed launcher is cleaned up by free.

  python3 tests/compose/test_compose.py [-k NAME]

Each test starts its own emulator on a free port of 127.0.0.1 and stops it by PID; after
each test every block must be Unused and unreserved, and no state file may be left.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPOSE = os.path.join(ROOT, "scripts", "compose", "squall-compose")
EMULATOR = os.path.join(ROOT, "scripts", "compose", "redfish_emulator.py")


class Emulator:
    def __init__(self, workdir, gpus=4, expandable=False, user=None, password=None):
        self.port_file = os.path.join(workdir, "port")
        args = [sys.executable, EMULATOR, "--gpus", str(gpus), "--host", "node1", "--port-file", self.port_file]
        if expandable:
            args.append("--expandable")
        if user:
            pw = os.path.join(workdir, "emulator_password")
            with open(pw, "w") as f:
                f.write(password)
            args += ["--user", user, "--password-file", pw]
        self.log = open(os.path.join(workdir, "emulator.log"), "w")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(100):
            if os.path.exists(self.port_file):
                break
            time.sleep(0.05)
        with open(self.port_file) as f:
            self.port = int(f.read())
        self.url = f"http://127.0.0.1:{self.port}"

    def control(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method="GET" if body is None else "POST")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def state(self):
        return self.control("/emulator/state")

    def faults(self, **kwargs):
        return self.control("/emulator/faults", kwargs)

    def composed(self):
        return sorted(b for b, v in self.state()["blocks"].items() if v["type"] == "Processor" and v["state"] != "Unused")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


class ComposeTest(unittest.TestCase):
    expandable = False
    gpus = 4

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.emulator = Emulator(self.dir, gpus=self.gpus, expandable=self.expandable,
                                 **getattr(self, "auth", {}))
        self.env = dict(os.environ, SQUALL_COMPOSE_ENDPOINT=self.emulator.url + "/redfish/v1",
                        SQUALL_COMPOSE_STATE_DIR=os.path.join(self.dir, "state"), SQUALL_COMPOSE_HOST="node1",
                        SQUALL_COMPOSE_DEADLINE="20")
        self.env.pop("SQUALL_COMPOSE_CONFIG", None)
        self.env.pop("SQUALL_COMPOSE_CREDENTIALS", None)

    def tearDown(self):
        try:
            if not getattr(self, "skip_clean_check", False):
                self.assert_all_free()
        finally:
            self.emulator.stop()
            self.tmp.cleanup()

    def assert_all_free(self):
        state = self.emulator.state()
        for name, b in state["blocks"].items():
            if self.expandable and b["type"] == "Compute":
                self.assertEqual(b["state"], "Composed", name)  # the host's own system
            else:
                self.assertEqual(b["state"], "Unused", f"block {name} left {b['state']}")
            self.assertFalse(b["reserved"], f"block {name} left reserved")
        jobs = os.path.join(self.dir, "state", "jobs")
        self.assertEqual(os.listdir(jobs) if os.path.isdir(jobs) else [], [], "state files left")

    def compose(self, *args, env=None, check=None):
        p = subprocess.run([sys.executable, COMPOSE, *args], env=env or self.env, capture_output=True, text=True,
                           timeout=120)
        if check is not None and p.returncode != check:
            self.fail(f"squall-compose {' '.join(args)}: status {p.returncode}, expected {check}\n"
                      f"{p.stdout}{p.stderr}")
        return p


class SpecificComposition(ComposeTest):
    def test_compose_status_free(self):
        self.compose("compose", "--gpus", "2", "--job", "11", check=0)
        self.assertEqual(self.emulator.composed(), ["gpu0", "gpu1"])
        report = json.loads(self.compose("status", "--job", "11", "--json", check=0).stdout)
        self.assertEqual(report["jobs"]["11"]["phase"], "composed")
        self.assertEqual(report["jobs"]["11"]["mode"], "new")
        systems = self.emulator.state()["systems"]
        self.assertEqual(list(systems.values()), [["node1", "gpu0", "gpu1"]])
        self.compose("free", "--job", "11", check=0)
        again = self.compose("free", "--job", "11", check=0)  # idempotent
        self.assertIn("nothing composed", again.stderr)

    def test_same_job_twice_is_refused_without_change(self):
        self.compose("compose", "--gpus", "1", "--job", "a", check=0)
        p = self.compose("compose", "--gpus", "1", "--job", "a", check=2)
        self.assertIn("already has a composition", p.stderr)
        self.assertEqual(self.emulator.composed(), ["gpu0"])
        self.compose("free", "--job", "a", check=0)

    def test_more_gpus_than_exist_is_refused(self):
        p = self.compose("compose", "--gpus", "5", "--job", "big", check=6)
        self.assertIn("only 4 of 4 GPU blocks are free", p.stderr)
        self.assertEqual(self.emulator.state()["systems"], {})

    def test_partial_composition_rolls_back(self):
        self.emulator.faults(fail_after_blocks=2)  # the compute block and one GPU attach, then 500
        p = self.compose("compose", "--gpus", "3", "--job", "partial", check=4)
        self.assertIn("rolling back", p.stderr)
        self.assertEqual(self.emulator.state()["systems"], {})

    def test_busy_storm_is_ridden_out(self):
        # 30 busy replies that say when to retry, then 6 that do not (exponential backoff)
        self.emulator.faults(busy_calls=30, retry_after=0)
        p = self.compose("compose", "--gpus", "2", "--job", "storm", check=0)
        self.assertIn("retrying", p.stderr)
        self.assertGreater(self.emulator.state()["calls"], 30)
        self.emulator.faults(busy_calls=6, retry_after=None)
        self.compose("free", "--job", "storm", check=0)
        self.assertGreater(self.emulator.state()["calls"], 36)

    def test_503_on_chosen_calls_is_retried(self):
        self.emulator.faults(fail_calls=[1, 4, 9])  # discovery, reservation and composition calls
        p = self.compose("compose", "--gpus", "2", "--job", "k", check=0)
        self.assertEqual(p.stderr.count("HTTP 503; retrying"), 3)
        self.compose("free", "--job", "k", check=0)

    def test_busy_past_the_deadline_keeps_state_until_free(self):
        self.compose("compose", "--gpus", "2", "--job", "late", check=0)
        self.emulator.faults(busy_calls=100000)
        env = dict(self.env, SQUALL_COMPOSE_DEADLINE="1")
        p = self.compose("free", "--job", "late", env=env, check=5)
        self.assertIn("state is kept", p.stderr)
        self.assertEqual(self.emulator.composed(), ["gpu0", "gpu1"])
        self.emulator.faults(busy_calls=0)
        self.compose("free", "--job", "late", check=0)

    def test_run_passes_the_status_and_frees(self):
        p = self.compose("run", "--gpus", "2", "--job", "r", "--", "sh", "-c",
                         'test "$SQUALL_COMPOSED_GPUS" = gpu0,gpu1 && exit 7', check=7)
        self.assertIn("freed 2 GPU(s)", p.stderr)

    def test_run_of_a_missing_command_frees(self):
        self.compose("run", "--gpus", "1", "--", "/nonexistent/command", check=127)

    def start_run(self, job, seconds=60):
        marker = os.path.join(self.dir, f"{job}.started")
        p = subprocess.Popen([sys.executable, COMPOSE, "run", "--gpus", "2", "--job", job, "--", "sh", "-c",
                              f"touch {marker}; exec sleep {seconds}"], env=self.env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        for _ in range(400):
            if os.path.exists(marker):
                return p
            time.sleep(0.05)
        p.kill()
        self.fail("the command did not start")

    def test_sigterm_frees(self):
        p = self.start_run("term")
        self.assertEqual(self.emulator.composed(), ["gpu0", "gpu1"])
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 128 + signal.SIGTERM, err)
        self.assertIn("freed", err)

    def test_ctrl_c_frees(self):
        p = self.start_run("int")
        os.killpg(p.pid, signal.SIGINT)  # as a terminal does: the whole foreground group
        _, err = p.communicate(timeout=60)
        self.assertEqual(p.returncode, 128 + signal.SIGINT, err)
        self.assertIn("freed", err)

    def test_crashed_launcher_is_cleaned_up_by_free(self):
        p = self.start_run("crash")
        os.killpg(p.pid, signal.SIGKILL)  # launcher and command die; nothing frees
        p.communicate(timeout=30)
        self.assertEqual(self.emulator.composed(), ["gpu0", "gpu1"])
        self.compose("free", "--job", "crash", check=0)

    def test_lost_state_file_system_found_by_name(self):
        self.compose("compose", "--gpus", "1", "--job", "lost", check=0)
        os.remove(os.path.join(self.dir, "state", "jobs", "lost.json"))
        p = self.compose("free", "--job", "lost", check=0)
        self.assertIn("found by name", p.stderr)

    def test_concurrent_launchers_never_share_a_gpu(self):
        self.emulator.faults(delay=0.05)
        procs = [subprocess.Popen([sys.executable, COMPOSE, "compose", "--gpus", "3", "--job", f"c{i}"], env=self.env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(2)]
        codes = sorted(p.wait(timeout=120) for p in procs)
        for p in procs:
            p.communicate()
        self.assertEqual(codes, [0, 3])  # 3: not now (6 would be: never)  # one composes 3 of the 4 GPUs; the other is refused
        self.assertEqual(len(self.emulator.composed()), 3)
        for i in range(2):
            self.compose("free", "--job", f"c{i}", check=0)

    def test_node_parts_of_a_job_are_freed_together(self):
        self.compose("compose", "--gpus", "1", "--job", "42@node1", check=0)
        self.compose("free", "--job", "42", check=0)

    def test_dry_run_calls_nothing(self):
        before = self.emulator.state()["calls"]
        p = self.compose("--backend", "none", "run", "--gpus", "2", "--job", "dry", "--", "true", check=0)
        self.assertIn("dry run: would compose", p.stderr)
        self.assertEqual(self.emulator.state()["calls"], before)

    def test_bad_settings_are_usage_errors(self):
        env = dict(self.env)
        del env["SQUALL_COMPOSE_ENDPOINT"]
        self.assertIn("no Redfish endpoint", self.compose("status", env=env, check=2).stderr)
        self.assertIn("expected at least 1", self.compose("compose", "--gpus", "0", "--job", "z", check=2).stderr)
        self.assertIn("without slashes", self.compose("free", "--job", "../x", check=2).stderr)
        conf = os.path.join(self.dir, "bad.conf")
        with open(conf, "w") as f:
            f.write("endpoint = http://x\npassword = secret\n")
        p = self.compose("--config", conf, "status", check=2)
        self.assertIn("bad.conf:2", p.stderr)


class ExpandableComposition(ComposeTest):
    expandable = True

    def test_add_and_remove_blocks(self):
        self.compose("compose", "--gpus", "2", "--job", "x", check=0)
        self.assertEqual(self.emulator.state()["systems"], {"node1": ["gpu0", "gpu1"]})
        self.assertEqual(json.loads(self.compose("status", "--json", check=0).stdout)["jobs"]["x"]["mode"], "expand")
        self.compose("free", "--job", "x", check=0)
        self.assertEqual(self.emulator.state()["systems"], {"node1": []})

    def test_partial_add_rolls_back(self):
        self.emulator.faults(fail_after_blocks=1)
        self.compose("compose", "--gpus", "2", "--job", "px", check=4)
        self.assertEqual(self.emulator.state()["systems"], {"node1": []})


class Credentials(ComposeTest):
    auth = {"user": "admin", "password": "s3cret-Pa55"}

    def test_credentials_from_env_or_file_never_shown(self):
        p = self.compose("compose", "--gpus", "1", "--job", "noauth", check=4)
        self.assertIn("401", p.stderr)
        env = dict(self.env, SQUALL_COMPOSE_CREDENTIALS="admin:s3cret-Pa55")
        outputs = [self.compose("run", "--gpus", "1", "--job", "auth", "--", "true", env=env, check=0)]
        cred = os.path.join(self.dir, "cred")
        with open(cred, "w") as f:
            f.write("admin:s3cret-Pa55\n")
        outputs.append(self.compose("--credentials-file", cred, "compose", "--gpus", "1", "--job", "f", check=0))
        with open(os.path.join(self.dir, "state", "jobs", "f.json")) as f:
            outputs.append(subprocess.CompletedProcess([], 0, f.read(), ""))
        outputs.append(self.compose("--credentials-file", cred, "free", "--job", "f", check=0))
        for o in outputs:
            self.assertNotIn("s3cret", o.stdout + o.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
