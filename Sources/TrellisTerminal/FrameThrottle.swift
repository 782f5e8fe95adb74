/// When the next frame may be written to the terminal: at once, unless the terminal's
/// output is backing up (issue 20).
///
/// Frames are never queued: the writer keeps only the latest composed screen and asks
/// the throttle whether it may write it. While the last frame's bytes all went out, the
/// next frame goes out the moment it is composed, as tmux gives a pane's output — no gap,
/// no clock. Once a write would block (the terminal's buffer is full: an ssh link, a
/// stopped tmux client, a terminal busy scrolling), the output is backing up: the rest
/// of that frame is finished first, and screens composed meanwhile replace each other, so
/// the terminal gets the newest one as a single diff when it takes bytes again. The
/// writer retries the blocked bytes after `retryInterval`, which doubles while they stay
/// blocked (from `firstRetry` up to `maximumRetry`), so a stopped terminal costs a few
/// write attempts a second, not a busy loop. No I/O: the caller reports what its writes
/// did, so the policy is testable on its own.
public struct FrameThrottle: Sendable, Equatable {
    /// The first wait before retrying a blocked write (ns).
    public let firstRetry: UInt64
    /// The longest wait between retries however long the terminal stays blocked (ns), so
    /// the screen still catches up within that once it reads again.
    public let maximumRetry: UInt64
    /// True while bytes of the last frame are waiting for the terminal.
    public private(set) var backedUp = false
    /// How long to wait before retrying the blocked bytes (ns).
    public private(set) var retryInterval: UInt64

    public init(firstRetry: UInt64 = 1_000_000, maximumRetry: UInt64 = 64_000_000) {
        self.firstRetry = max(1, firstRetry)
        self.maximumRetry = max(self.firstRetry, maximumRetry)
        retryInterval = self.firstRetry
    }

    /// True when a new frame may be written now: nothing of the last one is waiting.
    public var mayWrite: Bool { !backedUp }

    /// Every byte of the last frame went out: the next frame goes out at once.
    public mutating func wrote() {
        backedUp = false
        retryInterval = firstRetry
    }

    /// A write (of a new frame, or a retry of the rest of one) would block. The first
    /// block waits `firstRetry`; each further one while still backed up doubles the wait.
    public mutating func blocked() {
        if backedUp { retryInterval = min(maximumRetry, retryInterval * 2) }
        backedUp = true
    }
}
