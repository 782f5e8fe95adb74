"""ScreenWriter's bytes, fed to a terminal emulator (pyte), show what it was asked to show.

`trellis terminal-check --seed N` draws random screens (Japanese wide characters written
over each other's halves, fills, resizes, a cursor now and then) and prints each frame's
bytes with the expected screen. After every frame pyte's display must equal the expected
text, the cursor must be where asked (or hidden), and in true colour every glyph's
colours and attributes must match.
"""
from __future__ import annotations

import subprocess

import pyte
import pytest

SEEDS = range(1, 13)  # seed % 4 picks the depth: 0 none, 1 ansi16, 2 ansi256, 3 truecolor


def records(trellis: str, seed: int):
    out = subprocess.run([trellis, "terminal-check", "--seed", str(seed), "--frames", "120"],
                         check=True, capture_output=True, text=True, timeout=60).stdout
    for line in out.splitlines():
        tag, _, rest = line.partition(" ")
        yield tag, rest


def wide(data: str) -> bool:
    return bool(data) and pyte.screens.wcwidth(data[0]) == 2


def orphan_halves(screen: pyte.Screen) -> list[tuple[int, int]]:
    """Cells where a wide character lost its right half ("" stub) or a stub its character.

    pyte does not blank the other half when one half is overwritten, as real terminals
    do, so a writer that ever wrote half of a wide character leaves such cells here.
    """
    bad = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        for x in range(screen.columns):
            data = line[x].data
            if wide(data) and (x + 1 >= screen.columns or line[x + 1].data != ""):
                bad.append((x, y))
            elif data == "" and (x == 0 or not wide(line[x - 1].data)):
                bad.append((x, y))
    return bad


def styles(screen: pyte.Screen) -> str:
    """The same per-glyph "fg/bg/bits" text the helper prints for its surface."""
    rows = []
    for y in range(screen.lines):
        line = screen.buffer[y]
        glyphs, x = [], 0
        while x < screen.columns:
            c = line[x]
            bits = (c.bold << 0) | (c.italics << 2) | (c.underscore << 3) | (c.blink << 4) \
                | (c.reverse << 5) | (c.strikethrough << 7)
            glyphs.append(f"{c.fg}/{c.bg}/{bits}")
            x += 2 if wide(c.data) else 1
        rows.append(" ".join(glyphs))
    return "\n".join(rows)


@pytest.mark.parametrize("seed", SEEDS)
def test_pyte_shows_every_frame(trellis: str, seed: int) -> None:
    screen = stream = None
    frame = 0
    total = 0
    for tag, rest in records(trellis, seed):
        if tag == "size":
            width, height, depth = rest.split()
            screen = pyte.Screen(int(width), int(height))
            stream = pyte.ByteStream(screen)
        elif tag == "R":
            width, height = map(int, rest.split())
            screen.resize(height, width)
        elif tag == "F":
            frame += 1
            data = bytes.fromhex(rest)
            total += len(data)
            if data:
                assert data.startswith(b"\x1b[?2026h") and data.endswith(b"\x1b[?2026l"), f"frame {frame}"
            stream.feed(data)
        elif tag == "S":
            expected = bytes.fromhex(rest).decode().split("\n")
            actual = [row.rstrip() for row in screen.display]
            assert actual == expected, f"seed {seed} frame {frame}"
            assert not orphan_halves(screen), f"seed {seed} frame {frame}: half a wide character"
        elif tag == "C":
            if rest == "-":
                assert screen.cursor.hidden, f"seed {seed} frame {frame}: cursor should be hidden"
            else:
                x, y = map(int, rest.split())
                assert not screen.cursor.hidden and (screen.cursor.x, screen.cursor.y) == (x, y), \
                    f"seed {seed} frame {frame}"
        elif tag == "A":
            assert styles(screen) == bytes.fromhex(rest).decode(), f"seed {seed} frame {frame}: styles"
    assert frame == 120 and total > 0
