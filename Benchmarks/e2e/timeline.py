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

`--probe app:FUNCTION` or `--probe compositor:FUNCTION` (repeatable; root and `perf`
only) puts each entry into that function — named as `swift demangle --simplified` names
it, e.g. `Switchboard.deliver(_:)` — on the same time line, as "<host> probe FUNCTION",
beside the log's lines: where a woken process spends the time between two of them
(docs/BENCHMARKS.md, "Cold caches"). Each probe is a trap of a microsecond or so, so the
steps read a little long; compare builds with the same probes.

  timeline.py --trellis .build/release/trellis --scene deploy/scenes/demo.yaml --kind tab \
      --probe 'app:Switchboard.deliver(_:)' --span 'Demo probe Switchboard' 'Demo appearance sent'
"""

import argparse
import json
import os
import shutil
import signal
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
    ap.add_argument("--probe", action="append", default=[], metavar="app|compositor:FUNCTION")
    args = ap.parse_args()
    probes = Probes(args.trellis, args.probe) if args.probe else None

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
    hits = []
    try:
        ours.wait_for(shows(TAP_TEXT), 120)
        if probes:
            probes.start()
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
        if probes:
            hits = probes.stop()
        out = subprocess.run([args.trellis, "logs", "--session", session, "--json"], env=env,
                             capture_output=True, text=True).stdout
    finally:
        if probes:
            probes.remove()
        ours.stop()
        subprocess.run([args.trellis, "down", "--session", session], env=env, capture_output=True)

    records = sorted((json.loads(line) for line in out.splitlines() if line.strip()), key=lambda r: r["mono_ns"])
    offsets = {}
    spans = {tuple(span): [] for span in args.span}
    # The log's lines and the probes' hits, as (mono_ns, description).
    points = [(r["mono_ns"], f'{r["at"]} {r["kind"]} {r["outcome"]} {r["src"]}->{r["dst"]}'
               + (f' ({r["detail"]})' if r.get("detail") else "")) for r in records]
    points = sorted(points + hits)
    for t0, ns in clicks:
        seen = {}
        for at, key in points:
            if not t0 <= at <= t0 + ns:
                continue
            # The second line of the same description in one click is another hop.
            n, unique = 2, key
            while unique in seen:
                unique, n = f"{key} #{n}", n + 1
            seen[unique] = (at - t0) / 1000
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


class Probes:
    """Entry probes on functions of the demo's binaries, recorded system-wide on the log's
    clock while the clicks run, and removed afterwards whatever happens."""

    GROUP = "trellistl"

    def __init__(self, trellis, specs):
        if os.geteuid() != 0 or not shutil.which("perf"):
            sys.exit("timeline: --probe needs root and perf (uprobes)")
        here = os.path.dirname(os.path.abspath(trellis))
        binaries = {"app": os.path.join(here, "trellis-app"), "compositor": os.path.join(here, "trellis-compositor")}
        self.names = {}  # perf event name -> function
        self.recorder = None
        self.workdir = tempfile.mkdtemp(prefix="trellis-timeline-probes-")
        self.data = os.path.join(self.workdir, "perf.data")
        symbols = {}
        for k, spec in enumerate(specs):
            which, _, function = spec.partition(":")
            if which not in binaries or not function:
                self.remove()
                sys.exit(f"timeline: --probe {spec!r}: say app:FUNCTION or compositor:FUNCTION")
            binary = binaries[which]
            if binary not in symbols:
                symbols[binary] = self.functions(binary)
            address = symbols[binary].get(function)
            if address is None:
                near = sorted(f for f in symbols[binary] if function.split("(")[0] in f)[:8]
                self.remove()
                sys.exit(f"timeline: no function {function!r} in {binary}" + (f"; perhaps: {near}" if near else ""))
            event = f"p{k}"
            added = subprocess.run(["perf", "probe", "-q", "-x", binary, "-a", f"{self.GROUP}:{event}=0x{address}"],
                                   capture_output=True, text=True)
            if added.returncode != 0:
                self.remove()
                sys.exit(f"timeline: perf probe refused {function}: {added.stderr.strip()}")
            self.names[event] = function

    @staticmethod
    def functions(binary):
        """Demangled function name -> address, from the binary's symbol table."""
        nm = subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout
        demangled = subprocess.run(["swift", "demangle", "--simplified"], input=nm,
                                   capture_output=True, text=True, check=True).stdout
        out = {}
        for line in demangled.splitlines():
            parts = line.split(" ", 2)
            if len(parts) == 3 and parts[1] in ("t", "T"):
                out.setdefault(parts[2], parts[0])
        return out

    def start(self):
        self.recorder = subprocess.Popen(
            ["perf", "record", "-q", "-k", "CLOCK_MONOTONIC", "-e", f"{self.GROUP}:*", "-a", "-o", self.data],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)  # perf attaches the probes before the first click

    def stop(self):
        """Ends the recording; the hits as (mono_ns, "<host> probe FUNCTION")."""
        self.recorder.send_signal(signal.SIGINT)  # our own child, by the handle that started it
        self.recorder.wait(timeout=60)
        self.recorder = None
        script = subprocess.run(["perf", "script", "-i", self.data, "-F", "pid,time,event"],
                                capture_output=True, text=True).stdout
        hosts, hits = {}, []
        for line in script.split("\n"):
            parts = line.split()
            if len(parts) < 3:
                continue
            pid, at, event = int(parts[0]), parts[1].rstrip(":"), parts[2].rstrip(":").split(":")[-1]
            if event not in self.names:
                continue
            if pid not in hosts:
                hosts[pid] = self.host(pid)
            seconds, _, fraction = at.partition(".")
            hits.append((int(seconds) * 1_000_000_000 + int(fraction.ljust(9, "0")[:9]),
                         f"{hosts[pid]} probe {self.names[event]}"))
        return hits

    @staticmethod
    def host(pid):
        """The host a pid runs (`--host NAME`), or its program's name."""
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().decode(errors="replace").split("\0")
        except OSError:
            return f"pid{pid}"
        if "--host" in argv[:-1]:
            return argv[argv.index("--host") + 1]
        return os.path.basename(argv[0]).replace("trellis-", "") if argv and argv[0] else f"pid{pid}"

    def remove(self):
        if self.recorder:
            self.recorder.send_signal(signal.SIGINT)
            self.recorder.wait(timeout=60)
            self.recorder = None
        subprocess.run(["perf", "probe", "-q", "-d", f"{self.GROUP}:*"], capture_output=True)
        shutil.rmtree(self.workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
