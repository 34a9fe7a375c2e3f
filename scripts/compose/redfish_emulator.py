#!/usr/bin/env python3
"""A small Redfish CompositionService emulator, for testing squall-compose.

  redfish_emulator.py --gpus 4 [--host node1] [--expandable] [--port 0] [--port-file F] [--user U --password-file P]

Serves, on 127.0.0.1 only, a composable fabric with one host (a Compute resource block;
with --expandable also a ComputerSystem of the same name that can gain blocks) and
--gpus GPU resource blocks, all in one ResourceZone (DMTF Redfish, DSP0268: CompositionService, ResourceBlock,
ResourceZone, ComputerSystem):

  GET    /redfish/v1, /redfish/v1/CompositionService, .../ResourceBlocks[/ID],
         .../ResourceZones[/ID], /redfish/v1/Systems[/ID]
  PATCH  .../ResourceBlocks/ID  {"CompositionStatus": {"Reserved": true|false}}
  POST   /redfish/v1/Systems  {"Name": ..., "Links": {"ResourceBlocks": [{"@odata.id": ...}]}}
         -> 201 with a Location header (specific composition)
  DELETE /redfish/v1/Systems/ID  (a composed system; 404 when it does not exist)
  POST   /redfish/v1/Systems/ID/Actions/ComputerSystem.AddResourceBlock and
         .../ComputerSystem.RemoveResourceBlock  {"ResourceBlock": {"@odata.id": ...}}
         (expandable composition of the host's own system)

Test controls (not Redfish) under /emulator:
  GET  /emulator/state   every block's state, reservation and system, and the call count
  POST /emulator/faults  {"fail_calls": [k, ...]}   503 on those fabric calls (1-based)
                         {"busy_calls": n}          503 with Retry-After on the next n calls
                         {"fail_after_blocks": m}   a composition or AddResourceBlock fails
                                                    (500) once m blocks are attached,
                                                    leaving them attached (partial failure)
                         {"delay": s}               every fabric call takes s seconds more
                         {"retry_after": s}         busy replies carry Retry-After: s
  POST /emulator/reset   everything Unused, unreserved, faults cleared

With --user and --password-file every Redfish request needs HTTP basic auth (401
otherwise). The chosen port goes to --port-file (written atomically) once listening.
Python standard library only.
"""
import argparse
import base64
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ROOT = "/redfish/v1"
BLOCKS = ROOT + "/CompositionService/ResourceBlocks"
ZONES = ROOT + "/CompositionService/ResourceZones"
SYSTEMS = ROOT + "/Systems"


class Fabric:
    """The emulated state; every method runs under the lock."""

    def __init__(self, host, gpus, expandable):
        self.lock = threading.Lock()
        self.host, self.gpus, self.expandable = host, gpus, expandable
        self.reset()

    def reset(self):
        self.blocks = {}
        self.blocks[self.host] = {"type": "Compute", "state": "Unused", "reserved": False, "system": None}
        for i in range(self.gpus):
            self.blocks[f"gpu{i}"] = {"type": "Processor", "state": "Unused", "reserved": False, "system": None}
        # With --expandable the host's own system exists, holds its compute block and can
        # gain or lose GPU blocks; otherwise systems exist only when composed by POST.
        self.systems = {}
        if self.expandable:
            self.systems[self.host] = {"name": self.host, "blocks": [], "expandable": True}
            self.blocks[self.host].update(state="Composed", system=self.host)
        self.next_system = 1
        self.calls = 0
        self.faults = {"fail_calls": [], "busy_calls": 0, "fail_after_blocks": None, "delay": 0.0}

    def block_json(self, bid):
        b = self.blocks[bid]
        doc = {
            "@odata.id": f"{BLOCKS}/{bid}",
            "@odata.type": "#ResourceBlock.v1_4_0.ResourceBlock",
            "Id": bid,
            "Name": bid,
            "ResourceBlockType": [b["type"]],
            "CompositionStatus": {"CompositionState": b["state"], "Reserved": b["reserved"],
                                  "SharingCapable": False},
            "Links": {"Zones": [{"@odata.id": f"{ZONES}/zone1"}],
                      "ComputerSystems": [{"@odata.id": f"{SYSTEMS}/{b['system']}"}] if b["system"] else []},
        }
        if b["type"] == "Processor":
            doc["Processors"] = [{"@odata.id": f"{BLOCKS}/{bid}/Processors/0"}]
            doc["Oem"] = {"Emulator": {"ProcessorType": "GPU", "Model": "emulated GPU"}}
        return doc

    def system_json(self, sid):
        s = self.systems[sid]
        blocks = ([self.host] if s["expandable"] else []) + s["blocks"]
        doc = {
            "@odata.id": f"{SYSTEMS}/{sid}",
            "@odata.type": "#ComputerSystem.v1_20_0.ComputerSystem",
            "Id": sid,
            "Name": s["name"],
            "SystemType": "Physical" if s["expandable"] else "Composed",
            "Links": {"ResourceBlocks": [{"@odata.id": f"{BLOCKS}/{b}"} for b in blocks]},
        }
        if s["expandable"]:
            doc["Actions"] = {
                "#ComputerSystem.AddResourceBlock": {"target": f"{SYSTEMS}/{sid}/Actions/ComputerSystem.AddResourceBlock"},
                "#ComputerSystem.RemoveResourceBlock": {
                    "target": f"{SYSTEMS}/{sid}/Actions/ComputerSystem.RemoveResourceBlock"},
            }
        return doc

    def attach(self, sid, bids):
        """Attaches blocks one by one; the fail_after_blocks fault stops after m."""
        limit = self.faults["fail_after_blocks"]
        for bid in bids:
            if limit is not None and len(self.systems[sid]["blocks"]) >= limit:
                return 500, {"error": {"message": f"fabric error while attaching {bid} (injected)"}}
            b = self.blocks[bid]
            b["state"], b["system"] = "Composed", sid
            self.systems[sid]["blocks"].append(bid)
        return None

    def detach(self, sid, bid):
        b = self.blocks[bid]
        b["state"], b["system"] = "Unused", None
        self.systems[sid]["blocks"].remove(bid)


def block_id(ref):
    """The block id of {"@odata.id": ".../ResourceBlocks/ID"}, or None."""
    if not isinstance(ref, dict) or not isinstance(ref.get("@odata.id"), str):
        return None
    path = ref["@odata.id"].rstrip("/")
    return path[len(BLOCKS) + 1:] if path.startswith(BLOCKS + "/") else None


def error(message, code=400):
    return code, {"error": {"code": "Base.1.0.GeneralError", "message": message}}


def handle(fabric, method, path, body):
    """One fabric call: returns (status, document or None, extra headers)."""
    f = fabric
    path = path.rstrip("/") or "/"
    if method == "GET":
        if path == ROOT:
            return 200, {"@odata.id": ROOT, "CompositionService": {"@odata.id": ROOT + "/CompositionService"},
                         "Systems": {"@odata.id": SYSTEMS}}, {}
        if path == ROOT + "/CompositionService":
            return 200, {"@odata.id": path, "ServiceEnabled": True, "AllowOverprovisioning": False,
                         "ResourceBlocks": {"@odata.id": BLOCKS}, "ResourceZones": {"@odata.id": ZONES}}, {}
        if path == BLOCKS:
            members = [{"@odata.id": f"{BLOCKS}/{b}"} for b in f.blocks]
            return 200, {"@odata.id": path, "Members": members, "Members@odata.count": len(members)}, {}
        if path.startswith(BLOCKS + "/") and path[len(BLOCKS) + 1:] in f.blocks:
            return 200, f.block_json(path[len(BLOCKS) + 1:]), {}
        if path == ZONES:
            return 200, {"@odata.id": path, "Members": [{"@odata.id": f"{ZONES}/zone1"}], "Members@odata.count": 1}, {}
        if path == f"{ZONES}/zone1":
            return 200, {"@odata.id": path, "Id": "zone1", "Name": "zone1",
                         "Links": {"ResourceBlocks": [{"@odata.id": f"{BLOCKS}/{b}"} for b in f.blocks]},
                         "@Redfish.CollectionCapabilities": {"Capabilities": [{"UseCase": "ComputerSystemComposition"}]}}, {}
        if path == SYSTEMS:
            members = [{"@odata.id": f"{SYSTEMS}/{s}"} for s in f.systems]
            return 200, {"@odata.id": path, "Members": members, "Members@odata.count": len(members)}, {}
        if path.startswith(SYSTEMS + "/") and path[len(SYSTEMS) + 1:] in f.systems:
            return 200, f.system_json(path[len(SYSTEMS) + 1:]), {}
        return (*error("not found: " + path, 404), {})
    if method == "PATCH" and path.startswith(BLOCKS + "/"):
        bid = path[len(BLOCKS) + 1:]
        if bid not in f.blocks:
            return (*error("no such resource block: " + bid, 404), {})
        reserved = (body or {}).get("CompositionStatus", {}).get("Reserved")
        if not isinstance(reserved, bool):
            return (*error("expected {\"CompositionStatus\": {\"Reserved\": true|false}}"), {})
        b = f.blocks[bid]
        if reserved and b["reserved"]:
            return (*error(f"resource block {bid} is already reserved", 409), {})
        b["reserved"] = reserved
        return 200, f.block_json(bid), {}
    if method == "POST" and path == SYSTEMS:
        refs = (body or {}).get("Links", {}).get("ResourceBlocks")
        if not isinstance(refs, list) or not refs:
            return (*error("expected Links.ResourceBlocks, a list of resource block references"), {})
        bids = [block_id(r) for r in refs]
        for bid in bids:
            if bid not in f.blocks:
                return (*error(f"no such resource block: {bid}"), {})
            if f.blocks[bid]["state"] != "Unused":
                return (*error(f"resource block {bid} is {f.blocks[bid]['state']}", 409), {})
        if sum(f.blocks[b]["type"] == "Compute" for b in bids) != 1:
            return (*error("a composed system needs exactly one Compute block"), {})
        sid = f"composed{f.next_system}"
        f.next_system += 1
        f.systems[sid] = {"name": str((body or {}).get("Name", sid)), "blocks": [], "expandable": False}
        failed = f.attach(sid, bids)
        if failed:
            return (*failed, {})  # partial: the system exists with the blocks attached so far
        return 201, f.system_json(sid), {"Location": f"{SYSTEMS}/{sid}"}
    if method == "DELETE" and path.startswith(SYSTEMS + "/"):
        sid = path[len(SYSTEMS) + 1:]
        if sid not in f.systems:
            return (*error("no such system: " + sid, 404), {})
        if f.systems[sid]["expandable"]:
            return (*error(f"system {sid} is not a composed system", 405), {})
        for bid in list(f.systems[sid]["blocks"]):
            f.detach(sid, bid)
        del f.systems[sid]
        return 204, None, {}
    if method == "POST" and path.startswith(SYSTEMS + "/") and "/Actions/ComputerSystem." in path:
        sid, action = path[len(SYSTEMS) + 1:].split("/Actions/ComputerSystem.", 1)
        if sid not in f.systems or not f.systems[sid]["expandable"]:
            return (*error("no such expandable system: " + sid, 404), {})
        bid = block_id((body or {}).get("ResourceBlock"))
        if bid not in f.blocks:
            return (*error(f"no such resource block: {bid}"), {})
        if action == "AddResourceBlock":
            if f.blocks[bid]["state"] != "Unused":
                return (*error(f"resource block {bid} is {f.blocks[bid]['state']}", 409), {})
            failed = f.attach(sid, [bid])
            return (*failed, {}) if failed else (200, f.system_json(sid), {})
        if action == "RemoveResourceBlock":
            if bid not in f.systems[sid]["blocks"]:
                return (*error(f"resource block {bid} is not part of {sid}"), {})
            f.detach(sid, bid)
            return 200, f.system_json(sid), {}
        return (*error("unknown action " + action, 404), {})
    return (*error(f"{method} not supported on {path}", 405), {})


class Handler(BaseHTTPRequestHandler):
    server_version = "SquallRedfishEmulator/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("redfish_emulator: " + fmt % args + "\n")

    def reply(self, status, doc=None, headers=None):
        data = b"" if doc is None else json.dumps(doc, indent=1).encode()
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        if doc is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n == 0:
            return None
        try:
            return json.loads(self.rfile.read(n))
        except ValueError:
            return "invalid"

    def dispatch(self, method):
        fabric = self.server.fabric
        body = self.body()
        if self.path.startswith("/emulator/"):
            return self.control(method, body)
        if self.server.credentials and self.headers.get("Authorization") != self.server.credentials:
            return self.reply(401, {"error": {"message": "authentication required"}},
                              {"WWW-Authenticate": 'Basic realm="redfish"'})
        if body == "invalid":
            return self.reply(*error("request body is not JSON"))
        with fabric.lock:
            fabric.calls += 1
            call = fabric.calls
            faults = fabric.faults
            delay = faults["delay"]
            busy = call in faults["fail_calls"] or faults["busy_calls"] > 0
            if faults["busy_calls"] > 0:
                faults["busy_calls"] -= 1
        if delay:
            time.sleep(delay)
        if busy:
            retry = faults.get("retry_after")
            return self.reply(503, {"error": {"message": f"service busy (injected, call {call})"}},
                              {} if retry is None else {"Retry-After": str(retry)})
        with fabric.lock:
            status, doc, headers = handle(fabric, method, self.path.split("?")[0], body)
        self.reply(status, doc, headers)

    def control(self, method, body):
        fabric = self.server.fabric
        with fabric.lock:
            if method == "GET" and self.path == "/emulator/state":
                return self.reply(200, {"blocks": fabric.blocks, "calls": fabric.calls,
                                        "systems": {k: v["blocks"] for k, v in fabric.systems.items()}})
            if method == "POST" and self.path == "/emulator/faults" and isinstance(body, dict):
                fabric.faults.update(body)
                return self.reply(200, fabric.faults)
            if method == "POST" and self.path == "/emulator/reset":
                fabric.reset()
                return self.reply(200, {"reset": True})
        return self.reply(404, {"error": {"message": "unknown control " + self.path}})

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gpus", type=int, default=4, help="GPU resource blocks (default 4)")
    p.add_argument("--host", default="node1", help="name of the host's compute block and system (default node1)")
    p.add_argument("--expandable", action="store_true",
                   help="the host has its own system, which gains GPUs by AddResourceBlock")
    p.add_argument("--port", type=int, default=0, help="TCP port on 127.0.0.1 (default 0: a free one)")
    p.add_argument("--port-file", help="write the port here once listening")
    p.add_argument("--user", help="require HTTP basic auth with this user...")
    p.add_argument("--password-file", help="...and the password in this file")
    p.add_argument("--verbose", action="store_true", help="log every request to stderr")
    args = p.parse_args(argv)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.fabric = Fabric(args.host, args.gpus, args.expandable)
    server.verbose = args.verbose
    server.credentials = None
    if args.user:
        with open(args.password_file) as f:
            token = base64.b64encode(f"{args.user}:{f.read().strip()}".encode()).decode()
        server.credentials = "Basic " + token
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{port}\n")
        os.replace(tmp, args.port_file)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"redfish_emulator: http://127.0.0.1:{port}{ROOT} ({args.gpus} GPUs, host {args.host})", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
