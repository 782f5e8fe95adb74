#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Puts a terminal back as it was (modes left, raw mode undone) exactly once, from
/// whichever path gets there first: normal exit, an error, or a signal handler.
///
/// Everything is prepared in `init`: the leave bytes are copied into memory allocated
/// there and the saved termios is stored, so `restore()` only does an atomic
/// compare-and-exchange (lock-free), write(2) and tcsetattr(3), all async-signal-safe.
/// It allocates nothing, takes no lock and touches no lazily initialised global. The
/// caller must keep the restorer alive (a handler should reach it through a pointer made
/// before the handler was installed) so no release runs inside the handler.
public final class TerminalRestorer: Sendable {
    private let fd: Int32
    private let saved: termios?
    nonisolated(unsafe) private let leave: UnsafeMutableBufferPointer<UInt8>
    private let done = Atomic<Bool>(false)

    /// `saved` is what `RawMode.enter` returned, nil when raw mode was not entered.
    public init(fd: Int32, modes: TerminalModes, saved: termios?) {
        self.fd = fd
        self.saved = saved
        let bytes = modes.leaveBytes
        leave = .allocate(capacity: bytes.count)
        _ = leave.initialize(from: bytes)
    }

    deinit {
        leave.deallocate()
    }

    /// True once `restore()` has run.
    public var isRestored: Bool { done.load(ordering: .acquiring) }

    /// Writes the leave bytes and restores the termios, the first time only.
    public func restore() {
        guard !done.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).original else {
            return
        }
        var offset = 0
        while offset < leave.count {
            let n = write(fd, leave.baseAddress! + offset, leave.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        if let saved { RawMode.restore(saved, fd: fd) }
    }
}
