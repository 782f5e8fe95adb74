import ArgumentParser
import Foundation
import TrellisLog
import TrellisSession
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
            trips of 64 bytes between this process and another over ipc, halved. Then \
            --cold-taps more, the tap and each baseline's message after a thread on every \
            CPU wrote a byte in every line of twice the last-level cache (cold_*): what a \
            click on an idle terminal pays, beside bare sockets over the same hops paying it too.
            """
    )

    @Option(help: "Timed taps.") var taps = 500
    @Option(help: "Untimed taps first.") var warmup = 50
    @Option(help: "Raw libzmq round trips for the back-to-back one-way figure.") var rawRoundTrips = 5_000
    @Option(help: "Timed taps after the warm ones, each after every CPU's caches were emptied, the baselines' messages too.") var coldTaps = 100

    static let hops = 5
    /// How long everything is left idle before each tap, and before each message of
    /// the raw path: a hop that wakes a sleeping process costs more than one between
    /// two busy ones (on this 2-core VM about 30 µs against 70: `raw_one_way_p50_us`
    /// beside `baseline_us` / 5), and a person's taps come
    /// to sleeping processes.
    static let pause = Duration.milliseconds(2)

    func validate() throws {
        guard taps >= 10, warmup >= 0, rawRoundTrips >= 100, coldTaps >= 10 else {
            throw ValidationError("--taps and --cold-taps must be at least 10, --raw-round-trips at least 100")
        }
    }

    func run() async throws {
        print("latency benchmark: a tap on a leaf 3 processes down (compositor -> Root -> Middle -> Leaf -> compositor), "
            + "\(taps) taps after \(warmup) untimed; baseline raw libzmq over the same \(Self.hops) hops through 4 relay processes")
        // One run directory for both raw baselines' sockets.
        let dir = try RunDirectory.create(session: "bench-latency-raw-\(getpid())")
        defer { try? FileManager.default.removeItem(atPath: dir.path) }
        let raw = try await rawOneWay(in: dir)
        let path = try RawRelayPath(run: dir, hops: Self.hops)
        defer { path.close() }
        let unixPath = try UnixRelayPath(run: dir, hops: Self.hops)
        defer { unixPath.close() }
        let session = try BenchSession("latency")
        var ok = false
        defer { if !ok { print("the benchmark failed; see the logs of the run directory") } }
        do {
            let samples = try await measure(session, beside: path, and: unixPath)
            await session.stop(keep: false)
            ok = true
            report(samples, raw: raw)
        } catch {
            await session.stop(keep: true)
            throw error
        }
    }

    /// Back-to-back one-way latency samples: half of each raw round trip.
    func rawOneWay(in dir: RunDirectory) async throws -> [UInt64] {
        let endpoint = try dir.ipcEndpoint("raw")
        let peer = try BenchPeerProcess(["bench", "transport-peer", "--mode", "raw-rep", "--endpoint", endpoint])
        defer { peer.stop() }
        let requester = RawRequester(endpoint: endpoint)
        defer { requester.close() }
        _ = await requester.measure(rawRoundTrips / 10)  // warm-up
        return await requester.measure(rawRoundTrips).map { $0 / 2 }
    }

    /// The taps, each after one message over the raw path (the baseline) and one over
    /// the same hops on Unix sockets: alternating, so that whatever else the shared
    /// machine does weighs on all alike.
    /// One run's samples, in ns: the taps and the two baselines, warm (after the pause
    /// alone) and cold (after every CPU's caches were emptied, then the pause).
    struct Samples {
        var latency: [UInt64] = [], path: [UInt64] = [], unix: [UInt64] = []
        var coldLatency: [UInt64] = [], coldPath: [UInt64] = [], coldUnix: [UInt64] = []
        var raced = 0
    }

    func measure(
        _ s: BenchSession, beside path: RawRelayPath, and unixPath: UnixRelayPath
    ) async throws -> Samples {
        try s.launchChain(root: "TapRoot", middle: "TapMiddle", leaf: "TapLeaf")
        try await s.connect()
        _ = try await s.waitForTexts(["[taps 0]"], timeout: .seconds(20))
        // Inside Root (0,0)-(79,23), Middle from (1,1), Leaf from (2,2): its label's row.
        let (x, y): (Int32, Int32) = (10, 2)
        guard let client = s.client else { throw BenchError("not connected") }

        var samples = Samples()
        let sweep = CacheSweep()
        for k in 1...(warmup + taps + coldTaps) {
            let timed = k > warmup, cold = k > warmup + taps
            // Cold: each of the three after a sweep of its own, so that none finds the
            // caches the one before it warmed.
            if cold { sweep.sweep() }
            guard let sample = await path.measure(1, pause: Self.pause) else {
                throw BenchError("the raw relay path lost a message")
            }
            if cold { sweep.sweep() }
            guard let unixSample = await unixPath.measure(1, pause: Self.pause) else {
                throw BenchError("the Unix relay path lost a message")
            }
            if cold {
                samples.coldPath += sample
                samples.coldUnix += unixSample
            } else if timed {
                samples.path += sample
                samples.unix += unixSample
            }
            // The wait is registered first and the tap sent a little later, so the compose
            // that shows the tap cannot come before the compositor waits for it; should it
            // all the same, the compositor says so ("-") and the sample is not counted.
            async let shown = BenchSession.awaitTexts(["[taps \(k)]"], on: client)
            if cold { sweep.sweep() }
            try await Task.sleep(for: Self.pause)
            let t0 = try await s.touch(.began, x: x, y: y)
            let composedAt = try await shown.composedAt
            try await s.touch(.ended, x: x, y: y)
            guard timed else { continue }
            guard let composedAt, composedAt > t0 else {
                samples.raced += 1
                continue
            }
            if cold { samples.coldLatency.append(composedAt - t0) } else { samples.latency.append(composedAt - t0) }
        }
        return samples
    }

    func report(_ result: Samples, raw: [UInt64]) {
        let ours = Percentiles(result.latency), path = Percentiles(result.path), hot = Percentiles(raw)
        let unix = Percentiles(result.unix)
        let cold = Percentiles(result.coldLatency), coldPath = Percentiles(result.coldPath), coldUnix = Percentiles(result.coldUnix)
        let backToBack = hot.p50 * Double(Self.hops)
        let us = { (ns: Double) in figure(ns / 1000, 1) }
        print("  tap -> leaf's frame composed: p50 \(us(ours.p50)) us, p99 \(us(ours.p99)) us, min \(us(ours.min)) us "
            + "(\(result.latency.count) taps\(result.raced > 0 ? ", \(result.raced) not counted: composed before the wait began" : ""))")
        print("  baseline, raw libzmq over the same \(Self.hops) hops through 4 processes, each message after the same "
            + "pause: p50 \(us(path.p50)) us, p99 \(us(path.p99)) us (\(result.path.count) messages)")
        print("  the same hops over Unix SOCK_SEQPACKET sockets, no libzmq, after the same pause: p50 \(us(unix.p50)) us, "
            + "p99 \(us(unix.p99)) us: libzmq's path is \(figure(path.p50 / unix.p50, 2)) × that")
        print("  for reference, raw libzmq ipc one-way back to back: p50 \(us(hot.p50)) us, p99 \(us(hot.p99)) us "
            + "(\(raw.count) round trips, halved); x \(Self.hops) hops = \(us(backToBack)) us")
        print("  cold, each after every CPU's caches were emptied: the tap p50 \(us(cold.p50)) us, raw libzmq \(us(coldPath.p50)) us, "
            + "Unix sockets \(us(coldUnix.p50)) us (\(result.coldLatency.count) taps): ours \(figure(cold.p50 / coldUnix.p50, 2)) × the Unix path's")
        print("bench=latency levels=3 hops=\(Self.hops) p50_us=\(us(ours.p50)) p99_us=\(us(ours.p99)) "
            + "baseline_us=\(us(path.p50)) baseline_p99_us=\(us(path.p99)) ratio=\(figure(ours.p50 / path.p50, 2)) "
            + "raw_one_way_p50_us=\(us(hot.p50)) raw_one_way_p99_us=\(us(hot.p99)) back_to_back_baseline_us=\(us(backToBack)) "
            + "back_to_back_ratio=\(figure(ours.p50 / backToBack, 2)) unix_baseline_us=\(us(unix.p50)) "
            + "baseline_vs_unix=\(figure(path.p50 / unix.p50, 2)) "
            + "cold_p50_us=\(us(cold.p50)) cold_baseline_us=\(us(coldPath.p50)) cold_unix_baseline_us=\(us(coldUnix.p50)) "
            + "cold_ratio=\(figure(cold.p50 / coldPath.p50, 2)) cold_vs_unix=\(figure(cold.p50 / coldUnix.p50, 2)) "
            + "taps=\(result.latency.count) cold_taps=\(result.coldLatency.count)")
    }
}
