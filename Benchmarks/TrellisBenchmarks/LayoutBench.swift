import ArgumentParser
import Foundation
import TrellisLayout
import TrellisLog

/// `trellis bench layout`: build-and-solve of a 1,000-constraint grid layout, and
/// a re-solve after the container's width changes, beside kiwisolver (the C++
/// Cassowary, from Python) on the same constraints in the same run. The workload
/// is defined in docs/LAYOUT.md; Tests/bench/kiwi_layout.py builds it for kiwi.
struct LayoutBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Grid layout build-and-solve and re-solve vs kiwisolver.",
        discussion: """
            Both sides build their constraint objects once, outside the timed region, \
            and time solver work only: a new solver, two edit variables and their \
            suggestions, every constraint added, variables updated (build); one \
            suggested container width and variables updated (re-solve). kiwi is timed \
            inside Python, so its figures include Python's call overhead. Measurements \
            alternate in blocks so that drift on a shared machine hits both alike.
            """
    )

    @Option(help: "Rows of the grid of views.") var rows = 10
    @Option(help: "Columns of the grid of views.") var columns = 10
    @Option(help: "Build-and-solve samples for each side.") var iterations = 40
    @Option(help: "Re-solve samples for each side.") var resolves = 400
    @Option(help: "Python interpreter with kiwisolver (default: .venv/bin/python of the checkout).") var python: String?

    func validate() throws {
        guard rows >= 2, columns >= 2 else { throw ValidationError("--rows and --columns must be at least 2") }
        guard iterations >= 4, resolves >= 4 else { throw ValidationError("--iterations and --resolves must be at least 4") }
    }

    func run() throws {
        let root = try checkout(holding: "Tests/bench/kiwi_layout.py")
        let kiwi = try KiwiProcess(
            python: python ?? root + "/.venv/bin/python", script: root + "/Tests/bench/kiwi_layout.py",
            rows: rows, columns: columns)
        defer { kiwi.stop() }
        let grid = GridLayout(rows: rows, columns: columns)
        guard kiwi.constraints == grid.constraints.count else {
            throw BenchError("kiwi_layout.py built \(kiwi.constraints) constraints, Swift \(grid.constraints.count): the two workloads differ")
        }
        print("layout benchmark: \(rows)×\(columns) grid of views, \(grid.constraints.count) constraints + 2 edit variables; "
            + "kiwisolver \(kiwi.version) on Python \(kiwi.pythonVersion)")

        try check(grid, kiwi)

        let blocks = 4
        var ours: (build: [UInt64], resolve: [UInt64]) = ([], []), theirs = ours
        _ = try timeBuilds(grid, 2)  // warm-up
        _ = try kiwi.samples("build 2")
        for _ in 0..<blocks {
            theirs.build += try kiwi.samples("build \(iterations / blocks)")
            ours.build += try timeBuilds(grid, iterations / blocks)
            theirs.resolve += try kiwi.samples("resolve \(resolves / blocks)")
            ours.resolve += try timeResolves(grid, resolves / blocks)
        }
        let ob = Percentiles(ours.build), kb = Percentiles(theirs.build)
        let orr = Percentiles(ours.resolve), kr = Percentiles(theirs.resolve)
        let ratio = ob.p50 / kb.p50, resolveRatio = orr.p50 / kr.p50
        print("build and solve (µs)      p50        p99")
        print("  kiwisolver       \(figure(kb.p50 / 1000).padded(11)) \(figure(kb.p99 / 1000).padded(10))")
        print("  trellis          \(figure(ob.p50 / 1000).padded(11)) \(figure(ob.p99 / 1000).padded(10))   ratio \(figure(ratio, 2)) (target ≤ 1.5)")
        print("re-solve after one suggested width (µs)")
        print("  kiwisolver       \(figure(kr.p50 / 1000, 2).padded(11)) \(figure(kr.p99 / 1000, 2).padded(10))")
        print("  trellis          \(figure(orr.p50 / 1000, 2).padded(11)) \(figure(orr.p99 / 1000, 2).padded(10))   ratio \(figure(resolveRatio, 2))")
        print(
            "bench=layout constraints=\(grid.constraints.count) ours_build_p50_us=\(figure(ob.p50 / 1000)) "
                + "kiwi_build_p50_us=\(figure(kb.p50 / 1000)) ratio=\(figure(ratio, 3)) "
                + "ours_build_p99_us=\(figure(ob.p99 / 1000)) kiwi_build_p99_us=\(figure(kb.p99 / 1000)) "
                + "ours_resolve_p50_us=\(figure(orr.p50 / 1000, 2)) kiwi_resolve_p50_us=\(figure(kr.p50 / 1000, 2)) "
                + "resolve_ratio=\(figure(resolveRatio, 3)) builds=\(ob.sorted.count) resolves=\(orr.sorted.count)")
    }

    /// Both solvers must have solved the same system: every variable of the grid
    /// agrees within 1e-6 after a build, and again after a re-solve.
    private func check(_ grid: GridLayout, _ kiwi: KiwiProcess) throws {
        let expected = try kiwi.request("check", lines: 2).map { line in
            line.split(separator: " ").dropFirst().map { Double($0) ?? .nan }
        }
        let solver = try grid.buildAndSolve()
        let afterBuild = grid.checked.map(\.value)
        try solver.suggest(grid.width, GridLayout.resolveWidths[0])
        solver.updateVariables()
        let afterResolve = grid.checked.map(\.value)
        for (stage, ours, theirs) in [("build", afterBuild, expected[0]), ("re-solve", afterResolve, expected[1])] {
            guard ours.count == theirs.count else {
                throw BenchError("kiwi reported \(theirs.count) values after \(stage), Swift has \(ours.count)")
            }
            let wrong = zip(grid.checked, zip(ours, theirs)).filter { !(abs($1.0 - $1.1) <= 1e-6) }
            guard wrong.isEmpty else {
                let shown = wrong.prefix(5).map { "\($0.0.name): trellis \($0.1.0), kiwi \($0.1.1)" }
                throw BenchError("solutions differ after \(stage) in \(wrong.count) variables:\n  " + shown.joined(separator: "\n  "))
            }
        }
        print("solutions agree within 1e-6 on all \(grid.checked.count) variables, after build and after re-solve")
    }

    private func timeBuilds(_ grid: GridLayout, _ count: Int) throws -> [UInt64] {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let t0 = MonotonicClock.nanoseconds()
            _ = try grid.buildAndSolve()  // torn down inside the timed region, as in Python
            samples.append(MonotonicClock.nanoseconds() - t0)
        }
        return samples
    }

    private func timeResolves(_ grid: GridLayout, _ count: Int) throws -> [UInt64] {
        let solver = try grid.buildAndSolve()
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for i in 0..<count {
            let w = GridLayout.resolveWidths[i % 2]
            let t0 = MonotonicClock.nanoseconds()
            try solver.suggest(grid.width, w)
            solver.updateVariables()
            samples.append(MonotonicClock.nanoseconds() - t0)
        }
        return samples
    }
}

/// The grid workload of docs/LAYOUT.md, constant for constant the one
/// Tests/bench/kiwi_layout.py builds.
struct GridLayout {
    static let margin = 1.0, spacing = 1.0, maxWidth = 30.0, maxHeight = 12.0
    static let container = (width: 200.0, height: 60.0)
    static let resolveWidths = [380.0, 200.0]
    static let edit: Priority = 800, strong: Priority = 750, medium: Priority = 500

    let width = Variable("container.width"), height = Variable("container.height")
    let left: [[Variable]], top: [[Variable]], w: [[Variable]], h: [[Variable]]
    let constraints: [Constraint]

    init(rows: Int, columns: Int) {
        func grid(_ what: String) -> [[Variable]] {
            (0..<rows).map { r in (0..<columns).map { c in Variable("v\(r).\(c).\(what)") } }
        }
        let (left, top, w, h) = (grid("left"), grid("top"), grid("width"), grid("height"))
        let (width, height) = (self.width, self.height)
        let m = Self.margin, s = Self.spacing
        var cs: [Constraint] = []
        cs.reserveCapacity(rows * columns * 10)
        for r in 0..<rows {
            for c in 0..<columns {
                cs.append(c == 0 ? left[r][c] == m : left[r][c] == left[r][c - 1] + w[r][c - 1] + s)
                cs.append(c == columns - 1 ? left[r][c] + w[r][c] == width - m : (w[r][c] == w[r][c + 1]).at(Self.strong))
                cs.append(w[r][c] >= 1.0)
                cs.append((w[r][c] <= Self.maxWidth).at(Self.medium))
                cs.append(left[r][c] + w[r][c] <= width - m)
                cs.append(r == 0 ? top[r][c] == m : top[r][c] == top[r - 1][c] + h[r - 1][c] + s)
                cs.append(r == rows - 1 ? top[r][c] + h[r][c] == height - m : (h[r][c] == h[r + 1][c]).at(Self.strong))
                cs.append(h[r][c] >= 1.0)
                cs.append((h[r][c] <= Self.maxHeight).at(Self.medium))
                cs.append(top[r][c] + h[r][c] <= height - m)
            }
        }
        (self.left, self.top, self.w, self.h, constraints) = (left, top, w, h, cs)
    }

    /// The variables both sides compare, in kiwi_layout.py's order.
    var checked: [Variable] { [width, height] + [left, top, w, h].flatMap { $0.flatMap { $0 } } }

    /// What one build-and-solve sample times; the container's size comes first, as a
    /// window's size is known before its views are laid out.
    func buildAndSolve() throws -> Solver {
        let s = Solver()
        try s.addEditVariable(width, priority: Self.edit)
        try s.addEditVariable(height, priority: Self.edit)
        try s.suggest(width, Self.container.width)
        try s.suggest(height, Self.container.height)
        for c in constraints { try s.add(c) }
        s.updateVariables()
        return s
    }
}

/// Tests/bench/kiwi_layout.py, driven line by line over its stdin and stdout.
final class KiwiProcess {
    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private var buffer: [UInt8] = []
    private(set) var version = "", pythonVersion = "", constraints = 0

    init(python: String, script: String, rows: Int, columns: Int) throws {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchError("\(python) not found: run ./deploy/setup (it installs kiwisolver into .venv)")
        }
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "--serve", "--rows", "\(rows)", "--cols", "\(columns)"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let ready = readLine()
        guard ready.hasPrefix("ready ") else {
            process.waitUntilExit()
            throw BenchError("kiwisolver is not available to \(python) (exit \(process.terminationStatus)): run ./deploy/setup")
        }
        for field in ready.split(separator: " ").dropFirst() {
            let kv = field.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { continue }
            switch kv[0] {
            case "kiwisolver": version = kv[1]
            case "python": pythonVersion = kv[1]
            case "constraints": constraints = Int(kv[1]) ?? 0
            default: break
            }
        }
    }

    func request(_ command: String, lines: Int = 1) throws -> [String] {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        return try (0..<lines).map { _ in
            let line = readLine()
            guard !line.isEmpty, !line.hasPrefix("error") else { throw BenchError("kiwi_layout.py: \(command) → \(line.debugDescription)") }
            return line
        }
    }

    func samples(_ command: String) throws -> [UInt64] {
        let line = try request(command)[0]
        guard line.hasPrefix("ns ") else { throw BenchError("kiwi_layout.py: \(command) → \(line.prefix(80).debugDescription)") }
        return line.split(separator: " ").dropFirst().compactMap { UInt64($0) }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// One line without its newline; "" at end of output.
    private func readLine() -> String {
        while true {
            if let nl = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { return "" }
            buffer += chunk
        }
    }
}
