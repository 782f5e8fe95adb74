import Foundation
import Synchronization
import TrellisLog

/// A handler held busy on its loop's thread until the test lets it go, or a 10 s backstop
/// passes (issue 20: a busy actor child holds up nothing of its parent's). It checks every
/// millisecond rather than spinning: a hot loop took one of the machine's two cores from
/// the parallel test run, and tests elsewhere timed out behind it (a fresh-clone CI failed
/// so).
final class BusyUntilReleased: Sendable {
    /// Set once a handler is busy; `release` lets it go.
    let busy = Atomic(false), release = Atomic(false)
    /// Whether the last hold ended because it was let go, not at the backstop.
    let wasReleased = Atomic(false)
    /// Holds ended, let go or at the backstop.
    let rounds = Atomic(0)

    /// Called by the handler: holds its thread until released.
    func hold() {
        busy.store(true, ordering: .releasing)
        let backstop = MonotonicClock.nanoseconds() &+ 10_000_000_000
        while !release.load(ordering: .acquiring), MonotonicClock.nanoseconds() < backstop { usleep(1000) }
        wasReleased.store(release.load(ordering: .acquiring), ordering: .relaxed)
        rounds.add(1, ordering: .releasing)
    }
}
