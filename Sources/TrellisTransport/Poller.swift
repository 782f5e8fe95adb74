import CPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an I/O loop sleeps in: its wake-up descriptor and its sources' descriptors, and
/// which of them are ready when it wakes (docs/TRANSPORT.md, "What a loop sleeps in").
///
/// On Linux, two epoll sets, each descriptor registered once: every source, and the
/// sources a nested wait serves (all but the main queue's, whose work must not run inside
/// a wait and which would otherwise wake the wait at once, again and again). A wake-up
/// returns only what is ready. poll(2) had the kernel walk every descriptor on each
/// sleep and again on each wake-up — a host has one or two per link — about a sixth of
/// the compositor's CPU during taps (`perf record` during `timeline.py --kind tap`).
/// Elsewhere, poll(2) over the same descriptors. Loop thread only, as the loop's state is.
struct Poller {
    struct Ready {
        /// The source's id, or `Poller.wakeID` for the wake-up descriptor.
        let id: Int
        let readable: Bool
        let writable: Bool
    }

    static let wakeID = -1

    private let wakeFD: Int32
    #if os(Linux)
    private let all: Int32
    private let nestedOnly: Int32
    private var ids = [UInt64](repeating: 0, count: 64)
    private var flags = [Int32](repeating: 0, count: 64)
    /// Sources epoll refuses (a regular file, which poll(2) reports always readable):
    /// reported readable at every wait, as poll(2) would.
    private var unpollable: [Int] = []
    #else
    private var fds: [pollfd] = []
    #endif

    init(wakeFD: Int32, name: String) {
        self.wakeFD = wakeFD
        #if os(Linux)
        all = trellis_poller_open()
        nestedOnly = trellis_poller_open()
        guard all >= 0, nestedOnly >= 0 else { fatalError("IOLoop \(name): cannot create an epoll set") }
        for set in [all, nestedOnly] where trellis_poller_set(set, 0, wakeFD, UInt64(bitPattern: Int64(Self.wakeID)), 0) != 0 {
            fatalError("IOLoop \(name): cannot watch its wake-up descriptor")
        }
        #endif
    }

    func close() {
        #if os(Linux)
        Glibc.close(all)
        Glibc.close(nestedOnly)
        #endif
    }

    mutating func add(_ source: IOLoop.Source) {
        #if os(Linux)
        let id = UInt64(bitPattern: Int64(source.id))
        if trellis_poller_set(all, 0, source.fd, id, 0) != 0 {
            let e = trellis_errno()
            // Not a descriptor epoll can watch: ready whenever asked, as poll(2) has it.
            precondition(e == EPERM, "IOLoop: cannot watch descriptor \(source.fd) of source \(source.id): errno \(e)")
            unpollable.append(source.id)
            return
        }
        if source.servedWhileNested { _ = trellis_poller_set(nestedOnly, 0, source.fd, id, 0) }
        #endif
    }

    /// Before the source's descriptor is closed: a descriptor closed first may be reused
    /// by then, and its new owner's registration would go instead.
    mutating func remove(_ source: IOLoop.Source) {
        #if os(Linux)
        if let i = unpollable.firstIndex(of: source.id) {
            unpollable.remove(at: i)
            return
        }
        _ = trellis_poller_set(all, 2, source.fd, 0, 0)
        if source.servedWhileNested { _ = trellis_poller_set(nestedOnly, 2, source.fd, 0, 0) }
        #endif
    }

    /// Sleeps until something is ready or `timeout` ms pass (-1: no limit), and lists
    /// what is ready in `ready`. `sources` are asked whether they want to be written to.
    mutating func wait(_ sources: [IOLoop.Source], nested: Bool, timeout: Int32, into ready: inout [Ready]) {
        ready.removeAll(keepingCapacity: true)
        #if os(Linux)
        for source in sources {
            guard let wants = source.wantsWritable?(), wants != source.pollsWritable else { continue }
            source.pollsWritable = wants
            let id = UInt64(bitPattern: Int64(source.id))
            _ = trellis_poller_set(all, 1, source.fd, id, wants ? 1 : 0)
            if source.servedWhileNested { _ = trellis_poller_set(nestedOnly, 1, source.fd, id, wants ? 1 : 0) }
        }
        let n = trellis_poller_wait(
            nested ? nestedOnly : all, &ids, &flags, Int32(ids.count), unpollable.isEmpty ? timeout : 0)
        for i in 0..<Int(max(n, 0)) {
            ready.append(Ready(id: Int(Int64(bitPattern: ids[i])), readable: flags[i] & 1 != 0, writable: flags[i] & 2 != 0))
        }
        for id in unpollable {
            if let source = sources.first(where: { $0.id == id }), !nested || source.servedWhileNested {
                ready.append(Ready(id: id, readable: true, writable: false))
            }
        }
        #else
        fds.removeAll(keepingCapacity: true)
        fds.append(pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0))
        var polled: [Int] = []
        for source in sources where !nested || source.servedWhileNested {
            let writing = source.wantsWritable?() == true
            fds.append(pollfd(fd: source.fd, events: Int16(writing ? POLLIN | POLLOUT : POLLIN), revents: 0))
            polled.append(source.id)
        }
        _ = poll(&fds, nfds_t(fds.count), timeout)
        if fds[0].revents != 0 { ready.append(Ready(id: Self.wakeID, readable: true, writable: false)) }
        for (i, id) in polled.enumerated() where fds[i + 1].revents != 0 {
            let events = fds[i + 1].revents
            ready.append(Ready(id: id, readable: events & ~Int16(POLLOUT) != 0, writable: events & Int16(POLLOUT) != 0))
        }
        #endif
    }
}
