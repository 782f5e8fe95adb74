import ArgumentParser
import Foundation
import TrellisBench
import TrellisLog
import TrellisWire

/// `trellis bench latency`: a tap on a leaf three levels down, every level its own
/// process, until the compositor has composed the leaf's new frame; beside raw libzmq
/// one-way latency over ipc times the hops on that path, measured in the same run.
/// The workload is in docs/BENCHMARKS.md.
struct LatencyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latency",
        abstract: "A tap three processes down until its frame is composed, vs raw libzmq one-way latency x hops.",
        discussion: """
            The session: trellis-compositor --headless and three trellis-app hosts, Root \
            (TapRoot) -> Middle (TapMiddle) -> Leaf (TapLeaf), each in its own process, \
            each embedding the next one cell inside its edges. A tap is a touch that begins \
            on the leaf, injected at the compositor's control endpoint: the compositor hands \
            it to Root, which hit-tests and routes it to Middle, which routes it to Leaf, \
            which redraws its label; its frame goes to the compositor, which composes it. \
            Timed: from just before the client sends the touch until the compositor finished \
            that compose (its await-text answer says when, on CLOCK_MONOTONIC, which every \
            process shares). That path is 5 one-way messages. The baseline: REQ/REP round \
            trips of 64 bytes between this process and another over ipc, halved.
            """
    )

    @Option(help: "Timed taps.") var taps = 500
    @Option(help: "Untimed taps first.") var warmup = 50
    @Option(help: "Raw libzmq round trips for the baseline.") var rawRoundTrips = 5_000

    static let hops = 5

    func validate() throws {
        guard taps >= 10, warmup >= 0, rawRoundTrips >= 100 else {
            throw ValidationError("--taps must be at least 10, --raw-round-trips at least 100")
        }
    }

    func run() async throws {
        print("latency benchmark: a tap on a leaf 3 processes down (compositor -> Root -> Middle -> Leaf -> compositor), "
            + "\(taps) taps after \(warmup) untimed; baseline raw libzmq REQ/REP over ipc between two processes")
        let raw = try await rawOneWay()
        let session = try BenchSession("latency")
        var ok = false
        defer { if !ok { print("the benchmark failed; see the logs of the run directory") } }
        do {
            let samples = try await measure(session)
            await session.stop(keep: false)
            ok = true
            report(samples, raw: raw)
        } catch {
            await session.stop(keep: true)
            throw error
        }
    }

    /// One-way latency samples: half of each raw round trip.
    func rawOneWay() async throws -> [UInt64] {
        let dir = try RunDirectory.create(session: "bench-latency-raw-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: dir.path) }
        let endpoint = try dir.ipcEndpoint("raw")
        let peer = try BenchPeerProcess(["bench", "transport-peer", "--mode", "raw-rep", "--endpoint", endpoint])
        defer { peer.stop() }
        let requester = RawRequester(endpoint: endpoint)
        defer { requester.close() }
        _ = await requester.measure(rawRoundTrips / 10)  // warm-up
        return await requester.measure(rawRoundTrips).map { $0 / 2 }
    }

    func measure(_ s: BenchSession) async throws -> (latency: [UInt64], raced: Int) {
        try s.launch("trellis-compositor", ["--root", "Root", "--headless", "--size", "80x24"], label: "compositor")
        // Children first: each connects to its parent's endpoint as soon as it exists.
        try s.launch("trellis-app", ["--host", "Leaf", "--class", "TapLeaf", "--parent", "Middle",
                                     "--endpoint", try s.endpoint("Middle")], label: "Leaf")
        try s.launch("trellis-app", ["--host", "Middle", "--class", "TapMiddle", "--parent", "Root",
                                     "--endpoint", try s.endpoint("Root"), "--remote-child", "TapLeaf"], label: "Middle")
        try s.launch("trellis-app", ["--host", "Root", "--class", "TapRoot", "--parent", "compositor",
                                     "--endpoint", try s.endpoint("compositor"), "--remote-child", "TapMiddle"], label: "Root")
        try await s.connect()
        _ = try await s.waitForTexts(["[taps 0]"], timeout: .seconds(20))
        // Inside Root (0,0)-(79,23), Middle from (1,1), Leaf from (2,2): its label's row.
        let (x, y): (Int32, Int32) = (10, 2)
        guard let client = s.client else { throw BenchError("not connected") }

        var latency: [UInt64] = []
        var raced = 0
        for k in 1...(warmup + taps) {
            // The wait is registered first and the tap sent a little later, so the compose
            // that shows the tap cannot come before the compositor waits for it; should it
            // all the same, the compositor says so ("-") and the sample is not counted.
            async let shown = BenchSession.awaitTexts(["[taps \(k)]"], on: client)
            try await Task.sleep(for: .milliseconds(2))
            let t0 = MonotonicClock.nanoseconds()
            try await s.touch(.began, x: x, y: y)
            let composedAt = try await shown.composedAt
            try await s.touch(.ended, x: x, y: y)
            guard k > warmup else { continue }
            if let composedAt, composedAt > t0 { latency.append(composedAt - t0) } else { raced += 1 }
        }
        return (latency, raced)
    }

    func report(_ result: (latency: [UInt64], raced: Int), raw: [UInt64]) {
        let ours = Percentiles(result.latency), base = Percentiles(raw)
        let sum = base.p50 * Double(Self.hops)
        let us = { (ns: Double) in figure(ns / 1000, 1) }
        print("  tap -> leaf's frame composed: p50 \(us(ours.p50)) us, p99 \(us(ours.p99)) us, min \(us(ours.min)) us "
            + "(\(result.latency.count) taps\(result.raced > 0 ? ", \(result.raced) not counted: composed before the wait began" : ""))")
        print("  raw libzmq ipc one-way: p50 \(us(base.p50)) us, p99 \(us(base.p99)) us (\(raw.count) round trips, halved); "
            + "x \(Self.hops) hops = \(us(sum)) us")
        print("bench=latency levels=3 hops=\(Self.hops) p50_us=\(us(ours.p50)) p99_us=\(us(ours.p99)) "
            + "raw_one_way_p50_us=\(us(base.p50)) raw_one_way_p99_us=\(us(base.p99)) baseline_us=\(us(sum)) "
            + "ratio=\(figure(ours.p50 / sum, 2)) taps=\(result.latency.count)")
    }
}
