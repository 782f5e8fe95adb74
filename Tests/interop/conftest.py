"""Starts the Swift conformance peer (`trellis peer`) for the interop tests."""
from __future__ import annotations

import os
import pathlib
import subprocess
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def trellis_binary() -> str:
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    path = pathlib.Path(out) / "trellis"
    if not path.exists():
        subprocess.run(["swift", "build", "--product", "trellis"], cwd=ROOT, check=True)
    return str(path)


@pytest.fixture(scope="session")
def trellis() -> str:
    return trellis_binary()


@pytest.fixture
def run_root():
    # Short path: ipc socket paths must fit a Unix socket address.
    with tempfile.TemporaryDirectory(prefix="tri-", dir="/tmp") as d:
        os.chmod(d, 0o700)
        yield d


class Peer:
    def __init__(self, trellis: str, run_root: str, session: str, *args: str):
        env = dict(os.environ, TRELLIS_RUN_ROOT=run_root)
        self.proc = subprocess.Popen([trellis, "peer", "--session", session, "--stdin", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, text=True)
        line = self.proc.stdout.readline()
        assert line.startswith("ready "), f"peer did not start: {line!r} {self.proc.stderr.read()}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                raise


@pytest.fixture
def start_peer(trellis, run_root):
    peers = []

    def start(session: str, *args: str) -> Peer:
        p = Peer(trellis, run_root, session, *args)
        peers.append(p)
        return p

    yield start
    for p in peers:
        p.stop()
