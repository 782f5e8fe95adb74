"""Where a click's time goes (docs/BENCHMARKS.md, `trellis bench e2e`): the demo under
`trellis up` in a pseudo-terminal this script owns, clicked as `e2e.py` clicks it, and
each routing-log line the click caused placed on the click's own time line.

The log's times are CLOCK_MONOTONIC, as is the time this script takes when it writes the
click's bytes and when pyte shows the change, so every line of every process is a point
on one axis: microseconds after the bytes were written. For each kind of line (where it
was written, its kind, its outcome, who sent it to whom, its detail) the median over the
clicks is printed, in order; `-v` prints each click's lines as well. `--span FROM TO`
(repeatable) prints the median, over the clicks that have both, of the time from the first
line starting with FROM to the first line starting with TO in the same click: one host's
share of a click, less moved by the noise of the rest than two medians subtracted.

  timeline.py --trellis .build/release/trellis --scene deploy/scenes/demo.yaml --kind tap

Kinds: `tap` (seed 000's "tap me", tap after tap), `tab` (a tab switch, one way then the
other), `tap-after-tab` (the tap that follows switching away and back, as in the bench's
rounds). Only processes this script started are signalled, and only by the pids it got.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402
from e2e import TABS, TAP_TEXT, Terminal, find, shows  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trellis", required=True)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--kind", choices=["tap", "tab", "tap-after-tab"], default="tap")
    ap.add_argument("--clicks", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--span", nargs=2, action="append", default=[], metavar=("FROM", "TO"))
    args = ap.parse_args()

    workdir = tempfile.mkdtemp(prefix="trellis-timeline-")
    os.chmod(workdir, 0o700)
    env = dict(os.environ, TERM="xterm-256color", TRELLIS_RUN_ROOT=os.path.join(workdir, "run"))
    os.makedirs(env["TRELLIS_RUN_ROOT"], mode=0o700)
    session = f"timeline-{os.getpid()}"

    # The time the click's bytes were written, on the log's clock.
    written = []
    real_write = os.write

    def timed_write(fd, data):
        written.append(time.monotonic_ns())
        return real_write(fd, data)

    e2e.os.write = timed_write

    clicks = []  # (written at, ns until pyte showed the change)
    ours = Terminal("ours", [args.trellis, "up", args.scene, "--session", session], env)
    try:
        ours.wait_for(shows(TAP_TEXT), 120)
        tap_x, tap_y = find(ours.lines, TAP_TEXT)
        tap_x += len(TAP_TEXT) // 2
        tab_at = {title: find(ours.lines, title) for title in TABS}

        def tab(title):
            shown, other = TABS[title], [v for k, v in TABS.items() if k != title][0]
            x, y = tab_at[title]
            return ours.click(x + 2, y, lambda s: find(s, shown) is not None and find(s, other) is None)

        def tap():
            before = ours.lines[tap_y]
            return ours.click(tap_x, tap_y, lambda s: s[tap_y] != before and "child ×" in s[tap_y])

        for i in range(args.warmup + args.clicks):
            if args.kind == "tab":
                timed = [lambda: tab("001 embed"), lambda: tab("000 circle")]
            else:
                if args.kind == "tap-after-tab":
                    for title in ("001 embed", "000 circle"):
                        time.sleep(0.03)
                        tab(title)
                timed = [tap]
            for action in timed:
                time.sleep(0.03)
                ns = action()
                if i >= args.warmup:
                    clicks.append((written[-1], ns))
        time.sleep(0.2)  # logs are written within 50 ms
        out = subprocess.run([args.trellis, "logs", "--session", session, "--json"], env=env,
                             capture_output=True, text=True).stdout
    finally:
        ours.stop()
        subprocess.run([args.trellis, "down", "--session", session], env=env, capture_output=True)

    records = sorted((json.loads(line) for line in out.splitlines() if line.strip()), key=lambda r: r["mono_ns"])
    offsets = {}
    spans = {tuple(span): [] for span in args.span}
    for t0, ns in clicks:
        seen = {}
        for r in records:
            if not t0 <= r["mono_ns"] <= t0 + ns:
                continue
            key = f'{r["at"]} {r["kind"]} {r["outcome"]} {r["src"]}->{r["dst"]}'
            if r.get("detail"):
                key += f' ({r["detail"]})'
            # The second line of the same description in one click is another hop.
            n, unique = 2, key
            while unique in seen:
                unique, n = f"{key} #{n}", n + 1
            seen[unique] = (r["mono_ns"] - t0) / 1000
        seen["pyte shows the change"] = ns / 1000
        if args.verbose:
            # The click's own time on the log's clock, to line this click up with a
            # `perf sched record -k CLOCK_MONOTONIC` of the same run.
            print(f"click written at mono_ns {t0}")
            for k, us in sorted(seen.items(), key=lambda kv: kv[1]):
                print(f"{us:9.1f}  {k}")
            print()
        for k, us in seen.items():
            offsets.setdefault(k, []).append(us)
        for (start, end), values in spans.items():
            at = [min((us for k, us in seen.items() if k.startswith(prefix)), default=None) for prefix in (start, end)]
            if None not in at:
                values.append(at[1] - at[0])
    print(f"median us after the click's bytes were written ({len(clicks)} clicks, {args.kind}); lines seen in at least half:")
    rows = sorted((statistics.median(v), k) for k, v in offsets.items() if len(v) * 2 >= len(clicks))
    for us, k in rows:
        print(f"{us:9.1f}  {k}")
    for (start, end), values in spans.items():
        median = f"{statistics.median(values):9.1f}" if values else "        -"
        print(f"{median}  span from '{start}' to '{end}' ({len(values)} clicks)")


if __name__ == "__main__":
    main()
