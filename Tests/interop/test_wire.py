"""A Python client built from docs/PROTOCOL.md talks to the Swift conformance peer.

It exchanges every message kind, sends malformed messages and checks each error
reply, and reads the multi-process routing log back through `trellis logs`.
"""
from __future__ import annotations

import json
import os
import random
import struct
import subprocess
import time

import zmq

import trellis_wire as w

PY = "py-client"


class Client:
    def __init__(self, endpoint: str, ident: str = PY, peer: str = "peer"):
        self.ctx = zmq.Context.instance()
        self.sock = self.ctx.socket(zmq.DEALER)
        self.sock.setsockopt(zmq.ROUTING_ID, ident.encode())
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(endpoint)
        self.ident, self.peer, self.seq = ident, peer, 0

    def send(self, kind: str, body: dict | None = None, flags: int = 0, trace: int = 0, target: str | None = None) -> int:
        self.seq += 1
        env = w.Envelope(kind, body or {}, self.seq, trace, 0, self.ident, target or self.peer, flags)
        self.sock.send_multipart(w.encode(env))
        return self.seq

    def send_raw(self, frames: list[bytes]) -> None:
        self.sock.send_multipart(frames)

    def receive(self, timeout: float = 5.0) -> w.Envelope | None:
        """The next message that is not a heartbeat, or None after `timeout`."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            if not self.sock.poll(int(left * 1000)):
                return None
            env = w.decode(self.sock.recv_multipart())
            if env.kind != "heartbeat":
                return env
        return None

    def close(self) -> None:
        self.sock.close(0)


def header(kind: int, seq: int, source: str = PY, target: str = "peer", flags: int = 0, reserved: int = 0) -> bytes:
    return w.HEADER.pack(kind, flags, reserved, seq, 0, 0, w._pad_id(source), w._pad_id(target))


SAMPLES = [
    ("touch", {"phase": 2, "modifiers": 1, "tap_count": 2, "pointer": 7, "x": -3, "y": 12, "timestamp": 123456789}),
    ("key", {"special": 0, "modifiers": 8, "timestamp": 5, "text": "こんにちは"}),
    ("key", {"special": 4, "modifiers": 0, "timestamp": 6, "text": ""}),
    # Press phases (issue 22): a held Up repeating with Shift, then an `a` let go.
    ("key", {"special": 5, "modifiers": 1, "phase": 1, "timestamp": 7, "text": ""}),
    ("key", {"special": 0, "modifiers": 0, "phase": 2, "timestamp": 8, "text": "a"}),
    ("scroll", {"delta_x": 0, "delta_y": -2, "modifiers": 1, "x": 7, "y": -1, "timestamp": 99}),
    ("traits", {"horizontal": 2, "vertical": 1, "style": 2, "direction": 1, "color_depth": 4, "content_size": 3}),
    ("appearance", {"phase": 0, "animated": True}),
    ("containment", {"phase": 0, "parent": "root"}),
    ("containment", {"phase": 1, "parent": None}),
    ("size", {"width": 200, "height": 60, "duration_ms": 250}),
    ("memory-warning", {}),
    ("frame", {"layer": None, "number": 9, "width": 4, "height": 2, "damage": [
        {"rect": (0, 0, 3, 1), "cells": [(0x5186, 0x02FF0000, 0, 1), (0, 0x02FF0000, 0, 1), (0x41, 0x01000007, 0x02000000 | 0x102030, 8)]},
        {"rect": (3, 1, 1, 1), "cells": [(0x20, 0, 0, 0)]}]}),
    # A layer lifted out of its sender's surface for the compositor to move (issue 20).
    ("frame", {"layer": "card2", "number": 3, "width": 2, "height": 1, "damage": [
        {"rect": (0, 0, 2, 1), "cells": [(0x41, 0, 0, 0), (0x42, 0, 0, 0)]}]}),
    ("placement", {"surface": "sub1", "frame": (2, 3, 40, 10), "z": 1, "clip": (0, 0, 80, 24), "visible": True}),
    ("animation", {"surface": "sub2", "from": (2, 24, 40, 10), "to": (2, 3, 40, 10), "duration_ms": 250, "delay_ms": 0, "curve": 1}),
]


def test_hello_is_acknowledged_and_every_kind_round_trips(start_peer, run_root):
    start_peer("kinds", "--bind", f"ipc://{run_root}/kinds.sock")
    c = Client(f"ipc://{run_root}/kinds.sock")
    try:
        seq = c.send("hello", {"pid": os.getpid(), "heartbeat_ms": 500})
        ack = c.receive()
        assert (ack.kind, ack.correlation, ack.source, ack.target) == ("ack", seq, "peer", PY)

        for i, (kind, body) in enumerate(SAMPLES):
            trace = 0xABC0 + i
            seq = c.send(kind, body, trace=trace)
            echo = c.receive()
            assert echo is not None, kind
            assert (echo.kind, echo.correlation, echo.trace) == (kind, seq, trace)
            assert echo.body == w.decode_body(kind, w.encode_body(kind, body)), kind

        seq = c.send("request", {"name": "showDetail", "payload": b"\x00\x01payload"})
        reply = c.receive()
        assert (reply.kind, reply.correlation, reply.body) == ("reply", seq, {"status": 0, "payload": b"\x00\x01payload"})

        # ack-requested: the echo, then the ack once the handler has run.
        seq = c.send("appearance", {"phase": 1, "animated": False}, flags=w.ACK_REQUESTED)
        got = [c.receive(), c.receive()]
        assert [(g.kind, g.correlation) for g in got] == [("appearance", seq), ("ack", seq)]

        # Link-level kinds are consumed quietly: no echo, no error.
        c.send("heartbeat")
        c.send("ack")
        c.send("reply", {"status": 0, "payload": b""})
        c.send("error", {"code": 7, "text": "just testing"})
        seq = c.send("memory-warning")
        nxt = c.receive()
        assert (nxt.kind, nxt.correlation) == ("memory-warning", seq)

        # Sequences only correlate (docs/PROTOCOL.md §6.6): zero, repeated and backward
        # ones are taken as they come, each answer naming the one it answers.
        for forced in (0, 0, 5, 3):
            c.seq = forced - 1
            seq = c.send("memory-warning")
            echo = c.receive()
            assert (echo.kind, echo.correlation) == ("memory-warning", forced), echo
    finally:
        c.close()


def malformed_cases():
    ok_touch = w.encode_body("touch", SAMPLES[0][1])
    good = lambda kind=16, **kw: header(kind, 100, **kw)  # noqa: E731
    return [
        ("three frames", [b"", w.PROTOCOL, good()], "malformed-frames"),
        ("five frames", [b"", w.PROTOCOL, good(), ok_touch, b"extra"], "malformed-frames"),
        ("non-empty delimiter", [b"x", w.PROTOCOL, good(), ok_touch], "malformed-frames"),
        ("not trellis", [b"", b"HTTP", good(), ok_touch], "malformed-frames"),
        ("version 2", [b"", b"TRL\x02", good(), ok_touch], "unsupported-version"),
        ("short header", [b"", w.PROTOCOL, good()[:95], ok_touch], "malformed-header"),
        ("reserved set", [b"", w.PROTOCOL, header(16, 100, reserved=1), ok_touch], "malformed-header"),
        ("bad id byte", [b"", w.PROTOCOL, good()[:32] + b"py client" + b"\0" * 23 + good()[64:], ok_touch], "malformed-header"),
        ("id byte after padding", [b"", w.PROTOCOL, good()[:32] + b"py\0x" + b"\0" * 28 + good()[64:], ok_touch], "malformed-header"),
        ("someone else's source", [b"", w.PROTOCOL, header(16, 100, source="mallory"), ok_touch], "malformed-header"),
        ("unknown kind", [b"", w.PROTOCOL, header(999, 100), b""], "unknown-kind"),
        ("unknown flag", [b"", w.PROTOCOL, header(16, 100, flags=8), ok_touch], "unsupported-flags"),
        ("truncated touch", [b"", w.PROTOCOL, good(), ok_touch[:10]], "truncated-body"),
        ("oversized appearance", [b"", w.PROTOCOL, good(33), b"\x00\x00\x00"], "oversized-body"),
        ("oversized request", [b"", w.PROTOCOL, good(64), b"\x01a" + struct.pack("<I", 70000) + b"x" * 70000], "oversized-body"),
        ("bad appearance phase", [b"", w.PROTOCOL, good(33), b"\x09\x00"], "invalid-body"),
        ("bad bool", [b"", w.PROTOCOL, good(33), b"\x00\x02"], "invalid-body"),
        ("trailing bytes", [b"", w.PROTOCOL, good(17), struct.pack("<HBBQH", 0, 0, 0, 0, 1) + b"ab"], "invalid-body"),
        ("text length past the end", [b"", w.PROTOCOL, good(17), struct.pack("<HBBQH", 0, 0, 0, 0, 9) + b"ab"], "truncated-body"),
        # A key's phase is 0 began, 1 repeated, 2 ended (issue 22); 3 is nothing.
        ("unknown key phase", [b"", w.PROTOCOL, good(17), struct.pack("<HBBQH", 0, 0, 3, 0, 1) + b"a"], "invalid-body"),
        ("not UTF-8", [b"", w.PROTOCOL, good(64), b"\x02\xff\xfe" + struct.pack("<I", 0)], "invalid-body"),
        ("empty request name", [b"", w.PROTOCOL, good(64), b"\x00" + struct.pack("<I", 0)], "invalid-body"),
        ("damage outside surface", [b"", w.PROTOCOL, good(48), struct.pack("<IHHH", 1, 2, 2, 1) + struct.pack("<HHHH", 1, 1, 2, 1) + b"\0" * 28], "invalid-body"),
        ("bad colour mode", [b"", w.PROTOCOL, good(48), struct.pack("<IHHH", 1, 1, 1, 1) + struct.pack("<HHHH", 0, 0, 1, 1) + struct.pack("<IIIH", 65, 0x07000000, 0, 0)], "invalid-body"),
        ("surrogate scalar", [b"", w.PROTOCOL, good(48), struct.pack("<IHHH", 1, 1, 1, 1) + struct.pack("<HHHH", 0, 0, 1, 1) + struct.pack("<IIIH", 0xD800, 0, 0, 0)], "invalid-body"),
        ("unknown target", [b"", w.PROTOCOL, header(16, 100, target="nobody"), ok_touch], "unknown-target"),
    ]


def test_malformed_messages_get_the_right_error_and_lose_nothing(start_peer, run_root):
    start_peer("garbage", "--bind", f"ipc://{run_root}/garbage.sock")
    c = Client(f"ipc://{run_root}/garbage.sock")
    try:
        for name, frames, code in malformed_cases():
            c.send_raw(frames)
            err = c.receive()
            assert err is not None, f"{name}: no reply"
            assert err.kind == "error", f"{name}: got {err.kind}"
            assert err.body["name"] == code, f"{name}: {err.body}"
            # The sequence is answered whenever the header could be read.
            readable_header = code not in ("malformed-frames", "unsupported-version", "malformed-header") \
                or name == "someone else's source"
            assert err.correlation == (100 if readable_header else 0), name
            # Addressed to who really sent it (the routing id), whatever the header claimed.
            assert err.target == PY, name

        # A malformed *error* is never answered (no error ping-pong).
        c.send_raw([b"", w.PROTOCOL, header(3, 101), b"\x07"])
        assert c.receive(timeout=0.3) is None

        # Random garbage: always an error reply, never a crash.
        rnd = random.Random(2026)
        for i in range(200):
            frames = [bytes(rnd.getrandbits(8) for _ in range(rnd.choice([0, 1, 4, 96, 97, 130])))
                      for _ in range(rnd.randint(1, 6))]
            if rnd.random() < 0.5 and len(frames) == 4:
                frames[0], frames[1] = b"", w.PROTOCOL
            c.send_raw(frames)
            err = c.receive()
            assert err is not None and err.kind == "error", f"garbage #{i}: {frames!r}"

        # …and the connection still works.
        seq = c.send("touch", SAMPLES[0][1])
        echo = c.receive()
        assert (echo.kind, echo.correlation) == ("touch", seq)
    finally:
        c.close()


def logs(trellis: str, run_root: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([trellis, "logs", *args], capture_output=True, text=True, timeout=30,
                          env=dict(os.environ, TRELLIS_RUN_ROOT=run_root))


def test_trellis_logs_merges_and_filters_a_multi_process_session(trellis, start_peer, run_root):
    endpoint = f"ipc://{run_root}/tree.sock"
    parent = start_peer("tree", "--bind", endpoint, "--id", "root")
    child = start_peer("tree", "--connect", endpoint, "--id", "kid", "--parent", "root")
    c = Client(endpoint, peer="root")
    try:
        c.send("touch", SAMPLES[0][1], trace=0xFEED)
        assert c.receive().kind == "touch"
        c.send_raw([b"", b"TRL\x02", header(16, 1, target="root"), b""])
        assert c.receive().kind == "error"
        time.sleep(0.3)  # heartbeats each way, which are not logged
    finally:
        c.close()
        child.stop()
        parent.stop()

    merged = logs(trellis, run_root, "--session", "tree", "--json")
    assert merged.returncode == 0, merged.stderr
    lines = [json.loads(x) for x in merged.stdout.splitlines()]
    assert {x["host"] for x in lines} == {"peer-root", "peer-kid"}
    assert len({x["pid"] for x in lines}) == 2
    monos = [x["mono_ns"] for x in lines]
    assert monos == sorted(monos), "lines of both processes merged by monotonic time"
    # The child's hello is sent in one process and received in the other.
    hello = [x for x in lines if x["kind"] == "hello"]
    assert {(x["at"], x["outcome"]) for x in hello} >= {("kid", "sent"), ("root", "received")}
    assert not any(x["kind"] == "heartbeat" for x in lines), "liveness is logged as lost/connected, not per heartbeat"

    kid = [json.loads(x) for x in logs(trellis, run_root, "--session", "tree", "--json", "-c", "kid").stdout.splitlines()]
    assert kid and all("kid" in (x["src"], x["dst"], x["at"]) for x in kid)
    traced = [json.loads(x) for x in logs(trellis, run_root, "--session", "tree", "--json", "--trace", "feed").stdout.splitlines()]
    assert [(x["kind"], x["outcome"]) for x in traced] == [("touch", "delivered"), ("touch", "sent")]
    rejected = [json.loads(x) for x in logs(trellis, run_root, "--session", "tree", "--json", "-o", "rejected").stdout.splitlines()]
    assert len(rejected) == 1 and rejected[0]["reason"].startswith("unsupported-version")
    both = logs(trellis, run_root, "--session", "tree", "--json", "-k", "hello", "-k", "ack", "-o", "sent")
    assert {json.loads(x)["kind"] for x in both.stdout.splitlines()} == {"hello", "ack"}

    table = logs(trellis, run_root, "--session", "tree", "-k", "touch")
    assert table.stdout.splitlines()[0].startswith("TIME")
    assert "py-client → root" in table.stdout and "delivered" in table.stdout

    # A damaged log file: the bad line is reported with its place, the rest is shown.
    logdir = os.path.join(run_root, "tree", "logs")
    victim = sorted(os.listdir(logdir))[0]
    with open(os.path.join(logdir, victim), "a") as f:
        f.write("this is not json\n")
        f.write('{"mono_ns": 1}\n')
    again = logs(trellis, run_root, "--session", "tree", "--json")
    assert again.returncode == 0
    assert len(again.stdout.splitlines()) == len(lines)
    assert f"{victim}:" in again.stderr and "not JSON" in again.stderr and "missing field" in again.stderr

    bad = logs(trellis, run_root, "--session", "no-such-session")
    assert bad.returncode != 0 and "no session" in bad.stderr
    bad = logs(trellis, run_root, "--session", "tree", "-o", "exploded")
    assert bad.returncode != 0 and "unknown outcome" in bad.stderr
