"""docs/GUIDE.md shows the example app's files whole; they must be the files in
Examples/Dashboard, or a newcomer who follows the guide builds something the tests
never ran (issue 21: "docs/GUIDE.md, followed from an empty directory as written,
works")."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "GUIDE.md"
EXAMPLE = ROOT / "Examples" / "Dashboard"

# A paragraph that starts with a file's path in backquotes, then the file in a fence.
SHOWN = re.compile(r"^`((?:Sources|Tests)/[^`]+\.swift|dashboard\.yaml)`[^\n]*\n(?:[^\n]+\n)*?\n```[a-z]*\n(.*?)^```", re.M | re.S)


def shown_files():
    return {path: body for path, body in SHOWN.findall(GUIDE.read_text())}


def test_the_guide_shows_the_example_files():
    shown = shown_files()
    assert "Sources/Dashboard/CounterController.swift" in shown, sorted(shown)
    assert "Tests/DashboardTests/DashboardTests.swift" in shown, sorted(shown)
    for path, body in shown.items():
        assert body == (EXAMPLE / path).read_text(), f"docs/GUIDE.md's {path} is not Examples/Dashboard/{path}"
