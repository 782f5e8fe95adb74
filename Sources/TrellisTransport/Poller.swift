#if canImport(Glibc)
import CEpoll
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
    private var events = [epoll_event](repeating: epoll_event(), count: 64)
    /// Sources epoll refuses (a regular file, which poll(2) reports always readable):
    /// reported readable at every wait, as poll(2) would.
    private var unpollable: [Int] = []
    #else
    private var fds: [pollfd] = []
    #endif

    init(wakeFD: Int32, name: String) {
        self.wakeFD = wakeFD
        #if os(Linux)
        all = epoll_create1(Int32(EPOLL_CLOEXEC))
        nestedOnly = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard all >= 0, nestedOnly >= 0 else { fatalError("IOLoop \(name): cannot create an epoll set") }
        for set in [all, nestedOnly] where Self.set(set, EPOLL_CTL_ADD, wakeFD, id: Self.wakeID) != 0 {
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

    #if os(Linux)
    private static let readableEvents = EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue

    /// Adds, changes or removes `fd` in `set`, watched for input (and output if
    /// `writable`), level-triggered as poll(2) is, and reported with `id`.
    private static func set(_ set: Int32, _ op: Int32, _ fd: Int32, id: Int, writable: Bool = false) -> Int32 {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0)
        event.data.u64 = UInt64(bitPattern: Int64(id))
        return epoll_ctl(set, op, fd, &event)
    }
    #endif

    mutating func add(_ source: IOLoop.Source) {
        #if os(Linux)
        if Self.set(all, EPOLL_CTL_ADD, source.fd, id: source.id) != 0 {
            let e = errno
            // Not a descriptor epoll can watch: ready whenever asked, as poll(2) has it.
            precondition(e == EPERM, "IOLoop: cannot watch descriptor \(source.fd) of source \(source.id): errno \(e)")
            unpollable.append(source.id)
            return
        }
        if source.servedWhileNested { _ = Self.set(nestedOnly, EPOLL_CTL_ADD, source.fd, id: source.id) }
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
        _ = Self.set(all, EPOLL_CTL_DEL, source.fd, id: source.id)
        if source.servedWhileNested { _ = Self.set(nestedOnly, EPOLL_CTL_DEL, source.fd, id: source.id) }
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
            _ = Self.set(all, EPOLL_CTL_MOD, source.fd, id: source.id, writable: wants)
            if source.servedWhileNested { _ = Self.set(nestedOnly, EPOLL_CTL_MOD, source.fd, id: source.id, writable: wants) }
        }
        let n = epoll_wait(nested ? nestedOnly : all, &events, Int32(events.count), unpollable.isEmpty ? timeout : 0)
        for event in events.prefix(Int(max(n, 0))) {
            // A hang-up or an error is read as input: reading is what reports it.
            ready.append(Ready(
                id: Int(Int64(bitPattern: event.data.u64)), readable: event.events & Self.readableEvents != 0,
                writable: event.events & EPOLLOUT.rawValue != 0))
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
