"""A Python test client drives a running session (docs/SCENES.md) over the wire
protocol alone: it attaches to the compositor's control endpoint, reads the composed
screen, taps the child's "leave" button, and reads the routing log back.

The scene is deploy/scenes/parity.yaml: a container whose child runs in another
process and asks, by delegation, to leave (S2-4's order).
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import time

from conftest import ROOT
from test_wire import Client
import trellis_wire as w


class Session:
    def __init__(self, trellis: str, run_root: str):
        self.trellis, self.run_root = trellis, run_root
        self.name = f"py-{random.randrange(1 << 32)}"
        self.up = subprocess.Popen(
            [trellis, "up", "deploy/scenes/parity.yaml", "--headless", "--session", self.name, "--run-root", run_root],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        control = f"{run_root}/{self.name}/control.sock"
        deadline = time.monotonic() + 20
        while not os.path.exists(control):
            assert self.up.poll() is None, f"trellis up exited: {self.up.stderr.read()}"
            assert time.monotonic() < deadline, "the compositor's control endpoint never appeared"
            time.sleep(0.05)
        self.client = Client(f"ipc://{control}", ident=f"client-py-{os.getpid()}", peer="control")
        seq = self.client.send("hello", {"pid": os.getpid(), "heartbeat_ms": 500})
        ack = self.client.receive(10)
        assert ack is not None and (ack.kind, ack.correlation) == ("ack", seq)

    def request(self, kind: str, body: dict, flags: int = 0) -> w.Envelope:
        seq = self.client.send(kind, body, flags=flags, trace=random.randrange(1, 1 << 63))
        while True:
            answer = self.client.receive(10)
            assert answer is not None, f"no answer to {kind}"
            if answer.correlation == seq:
                return answer

    def screen(self) -> str:
        reply = self.request("request", {"name": "screen", "payload": b""})
        assert reply.kind == "reply" and reply.body["status"] == 0
        return reply.body["payload"].decode()

    def wait_for(self, predicate, what: str, timeout: float = 15) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if predicate(shown):
                return shown
            assert time.monotonic() < deadline, f"timed out waiting for {what}; the screen shows:\n{shown}"
            time.sleep(0.05)

    def tap(self, x: int, y: int) -> None:
        for phase in (0, 2):  # began, ended
            self.request("touch", {"phase": phase, "modifiers": 0, "tap_count": 1, "pointer": 0, "x": x, "y": y,
                                   "timestamp": time.monotonic_ns()}, flags=w.ACK_REQUESTED)

    def cli(self, *args: str) -> str:
        return subprocess.run([self.trellis, *args, "--session", self.name, "--run-root", self.run_root],
                              check=True, capture_output=True, text=True, timeout=30).stdout

    def down(self) -> None:
        self.client.close()
        if self.up.poll() is None:
            subprocess.run([self.trellis, "down", "--session", self.name, "--run-root", self.run_root], timeout=30)
            try:
                self.up.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.up.kill()
                raise


def test_a_python_client_taps_reads_the_screen_and_the_log(trellis, run_root):
    s = Session(trellis, run_root)
    try:
        shown = s.wait_for(lambda t: "leave" in t and "leaf" in t, "the child's button")
        # Input — touch, key, scroll — is answered by `reply`, with or without
        # ack-requested (docs/PROTOCOL.md §6.3): ok when handled, declined with the
        # reason when nothing took it.
        for flags in (0, w.ACK_REQUESTED):
            for phase in (0, 2):
                answer = s.request("touch", {"phase": phase, "modifiers": 0, "tap_count": 1, "pointer": 0, "x": 0,
                                             "y": 0, "timestamp": time.monotonic_ns()}, flags=flags)
                assert answer.kind == "reply" and answer.body["status"] in (0, 1), answer
            answer = s.request("key", {"special": 26, "modifiers": 0, "timestamp": 0, "text": ""}, flags=flags)
            assert answer.kind == "reply" and answer.body["status"] == 1, answer
            assert answer.body["payload"].decode().startswith("unhandled: no responder took F12"), answer
            answer = s.request("scroll", {"delta_y": 1, "x": 0, "y": 0}, flags=flags)
            assert answer.kind == "reply" and answer.body["status"] == 1, answer
        y, line = next((y, line) for y, line in enumerate(shown.split("\n")) if "leave" in line)
        s.tap(line.index("leave") + 2, y)
        s.wait_for(lambda t: "leaf" not in t, "the child to leave")

        deadline = time.monotonic() + 10
        while True:
            lines = [json.loads(l) for l in s.cli("logs", "--json", "--kind", "callback").splitlines()]
            details = [l["detail"] for l in lines if l["at"] == "Child"]
            if "Child.didMove(toParent: nil)" in details or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        leaving = details[details.index("Child.willMove(toParent: nil)"):]
        assert [d.split("(")[0] for d in leaving] == [
            "Child.willMove", "Child.viewWillDisappear", "Child.viewDidDisappear", "Child.didMove"]
    finally:
        s.down()
    assert s.up.returncode == 0
