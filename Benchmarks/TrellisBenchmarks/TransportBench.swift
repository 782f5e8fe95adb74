import ArgumentParser
import CZeroMQ
import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// `trellis bench transport`: a 64-byte message's round trip through one link,
/// process to process over ipc, beside raw libzmq REQ/REP in the same run; and
/// the messages per second one container endpoint delivers to 16 children,
/// beside a raw ROUTER feeding 16 DEALERs.
struct TransportBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "Link round trip vs raw libzmq REQ/REP, and fan-out to 16 children.",
        discussion: """
            Round trip: from the parent actor's send to the child controller's handler, \
            and its reply back to the parent's handler. Two baselines: raw libzmq REQ/REP \
            (ratio = link / REQ/REP), and raw libzmq moving a link's own frames over \
            ROUTER/DEALER, woken by poll(2) on ZMQ_FD as an I/O loop is (what the protocol \
            itself costs; link_vs_framed is what our code adds). The three alternate in \
            blocks so that drift on a shared machine hits them alike. \
            Every link message is written to the routing log, as in production, unless \
            --no-routing-log is given.
            """
    )

    @Option(help: "Round trips measured for each of REQ/REP, framed and link.") var iterations = 20_000
    @Option(help: "Messages for the fan-out measurement.") var fanoutMessages = 400_000
    @Option(help: "Children of the fan-out measurement.") var children = 16
    @Option(help: "Messages per child between flow-control acks.") var window = 500
    @Flag(inversion: .prefixedNo, help: "Write every link message to the routing log, as in production; --no-routing-log measures what the log costs.")
    var routingLog = true

    func validate() throws {
        guard iterations >= 100 else { throw ValidationError("--iterations must be at least 100") }
        guard (1...64).contains(children) else { throw ValidationError("--children must be 1…64") }
        guard window >= 1, window < 5_000 else { throw ValidationError("--window must be 1…4999 (below the queue limit)") }
        guard fanoutMessages >= children * window else { throw ValidationError("--fanout-messages must be at least children × window") }
    }

    func run() async throws {
        let run = try RunDirectory.create(session: "bench-\(getpid())")
        var succeeded = false
        defer {
            // Keep the logs of a failed run: they say which message went missing. As the
            // process benchmarks do, TRELLIS_KEEP_RUN=1 keeps them always (where the time goes).
            if succeeded && ProcessInfo.processInfo.environment["TRELLIS_KEEP_RUN"] == nil {
                try? FileManager.default.removeItem(atPath: run.path)
            }
            else { FileHandle.standardError.write(Data("routing logs kept in \(run.path)\n".utf8)) }
        }
        let log = routingLog ? try RoutingLog(directory: run.logs, host: "bench") : RoutingLog.disabled
        defer { log.close() }
        print("transport benchmark: 64-byte messages over ipc between two processes, libzmq \(ZMQContext.libraryVersion)")

        // Round trip.
        let rawEndpoint = try run.ipcEndpoint("raw"), linkEndpoint = try run.ipcEndpoint("link")
        let framedEndpoint = try run.ipcEndpoint("framed")
        let unixPeer = try BenchPeerProcess(["bench", "transport-peer", "--mode", "unix-echo", "--endpoint", run.path + "/unix.sock"])
        defer { unixPeer.stop() }
        let unix = try UnixRequester(path: run.path + "/unix.sock")
        defer { unix.close() }
        let rawPeer = try BenchPeerProcess(["bench", "transport-peer", "--mode", "raw-rep", "--endpoint", rawEndpoint])
        defer { rawPeer.stop() }
        let framed = RawFramedRequester(endpoint: framedEndpoint)
        defer { framed.close() }
        let framedPeer = try BenchPeerProcess(["bench", "transport-peer", "--mode", "raw-framed", "--endpoint", framedEndpoint])
        defer { framedPeer.stop() }
        try await framed.awaitEcho()
        let loop = IOLoop(name: "bench")
        defer { loop.shutdown() }
        let connected = PeerWaiter()
        let link = try await Link.bind(
            id: "bench", endpoint: linkEndpoint, loop: loop, log: log, onPeer: { connected.note($0) })
        let linkPeer = try BenchPeerProcess(
            ["bench", "transport-peer", "--mode", "link-echo", "--endpoint", linkEndpoint, "--session", run.session] + peerLogFlag)
        defer { linkPeer.stop() }
        try await connected.wait(for: 1)

        let driver = Driver(loop: loop)
        let raw = RawRequester(endpoint: rawEndpoint)
        var unixSamples: [UInt64] = [], rawSamples: [UInt64] = [], framedSamples: [UInt64] = [], linkSamples: [UInt64] = []
        let blocks = 4, perBlock = iterations / blocks
        _ = await unix.measure(perBlock / 4)  // warm-up
        _ = await raw.measure(perBlock / 4)
        _ = try await framed.measure(perBlock / 4)
        _ = try await driver.roundTrips(link, to: "echo", count: perBlock / 4)
        for _ in 0..<blocks {
            unixSamples += await unix.measure(perBlock)
            rawSamples += await raw.measure(perBlock)
            framedSamples += try await framed.measure(perBlock)
            linkSamples += try await driver.roundTrips(link, to: "echo", count: perBlock)
        }
        raw.close()
        let u = Percentiles(unixSamples), r = Percentiles(rawSamples), f = Percentiles(framedSamples), l = Percentiles(linkSamples)
        let ratio = l.p50 / r.p50
        print("round trip (µs)                          p50      p99")
        print("  Unix SOCK_SEQPACKET, no libzmq        \(figure(u.p50 / 1000).padded(7)) \(figure(u.p99 / 1000).padded(8))")
        print("  raw libzmq REQ/REP                    \(figure(r.p50 / 1000).padded(7)) \(figure(r.p99 / 1000).padded(8))")
        print("  raw libzmq, Trellis frames, poll(2)   \(figure(f.p50 / 1000).padded(7)) \(figure(f.p99 / 1000).padded(8))   \(figure(f.p50 / r.p50, 2)) × REQ/REP")
        print("  trellis link                          \(figure(l.p50 / 1000).padded(7)) \(figure(l.p99 / 1000).padded(8))   ratio \(figure(ratio, 2)) (target ≤ 1.5), \(figure(l.p50 / f.p50, 2)) × framed")
        await link.close()

        // Fan-out.
        let rounds = fanoutMessages / (children * window)
        let total = rounds * children * window
        let rawFanout = try await rawFanout(run: run, rounds: rounds)
        let linkFanout = try await linkFanout(run: run, loop: loop, log: log, driver: driver, rounds: rounds)
        print("fan-out to \(children) children, \(total) messages, acked every \(window) per child:")
        print("  raw libzmq ROUTER→DEALER  \(Int(rawFanout)) msg/s")
        print("  trellis link              \(Int(linkFanout)) msg/s   (target ≥ 200000)")
        print(
            "bench=transport raw_p50_us=\(figure(r.p50 / 1000, 2)) raw_p99_us=\(figure(r.p99 / 1000, 2)) "
                + "unix_p50_us=\(figure(u.p50 / 1000, 2)) unix_p99_us=\(figure(u.p99 / 1000, 2)) raw_vs_unix=\(figure(r.p50 / u.p50, 2)) "
                + "framed_p50_us=\(figure(f.p50 / 1000, 2)) framed_p99_us=\(figure(f.p99 / 1000, 2)) framed_ratio=\(figure(f.p50 / r.p50, 3)) "
                + "link_p50_us=\(figure(l.p50 / 1000, 2)) link_p99_us=\(figure(l.p99 / 1000, 2)) ratio=\(figure(ratio, 3)) "
                + "link_vs_framed=\(figure(l.p50 / f.p50, 3)) "
                + "fanout_msgs_per_s=\(Int(linkFanout)) raw_fanout_msgs_per_s=\(Int(rawFanout)) "
                + "fanout_ratio=\(figure(linkFanout / rawFanout, 3)) iterations=\(rawSamples.count) children=\(children) routing_log=\(routingLog ? "on" : "off")")
        succeeded = true
    }

    private var peerLogFlag: [String] { routingLog ? [] : ["--no-routing-log"] }

    private func linkFanout(run: RunDirectory, loop: IOLoop, log: RoutingLog, driver: Driver, rounds: Int) async throws -> Double {
        let endpoint = try run.ipcEndpoint("fan")
        let connected = PeerWaiter()
        let link = try await Link.bind(id: "fan", endpoint: endpoint, loop: loop, log: log, onPeer: { connected.note($0) })
        let sink = try BenchPeerProcess(
            ["bench", "transport-peer", "--mode", "link-sink", "--endpoint", endpoint, "--children", "\(children)",
             "--session", run.session] + peerLogFlag)
        defer { sink.stop() }
        try await connected.wait(for: children)
        let ids = (0..<children).map { ControllerID(String(format: "sink%02d", $0))! }
        _ = try await driver.fanout(link, to: ids, rounds: 1, window: window)  // warm-up
        let seconds = try await driver.fanout(link, to: ids, rounds: rounds, window: window)
        // Every message arrived: each child reports its count.
        var delivered = 0
        for id in ids {
            let answer = try await link.request(.request(Request(name: "count")), to: id)
            guard case .reply(let r) = answer.message, r.payload.count == 8 else { throw BenchError("bad count reply") }
            delivered += r.payload.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        }
        let expected = (rounds + 1) * children * window
        guard delivered == expected else { throw BenchError("children received \(delivered) of \(expected) messages") }
        await link.close()
        return Double(rounds * children * window) / seconds
    }

    private func rawFanout(run: RunDirectory, rounds: Int) async throws -> Double {
        let endpoint = try run.ipcEndpoint("rawfan")
        let sink = try BenchPeerProcess(
            ["bench", "transport-peer", "--mode", "raw-sink", "--endpoint", endpoint, "--children", "\(children)",
             "--window", "\(window)"])
        defer { sink.stop() }
        let (children, window) = (self.children, self.window)
        return await onDedicatedThread("raw-fanout") { RawFanout.run(endpoint: endpoint, children: children, window: window, rounds: rounds) }
    }
}

/// Waits until a link has heard from `n` peers.
final class PeerWaiter: @unchecked Sendable {
    // @unchecked: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func note(_ e: PeerEvent) { if case .connected = e { lock.withLock { count += 1 } } }
    func wait(for n: Int) async throws {
        for _ in 0..<1000 {
            if lock.withLock({ count >= n }) { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw BenchError("only \(lock.withLock { count }) of \(n) peers connected within 10 s")
    }
}

/// The parent controller of the benchmark: an actor on the link's loop, so its
/// sends and the resumption after each reply happen on the loop thread.
actor Driver {
    let loop: IOLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    init(loop: IOLoop) { self.loop = loop }

    /// 64-byte body: name length 1, name "p", payload length 4, 58 payload bytes.
    private let ping = Message.request(Request(name: "p", payload: Array(repeating: 0x2A, count: 58)))

    func roundTrips(_ link: Link, to child: ControllerID, count: Int) async throws -> [UInt64] {
        var samples: [UInt64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let t0 = MonotonicClock.nanoseconds()
            _ = try await link.request(ping, to: child)
            samples.append(MonotonicClock.nanoseconds() - t0)
        }
        return samples
    }

    /// Sends `window` messages to every child, then waits until each has
    /// acknowledged its last one; `rounds` times. Returns the seconds taken.
    func fanout(_ link: Link, to children: [ControllerID], rounds: Int, window: Int) async throws -> Double {
        let touch = Message.touch(TouchInput(phase: .moved, x: 10, y: 5, timestamp: 0))
        let start = MonotonicClock.nanoseconds()
        for _ in 0..<rounds {
            for child in children {
                for _ in 0..<(window - 1) { try await link.send(touch, to: child) }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for child in children {
                    group.addTask { _ = try await link.request(touch, to: child, timeout: .seconds(30)) }
                }
                try await group.waitForAll()
            }
        }
        return Double(MonotonicClock.nanoseconds() - start) / 1e9
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
