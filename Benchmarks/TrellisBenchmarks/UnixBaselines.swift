import Foundation
import TrellisLog
import TrellisSession

/// The baselines with no libzmq: the same paths over Unix `SOCK_SEQPACKET` sockets, each
/// end's own thread writing and reading them. A libzmq message passes an I/O thread at
/// each end on its way; these pass none — what a hop would cost with no I/O thread in
/// between (docs/BENCHMARKS.md, `e2e`, "What is left").
enum UnixSeqpacket {
    /// A socket path's address; nil if it does not fit `sun_path`.
    static func address(_ path: String) -> sockaddr_un? {
        var a = sockaddr_un()
        a.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: a.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &a.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return a
    }

    static func listen(at path: String) throws -> Int32 {
        guard var address = address(path) else { throw BenchError("socket path too long: \(path)") }
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 8) == 0 else {
            throw BenchError("could not listen at \(path): \(String(cString: strerror(errno)))")
        }
        return fd
    }

    static func connect(to path: String) throws -> Int32 {
        guard var address = address(path) else { throw BenchError("socket path too long: \(path)") }
        let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw BenchError("could not connect to \(path): \(String(cString: strerror(errno)))") }
        return fd
    }

    /// `bench transport`'s echo, until stdin closes: listens at `path`, takes one
    /// connection and sends back every message it reads.
    static func echo(path: String) {
        guard let listener = try? listen(at: path) else { return }
        TransportBenchPeer.ready()
        let peer = accept(listener, nil, nil)
        var items = [pollfd(fd: peer, events: Int16(POLLIN), revents: 0), pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 256)
        while poll(&items, 2, -1) > 0, items[1].revents == 0 {
            let n = recv(peer, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            _ = send(peer, &buffer, n, 0)
        }
        for fd in [peer, listener] where fd >= 0 { close(fd) }
        unlink(path)
    }

    /// One process of `UnixRelayPath`, until stdin closes: as `rawRelay`, over Unix
    /// sockets. It takes every connection made to it (the previous relay's, and the
    /// benchmark's own at the first).
    static func relay(_ path: String, next: String, report: String?, hops: Int) {
        guard let listener = try? listen(at: path) else { return }
        TransportBenchPeer.ready()
        var out: Int32 = -1, reporter: Int32 = -1
        var items = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
        var buf = [UInt8](repeating: 0, count: 256)
        while poll(&items, nfds_t(items.count), -1) >= 0 && items[0].revents == 0 {
            if items[1].revents != 0 {
                let fd = accept(listener, nil, nil)
                if fd >= 0 { items.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            }
            for k in 2..<items.count where items[k].revents != 0 {
                let n = recv(items[k].fd, &buf, buf.count, 0)
                guard n > 0 else { items[k].fd = -1; continue }
                let arrived = MonotonicClock.nanoseconds()
                buf[0] &+= 1
                if let report, Int(buf[0]) == hops {
                    if reporter < 0 { reporter = (try? connect(to: report)) ?? -1 }
                    var stamp = arrived
                    _ = send(reporter, &stamp, 8, 0)
                } else {
                    if out < 0 { out = (try? connect(to: next)) ?? -1 }
                    _ = send(out, &buf, n, 0)
                }
            }
        }
        for fd in [out, reporter, listener] + items.dropFirst(2).map(\.fd) where fd >= 0 { close(fd) }
        unlink(path)
    }
}

/// The connecting end of `UnixSeqpacket.echo`, timing blocking round trips of 64 bytes.
final class UnixRequester: @unchecked Sendable {
    // @unchecked: the descriptor is used by one measuring thread at a time; each
    // `measure` call starts after the previous one finished.
    private let fd: Int32

    init(path: String) throws { fd = try UnixSeqpacket.connect(to: path) }

    func measure(_ count: Int) async -> [UInt64] {
        await onDedicatedThread("unix-req") { [fd] in
            var samples = [UInt64](repeating: 0, count: count)
            var out = [UInt8](repeating: 0x2A, count: 64), back = [UInt8](repeating: 0, count: 64)
            for i in 0..<count {
                let t0 = MonotonicClock.nanoseconds()
                _ = send(fd, &out, 64, 0)
                _ = recv(fd, &back, 64, 0)
                samples[i] = MonotonicClock.nanoseconds() - t0
            }
            return samples
        }
    }

    func close() { Glibc.close(fd) }
}

/// `RawRelayPath` over Unix sockets: the same hops through the same number of relay
/// processes, each message after the same pause — the floor of that path when no I/O
/// thread stands at either end of a hop.
final class UnixRelayPath: @unchecked Sendable {
    // @unchecked: the descriptors are used by one measuring thread at a time; each
    // `measure` call starts after the previous one finished.
    private let relays: [BenchPeerProcess]
    private let inject: Int32
    private let reportListener: Int32
    private var report: Int32 = -1

    init(run: RunDirectory, hops: Int) throws {
        let paths = (1...4).map { "\(run.path)/urelay\($0).sock" }
        let reportPath = "\(run.path)/urelay-report.sock"
        reportListener = try UnixSeqpacket.listen(at: reportPath)
        var started: [BenchPeerProcess] = []
        // Each connects to the next one at its first message, when all are listening.
        for i in paths.indices {
            do {
                started.append(try BenchPeerProcess(
                    ["bench", "transport-peer", "--mode", "unix-relay", "--endpoint", paths[i],
                     "--next", paths[(i + 1) % paths.count], "--hops", "\(hops)"]
                        + (i == 0 ? ["--report", reportPath] : [])))
            } catch {
                started.forEach { $0.stop() }
                Glibc.close(reportListener)
                throw error
            }
        }
        relays = started
        inject = try UnixSeqpacket.connect(to: paths[0])
    }

    /// As `RawRelayPath.measure`.
    func measure(_ count: Int, pause: Duration) async -> [UInt64]? {
        await onDedicatedThread("unix-relay") { [self] in
            pacedSamples(count, pause: pause, send: { _ = Glibc.send(inject, $0, 64, 0) }) {
                // The first relay connects to the report socket with its first report.
                if report < 0 {
                    var listening = pollfd(fd: reportListener, events: Int16(POLLIN), revents: 0)
                    guard poll(&listening, 1, 2_000) == 1 else { return nil }
                    report = accept(reportListener, nil, nil)
                }
                var item = pollfd(fd: report, events: Int16(POLLIN), revents: 0)
                var stamp: UInt64 = 0
                return poll(&item, 1, 2_000) == 1 && recv(report, &stamp, 8, 0) == 8 ? stamp : nil
            }
        }
    }

    func close() {
        for fd in [inject, report, reportListener] where fd >= 0 { Glibc.close(fd) }
        relays.forEach { $0.stop() }
    }
}
