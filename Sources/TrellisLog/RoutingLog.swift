import Foundation

/// The routing log of one process: one JSON line per record, in
/// `<session>/logs/<host>-<pid>.jsonl`.
///
/// `record` is on the hot path of every link, so it only appends a value to a
/// buffer under a lock. A writer thread formats and writes the lines in batches,
/// waking at most every `batchInterval` (50 ms) while lines keep coming and sleeping
/// otherwise. Lines reach the file on `flush()`, `close()`, process exit, and on
/// crash signals (best effort: a crashing process can only try).
public final class RoutingLog: @unchecked Sendable {
    // @unchecked: every mutable field is guarded by `lock`, except `fd`, which is
    // set in init and only closed by the writer thread after it stops.
    public let host: String
    public let path: String?
    private let fd: Int32
    private let lock = ConditionLock()
    private var pending: [RoutingRecord] = []
    private var writerIdle = false
    private var stopping = false
    private var stopped = false
    private var flushWaiters = 0
    private var writtenGeneration: UInt64 = 0
    private var queuedGeneration: UInt64 = 0
    private let batchInterval: UInt64 = 50_000_000

    /// A log that writes nothing, for tools that only read.
    public static let disabled = RoutingLog()

    private init() {
        host = ""
        path = nil
        fd = -1
        stopped = true
    }

    /// Opens (appending) this process's log file in `directory`, which is created 0700.
    public init(directory: String, host: String) throws {
        self.host = host
        try RunDirectory.makePrivateDirectory(directory)
        let safeHost = host.map { $0.isLetter || $0.isNumber || "._-".contains($0) ? $0 : "_" }
        let path = "\(directory)/\(String(safeHost))-\(getpid()).jsonl"
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RunDirectoryError.cannotCreate(path, String(cString: strerror(errno))) }
        self.fd = fd
        self.path = path
        let thread = Thread { [self] in self.writerLoop() }
        thread.name = "trellis-log"
        thread.start()
        CrashFlush.register(self)
    }

    /// False for `disabled`: callers on a hot path can skip building records.
    public var isEnabled: Bool { fd >= 0 }

    /// Queues one record. Never blocks on I/O.
    public func record(_ record: RoutingRecord) {
        guard fd >= 0 else { return }
        lock.lock()
        pending.append(record)
        queuedGeneration &+= 1
        if writerIdle {
            writerIdle = false
            lock.signal()
        }
        lock.unlock()
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
        var batch: [RoutingRecord] = []
        lock.lock()
        while true {
            if pending.isEmpty {
                if stopping { break }
                writerIdle = true
                lock.wait()
                continue
            }
            // Let a batch gather unless someone is waiting for it: one wake-up and
            // one write per interval, however fast lines come, so the writer never
            // competes with the I/O threads for a core.
            if !stopping && flushWaiters == 0 && pending.count < 8192 {
                lock.wait(nanoseconds: batchInterval)
            }
            // Swap rather than copy: both arrays keep their storage from batch to batch.
            swap(&batch, &pending)
            let generation = queuedGeneration
            lock.unlock()

            out.removeAll()
            for r in batch { out.append(r) }
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
        for r in pending { r.appendJSON(to: &out) }
        pending.removeAll()
        lock.unlock()
        out.withUnsafeBytes { Self.writeAll(fd, $0) }
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
