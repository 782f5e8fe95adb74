#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TrellisCanvas
import TrellisLog
import TrellisTerminal
import TrellisTransport

/// The terminal's output side: takes each composed screen and writes the bytes that
/// show it, on the I/O loop it is given (the compositor's own, in a terminal:
/// `TerminalFrontEnd`), never on Swift's cooperative pool.
///
/// The latest screen wins. Only one screen waits (`latest`); a newer one replaces it and
/// its damage is added to the waiting one's, so a terminal slower than the compositor
/// gets fewer frames, never a backlog, and each frame holds every cell that changed
/// since the last one written. Each frame is one `ScreenWriter` buffer (the damaged
/// cells only, inside synchronized-update brackets) written to a non-blocking descriptor the moment it is composed. Only when a
/// write would block is the output backing up (`FrameThrottle`): the rest of that frame
/// is kept and finished first (the writer already counts it as shown), retried on a loop
/// timer, and the newest screen goes out as soon as it is through.
final class TerminalOutput: @unchecked Sendable {
    // @unchecked: `latest` and `counters` are Mutex/Atomic; every other field is touched
    // only on `loop`'s thread: `show` hands over through `latest` and `loop.execute`, and
    // every other entry point is a closure run by the loop (execute or a loop timer).

    private let fd: Int32
    private let loop: IOLoop
    private let latest = Mutex<(screen: Surface, damage: SurfaceDamage)?>(nil)
    private var writer: ScreenWriter
    private var throttle: FrameThrottle
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// Whether `pending` holds a frame (counted in `framesWritten`) or only `control` bytes.
    private var pendingIsFrame = false
    private var timer: UInt64?
    /// Set when the terminal is gone (EIO, EBADF …): nothing more is written.
    private var dead = false

    /// Frames written whole, and screens replaced before they were written.
    let framesWritten = Atomic<Int>(0)
    let framesCoalesced = Atomic<Int>(0)
    /// Writes that would have blocked.
    let writesBlocked = Atomic<Int>(0)

    /// `fd` must be non-blocking (`O_NONBLOCK`).
    init(fd: Int32, loop: IOLoop, size: Size, depth: ColorDepth, throttle: FrameThrottle = FrameThrottle()) {
        self.fd = fd
        self.loop = loop
        writer = ScreenWriter(size: size, depth: depth)
        self.throttle = throttle
    }

    /// From any thread: `screen` is what the terminal should show next; `damage`, the
    /// cells in which it differs from the screen shown before it.
    func show(_ screen: Surface, damage: SurfaceDamage) {
        let replaced = latest.withLock { slot -> Bool in
            guard var waiting = slot?.damage else {
                slot = (screen, damage)
                return false
            }
            // The waiting screen is never written: what changed in it must go out now.
            waiting.formUnion(damage)
            slot = (screen, waiting)
            return true
        }
        if replaced {
            // A pump is already due (queued, or a timer armed) and will take the newest.
            framesCoalesced.add(1, ordering: .relaxed)
        } else if loop.isCurrent {
            // Composed on the loop (the compositor's main actor is its): written now,
            // before the compose's bookkeeping, not at the loop's next turn.
            pump()
        } else {
            loop.execute { self.pump() }
        }
    }

    /// From any thread: something else may have changed the terminal (a resize reflows
    /// it); the next frame redraws everything.
    func invalidate() {
        loop.execute { self.writer.invalidate() }
    }

    /// From any thread: bytes that are not a frame (the keyboard protocol's push),
    /// written after the frame in flight, never inside one of its escape sequences.
    func control(_ bytes: [UInt8]) {
        loop.execute { [self] in
            guard !dead, !bytes.isEmpty else { return }
            if pendingOffset < pending.count { return pending += bytes }
            pending = bytes
            pendingOffset = 0
            pendingIsFrame = false
            if !drain() {
                writesBlocked.add(1, ordering: .relaxed)
                throttle.blocked()
                arm()
            }
        }
    }

    /// On the loop, at exit: finishes the frame in flight, waiting at most `timeout` ns
    /// for the terminal to take it, so the restore bytes that follow do not land inside
    /// an escape sequence. Writes nothing after.
    func finish(timeout: UInt64) {
        loop.preconditionOnLoop()
        let deadline = MonotonicClock.nanoseconds() &+ timeout
        while !dead && pendingOffset < pending.count {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { break }
            var waiting = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&waiting, 1, Int32(max(1, (deadline - now) / 1_000_000)))
            _ = drain()
        }
        dead = true
    }

    // MARK: On the loop

    private func pump() {
        guard !dead else { return }
        if !throttle.mayWrite {
            // Backing up: the screen waits in `latest` (replaced by any newer one) until
            // the rest of the last frame is through; the armed retry comes back here.
            guard drain() else { return arm() }
            throttle.wrote()
        }
        guard let next = latest.withLock({ slot -> (screen: Surface, damage: SurfaceDamage)? in
            defer { slot = nil }
            return slot
        }) else { return }
        pending = writer.frame(next.screen, damage: next.damage)
        pendingOffset = 0
        pendingIsFrame = true
        if pending.isEmpty { return }
        if drain() {
            throttle.wrote()
        } else {
            writesBlocked.add(1, ordering: .relaxed)
            throttle.blocked()
            arm()
        }
    }

    /// Writes what is pending without blocking; true when none is left.
    private func drain() -> Bool {
        while pendingOffset < pending.count {
            let n = pending.withUnsafeBytes { bytes in
                write(fd, bytes.baseAddress! + pendingOffset, bytes.count - pendingOffset)
            }
            if n > 0 {
                pendingOffset += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
            // The terminal is gone; the hang-up (SIGHUP or EOF on input) ends the process.
            dead = true
            pending = []
            pendingOffset = 0
            return true
        }
        if !pending.isEmpty {
            // A frame counts as written once its last byte is out, however long it waited.
            if pendingIsFrame { framesWritten.add(1, ordering: .relaxed) }
            pending.removeAll(keepingCapacity: true)
            pendingOffset = 0
        }
        return true
    }

    /// Retries the blocked bytes after the throttle's interval; a retry that blocks
    /// again stretches the next one.
    private func arm() {
        guard timer == nil, !dead else { return }
        timer = loop.schedule(afterNanoseconds: throttle.retryInterval) { [self] in
            timer = nil
            if !throttle.mayWrite && !drain() {
                throttle.blocked()
                return arm()
            }
            pump()
        }
    }
}
