"""The idle side of `trellis bench idle` (docs/BENCHMARKS.md): what the demo costs the
machine while nobody uses it, beside tmux with a C counter in a pane, both as a user
runs them — each in a pseudo-terminal of its own, drawn and then left alone.

Over the same window, for every process of each (and every thread of those): the CPU
time the kernel charged them (/proc/PID/task/TID/schedstat) and how often they went to
sleep and were woken (voluntary context switches, /proc/PID/task/TID/status). Ours is
`trellis up` (the supervisor), the compositor and the app hosts; tmux is its client,
its server and the counter. The last line is key=value figures; cpu_ratio and
wakeups_ratio = ours / tmux (inf when tmux used none).

Only processes this script started are signalled, and only by the pids it got.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import TAP_TEXT, Programs, shows  # noqa: E402


def all_pids():
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def processes_mentioning(needle):
    """Pids whose command line contains `needle`: how the processes of one program are
    told from every other on the machine (a run directory, a socket path)."""
    found = []
    for pid in all_pids():
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if needle.encode() in f.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def children(pids):
    """The direct children of `pids` (the counter under tmux's server)."""
    wanted, found = set(pids), []
    for pid in all_pids():
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid in wanted:
            found.append(pid)
    return found


def usage(pids):
    """(CPU ns, voluntary context switches) summed over every thread of `pids`; a thread
    that ended since is left out of both ends of the window alike (its figures are gone)."""
    ns, switches = {}, {}
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    run = int(f.read().split()[0])
                with open(f"/proc/{pid}/task/{tid}/status") as f:
                    vol = next(int(l.split()[1]) for l in f if l.startswith("voluntary_ctxt_switches"))
            except (OSError, StopIteration, ValueError):
                continue
            ns[(pid, tid)], switches[(pid, tid)] = run, vol
    return ns, switches


def delta(before, after):
    return sum(after[k] - before[k] for k in after if k in before)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trellis", required=True)
    ap.add_argument("--scene", required=True)
    ap.add_argument("--seconds", type=float, default=10, help="the measured window")
    ap.add_argument("--settle", type=float, default=3, help="idle time before the window")
    args = ap.parse_args()

    with Programs("idle", args.trellis) as run:
        ours = run.ours(args.scene)
        tmux = run.tmux()
        ours.wait_for(shows(TAP_TEXT), 120)
        tmux.wait_for(shows("count 0"), 30)
        time.sleep(args.settle)
        run.feed_pending()

        # The supervisor's command line names the session; every process it starts
        # names the run root (its endpoints, --run-root). Not the work directory itself:
        # tmux's socket is there too.
        ours_pids = sorted(set(processes_mentioning(run.session) + processes_mentioning(run.run_root)) - {os.getpid()})
        tmux_pids = processes_mentioning(run.tmux_socket)
        tmux_pids = sorted(set(tmux_pids + children(tmux_pids)))
        if len(ours_pids) < 3 or len(tmux_pids) < 2:
            raise RuntimeError(f"idle: found too few processes: ours {ours_pids}, tmux {tmux_pids}")

        before = (usage(ours_pids), usage(tmux_pids))
        t0 = time.monotonic()
        # Both terminals are read while they idle, as a terminal would: nothing they
        # write may back up and stall them.
        while time.monotonic() - t0 < args.seconds:
            time.sleep(0.5)
            run.feed_pending()
        seconds = time.monotonic() - t0
        after = (usage(ours_pids), usage(tmux_pids))

    figures = {}
    for name, (b, a), pids in (("ours", (before[0], after[0]), ours_pids), ("tmux", (before[1], after[1]), tmux_pids)):
        cpu = delta(b[0], a[0]) / 1e9 / seconds * 100
        wakeups = delta(b[1], a[1]) / seconds
        figures[name] = (cpu, wakeups, len(pids))

    def ratio(x, y):
        return f"{x / y:.1f}" if y > 0 else "inf"

    print(f"  {'what':<34} {'% of a core':>12} {'wake-ups/s':>11}  processes")
    for name, label in (("ours", "ours: the demo, idle"), ("tmux", "tmux: a counter in a pane, idle")):
        cpu, wakeups, n = figures[name]
        print(f"  {label:<34} {cpu:>12.2f} {wakeups:>11.1f}  {n}")
    (c, w, n), (tc, tw, tn) = figures["ours"], figures["tmux"]
    print(f"bench=idle cpu_pct={c:.2f} wakeups_per_s={w:.1f} processes={n} "
          f"tmux_cpu_pct={tc:.2f} tmux_wakeups_per_s={tw:.1f} tmux_processes={tn} "
          f"seconds={seconds:.1f} cpu_ratio={ratio(c, tc)} wakeups_ratio={ratio(w, tw)}")


if __name__ == "__main__":
    main()
