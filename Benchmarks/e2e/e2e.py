"""The terminal side of `trellis bench e2e` (docs/BENCHMARKS.md): clicks written into
pseudo-terminals this script owns as SGR mouse bytes, timed until a real terminal
emulator (pyte) fed with everything the program wrote shows the change.

Three programs, each in its own pseudo-terminal of 80x24, clicked in turn, click by
click, so drift on a shared machine hits them alike:
  ours  the demo (deploy/scenes/demo.yaml) under `trellis up`, as a user runs it: a tap
        on Seed000's "tap me" button (compositor -> Demo -> Seed000, two processes
        down), and a tab switch (a click on a tab's title until the other tab's content
        is shown and the old one's is gone);
  tmux  a minimal C counter (counter.c, compiled now with cc) in a tmux pane;
  bare  the same counter alone in its pseudo-terminal.
The last line is key=value figures; ratio = ours tap p50 / tmux p50, tab_ratio = ours
tab switch p50 / tmux p50.

Only processes this script started are signalled, and only by the pids it got.
"""

import argparse
import math
import os
import pty
import random
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import fcntl
import time

try:
    import pyte
    from wcwidth import wcwidth
except ImportError:
    sys.exit("e2e: pyte is missing: run ./deploy/setup (it installs pyte into .venv)")

COLS, ROWS = 80, 24
TAP_TEXT = "tap me"
TABS = {
    # title on the tab bar -> text only that tab's content shows
    "001 embed": "a child embedded by Main",
    "000 circle": "S0-1 the container",
}


class Terminal:
    """A program in a pseudo-terminal of its own, and pyte's view of what it wrote."""

    def __init__(self, name, argv, env):
        self.name = name
        pid, fd = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
                os.execvpe(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        # What pyte shows, row by row: only the rows a feed changed are rendered again.
        # pyte's `display` renders all 24 rows, some 0.6 ms of Python; a check that ran it
        # after a click's first frame (a tab's press highlight) kept the reader busy
        # while the frame that was waited for arrived, and took a CPU from the programs.
        self.lines = [""] * ROWS
        self.render_dirty()
        self.alive = True

    def feed_pending(self):
        """Reads whatever the program has written, without waiting."""
        while select.select([self.fd], [], [], 0)[0]:
            if not self.read_once():
                return

    def read_once(self):
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.alive = False
            return False
        self.feed(data)
        return True

    def feed(self, data):
        self.stream.feed(data)
        self.render_dirty()

    def render_dirty(self):
        for y in self.screen.dirty:
            if 0 <= y < ROWS:
                self.lines[y] = render_row(self.screen, y)
        self.screen.dirty.clear()

    def wait_for(self, done, timeout):
        deadline = time.monotonic() + timeout
        while not done(self.lines):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0] or not self.read_once():
                raise RuntimeError(f"{self.name}: screen did not show what was waited for; it shows:\n"
                                   + "\n".join(self.lines))

    def click(self, x, y, done, timeout=5.0):
        """Press and release at column x, row y (0-based); ns until `done(lines)`."""
        self.feed_pending()
        if done(self.lines):
            raise RuntimeError(f"{self.name}: the change is on the screen before the click")
        sgr = f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m".encode()
        t0 = time.perf_counter_ns()
        os.write(self.fd, sgr)
        deadline = t0 + int(timeout * 1e9)
        while True:
            left = (deadline - time.perf_counter_ns()) / 1e9
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                raise RuntimeError(f"{self.name}: no change within {timeout} s; the screen shows:\n"
                                   + "\n".join(self.lines))
            # Everything that has arrived is read before pyte parses any of it, so that
            # parsing one chunk (slow in Python for a whole screen) never delays the
            # reading, and the timing, of the next.
            data = b""
            while select.select([self.fd], [], [], 0)[0]:
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    break
                data += chunk
            t1 = time.perf_counter_ns()
            if not data:
                self.alive = False
                raise RuntimeError(f"{self.name}: the program ended")
            self.feed(data)
            if done(self.lines):
                return t1 - t0

    def stop(self, quit_bytes=b"\x03", grace=10.0):
        if self.alive:
            try:
                os.write(self.fd, quit_bytes)
            except OSError:
                pass
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            pid, _ = os.waitpid(self.pid, os.WNOHANG)
            if pid == self.pid:
                break
            self.feed_pending()
            time.sleep(0.05)
        else:
            os.kill(self.pid, signal.SIGTERM)
            time.sleep(2)
            if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
        os.close(self.fd)


def render_row(screen, y):
    """Row y as pyte's `display` renders it: a wide character's stub cell left out."""
    line, out, wide = screen.buffer[y], [], False
    for x in range(screen.columns):
        if wide:
            wide = False
            continue
        char = line[x].data
        wide = wcwidth(char[0]) == 2
        out.append(char)
    return "".join(out)


def find(lines, text):
    for y, line in enumerate(lines):
        x = line.find(text)
        if x >= 0:
            return x, y
    return None


def shows(text):
    return lambda lines: find(lines, text) is not None


def percentile(samples, p):
    s = sorted(samples)
    return s[max(0, math.ceil(p * len(s)) - 1)]


def compile_counter(workdir):
    cc = shutil.which("cc") or shutil.which("clang") or shutil.which("gcc")
    if not cc:
        sys.exit("e2e: no C compiler (cc, clang or gcc) to build the counter")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "counter.c")
    binary = os.path.join(workdir, "counter")
    subprocess.run([cc, "-O2", "-o", binary, source], check=True)
    return binary


class Programs:
    """What a terminal-side benchmark runs, each in a pseudo-terminal of its own: the demo
    under `trellis up` (`ours`), a C counter in a tmux pane (`tmux`), anything else
    (`start`), in a private work directory. Used as a context manager: on the way out,
    however the run ended, every program it started is stopped — its terminal told
    Ctrl-C, then SIGTERM and SIGKILL by the pid it got — the session taken down and
    tmux's server killed; the work directory is removed unless the run failed (its
    routing logs are under run/)."""

    def __init__(self, name, trellis):
        if not shutil.which("tmux"):
            sys.exit(f"{name}: tmux is missing: run ./deploy/setup (it installs tmux)")
        self.name, self.trellis = name, trellis
        self.workdir = tempfile.mkdtemp(prefix=f"trellis-{name}-")
        os.chmod(self.workdir, 0o700)
        self.counter = compile_counter(self.workdir)
        self.tmux_conf = os.path.join(self.workdir, "tmux.conf")
        with open(self.tmux_conf, "w") as f:
            f.write("set -g mouse on\nset -g status off\nset -s escape-time 0\n")
        self.env = dict(os.environ, TERM="xterm-256color", TRELLIS_RUN_ROOT=os.path.join(self.workdir, "run"))
        self.env.pop("TMUX", None)
        os.makedirs(self.env["TRELLIS_RUN_ROOT"], mode=0o700)
        self.session = f"{name}-{os.getpid()}"
        self.tmux_socket = os.path.join(self.workdir, "tmux.sock")
        self.terminals = []

    @property
    def run_root(self):
        return self.env["TRELLIS_RUN_ROOT"]

    def start(self, name, argv):
        t = Terminal(name, argv, self.env)
        self.terminals.append(t)
        return t

    def ours(self, scene):
        return self.start("ours", [self.trellis, "up", scene, "--session", self.session])

    def tmux(self):
        return self.start("tmux", ["tmux", "-S", self.tmux_socket, "-f", self.tmux_conf, "new-session", self.counter])

    def feed_pending(self):
        for t in self.terminals:
            t.feed_pending()

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        for t in self.terminals:
            try:
                t.stop()
            except Exception as e:  # keep stopping the others
                print(f"{self.name}: stopping {t.name}: {e}", file=sys.stderr)
        subprocess.run([self.trellis, "down", "--session", self.session], env=self.env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["tmux", "-S", self.tmux_socket, "kill-server"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if kind is None:
            shutil.rmtree(self.workdir, ignore_errors=True)
        else:
            print(f"{self.name}: failed; kept {self.workdir} (routing logs under run/)", file=sys.stderr)
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trellis", required=True, help="the trellis binary (trellis-app, trellis-compositor beside it)")
    ap.add_argument("--scene", required=True)
    ap.add_argument("--clicks", type=int, default=200, help="measured taps, tmux and bare clicks; twice as many tab switches")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--pause-ms", type=float, default=20, help="idle pause before each click (jittered up to twice)")
    args = ap.parse_args()
    with Programs("e2e", args.trellis) as run:
        ours = run.ours(args.scene)
        tmux = run.tmux()
        bare = run.start("bare", [run.counter])

        ours.wait_for(shows(TAP_TEXT), 120)
        for t in (tmux, bare):
            t.wait_for(shows("count 0"), 30)
        tap_x, tap_y = find(ours.lines, TAP_TEXT)
        tap_x += len(TAP_TEXT) // 2
        tab_at = {title: find(ours.lines, title) for title in TABS}

        counts = {"tmux": 0, "bare": 0}

        def count_click(t):
            counts[t.name] += 1
            want = f"count {counts[t.name]}"
            return t.click(3, 0, lambda s: s[0].rstrip() == want)

        def tap():
            before = ours.lines[tap_y]
            return ours.click(tap_x, tap_y, lambda s: s[tap_y] != before and "child ×" in s[tap_y])

        def tab(title):
            shown, other = TABS[title], [v for k, v in TABS.items() if k != title][0]
            x, y = tab_at[title]
            return ours.click(x + 2, y, lambda s: find(s, shown) is not None and find(s, other) is None)

        samples = {"tap": [], "tab": [], "tmux": [], "bare": []}
        rng = random.Random(20)
        for i in range(args.warmup + args.clicks):
            round_ = [
                ("tap", tap), ("tmux", lambda: count_click(tmux)), ("bare", lambda: count_click(bare)),
                ("tab", lambda: tab("001 embed")), ("tab", lambda: tab("000 circle")),
            ]
            for key, action in round_:
                run.feed_pending()
                time.sleep(args.pause_ms / 1000 * (1 + rng.random()))
                ns = action()
                if i >= args.warmup:
                    samples[key].append(ns)

    us = {k: (percentile(v, 0.5) / 1000, percentile(v, 0.99) / 1000) for k, v in samples.items()}
    print(f"  {'what':<34} {'p50 us':>9} {'p99 us':>9}  samples")
    for key, label in [("tap", "ours: tap two processes down"), ("tab", "ours: tab switch"),
                       ("tmux", "tmux: counter in a pane"), ("bare", "bare: counter alone")]:
        print(f"  {label:<34} {us[key][0]:>9.1f} {us[key][1]:>9.1f}  {len(samples[key])}")
    tmux50 = us["tmux"][0]
    print(f"bench=e2e tap_p50_us={us['tap'][0]:.1f} tap_p99_us={us['tap'][1]:.1f} "
          f"tab_p50_us={us['tab'][0]:.1f} tab_p99_us={us['tab'][1]:.1f} "
          f"tmux_p50_us={tmux50:.1f} tmux_p99_us={us['tmux'][1]:.1f} "
          f"bare_p50_us={us['bare'][0]:.1f} bare_p99_us={us['bare'][1]:.1f} "
          f"tmux_vs_bare={tmux50 / us['bare'][0]:.2f} clicks={args.clicks} "
          f"ratio={us['tap'][0] / tmux50:.2f} tab_ratio={us['tab'][0] / tmux50:.2f}")


if __name__ == "__main__":
    main()
