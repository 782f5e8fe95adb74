import ArgumentParser
import CZeroMQ
import Foundation
import TrellisLog
import TrellisSeeds
import TrellisSession
import TrellisTransport

/// `trellis bench scale`: 64 host processes — a container and its 63 children, each in
/// its own process — from the first process started to the first composed screen that
/// shows all of them, and what they hold in memory; beside 64 processes that only start,
/// connect and wait, measured in the same run. The workload is in docs/BENCHMARKS.md.
struct ScaleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "64 host processes until all are on the composed screen, vs 64 bare processes that only connect.",
        discussion: """
            The session: trellis-compositor --headless --size 200x60, a ScaleGrid host (the \
            root) and 63 ScaleTile hosts, its children, each a trellis-app process showing \
            its label in one cell of an 8x8 grid. Timed: from just before the first process \
            is started until the compositor finished the first compose that shows all 64 \
            labels (its await-text answer says when). Then the resident (RSS) and \
            proportional (PSS: shared pages divided among the processes mapping them) \
            memory of every process is summed. The baseline: 64 processes of this trellis \
            binary (which links the same Swift runtime, Foundation and libzmq) that start, \
            connect a DEALER to a ROUTER here and say hello: time until all 64 hellos have \
            arrived, and their memory while they wait. Every process is stopped at the end, \
            on failure too.
            """
    )

    static let hosts = ScaleGrid.children + 1

    @Option(help: "Seconds to wait for the first complete screen before giving up.") var timeout = 60

    func run() async throws {
        print("scale benchmark: \(Self.hosts) host processes (a container and \(ScaleGrid.children) children) "
            + "and the compositor, until one composed screen shows all; baseline \(Self.hosts) bare processes that connect")
        let base = try await baseline()
        let session = try BenchSession("scale")
        let ours: ScaleResult
        do {
            ours = try await measure(session)
        } catch {
            await session.stop(keep: true)
            throw error
        }
        await session.stop(keep: false)
        report(ours, base)
    }

    struct ScaleResult {
        var milliseconds: Double
        var hostRSS = 0, hostPSS = 0, compositorRSS = 0, compositorPSS = 0
        var unread = 0
    }

    func measure(_ s: BenchSession) async throws -> ScaleResult {
        let t0 = MonotonicClock.nanoseconds()
        try s.launch("trellis-compositor", ["--root", "Grid", "--headless", "--size", "200x60"], label: "compositor")
        // Children first: each connects to the container's endpoint as soon as it exists.
        for i in 1...ScaleGrid.children {
            try s.launch("trellis-app", ["--host", ScaleTile.id(i).rawValue, "--class", "ScaleTile", "--parent", "Grid",
                                         "--endpoint", try s.endpoint("Grid")], label: ScaleTile.id(i).rawValue)
        }
        try s.launch("trellis-app", ["--host", "Grid", "--class", "ScaleGrid", "--parent", "compositor",
                                     "--endpoint", try s.endpoint("compositor"), "--remote-child", "ScaleTile"], label: "Grid")
        try await s.connect(timeout: .seconds(timeout))
        let labels = (0...ScaleGrid.children).map(ScaleTile.label)
        let shown = try await s.waitForTexts(labels, timeout: .seconds(timeout))
        // Shown before the wait began (the client connected late): the wait's own
        // answer is an upper bound.
        let t1 = shown.composedAt ?? MonotonicClock.nanoseconds()
        var r = ScaleResult(milliseconds: Double(t1 - t0) / 1e6)
        for (name, pid) in s.pids {
            guard let rss = ProcMemory.status("VmRSS", pid: pid), let pss = ProcMemory.pss(pid: pid) else {
                r.unread += 1
                continue
            }
            if name == "compositor" {
                (r.compositorRSS, r.compositorPSS) = (rss, pss)
            } else {
                r.hostRSS += rss
                r.hostPSS += pss
            }
        }
        return r
    }

    /// 64 bare processes: started, connected, hello received; then weighed and stopped.
    func baseline() async throws -> ScaleResult {
        let dir = try RunDirectory.create(session: "bench-scale-raw-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: dir.path) }
        let endpoint = try dir.ipcEndpoint("raw")
        let router = rawSocket(ZMQ_ROUTER)
        var limit = Int32(timeout * 1000)
        zmq_setsockopt(router, ZMQ_RCVTIMEO, &limit, 4)
        zmq_bind(router, endpoint)
        defer { zmq_close(router) }

        guard let me = Bundle.main.executableURL else { throw BenchError("cannot tell where this executable is") }
        var peers: [(Process, Pipe)] = []
        defer {
            // Closing stdin ends them; a peer that does not end is killed.
            for (_, stdin) in peers { try? stdin.fileHandleForWriting.close() }
            let deadline = MonotonicClock.nanoseconds() + 2_000_000_000
            while peers.contains(where: { $0.0.isRunning }), MonotonicClock.nanoseconds() < deadline { usleep(10_000) }
            for (p, _) in peers where p.isRunning { kill(p.processIdentifier, SIGKILL) }
            for (p, _) in peers { p.waitUntilExit() }
        }
        let t0 = MonotonicClock.nanoseconds()
        for _ in 0..<Self.hosts {
            let p = Process(), stdin = Pipe()
            p.executableURL = me
            p.arguments = ["bench", "scale-peer", "--endpoint", endpoint]
            p.standardInput = stdin
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            peers.append((p, stdin))
        }
        let hellos = await onDedicatedThread("scale-hellos") { [router = UInt(bitPattern: router)] in
            // The socket moves to this thread while the benchmark's thread waits for it.
            let socket = UnsafeMutableRawPointer(bitPattern: router)!
            var buf = [UInt8](repeating: 0, count: 256), n = 0
            while n < Self.hosts {
                guard zmq_recv(socket, &buf, buf.count, 0) >= 0, zmq_recv(socket, &buf, buf.count, 0) >= 0 else { break }
                n += 1
            }
            return n
        }
        let t1 = MonotonicClock.nanoseconds()
        guard hellos == Self.hosts else { throw BenchError("only \(hellos) of \(Self.hosts) bare processes connected within \(timeout) s") }
        var r = ScaleResult(milliseconds: Double(t1 - t0) / 1e6)
        for (p, _) in peers {
            guard let rss = ProcMemory.status("VmRSS", pid: p.processIdentifier), let pss = ProcMemory.pss(pid: p.processIdentifier) else {
                r.unread += 1
                continue
            }
            r.hostRSS += rss
            r.hostPSS += pss
        }
        return r
    }

    func report(_ ours: ScaleResult, _ base: ScaleResult) {
        let mb = { (kb: Int) in figure(Double(kb) / 1024, 1) }
        print("  \(Self.hosts) hosts + compositor: first complete screen after \(figure(ours.milliseconds, 0)) ms; "
            + "hosts RSS \(mb(ours.hostRSS)) MB (PSS \(mb(ours.hostPSS)) MB), compositor RSS \(mb(ours.compositorRSS)) MB "
            + "(PSS \(mb(ours.compositorPSS)) MB)")
        print("  \(Self.hosts) bare processes: all connected after \(figure(base.milliseconds, 0)) ms; "
            + "RSS \(mb(base.hostRSS)) MB (PSS \(mb(base.hostPSS)) MB)")
        if ours.unread + base.unread > 0 { print("  (\(ours.unread + base.unread) processes could not be read in /proc)") }
        let perHost = Double(ours.hostPSS - base.hostPSS) / Double(Self.hosts) / 1024
        print("  a host costs \(figure(perHost, 2)) MB PSS more than a bare process of the same runtime")
        print("bench=scale hosts=\(Self.hosts) first_frame_ms=\(figure(ours.milliseconds, 0)) "
            + "hosts_rss_mb=\(mb(ours.hostRSS)) hosts_pss_mb=\(mb(ours.hostPSS)) "
            + "compositor_rss_mb=\(mb(ours.compositorRSS)) compositor_pss_mb=\(mb(ours.compositorPSS)) "
            + "baseline_ms=\(figure(base.milliseconds, 0)) baseline_rss_mb=\(mb(base.hostRSS)) baseline_pss_mb=\(mb(base.hostPSS)) "
            + "ratio=\(figure(ours.milliseconds / base.milliseconds, 2)) pss_ratio=\(figure(Double(ours.hostPSS) / Double(base.hostPSS), 2))")
    }
}
