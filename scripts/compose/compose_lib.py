"""The library behind squall-compose (see its --help): fabric backends, job state, the
compose / free / run workflow. Python standard library only."""
import argparse
import base64
import contextlib
import errno
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

EXIT_USAGE, EXIT_REFUSED, EXIT_FABRIC, EXIT_INCOMPLETE, EXIT_IMPOSSIBLE = 2, 3, 4, 5, 6


class UsageError(Exception):
    """Bad command line or settings (exit 2)."""


class Refused(Exception):
    """The request cannot be met now; nothing was changed (exit 3)."""


class Impossible(Refused):
    """The request can never be met (more GPUs than the fabric has); nothing changed (exit 6)."""


class FabricError(Exception):
    """A fabric call failed for good (after retries); `status` is the HTTP status or None."""

    def __init__(self, message, status=None):
        super().__init__(message)
        self.status = status


class Incomplete(Exception):
    """A rollback or free left something behind; the job's state file is kept (exit 5)."""


def log(message):
    print(f"squall-compose: {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- settings

SETTINGS = {  # key: (environment variable, default)
    "endpoint": ("SQUALL_COMPOSE_ENDPOINT", None),
    "backend": ("SQUALL_COMPOSE_BACKEND", "redfish"),
    "state_dir": ("SQUALL_COMPOSE_STATE_DIR", None),
    "credentials_file": ("SQUALL_COMPOSE_CREDENTIALS_FILE", None),
    "deadline": ("SQUALL_COMPOSE_DEADLINE", "120"),
    "host": ("SQUALL_COMPOSE_HOST", None),
}


def read_config_file(path):
    values = {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            key, sep, value = line.partition("=")
            key, value = key.strip(), value.strip().strip('"')
            if not sep or key not in SETTINGS:
                raise UsageError(f"{path}:{number}: expected `key = value` with key one of {', '.join(SETTINGS)}")
            values[key] = value
    return values


def resolve_settings(args):
    """Command line > environment > config file > default."""
    path = args.config or os.environ.get("SQUALL_COMPOSE_CONFIG")
    if path is None and os.path.exists("/etc/squall/compose.conf"):
        path = "/etc/squall/compose.conf"
    try:
        from_file = read_config_file(path) if path else {}
    except OSError as e:
        raise UsageError(f"cannot read config file {path}: {e.strerror}")
    s = {}
    for key, (env, default) in SETTINGS.items():
        given = getattr(args, key, None)
        s[key] = given if given is not None else os.environ.get(env, from_file.get(key, default))
    if s["backend"] not in ("redfish", "none"):
        raise UsageError(f"backend '{s['backend']}': expected redfish or none")
    if s["backend"] == "redfish" and not s["endpoint"]:
        raise UsageError("no Redfish endpoint: give --endpoint URL, SQUALL_COMPOSE_ENDPOINT or `endpoint = URL` "
                         "in the config file (or --backend none for a dry run)")
    try:
        s["deadline"] = float(s["deadline"])
    except ValueError:
        raise UsageError(f"deadline '{s['deadline']}': expected a number of seconds")
    if s["state_dir"] is None:
        s["state_dir"] = ("/var/lib/squall-compose" if os.geteuid() == 0
                          else os.path.expanduser("~/.local/state/squall-compose"))
    if s["host"] is None:
        s["host"] = socket.gethostname().split(".")[0]
    s["credentials"] = None
    if s["credentials_file"]:
        try:
            with open(s["credentials_file"]) as f:
                s["credentials"] = f.read().strip()
        except OSError as e:
            raise UsageError(f"cannot read credentials file {s['credentials_file']}: {e.strerror}")
    elif os.environ.get("SQUALL_COMPOSE_CREDENTIALS"):
        s["credentials"] = os.environ["SQUALL_COMPOSE_CREDENTIALS"]
    if s["credentials"] is not None and ":" not in s["credentials"]:
        raise UsageError("credentials: expected user:password")  # never echo them
    return s


# ----------------------------------------------------------------------------- backends

class Backend:
    """What the workflow needs from a fabric. Block and system references are opaque
    strings (Redfish: @odata.id paths). A vendor API is added by implementing these."""

    name = "abstract"

    def inventory(self):
        """A list of blocks: {"ref", "id", "type" ("Compute" or "Processor"), "state",
        "reserved", "zones" (list), "systems" (list of system refs)}."""
        raise NotImplementedError

    def host_system(self, host):
        """The ref of `host`'s own system if it can gain and lose blocks, else None."""
        raise NotImplementedError

    def reserve(self, block):
        raise NotImplementedError

    def unreserve(self, block):
        """Idempotent: a block that is gone or not reserved is fine."""
        raise NotImplementedError

    def compose_system(self, name, blocks):
        """Composes a new system of `blocks`; returns its ref."""
        raise NotImplementedError

    def systems_named(self, name):
        raise NotImplementedError

    def delete_system(self, system):
        """Idempotent: a system that does not exist (404) is already freed."""
        raise NotImplementedError

    def system_blocks(self, system):
        raise NotImplementedError

    def add_block(self, system, block):
        raise NotImplementedError

    def remove_block(self, system, block):
        raise NotImplementedError


class DryRun(Backend):
    """--backend none: says what it would do and calls nothing."""

    name = "none"

    def __init__(self, host, gpus=64):
        self.host, self.gpus = host, gpus

    def inventory(self):
        blocks = [{"ref": f"dry-run/{self.host}", "id": self.host, "type": "Compute", "state": "Unused",
                   "reserved": False, "zones": ["dry-run"], "systems": []}]
        return blocks + [{"ref": f"dry-run/gpu{i}", "id": f"gpu{i}", "type": "Processor", "state": "Unused",
                          "reserved": False, "zones": ["dry-run"], "systems": []} for i in range(self.gpus)]

    def host_system(self, host):
        return None  # a dry run composes a new system

    def _say(self, what):
        log("dry run: would " + what)

    def reserve(self, block):
        self._say(f"reserve {block}")

    def unreserve(self, block):
        self._say(f"release the reservation of {block}")

    def compose_system(self, name, blocks):
        self._say(f"compose {name} of {', '.join(blocks)}")
        return f"dry-run/systems/{name}"

    def systems_named(self, name):
        return []

    def delete_system(self, system):
        self._say(f"delete {system}")

    def system_blocks(self, system):
        return []

    def add_block(self, system, block):
        self._say(f"add {block} to {system}")

    def remove_block(self, system, block):
        self._say(f"remove {block} from {system}")


class Redfish(Backend):
    """DMTF Redfish CompositionService (DSP0268) over HTTP(S), with retries."""

    name = "redfish"
    RETRY = {429, 502, 503, 504}

    def __init__(self, endpoint, credentials=None, deadline=120.0):
        endpoint = endpoint.rstrip("/")
        self.base = endpoint[: endpoint.index("/redfish/")] if "/redfish/" in endpoint + "/" else endpoint
        self.root = "/redfish/v1"
        self.auth = ("Basic " + base64.b64encode(credentials.encode()).decode()) if credentials else None
        self.deadline = deadline

    def call(self, method, path, body=None, ok_missing=False):
        """(status, document, headers). Retries 429/5xx-busy and connection errors with
        backoff until the deadline; other errors raise FabricError (404 returns
        (404, None, {}) when ok_missing)."""
        url = path if path.startswith("http") else self.base + path
        data = None if body is None else json.dumps(body).encode()
        give_up = time.monotonic() + self.deadline
        wait, attempt = 0.05, 0
        while True:
            attempt += 1
            request = urllib.request.Request(url, data=data, method=method)
            request.add_header("Accept", "application/json")
            if data is not None:
                request.add_header("Content-Type", "application/json")
            if self.auth:
                request.add_header("Authorization", self.auth)
            retry_after = None
            try:
                with urllib.request.urlopen(request, timeout=min(30.0, max(1.0, self.deadline))) as r:
                    raw = r.read()
                    return r.status, (json.loads(raw) if raw else None), dict(r.headers)
            except urllib.error.HTTPError as e:
                raw = e.read()
                if e.code == 404 and ok_missing:
                    return 404, None, {}
                if e.code not in self.RETRY:
                    raise FabricError(f"{method} {path}: HTTP {e.code}: {redfish_message(raw)}", e.code)
                reason = f"HTTP {e.code}"
                retry_after = e.headers.get("Retry-After")
            except (urllib.error.URLError, ConnectionError, socket.timeout) as e:
                reason = str(getattr(e, "reason", e))
            now = time.monotonic()
            if now >= give_up:
                raise FabricError(f"{method} {path}: still failing after {attempt} attempts over "
                                  f"{self.deadline:g} s ({reason})")
            delay = wait  # exponential backoff, unless the service says when to retry
            if retry_after is not None:
                with contextlib.suppress(ValueError):
                    delay = min(max(float(retry_after), 0.0), 30.0)
            delay = min(delay, give_up - now)
            if attempt == 1 or attempt % 10 == 0:
                log(f"{method} {path}: {reason}; retrying (attempt {attempt})")
            time.sleep(max(delay, 0))
            wait = min(wait * 2, 2.0)

    def get(self, path):
        return self.call("GET", path)[1]

    def members(self, path):
        return [m["@odata.id"] for m in self.get(path).get("Members", [])]

    def inventory(self):
        service = self.get(self.root + "/CompositionService")
        blocks = []
        for ref in self.members(service["ResourceBlocks"]["@odata.id"]):
            b = self.get(ref)
            status = b.get("CompositionStatus", {})
            links = b.get("Links", {})
            blocks.append({
                "ref": ref, "id": b.get("Id", ref.rsplit("/", 1)[-1]),
                "type": "Compute" if "Compute" in b.get("ResourceBlockType", []) else
                        "Processor" if "Processor" in b.get("ResourceBlockType", []) else
                        ",".join(b.get("ResourceBlockType", [])),
                "state": status.get("CompositionState", "Unknown"),
                "reserved": bool(status.get("Reserved", False)),
                "zones": [z["@odata.id"] for z in links.get("Zones", [])],
                "systems": [s["@odata.id"] for s in links.get("ComputerSystems", [])],
            })
        return blocks

    def host_system(self, host):
        status, doc, _ = self.call("GET", f"{self.root}/Systems/{host}", ok_missing=True)
        if status == 404 or not doc:
            return None
        actions = doc.get("Actions", {})
        if "#ComputerSystem.AddResourceBlock" in actions and "#ComputerSystem.RemoveResourceBlock" in actions:
            return doc["@odata.id"]
        return None

    def reserve(self, block):
        self.call("PATCH", block, {"CompositionStatus": {"Reserved": True}})

    def unreserve(self, block):
        self.call("PATCH", block, {"CompositionStatus": {"Reserved": False}}, ok_missing=True)

    def compose_system(self, name, blocks):
        status, doc, headers = self.call("POST", self.root + "/Systems",
                                         {"Name": name, "Links": {"ResourceBlocks": [{"@odata.id": b} for b in blocks]}})
        location = headers.get("Location") or (doc or {}).get("@odata.id")
        if status != 201 or not location:
            raise FabricError(f"POST {self.root}/Systems: expected 201 with a Location, got {status}", status)
        return location[len(self.base):] if location.startswith(self.base) else location

    def systems_named(self, name):
        return [ref for ref in self.members(self.root + "/Systems") if (self.get(ref) or {}).get("Name") == name]

    def delete_system(self, system):
        self.call("DELETE", system, ok_missing=True)

    def system_blocks(self, system):
        status, doc, _ = self.call("GET", system, ok_missing=True)
        return [] if status == 404 else [b["@odata.id"] for b in doc.get("Links", {}).get("ResourceBlocks", [])]

    def _action(self, system, action, block):
        self.call("POST", f"{system}/Actions/ComputerSystem.{action}", {"ResourceBlock": {"@odata.id": block}})

    def add_block(self, system, block):
        self._action(system, "AddResourceBlock", block)

    def remove_block(self, system, block):
        self._action(system, "RemoveResourceBlock", block)


def redfish_message(raw):
    try:
        doc = json.loads(raw)
        return doc.get("error", {}).get("message") or json.dumps(doc)[:200]
    except ValueError:
        return raw[:200].decode(errors="replace")


def make_backend(settings, host):
    if settings["backend"] == "none":
        return DryRun(host)
    return Redfish(settings["endpoint"], settings["credentials"], settings["deadline"])


# ----------------------------------------------------------------------------- job state

class Store:
    """Per-job state files and the fabric lock, in one directory."""

    def __init__(self, directory, deadline):
        self.dir = directory
        self.deadline = deadline
        try:
            os.makedirs(os.path.join(directory, "jobs"), mode=0o700, exist_ok=True)
        except OSError as e:
            raise UsageError(f"cannot create state directory {directory}: {e.strerror}")

    def path(self, job):
        return os.path.join(self.dir, "jobs", f"{job}.json")

    @contextlib.contextmanager
    def lock(self):
        """Exclusive lock around fabric transactions (all jobs, all launchers on this host)."""
        fd = os.open(os.path.join(self.dir, "fabric.lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            give_up = time.monotonic() + self.deadline
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as e:
                    if e.errno not in (errno.EAGAIN, errno.EACCES):
                        raise
                    if time.monotonic() > give_up:
                        raise FabricError(f"could not take the fabric lock {self.dir}/fabric.lock "
                                          f"within {self.deadline:g} s")
                    time.sleep(0.05)
            yield
        finally:
            os.close(fd)  # releases the lock

    def save(self, state):
        path = self.path(state["job"])
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump(state, f, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        with contextlib.suppress(OSError):
            dir_fd = os.open(os.path.dirname(path), os.O_RDONLY)
            os.fsync(dir_fd)
            os.close(dir_fd)

    def load(self, job):
        try:
            with open(self.path(job)) as f:
                return json.load(f)
        except FileNotFoundError:
            return None

    def delete(self, job):
        with contextlib.suppress(FileNotFoundError):
            os.remove(self.path(job))

    def jobs(self, prefix=None):
        """Job ids with a state file; with prefix ID: ID itself and ID@node ones."""
        names = sorted(n[:-5] for n in os.listdir(os.path.join(self.dir, "jobs")) if n.endswith(".json"))
        if prefix is None:
            return names
        return [n for n in names if n == prefix or n.startswith(prefix + "@")]


def system_name(job):
    return f"squall-job-{job}"


def check_job_id(job):
    if not job or any(c in job for c in "/\\ \t\n") or job.startswith("."):
        raise UsageError(f"job id '{job}': expected a name without slashes or spaces")


# ----------------------------------------------------------------------------- workflow

def compose(backend, store, job, gpus, host, zone=None, mode="auto"):
    """Composes `gpus` GPUs for `host` as job `job`; returns the job's state."""
    check_job_id(job)
    if gpus < 1:
        raise UsageError(f"--gpus {gpus}: expected at least 1")
    with store.lock():
        if store.load(job) is not None:
            raise UsageError(f"job {job} already has a composition (state {store.path(job)}); "
                             f"free it first: squall-compose free --job {job}")
        blocks = backend.inventory()
        compute = next((b for b in blocks if b["type"] == "Compute" and b["id"] == host), None)
        host_system = backend.host_system(host) if mode in ("auto", "expand") else None
        if mode == "expand" and host_system is None:
            raise Refused(f"host {host} has no expandable system (ComputerSystem.AddResourceBlock)")
        if host_system is None and compute is None:
            raise Refused(f"host {host}: no compute resource block of that name and no expandable system; "
                          f"known blocks: {', '.join(b['id'] for b in blocks)}")
        def in_zone(b):  # the given zone, else the host's
            if zone:
                return any(z == zone or z.endswith("/" + zone) for z in b["zones"])
            return compute is None or bool(set(compute["zones"]) & set(b["zones"]))

        usable = [b for b in blocks
                  if b["type"] == "Processor" and b["state"] == "Unused" and not b["reserved"] and in_zone(b)]
        if len(usable) < gpus:
            total = sum(b["type"] == "Processor" and in_zone(b) for b in blocks)
            raise (Impossible if total < gpus else Refused)(f"{gpus} GPUs requested for host {host}, but only {len(usable)} of {total} GPU blocks "
                          f"are free{' in zone ' + zone if zone else ''}; nothing was composed")
        chosen = [b["ref"] for b in usable[:gpus]]
        state = {"job": job, "backend": backend.name, "host": host, "mode": "expand" if host_system else "new",
                 "system": host_system, "gpus": chosen, "reserved": [], "attached": [], "phase": "reserving",
                 "pid": os.getpid(), "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        to_reserve = chosen if host_system else [compute["ref"]] + chosen
        if not host_system and (compute["state"] != "Unused" or compute["reserved"]):
            raise Refused(f"host {host}'s compute block is {compute['state']}"
                          f"{' and reserved' if compute['reserved'] else ''}")
        store.save(state)
        try:
            for ref in to_reserve:
                state["reserved"].append(ref)  # intent first: a crash here leaves it to free
                store.save(state)
                backend.reserve(ref)
            state["phase"] = "composing"
            store.save(state)
            if host_system:
                for ref in chosen:
                    state["attached"].append(ref)
                    store.save(state)
                    backend.add_block(host_system, ref)
            else:
                state["system"] = backend.compose_system(system_name(job), to_reserve)
                store.save(state)
            for ref in list(state["reserved"]):
                backend.unreserve(ref)
                state["reserved"].remove(ref)
                store.save(state)
            state["phase"] = "composed"
            store.save(state)
        except BaseException as failure:
            log(f"job {job}: composition failed ({describe(failure)}); rolling back")
            try:
                release(backend, state)
            except Incomplete as e:
                store.save(state)
                raise Incomplete(f"composition failed ({describe(failure)}) and the rollback is incomplete: {e}; "
                                 f"run `squall-compose free --job {job}`") from failure
            store.delete(job)
            raise
    system = state["system"]
    log(f"job {job}: composed {len(chosen)} GPU(s) for {host} "
        f"({'added to' if state['mode'] == 'expand' else 'as'} {system}): {', '.join(chosen)}")
    return state


def describe(e):
    return "interrupted" if isinstance(e, KeyboardInterrupt) else str(e) or type(e).__name__


def release(backend, state):
    """Undoes what `state` records, as far as it got. Idempotent. Raises Incomplete
    listing what is left (and keeps those parts in state)."""
    problems = []
    job = state["job"]
    if state["mode"] == "new":
        systems = [state["system"]] if state.get("system") else []
        try:
            systems += [s for s in backend.systems_named(system_name(job)) if s not in systems]
        except FabricError as e:
            problems.append(f"listing systems: {e}")
        for system in systems:
            try:
                backend.delete_system(system)
            except FabricError as e:
                problems.append(f"deleting {system}: {e}")
        if not problems:
            state["system"] = None
    else:
        try:
            present = set(backend.system_blocks(state["system"]))
        except FabricError as e:
            present = set(state["attached"])
            problems.append(f"reading {state['system']}: {e}")
        for ref in list(state["attached"]):
            try:
                if ref in present:
                    backend.remove_block(state["system"], ref)
                state["attached"].remove(ref)
            except FabricError as e:
                problems.append(f"removing {ref} from {state['system']}: {e}")
    for ref in list(state["reserved"]):
        try:
            backend.unreserve(ref)
            state["reserved"].remove(ref)
        except FabricError as e:
            problems.append(f"releasing the reservation of {ref}: {e}")
    if problems:
        raise Incomplete("; ".join(problems))


def free(backend, store, job, only_recorded=False):
    """Frees job `job` (and `job@node` parts). Without a state file, also deletes systems
    still named after the job, unless `only_recorded`. Returns the number freed."""
    check_job_id(job)
    freed = 0
    with store.lock():
        jobs = store.jobs(prefix=job)
        for name in jobs:
            state = store.load(name)
            try:
                release(backend, state)
            except Incomplete as e:
                store.save(state)
                raise Incomplete(f"job {name}: {e}; the state is kept in {store.path(name)}")
            store.delete(name)
            log(f"job {name}: freed {len(state['gpus'])} GPU(s) of {state['host']}")
            freed += 1
        if not jobs and backend.name == "redfish" and not only_recorded:
            # No state (lost, or never written): a system still named after the job is ours.
            for system in backend.systems_named(system_name(job)):
                backend.delete_system(system)
                log(f"job {job}: deleted {system} (found by name, no state file)")
                freed += 1
    if freed == 0 and not only_recorded:
        log(f"job {job}: nothing composed")
    return freed


def status(backend, store, job=None):
    blocks = backend.inventory()
    jobs = {name: store.load(name) for name in store.jobs(prefix=job)}
    return {"blocks": blocks, "jobs": jobs}


def print_status(report):
    print(f"{'block':14s} {'type':10s} {'state':22s} {'reserved':9s} systems")
    for b in report["blocks"]:
        print(f"{b['id']:14s} {b['type']:10s} {b['state']:22s} {'yes' if b['reserved'] else 'no':9s} "
              f"{', '.join(s.rsplit('/', 1)[-1] for s in b['systems']) or '-'}")
    if not report["jobs"]:
        print("no jobs with a composition")
    for name, s in report["jobs"].items():
        print(f"job {name}: {s['phase']}, host {s['host']}, {s['mode']} {s.get('system') or '-'}, "
              f"GPUs {', '.join(g.rsplit('/', 1)[-1] for g in s['gpus'])} (launcher pid {s['pid']})")


def run(backend, store, job, gpus, host, zone, command):
    """Composes, runs `command`, frees on every exit path; returns the command's status."""
    received = []

    def on_signal(signum, _frame):
        received.append(signum)
        if child is not None:
            with contextlib.suppress(ProcessLookupError):
                child.send_signal(signum)
        elif signum == signal.SIGINT or signum == signal.SIGTERM or signum == signal.SIGHUP:
            raise KeyboardInterrupt  # during composition: roll back

    child = None
    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        try:
            state = compose(backend, store, job, gpus, host, zone)
        except KeyboardInterrupt:
            log(f"job {job}: interrupted during composition; rolled back")
            return 128 + (received[-1] if received else signal.SIGINT)
        env = dict(os.environ, SQUALL_COMPOSE_JOB=job, SQUALL_COMPOSED_SYSTEM=state["system"] or "",
                   SQUALL_COMPOSED_GPUS=",".join(g.rsplit("/", 1)[-1] for g in state["gpus"]))
        try:
            child = subprocess.Popen(command, env=env)
        except OSError as e:
            log(f"cannot start {command[0]}: {e.strerror}")
            return 127
        while True:
            try:
                rc = child.wait()
                break
            except KeyboardInterrupt:
                continue
        if received:
            log(f"job {job}: command ended after signal {received[0]} (status {rc})")
        return rc if rc >= 0 else 128 - rc
    finally:
        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(s, signal.SIG_IGN)  # freeing must not be interrupted
        try:
            free(backend, store, job)
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)


# ----------------------------------------------------------------------------- command line

def parser(doc):
    p = argparse.ArgumentParser(prog="squall-compose", description=doc.split("\n\n")[0], epilog=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", help="settings file (key = value lines)")
    p.add_argument("--endpoint", help="Redfish service root, e.g. https://fabric.example:443/redfish/v1")
    p.add_argument("--backend", choices=["redfish", "none"])
    p.add_argument("--state-dir", dest="state_dir")
    p.add_argument("--credentials-file", dest="credentials_file", help="file holding user:password")
    p.add_argument("--deadline", help="seconds to keep retrying a busy fabric (default 120)")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("compose", help="compose GPUs for a job")
    f = sub.add_parser("free", help="free a job's GPUs (idempotent)")
    st = sub.add_parser("status", help="blocks and jobs")
    r = sub.add_parser("run", help="compose, run a command, free")
    for s in (c, r):
        s.add_argument("--gpus", type=int, required=True)
        s.add_argument("--host")
        s.add_argument("--zone")
    for s in (c, f):
        s.add_argument("--job", required=True)
    f.add_argument("--only-recorded", action="store_true",
                   help="free only what a state file records (no search of the fabric by name)")
    c.add_argument("--mode", choices=["auto", "new", "expand"], default="auto",
                   help="new system, or add to the host's expandable system (auto: expand when possible)")
    r.add_argument("--job", help="job id (default: run-PID)")
    r.add_argument("cmd", nargs=argparse.REMAINDER, help="-- command and arguments")
    st.add_argument("--job")
    st.add_argument("--json", action="store_true")
    return p


def main(argv, doc):
    args = parser(doc).parse_args(argv)
    try:
        settings = resolve_settings(args)
        host = getattr(args, "host", None) or settings["host"]
        backend = make_backend(settings, host)
        store = Store(settings["state_dir"], settings["deadline"])
        if args.command == "compose":
            compose(backend, store, args.job, args.gpus, host, args.zone, args.mode)
        elif args.command == "free":
            free(backend, store, args.job, args.only_recorded)
        elif args.command == "status":
            report = status(backend, store, args.job)
            if args.json:
                print(json.dumps(report, indent=1))
            else:
                print_status(report)
        elif args.command == "run":
            command = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
            if not command:
                raise UsageError("run: give the command after --, e.g. squall-compose run --gpus 2 -- mpirun -n 2 "
                                 "squall run case.toml")
            return run(backend, store, args.job or f"run-{os.getpid()}", args.gpus, host, args.zone, command)
        return 0
    except UsageError as e:
        log(f"error: {e}")
        return EXIT_USAGE
    except Refused as e:
        log(f"refused: {e}")
        return EXIT_IMPOSSIBLE if isinstance(e, Impossible) else EXIT_REFUSED
    except Incomplete as e:
        log(f"error: {e}")
        return EXIT_INCOMPLETE
    except FabricError as e:
        log(f"fabric error: {e}")
        return EXIT_FABRIC
    except KeyboardInterrupt:
        log("interrupted")
        return 130
