import Foundation
import TrellisSession
import TrellisWire

/// The routing log of one process: one JSON line per record, in
/// `<session>/logs/<host>-<pid>.jsonl` (test clients: all in `clients.jsonl`).
///
/// `record` is on the hot path of every link, so it only appends a value to a
/// buffer under a lock; links record a compact `MessageEvent` (two ids and numbers)
/// and the writer expands it into the full line. A writer thread formats and writes the lines in batches,
/// waking every `batchInterval` (50 ms) while lines keep coming — so that no record
/// needs to wake it then — and sleeping after an interval without any. Lines reach the file on `flush()`, `close()`, process exit, and on
/// crash signals (best effort: a crashing process can only try).
public final class RoutingLog: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`, except `fd`, which is
    // set in init and only closed by the writer thread after it stops.
    public let host: String
    public let path: String?
    private let fd: Int32
    private let lock = ConditionLock()
    // Unchecked exclusivity for what `record` touches on every link message: `lock`
    // already makes every access exclusive, and the run-time check cost as much as
    // taking the lock.
    @exclusivity(unchecked) private var pending: [Entry] = []
    /// The `at` and `via` of every registered origin, indexed by `Origin.index`.
    private var origins: [(at: String, via: String)] = []
    private var originIndex: [String: UInt32] = [:]
    @exclusivity(unchecked) private var writerIdle = false
    private var stopping = false
    private var stopped = false
    private var flushWaiters = 0
    private var writtenGeneration: UInt64 = 0
    @exclusivity(unchecked) private var queuedGeneration: UInt64 = 0
    private let batchInterval: UInt64 = 50_000_000

    /// A log that writes nothing, for tools that only read.
    public static let disabled = RoutingLog()

    private init() {
        host = ""
        path = nil
        fd = -1
        stopped = true
    }

    /// Opens (appending) this process's log file in `directory`, which is created 0700:
    /// `<host>-<pid>.jsonl`, or `file` when given — a file several short-lived processes
    /// share, such as the test clients' `clients.jsonl`, so that each `trellis tap` does
    /// not leave a file of its own behind (issue 21). Sharing is safe because the file
    /// is opened for appending and every batch of whole lines is one write(2).
    public init(directory: String, host: String, file: String?) throws {
        self.host = host
        if let file, file.isEmpty || file.contains("/") || !file.hasSuffix(".jsonl") {
            throw RunDirectoryError.cannotCreate("\(directory)/\(file)", "a log file is a name ending in .jsonl")
        }
        try RunDirectory.makePrivateDirectory(directory)
        let safeHost = host.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" }
        let path = "\(directory)/\(file ?? "\(String(safeHost))-\(getpid()).jsonl")"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RunDirectoryError.cannotCreate(path, String(cString: strerror(errno))) }
        self.fd = fd
        self.path = path
        let thread = Thread { [self] in self.writerLoop() }
        thread.name = "trellis-log"
        thread.start()
        CrashFlush.register(self)
    }

    /// This process's own file, `<host>-<pid>.jsonl`.
    public convenience init(directory: String, host: String) throws {
        try self.init(directory: directory, host: host, file: nil)
    }

    /// False for `disabled`: callers on a hot path can skip building records.
    public var isEnabled: Bool { fd >= 0 }

    /// What the writer has yet to write: a full record, or a link's compact event.
    private enum Entry {
        /// Boxed: a full record is twice the size of an event, and every entry of
        /// the queue would be as large as the largest case.
        indirect case record(RoutingRecord)
        case message(MessageEvent)
    }

    /// Names a writer of `MessageEvent`s: the local end of a link and how its
    /// messages travel. Registered once per link, not written per message.
    public struct Origin: Sendable, Hashable {
        let index: UInt32
    }

    /// Registers (or finds) the origin for `at` and `via`.
    public func registerOrigin(at: String, via: String) -> Origin {
        guard fd >= 0 else { return Origin(index: 0) }
        return lock.withLock {
            let key = "\(at)\u{0}\(via)"
            if let index = originIndex[key] { return Origin(index: index) }
            let index = UInt32(origins.count)
            origins.append((at, via))
            originIndex[key] = index
            return Origin(index: index)
        }
    }

    /// Queues one record. Never blocks on I/O.
    public func record(_ record: RoutingRecord) {
        enqueue(.record(record))
    }

    /// Queues one link message event. Never blocks on I/O.
    public func record(_ event: MessageEvent) {
        enqueue(.message(event))
    }

    private func enqueue(_ entry: Entry) {
        guard fd >= 0 else { return }
        lock.lock()
        pending.append(entry)
        queuedGeneration &+= 1
        let wake = writerIdle
        writerIdle = false
        lock.unlock()
        // After unlocking: a writer woken inside the lock would block on it at once.
        if wake { lock.signal() }
    }

    /// Returns once every record queued before the call is in the file.
    public func flush() {
        guard fd >= 0 else { return }
        lock.lock()
        let target = queuedGeneration
        flushWaiters += 1
        while writtenGeneration < target && !stopped {
            writerIdle = false
            lock.broadcast()
            lock.wait()
        }
        flushWaiters -= 1
        lock.unlock()
    }

    /// Flushes and stops the writer. Records after this are ignored.
    public func close() {
        guard fd >= 0 else { return }
        lock.lock()
        stopping = true
        lock.broadcast()
        while !stopped { lock.wait() }
        lock.unlock()
        CrashFlush.unregister(self)
    }

    private func writerLoop() {
        var out = JSONLineWriter()
        defer { out.deallocate() }
        var batch: [Entry] = []
        // The writer's own copy of each origin's constant text, by origin index.
        var originTexts: [JSONLineWriter.OriginText] = []
        // The writer wrote a batch and has not yet waited an interval with nothing to
        // write; and whether what is pending now gathered for an interval already.
        var lingering = false
        var gathered = false
        lock.lock()
        while true {
            if pending.isEmpty {
                if stopping { break }
                if lingering {
                    // While lines keep coming, wait for them an interval more rather
                    // than sleeping until a record wakes the writer: that wake-up (a
                    // futex call, the writer contending for the lock, a thread to run)
                    // lands in the middle of the message being recorded, once every
                    // interval in every process of a busy tree (issue 20).
                    lingering = false
                    gathered = true
                    lock.wait(nanoseconds: batchInterval)
                    continue
                }
                writerIdle = true
                lock.wait()
                gathered = false
                continue
            }
            // Let a batch gather unless someone is waiting for it: one wake-up and
            // one write per interval, however fast lines come, so the writer never
            // competes with the I/O threads for a core.
            if !gathered && !stopping && flushWaiters == 0 && pending.count < 8192 {
                lock.wait(nanoseconds: batchInterval)
            }
            gathered = false
            lingering = true
            // Swap rather than copy: both arrays keep their storage from batch to batch.
            swap(&batch, &pending)
            let generation = queuedGeneration
            let origins = self.origins
            lock.unlock()

            let offset = Self.wallOffset()
            out.removeAll()
            for i in batch.indices {
                switch batch[i] {
                case .record(let r):
                    out.append(r)
                case .message(let m):
                    while originTexts.count < origins.count {
                        let o = origins[originTexts.count]
                        originTexts.append(JSONLineWriter.OriginText(host: host, at: o.at, via: o.via))
                    }
                    let index = Int(m.origin.index)
                    if index < originTexts.count {
                        out.append(m, wall: Self.wall(m.mono, offset), origin: originTexts[index])
                    } else {
                        out.append(expand(.message(m), origins: origins, wallOffset: offset))
                    }
                }
            }
            batch.removeAll(keepingCapacity: true)
            Self.writeAll(fd, out.bytes)

            lock.lock()
            writtenGeneration = generation
            lock.broadcast()
        }
        closeDescriptor(fd)
        stopped = true
        lock.broadcast()
        lock.unlock()
    }

    /// Called from a crash-signal handler: writes what is pending if the lock is free.
    fileprivate func flushForCrash() {
        guard fd >= 0, lock.tryLock() else { return }
        var out: [UInt8] = []
        let offset = Self.wallOffset()
        for entry in pending { expand(entry, origins: origins, wallOffset: offset).appendJSON(to: &out) }
        pending.removeAll()
        lock.unlock()
        out.withUnsafeBytes { Self.writeAll(fd, $0) }
    }

    /// The line an entry stands for. An event's wall-clock time is its monotonic
    /// time plus the difference between the two clocks read when its batch is
    /// formatted, at most about 50 ms later: exact unless the wall clock is stepped
    /// in between, and one clock read per batch instead of one per message.
    private func expand(_ entry: Entry, origins: [(at: String, via: String)], wallOffset: Int64) -> RoutingRecord {
        switch entry {
        case .record(let r):
            return r
        case .message(let m):
            let origin = Int(m.origin.index) < origins.count ? origins[Int(m.origin.index)] : (at: "?", via: "?")
            return RoutingRecord(
                mono: m.mono, wall: Self.wall(m.mono, wallOffset), host: host,
                at: origin.at, source: m.source.rawValue, target: m.target.rawValue, kind: m.kind.name,
                sequence: m.sequence, trace: m.trace, bytes: m.bytes, outcome: m.outcome, via: origin.via,
                reason: m.reason)
        }
    }

    private static func wall(_ mono: UInt64, _ offset: Int64) -> UInt64 {
        UInt64(bitPattern: Int64(bitPattern: mono) &+ offset)
    }

    /// Wall-clock minus monotonic nanoseconds, now.
    private static func wallOffset() -> Int64 {
        let mono = MonotonicClock.nanoseconds()
        let wall = WallClock.nanoseconds()
        return Int64(bitPattern: wall) &- Int64(bitPattern: mono)
    }

    fileprivate func flushAtExit() { if !stopped { flush() } }

    private static func writeAll(_ fd: Int32, _ buf: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < buf.count {
            let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return  // disk full or closed: the log must never take the process down
            }
            offset += n
        }
    }
}

/// `close(2)`; the name `close` inside `RoutingLog` is the method.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }

/// Flushes every open routing log at exit and on crash signals, then lets the
/// signal do what it would have done.
enum CrashFlush {
    private static let lock = ConditionLock()
    nonisolated(unsafe) private static var logs: [ObjectIdentifier: RoutingLog] = [:]
    nonisolated(unsafe) private static var installed = false

    static func register(_ log: RoutingLog) {
        lock.withLock {
            logs[ObjectIdentifier(log)] = log
            if !installed {
                installed = true
                install()
            }
        }
    }

    static func unregister(_ log: RoutingLog) {
        lock.withLock { _ = logs.removeValue(forKey: ObjectIdentifier(log)) }
    }

    private static func install() {
        atexit {
            CrashFlush.lock.lock()
            let open = Array(CrashFlush.logs.values)
            CrashFlush.lock.unlock()
            for log in open { log.flushAtExit() }
        }
        for sig in crashSignals {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = crashHandler
            #else
            action.__sigaction_u.__sa_handler = crashHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(sig, &action, &previous[Int(sig)])
        }
    }

    static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// What was installed before us (Swift's backtracer, a test runner's handler…),
    /// indexed by signal number; restored before the signal is raised again.
    nonisolated(unsafe) fileprivate static var previous: [sigaction] = Array(repeating: sigaction(), count: 65)

    fileprivate static func flushAllForCrash() {
        guard lock.tryLock() else { return }
        let open = Array(logs.values)
        lock.unlock()
        for log in open { log.flushForCrash() }
    }
}

private func crashHandler(_ sig: Int32) {
    CrashFlush.flushAllForCrash()
    // Hand the signal to whoever had it before; it is blocked while we run, so it
    // is delivered to that handler (or the default action) as soon as we return.
    sigaction(sig, &CrashFlush.previous[Int(sig)], nil)
    raise(sig)
}
