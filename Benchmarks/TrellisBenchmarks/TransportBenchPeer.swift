import ArgumentParser
import CZeroMQ
import Foundation
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// The other process of `trellis bench transport`. Hidden: started by the benchmark.
struct TransportBenchPeer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport-peer", abstract: "Helper process of 'trellis bench transport'.", shouldDisplay: false)

    enum Mode: String, ExpressibleByArgument {
        case rawRep = "raw-rep", unixEcho = "unix-echo", unixRelay = "unix-relay", rawFramed = "raw-framed", rawSink = "raw-sink", rawRelay = "raw-relay", linkEcho = "link-echo", linkSink = "link-sink"
    }

    @Option var mode: Mode
    @Option var endpoint: String
    @Option var children = 16
    @Option var window = 500
    @Option var session: String?
    @Flag(inversion: .prefixedNo) var routingLog = true
    /// raw-relay: where to pass each message on, and where to report the last hop's arrival.
    @Option var next: String?
    @Option var report: String?
    @Option var hops = 5

    func run() async throws {
        switch mode {
        case .rawRep: await onDedicatedThread("raw-rep") { [endpoint] in Self.rawRep(endpoint) }
        case .unixEcho: await onDedicatedThread("unix-echo") { [endpoint] in UnixSeqpacket.echo(path: endpoint) }
        case .unixRelay:
            guard let next else { throw ValidationError("unix-relay needs --next") }
            await onDedicatedThread("unix-relay") { [endpoint, report, hops] in UnixSeqpacket.relay(endpoint, next: next, report: report, hops: hops) }
        case .rawFramed: await onDedicatedThread("raw-framed") { [endpoint] in RawFramed.echo(endpoint: endpoint) }
        case .rawSink: await onDedicatedThread("raw-sink") { [endpoint, children, window] in Self.rawSink(endpoint, children, window) }
        case .rawRelay:
            guard let next else { throw ValidationError("raw-relay needs --next") }
            await onDedicatedThread("raw-relay") { [endpoint, report, hops] in Self.rawRelay(endpoint, next: next, report: report, hops: hops) }
        case .linkEcho, .linkSink: try await linkPeer()
        }
    }

    /// Echoes every 64-byte request until stdin closes.
    static func rawRep(_ endpoint: String) {
        let rep = rawSocket(ZMQ_REP)
        zmq_bind(rep, endpoint)
        ready()
        var items = [zmq_pollitem_t(socket: rep, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
                     zmq_pollitem_t(socket: nil, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)]
        var buf = [UInt8](repeating: 0, count: 256)
        while zmq_poll(&items, 2, -1) >= 0 && items[1].revents == 0 {
            // zmq_recv returns a longer message's full size but copies only buf.count bytes.
            let n = min(Int(zmq_recv(rep, &buf, buf.count, 0)), buf.count)
            zmq_send(rep, &buf, max(0, n), 0)
        }
        zmq_close(rep)
    }

    /// One process of `RawRelayPath`, until stdin closes: passes each message it pulls
    /// on to `next`, its first byte counting the hops so far; the message that completes
    /// hop `hops` is not passed on but answered on `report` with the CLOCK_MONOTONIC
    /// time it arrived.
    static func rawRelay(_ endpoint: String, next: String, report: String?, hops: Int) {
        let pull = rawSocket(ZMQ_PULL), push = rawSocket(ZMQ_PUSH)
        let reporter = report.map { _ in rawSocket(ZMQ_PUSH) }
        zmq_bind(pull, endpoint)
        zmq_connect(push, next)
        if let reporter, let report { zmq_connect(reporter, report) }
        ready()
        var items = [zmq_pollitem_t(socket: pull, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0),
                     zmq_pollitem_t(socket: nil, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)]
        var buf = [UInt8](repeating: 0, count: 256)
        while zmq_poll(&items, 2, -1) >= 0 && items[1].revents == 0 {
            // zmq_recv returns a longer message's full size but copies only buf.count bytes.
            let n = min(Int(zmq_recv(pull, &buf, buf.count, ZMQ_DONTWAIT)), buf.count)
            guard n > 0 else { continue }
            let arrived = MonotonicClock.nanoseconds()
            buf[0] &+= 1
            if let reporter, Int(buf[0]) == hops {
                var stamp = arrived
                zmq_send(reporter, &stamp, 8, 0)
            } else {
                zmq_send(push, &buf, n, 0)
            }
        }
        for s in [pull, push, reporter].compactMap({ $0 }) { zmq_close(s) }
    }

    /// `children` DEALERs that ack every `window` messages, until stdin closes.
    static func rawSink(_ endpoint: String, _ children: Int, _ window: Int) {
        var sockets: [UnsafeMutableRawPointer] = []
        var hwm: Int32 = 10_000
        for i in 0..<children {
            let s = rawSocket(ZMQ_DEALER)
            var id = Array(String(format: "d%02d", i).utf8)
            zmq_setsockopt(s, ZMQ_ROUTING_ID, &id, id.count)
            zmq_setsockopt(s, ZMQ_RCVHWM, &hwm, 4)
            zmq_connect(s, endpoint)
            var hi: [UInt8] = [1]
            zmq_send(s, &hi, 1, 0)
            sockets.append(s)
        }
        ready()
        var items = sockets.map { zmq_pollitem_t(socket: $0, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0) }
        items.append(zmq_pollitem_t(socket: nil, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0))
        var counts = [Int](repeating: 0, count: children)
        var buf = [UInt8](repeating: 0, count: 256)
        var ack: [UInt8] = [2]
        while zmq_poll(&items, Int32(items.count), -1) >= 0 && items[children].revents == 0 {
            for i in 0..<children where items[i].revents != 0 {
                while zmq_recv(sockets[i], &buf, buf.count, ZMQ_DONTWAIT) >= 0 {
                    counts[i] += 1
                    if counts[i] % window == 0 { zmq_send(sockets[i], &ack, 1, 0) }
                }
            }
        }
        for s in sockets { zmq_close(s) }
    }

    /// One child link ("echo") that answers requests, or `children` ("sink00"…)
    /// that count what they receive and report the count when asked.
    func linkPeer() async throws {
        let run = try RunDirectory.create(session: session ?? "bench-peer-\(getpid())")
        let log = routingLog ? try RoutingLog(directory: run.logs, host: "bench-peer") : RoutingLog.disabled
        let loop = IOLoop(name: "bench-peer")
        var links: [Link] = []
        if mode == .linkEcho {
            links.append(
                try await Link.connect(id: "echo", parent: "bench", endpoint: endpoint, loop: loop, log: log) { e, link in
                    if case .request(let r) = e.message { link.reply(to: e, Reply(status: .ok, payload: r.payload + [0])) }
                    return .handled
                })
        } else {
            for i in 0..<children {
                let counter = LoopCounter()
                links.append(
                    try await Link.connect(
                        id: ControllerID(String(format: "sink%02d", i))!, parent: "fan", endpoint: endpoint, loop: loop, log: log
                    ) { e, link in
                        if case .request = e.message {
                            link.reply(to: e, Reply(status: .ok, payload: (0..<8).map { UInt8(truncatingIfNeeded: counter.value >> (8 * $0)) }))
                        } else {
                            counter.value += 1
                        }
                        return .handled
                    })
            }
        }
        Self.ready()
        await untilStdinCloses()
        for l in links { await l.close() }
        loop.shutdown()
        log.close()
    }

    static func ready() {
        FileHandle.standardOutput.write(Data("ready\n".utf8))
    }
}

/// A count touched only on one I/O loop's thread.
final class LoopCounter: @unchecked Sendable {
    // @unchecked: read and written only by the handler of one link, which always
    // runs on that link's loop thread.
    var value = 0
}
