import CZeroMQ
import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// The baselines: plain libzmq, no Trellis, in the same run as the link figures.

/// A REQ socket timing blocking round trips of 64 bytes against a REP echo.
final class RawRequester: @unchecked Sendable {
    // @unchecked: the socket is used by one measuring thread at a time; each
    // `measure` call starts after the previous one finished (a full barrier),
    // which is how libzmq allows a socket to move between threads.
    private let socket: UnsafeMutableRawPointer

    init(endpoint: String) {
        socket = rawSocket(ZMQ_REQ)
        zmq_connect(socket, endpoint)
    }

    func measure(_ count: Int) async -> [UInt64] {
        await onDedicatedThread("raw-req") { [self] in
            var samples = [UInt64](repeating: 0, count: count)
            var out = [UInt8](repeating: 0x2A, count: 64), back = [UInt8](repeating: 0, count: 64)
            for i in 0..<count {
                let t0 = MonotonicClock.nanoseconds()
                zmq_send(socket, &out, 64, 0)
                zmq_recv(socket, &back, 64, 0)
                samples[i] = MonotonicClock.nanoseconds() - t0
            }
            return samples
        }
    }

    func close() { zmq_close(socket) }
}

/// Raw libzmq moving what a link moves, to tell the protocol's cost from ours: a
/// ROUTER sends a DEALER echo the frames of a 64-byte Trellis request (routing id,
/// delimiter, protocol, 96-byte header, body) and the echo answers with the four
/// frames of a reply. Both ends wait as an `IOLoop` does — receive until EAGAIN, then
/// sleep in poll(2) on ZMQ_FD — rather than in a blocking receive. No decoding, no
/// actors, no routing log.
enum RawFramed {
    static let echoID = Array("echo".utf8)
    static let header = [UInt8](repeating: 0, count: 96)
    static let body = [UInt8](repeating: 0x2A, count: 64)

    /// Sends the frames of one message: the routing id first when `to` is given.
    static func send(_ socket: UnsafeMutableRawPointer, to id: [UInt8]?) {
        if let id { id.withUnsafeBytes { _ = zmq_send(socket, $0.baseAddress, $0.count, ZMQ_SNDMORE) } }
        _ = zmq_send(socket, nil, 0, ZMQ_SNDMORE)
        WireCodec.protocolFrame.withUnsafeBytes { _ = zmq_send(socket, $0.baseAddress, $0.count, ZMQ_SNDMORE) }
        header.withUnsafeBytes { _ = zmq_send(socket, $0.baseAddress, $0.count, ZMQ_SNDMORE) }
        body.withUnsafeBytes { _ = zmq_send(socket, $0.baseAddress, $0.count, 0) }
    }

    /// What `receive` polls: the socket's ZMQ_FD, then `stop` if given (a descriptor
    /// whose readability means stop). Made once per measurement and reused, as an
    /// I/O loop reuses its poll set, so the baseline allocates nothing per message.
    static func pollSet(_ socket: UnsafeMutableRawPointer, stop: Int32? = nil) -> [pollfd] {
        var fd: Int32 = -1
        var size = 4
        zmq_getsockopt(socket, ZMQ_FD, &fd, &size)
        return [fd, stop].compactMap { $0 }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    }

    /// Receives one whole message, sleeping in poll(2) on `items` (from `pollSet`)
    /// while none is waiting. Returns false when the stop descriptor became readable
    /// or nothing came for `timeout` ms.
    static func receive(
        _ socket: UnsafeMutableRawPointer, polling items: inout [pollfd], into buffer: inout [UInt8], timeout: Int32 = -1
    ) -> Bool {
        while zmq_recv(socket, &buffer, buffer.count, ZMQ_DONTWAIT) < 0 {
            // EAGAIN: libzmq has just processed the socket's mailbox, so ZMQ_FD is armed.
            if poll(&items, nfds_t(items.count), timeout) == 0 { return false }
            if items.count > 1 && items[1].revents != 0 { return false }
        }
        var more: Int32 = 1
        var size = 4
        while true {
            zmq_getsockopt(socket, ZMQ_RCVMORE, &more, &size)
            if more == 0 { return true }
            _ = zmq_recv(socket, &buffer, buffer.count, 0)
        }
    }

    /// The echo, until stdin closes.
    static func echo(endpoint: String) {
        let dealer = rawSocket(ZMQ_DEALER)
        echoID.withUnsafeBytes { _ = zmq_setsockopt(dealer, ZMQ_ROUTING_ID, $0.baseAddress, $0.count) }
        zmq_connect(dealer, endpoint)
        var hello: UInt8 = 1
        zmq_send(dealer, &hello, 1, 0)
        var items = pollSet(dealer, stop: 0)  // stdin: readable (EOF) when the bench ends
        var buffer = [UInt8](repeating: 0, count: 256)
        TransportBenchPeer.ready()
        while receive(dealer, polling: &items, into: &buffer) { send(dealer, to: nil) }
        zmq_close(dealer)
    }
}

/// The ROUTER end of `RawFramed`, timing round trips.
final class RawFramedRequester: @unchecked Sendable {
    // @unchecked: the socket is used by one measuring thread at a time; each
    // `measure` call starts after the previous one finished (a full barrier),
    // which is how libzmq allows a socket to move between threads.
    private let socket: UnsafeMutableRawPointer

    /// Binds at `endpoint`; `measure` may start once the echo has said hello.
    init(endpoint: String) {
        socket = rawSocket(ZMQ_ROUTER)
        zmq_bind(socket, endpoint)
    }

    /// Waits for the echo's hello (a routing id and one frame).
    func awaitEcho() async throws {
        let heard = await onDedicatedThread("raw-framed") { [self] in
            var items = RawFramed.pollSet(socket)
            var buffer = [UInt8](repeating: 0, count: 256)
            return RawFramed.receive(socket, polling: &items, into: &buffer, timeout: 10_000)
        }
        guard heard else { throw BenchError("the framed echo did not say hello within 10 s") }
    }

    func measure(_ count: Int) async throws -> [UInt64] {
        let samples = await onDedicatedThread("raw-framed") { [self] () -> [UInt64]? in
            var samples = [UInt64](repeating: 0, count: count)
            var items = RawFramed.pollSet(socket)
            var buffer = [UInt8](repeating: 0, count: 256)
            for i in 0..<count {
                let t0 = MonotonicClock.nanoseconds()
                RawFramed.send(socket, to: RawFramed.echoID)
                guard RawFramed.receive(socket, polling: &items, into: &buffer, timeout: 2_000) else { return nil }
                samples[i] = MonotonicClock.nanoseconds() - t0
            }
            return samples
        }
        guard let samples else { throw BenchError("the framed echo stopped answering (no reply within 2 s)") }
        return samples
    }

    func close() { zmq_close(socket) }
}

/// A ROUTER sending `window` 64-byte messages to each of `children` DEALERs,
/// then waiting for each one's ack; `rounds` times. Returns messages per second.
enum RawFanout {
    static func run(endpoint: String, children: Int, window: Int, rounds: Int) -> Double {
        let router = rawSocket(ZMQ_ROUTER)
        var hwm: Int32 = 10_000
        zmq_setsockopt(router, ZMQ_SNDHWM, &hwm, 4)
        zmq_bind(router, endpoint)
        defer { zmq_close(router) }
        var ids: [[UInt8]] = []
        var buf = [UInt8](repeating: 0, count: 256)
        while ids.count < children {  // every DEALER says hello first
            let n = Int(zmq_recv(router, &buf, buf.count, 0))
            ids.append(Array(buf[0..<max(0, n)]))
            _ = zmq_recv(router, &buf, buf.count, 0)
        }
        var payload = [UInt8](repeating: 0x2A, count: 64)
        func round() {
            for var id in ids {
                for _ in 0..<window {
                    zmq_send(router, &id, id.count, ZMQ_SNDMORE)
                    zmq_send(router, &payload, 64, 0)
                }
            }
            for _ in 0..<children {
                _ = zmq_recv(router, &buf, buf.count, 0)
                _ = zmq_recv(router, &buf, buf.count, 0)
            }
        }
        round()  // warm-up
        let start = MonotonicClock.nanoseconds()
        for _ in 0..<rounds { round() }
        return Double(rounds * children * window) / (Double(MonotonicClock.nanoseconds() - start) / 1e9)
    }
}

/// Raw libzmq over the path of a tap in `trellis bench latency`: this process sends
/// 64 bytes to the first of four relay processes, which pass it along a ring of
/// PUSH/PULL sockets over ipc (1 → 2 → 3 → 4 → 1) until it has made `hops` one-way
/// hops and is back at the first, as a tap goes client → compositor → Root → Middle
/// → Leaf → compositor. Each message follows the same idle pause as a tap, so each
/// hop wakes a process that sleeps, as each hop of a tap does.
final class RawRelayPath: @unchecked Sendable {
    // @unchecked: the sockets are used by one measuring thread at a time; each
    // `measure` call starts after the previous one finished (a full barrier),
    // which is how libzmq allows a socket to move between threads.
    private let relays: [BenchPeerProcess]
    private let push: UnsafeMutableRawPointer
    private let pull: UnsafeMutableRawPointer

    init(run: RunDirectory, hops: Int) throws {
        let endpoints = try (1...4).map { try run.ipcEndpoint("relay\($0)") }
        let report = try run.ipcEndpoint("relay-report")
        push = rawSocket(ZMQ_PUSH)
        pull = rawSocket(ZMQ_PULL)
        var timeout: Int32 = 2_000
        zmq_setsockopt(pull, ZMQ_RCVTIMEO, &timeout, 4)
        zmq_bind(pull, report)
        var started: [BenchPeerProcess] = []
        for (i, endpoint) in endpoints.enumerated() {
            let relay = try? BenchPeerProcess(
                ["bench", "transport-peer", "--mode", "raw-relay", "--endpoint", endpoint,
                 "--next", endpoints[(i + 1) % endpoints.count], "--hops", "\(hops)"]
                    + (i == 0 ? ["--report", report] : []))
            guard let relay else {
                started.forEach { $0.stop() }
                zmq_close(push)
                zmq_close(pull)
                throw BenchError("raw relay \(i + 1) did not start")
            }
            started.append(relay)
        }
        relays = started
        zmq_connect(push, endpoints[0])
    }

    /// `count` samples: from the send to the arrival of the last hop, in ns, each
    /// after `pause`; nil if a message never came back (a relay died) within 2 s.
    func measure(_ count: Int, pause: Duration) async -> [UInt64]? {
        await onDedicatedThread("raw-relay") { [self] in
            pacedSamples(count, pause: pause, send: { zmq_send(push, $0, 64, 0) }) {
                var stamp: UInt64 = 0
                return zmq_recv(pull, &stamp, 8, 0) == 8 ? stamp : nil
            }
        }
    }

    func close() {
        zmq_close(push)
        zmq_close(pull)
        relays.forEach { $0.stop() }
    }
}

/// A relay path's samples: `count` 64-byte messages, each after `pause`, its first byte
/// zero (the hops so far), from the send to the last hop's arrival time that `arrival`
/// reads (nil: never came within its bound, and the whole measurement is nil).
func pacedSamples(
    _ count: Int, pause: Duration, send: (UnsafeMutableRawPointer) -> Void, arrival: () -> UInt64?
) -> [UInt64]? {
    var samples: [UInt64] = []
    var out = [UInt8](repeating: 0x2A, count: 64)
    for _ in 0..<count {
        Thread.sleep(forTimeInterval: Double(pause.nanoseconds) / 1e9)
        out[0] = 0
        let t0 = MonotonicClock.nanoseconds()
        out.withUnsafeMutableBytes { send($0.baseAddress!) }
        guard let stamp = arrival() else { return nil }
        samples.append(stamp &- t0)
    }
    return samples
}
