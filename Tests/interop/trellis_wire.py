"""The Trellis wire protocol, version 1, in Python — written from docs/PROTOCOL.md.

Messages are plain tuples of (kind name, body fields dict); `encode` and `decode`
turn them into the frames of the document and back.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

PROTOCOL = b"TRL\x01"
HEADER = struct.Struct("<HHIQQQ32s32s")  # §3, 96 bytes
assert HEADER.size == 96
ACK_REQUESTED = 1

KINDS = {
    "hello": 1, "ack": 2, "error": 3, "heartbeat": 4, "touch": 16, "key": 17, "scroll": 18,
    "traits": 32, "appearance": 33, "containment": 34, "size": 35, "memory-warning": 36,
    "frame": 48, "placement": 49, "animation": 50, "request": 64, "reply": 65,
}
KIND_NAMES = {v: k for k, v in KINDS.items()}

ERRORS = {
    1: "malformed-frames", 2: "unsupported-version", 3: "malformed-header", 4: "unknown-kind",
    5: "truncated-body", 6: "oversized-body", 7: "invalid-body", 8: "unknown-target",
    9: "unsupported-flags", 10: "handler-failed", 11: "unhandled", 12: "refused-id",
}

RECT = struct.Struct("<iiHH")


@dataclass
class Envelope:
    kind: str
    body: dict = field(default_factory=dict)
    sequence: int = 0
    trace: int = 0
    correlation: int = 0
    source: str = ""
    target: str = ""
    flags: int = 0


def _pad_id(i: str) -> bytes:
    b = i.encode()
    assert 1 <= len(b) <= 32
    return b + b"\0" * (32 - len(b))


def _short_id(i: str | None) -> bytes:
    if i is None:
        return b"\0"
    b = i.encode()
    return bytes([len(b)]) + b


def _read_short_id(b: bytes, at: int) -> tuple[str | None, int]:
    n = b[at]
    if n == 0:
        return None, at + 1
    return b[at + 1:at + 1 + n].decode(), at + 1 + n


def encode_body(kind: str, f: dict) -> bytes:
    if kind in ("ack", "heartbeat", "memory-warning"):
        return b""
    if kind == "hello":
        return struct.pack("<II", f["pid"], f["heartbeat_ms"])
    if kind == "error":
        t = f["text"].encode()
        return struct.pack("<HH", f["code"], len(t)) + t
    if kind == "touch":
        return struct.pack("<BBHIiiQ", f["phase"], f.get("modifiers", 0), f.get("tap_count", 1),
                           f.get("pointer", 0), f["x"], f["y"], f.get("timestamp", 0))
    if kind == "scroll":
        return struct.pack("<iiBBHiiQ", f.get("delta_x", 0), f.get("delta_y", 0), f.get("modifiers", 0), 0, 0,
                           f["x"], f["y"], f.get("timestamp", 0))
    if kind == "key":
        t = f.get("text", "").encode()
        # phase (§5.2): 0 began, 1 repeated, 2 ended — the byte that was reserved = 0.
        return struct.pack("<HBBQH", f.get("special", 0), f.get("modifiers", 0), f.get("phase", 0),
                           f.get("timestamp", 0), len(t)) + t
    if kind == "traits":
        return bytes([f["horizontal"], f["vertical"], f["style"], f["direction"], f["color_depth"], f["content_size"]])
    if kind == "appearance":
        return bytes([f["phase"], 1 if f["animated"] else 0])
    if kind == "containment":
        return bytes([f["phase"]]) + _short_id(f.get("parent"))
    if kind == "size":
        return struct.pack("<III", f["width"], f["height"], f.get("duration_ms", 0))
    if kind == "frame":
        out = _short_id(f.get("layer")) + struct.pack("<IHHH", f["number"], f["width"], f["height"], len(f["damage"]))
        for d in f["damage"]:
            x, y, w, h = d["rect"]
            out += struct.pack("<HHHH", x, y, w, h)
            for scalar, fg, bg, attrs in d["cells"]:
                out += struct.pack("<IIIH", scalar, fg, bg, attrs)
        return out
    if kind == "placement":
        return (_short_id(f["surface"]) + RECT.pack(*f["frame"]) + struct.pack("<i", f["z"])
                + RECT.pack(*f["clip"]) + bytes([1 if f["visible"] else 0]))
    if kind == "animation":
        return (_short_id(f["surface"]) + RECT.pack(*f["from"]) + RECT.pack(*f["to"])
                + struct.pack("<IIB", f["duration_ms"], f.get("delay_ms", 0), f.get("curve", 1)))
    if kind == "request":
        n = f["name"].encode()
        return bytes([len(n)]) + n + struct.pack("<I", len(f["payload"])) + f["payload"]
    if kind == "reply":
        return bytes([f["status"]]) + struct.pack("<I", len(f["payload"])) + f["payload"]
    raise ValueError(f"unknown kind {kind}")


def decode_body(kind: str, b: bytes) -> dict:
    if kind in ("ack", "heartbeat", "memory-warning"):
        assert b == b""
        return {}
    if kind == "hello":
        pid, hb = struct.unpack("<II", b)
        return {"pid": pid, "heartbeat_ms": hb}
    if kind == "error":
        code, n = struct.unpack_from("<HH", b)
        return {"code": code, "name": ERRORS.get(code, "?"), "text": b[4:4 + n].decode()}
    if kind == "touch":
        keys = ("phase", "modifiers", "tap_count", "pointer", "x", "y", "timestamp")
        return dict(zip(keys, struct.unpack("<BBHIiiQ", b)))
    if kind == "scroll":
        dx, dy, mods, _, _, x, y, ts = struct.unpack("<iiBBHiiQ", b)
        return {"delta_x": dx, "delta_y": dy, "modifiers": mods, "x": x, "y": y, "timestamp": ts}
    if kind == "key":
        special, mods, phase, ts, n = struct.unpack_from("<HBBQH", b)
        return {"special": special, "modifiers": mods, "phase": phase, "timestamp": ts, "text": b[14:14 + n].decode()}
    if kind == "traits":
        return dict(zip(("horizontal", "vertical", "style", "direction", "color_depth", "content_size"), b))
    if kind == "appearance":
        return {"phase": b[0], "animated": b[1] == 1}
    if kind == "containment":
        parent, _ = _read_short_id(b, 1)
        return {"phase": b[0], "parent": parent}
    if kind == "size":
        w, h, d = struct.unpack("<III", b)
        return {"width": w, "height": h, "duration_ms": d}
    if kind == "frame":
        layer, at = _read_short_id(b, 0)
        number, width, height, count = struct.unpack_from("<IHHH", b, at)
        at, damage = at + 10, []
        for _ in range(count):
            x, y, w, h = struct.unpack_from("<HHHH", b, at)
            at += 8
            cells = []
            for _ in range(w * h):
                cells.append(struct.unpack_from("<IIIH", b, at))
                at += 14
            damage.append({"rect": (x, y, w, h), "cells": cells})
        return {"layer": layer, "number": number, "width": width, "height": height, "damage": damage}
    if kind == "placement":
        surface, at = _read_short_id(b, 0)
        frame = RECT.unpack_from(b, at)
        (z,) = struct.unpack_from("<i", b, at + 12)
        clip = RECT.unpack_from(b, at + 16)
        return {"surface": surface, "frame": frame, "z": z, "clip": clip, "visible": b[at + 28] == 1}
    if kind == "animation":
        surface, at = _read_short_id(b, 0)
        dur, delay, curve = struct.unpack_from("<IIB", b, at + 24)
        return {"surface": surface, "from": RECT.unpack_from(b, at), "to": RECT.unpack_from(b, at + 12),
                "duration_ms": dur, "delay_ms": delay, "curve": curve}
    if kind == "request":
        n = b[0]
        (plen,) = struct.unpack_from("<I", b, 1 + n)
        return {"name": b[1:1 + n].decode(), "payload": b[5 + n:5 + n + plen]}
    if kind == "reply":
        (plen,) = struct.unpack_from("<I", b, 1)
        return {"status": b[0], "payload": b[5:5 + plen]}
    raise ValueError(f"unknown kind {kind}")


def encode(e: Envelope) -> list[bytes]:
    """The four frames a DEALER sends (§2)."""
    header = HEADER.pack(KINDS[e.kind], e.flags, 0, e.sequence, e.trace, e.correlation,
                         _pad_id(e.source), _pad_id(e.target))
    return [b"", PROTOCOL, header, encode_body(e.kind, e.body)]


def decode(frames: list[bytes]) -> Envelope:
    assert len(frames) == 4 and frames[0] == b"" and frames[1] == PROTOCOL, frames[:2]
    kind, flags, _, seq, trace, corr, src, dst = HEADER.unpack(frames[2])
    name = KIND_NAMES[kind]
    return Envelope(name, decode_body(name, frames[3]), seq, trace, corr,
                    src.rstrip(b"\0").decode(), dst.rstrip(b"\0").decode(), flags)
