/// When the next frame may be written to a terminal that may be slower than the
/// compositor (an ssh link, a paused tmux client, a terminal busy scrolling).
///
/// Frames are never queued: the writer keeps only the latest composed screen and asks
/// the throttle when it may write it. While writes go through without blocking there is
/// no delay beyond `minimumInterval` — none by default: a terminal that keeps up gets
/// each frame the moment it is composed, as tmux gives a pane's output (issue 20: a tab
/// switch's second frame waited 8 ms behind its first on an idle terminal). A write that
/// would block doubles the interval (at least 16 ms, up to `maximumInterval`), so a slow
/// terminal gets fewer, larger coalesced frames instead of a backlog; each frame written
/// without blocking halves it again, and under 4 ms it is back to the minimum. No I/O, no
/// clock: the caller passes the time, so the policy is testable on its own.
public struct FrameThrottle: Sendable, Equatable {
    /// The shortest gap between frames (ns): the display rate the compositor aims at.
    public let minimumInterval: UInt64
    /// The longest gap between frames (ns) however slow the terminal is, so the screen
    /// still catches up a few times a second.
    public let maximumInterval: UInt64
    /// The current gap between frames (ns).
    public private(set) var interval: UInt64
    /// No frame may start before this time (monotonic ns).
    public private(set) var notBefore: UInt64 = 0

    /// Below this, a gap left from a slow spell is no gap (ns).
    static let settled: UInt64 = 4_000_000

    public init(minimumInterval: UInt64 = 0, maximumInterval: UInt64 = 250_000_000) {
        self.minimumInterval = minimumInterval
        self.maximumInterval = max(minimumInterval, maximumInterval)
        interval = minimumInterval
    }

    /// True when a frame may be written at `now`.
    public func mayWrite(at now: UInt64) -> Bool { now >= notBefore }

    /// A frame was written whole without blocking at `now`: speed back up.
    public mutating func wrote(at now: UInt64) {
        let half = interval / 2
        interval = half < Self.settled ? minimumInterval : max(minimumInterval, half)
        notBefore = now &+ interval
    }

    /// A write at `now` would have blocked (the terminal's buffer is full): slow down.
    /// The rest of that frame is finished first; the frame after it waits `interval`.
    public mutating func blocked(at now: UInt64) {
        interval = min(maximumInterval, max(interval * 2, 16_000_000))
        notBefore = now &+ interval
    }
}
