import CZeroMQ
import Foundation
import TrellisLog
import TrellisTransport

/// The baselines: plain libzmq, no Trellis, in the same run as the link figures.

/// A REQ socket timing blocking round trips of 64 bytes against a REP echo.
final class RawRequester: @unchecked Sendable {
    // @unchecked: the socket is used by one measuring thread at a time; each
    // `measure` call starts after the previous one finished (a full barrier),
    // which is how libzmq allows a socket to move between threads.
    private let socket: UnsafeMutableRawPointer

    init(endpoint: String) {
        socket = zmq_socket(ZMQContext.shared.rawHandle, ZMQ_REQ)
        var zero: Int32 = 0
        zmq_setsockopt(socket, ZMQ_LINGER, &zero, 4)
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

/// A ROUTER sending `window` 64-byte messages to each of `children` DEALERs,
/// then waiting for each one's ack; `rounds` times. Returns messages per second.
enum RawFanout {
    static func run(endpoint: String, children: Int, window: Int, rounds: Int) -> Double {
        let router = zmq_socket(ZMQContext.shared.rawHandle, ZMQ_ROUTER)!
        var zero: Int32 = 0, hwm: Int32 = 10_000
        zmq_setsockopt(router, ZMQ_LINGER, &zero, 4)
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
        let context = ZMQContext.shared.rawHandle
        push = zmq_socket(context, ZMQ_PUSH)
        pull = zmq_socket(context, ZMQ_PULL)
        var zero: Int32 = 0
        zmq_setsockopt(push, ZMQ_LINGER, &zero, 4)
        zmq_setsockopt(pull, ZMQ_LINGER, &zero, 4)
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
            var samples: [UInt64] = []
            var out = [UInt8](repeating: 0x2A, count: 64)
            var stamp: UInt64 = 0
            for _ in 0..<count {
                Thread.sleep(forTimeInterval: Double(pause.nanoseconds) / 1e9)
                out[0] = 0
                let t0 = MonotonicClock.nanoseconds()
                zmq_send(push, &out, 64, 0)
                guard zmq_recv(pull, &stamp, 8, 0) == 8 else { return nil }
                samples.append(stamp &- t0)
            }
            return samples
        }
    }

    func close() {
        zmq_close(push)
        zmq_close(pull)
        relays.forEach { $0.stop() }
    }
}
