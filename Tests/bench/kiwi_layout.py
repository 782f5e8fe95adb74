"""kiwisolver's half of `trellis bench layout`.

Builds the grid workload of docs/LAYOUT.md ("The layout benchmark") with
kiwisolver and times it. `trellis bench layout` starts this script and drives
it over stdin/stdout, alternating blocks of kiwi and Trellis measurements so that
drift on a shared machine hits both alike; the Swift side computes the
percentiles of both from the raw samples, with the same code.

Protocol, one line each way:
  <- ready kiwisolver=VERSION python=VERSION constraints=N
  -> check           <- values V1 V2 ...   (after build-and-solve)
                     <- values V1 V2 ...   (after one re-solve, width = RESOLVE_WIDTHS[0])
  -> build K         <- ns T1 ... TK       (K build-and-solve samples, nanoseconds)
  -> resolve K       <- ns T1 ... TK       (K re-solves of one solver built beforehand)
  end of input: exit

Run alone (`python kiwi_layout.py --rows 10 --cols 10`) it prints its own
medians, which is handy when comparing kiwisolver versions.

Constraint objects are built once, outside every timed region, as the Swift
side does: each side times solver work only, through its public API.
"""

import argparse
import gc
import sys
import time

try:
    import kiwisolver as kiwi
except ImportError:
    print("kiwisolver is not importable from %s: run ./deploy/setup" % sys.executable, file=sys.stderr)
    sys.exit(3)

# The constants of the workload; LayoutBench.swift has the same ones.
MARGIN = 1.0
SPACING = 1.0
MAX_WIDTH = 30.0
MAX_HEIGHT = 12.0
CONTAINER = (200.0, 60.0)
RESOLVE_WIDTHS = (380.0, 200.0)  # re-solves alternate between these container widths
EDIT, STRONG, MEDIUM = 800, 750, 500


def weight(priority):
    """Trellis's weight for an optional priority: 10^(p/100), built by the same
    repeated multiplication as Priority.weights, so both solvers see bit-identical
    weights (kiwi takes a raw strength)."""
    w = 1.0
    for _ in range(priority):
        w *= 1.023292992280754
    return w


class Grid:
    def __init__(self, rows, cols):
        V = kiwi.Variable
        self.width, self.height = V("container.width"), V("container.height")
        self.left = [[V("v%d.%d.left" % (r, c)) for c in range(cols)] for r in range(rows)]
        self.top = [[V("v%d.%d.top" % (r, c)) for c in range(cols)] for r in range(rows)]
        self.w = [[V("v%d.%d.width" % (r, c)) for c in range(cols)] for r in range(rows)]
        self.h = [[V("v%d.%d.height" % (r, c)) for c in range(cols)] for r in range(rows)]
        strong, medium = weight(STRONG), weight(MEDIUM)
        cs = []
        for r in range(rows):
            for c in range(cols):
                left, top, w, h = self.left[r][c], self.top[r][c], self.w[r][c], self.h[r][c]
                # Horizontal: in order after the previous view, the last one pinned to
                # the container's trailing edge, equal widths along the row, each view
                # inside the container.
                if c == 0:
                    cs.append(left == MARGIN)
                else:
                    cs.append(left == self.left[r][c - 1] + self.w[r][c - 1] + SPACING)
                if c == cols - 1:
                    cs.append(left + w == self.width - MARGIN)
                else:
                    cs.append((w == self.w[r][c + 1]) | strong)
                cs.append(w >= 1.0)
                cs.append((w <= MAX_WIDTH) | medium)
                cs.append(left + w <= self.width - MARGIN)
                # Vertical: the same down each column.
                if r == 0:
                    cs.append(top == MARGIN)
                else:
                    cs.append(top == self.top[r - 1][c] + self.h[r - 1][c] + SPACING)
                if r == rows - 1:
                    cs.append(top + h == self.height - MARGIN)
                else:
                    cs.append((h == self.h[r + 1][c]) | strong)
                cs.append(h >= 1.0)
                cs.append((h <= MAX_HEIGHT) | medium)
                cs.append(top + h <= self.height - MARGIN)
        self.constraints = cs
        self.edit_weight = weight(EDIT)

    def checked(self):
        """The variables whose values both sides compare, in the Swift side's order."""
        out = [self.width, self.height]
        for grid in (self.left, self.top, self.w, self.h):
            for row in grid:
                out.extend(row)
        return out

    def build(self):
        # The container's size first, as a window's size is known before its views
        # are laid out.
        s = kiwi.Solver()
        s.addEditVariable(self.width, self.edit_weight)
        s.addEditVariable(self.height, self.edit_weight)
        s.suggestValue(self.width, CONTAINER[0])
        s.suggestValue(self.height, CONTAINER[1])
        add = s.addConstraint
        for c in self.constraints:
            add(c)
        s.updateVariables()
        return s


def time_builds(grid, k):
    clock, build = time.perf_counter_ns, grid.build
    samples = []
    for _ in range(k):
        t0 = clock()
        build()
        samples.append(clock() - t0)
    return samples


def time_resolves(grid, k):
    s = grid.build()
    clock, suggest, update, width = time.perf_counter_ns, s.suggestValue, s.updateVariables, grid.width
    samples = []
    for i in range(k):
        w = RESOLVE_WIDTHS[i % 2]
        t0 = clock()
        suggest(width, w)
        update()
        samples.append(clock() - t0)
    return samples


def values(grid):
    return "values " + " ".join(repr(v.value()) for v in grid.checked())


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=10)
    p.add_argument("--cols", type=int, default=10)
    p.add_argument("--serve", action="store_true", help="be driven by `trellis bench layout`")
    p.add_argument("--iterations", type=int, default=200, help="alone: build-and-solve samples")
    a = p.parse_args()
    grid = Grid(a.rows, a.cols)
    # Collections would pause at moments unrelated to the solver; Swift has none.
    gc.disable()
    if not a.serve:
        b = sorted(time_builds(grid, a.iterations))
        r = sorted(time_resolves(grid, a.iterations * 10))
        print("kiwi_build_p50_us=%.1f kiwi_resolve_p50_us=%.2f constraints=%d"
              % (b[len(b) // 2] / 1e3, r[len(r) // 2] / 1e3, len(grid.constraints)))
        return
    out = sys.stdout
    out.write("ready kiwisolver=%s python=%d.%d.%d constraints=%d\n"
              % ((kiwi.__version__,) + tuple(sys.version_info[:3]) + (len(grid.constraints),)))
    out.flush()
    for line in sys.stdin:
        cmd = line.split()
        if cmd == ["check"]:
            s = grid.build()
            out.write(values(grid) + "\n")
            s.suggestValue(grid.width, RESOLVE_WIDTHS[0])
            s.updateVariables()
            out.write(values(grid) + "\n")
        elif len(cmd) == 2 and cmd[0] in ("build", "resolve"):
            k = int(cmd[1])
            samples = time_builds(grid, k) if cmd[0] == "build" else time_resolves(grid, k)
            out.write("ns " + " ".join(map(str, samples)) + "\n")
        else:
            out.write("error unknown command %r\n" % line)
        out.flush()


if __name__ == "__main__":
    main()
