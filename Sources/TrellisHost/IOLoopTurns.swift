import TrellisLog
import TrellisTransport
import TrellisViews

/// The turns of an `IOLoop`'s own thread, for a tree a host owns there rather than on the
/// main actor (issue 20, "One house": an `actor` child's tree on a loop of its own,
/// docs/PROCESSES.md "Placements"). Work runs as one of the loop's timers — after what the
/// loop has queued, and never inside a nested `run(until:)`, as a main-actor job is never
/// run inside a call's wait — so nothing crosses a thread and nothing needs to be
/// `Sendable`: the tree, its work and the loop's timers are all the loop thread's.
public final class IOLoopTurns: TreeLoop {
    public let loop: IOLoop

    public init(_ loop: IOLoop) {
        self.loop = loop
    }

    public func execute(_ work: @escaping () -> Void) {
        loop.preconditionOnLoop()
        loop.schedule(afterNanoseconds: 0, work)
    }

    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void) {
        loop.preconditionOnLoop()
        // A deadline already past is due now (`Duration.nanoseconds` of a negative wait is 0).
        loop.schedule(afterNanoseconds: (deadline - .now).nanoseconds, work)
    }
}
