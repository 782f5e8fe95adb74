import Dispatch

/// The loop that runs a tree of views and controllers: what the tree does later — at the
/// end of the turn, or after a while — it asks its loop for, never a queue or an actor by
/// name, so that whoever owns the tree owns every turn of it. A host owns its trees on the
/// main actor (`MainActorLoop`); docs/PROCESSES.md, "Placements".
public protocol TreeLoop: AnyObject, Sendable {
    /// Runs `work` on this loop once the handling under way has ended.
    func execute(_ work: @escaping () -> Void)
    /// Runs `work` on this loop at `deadline`, or as soon after it as the loop is free.
    func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void)
}

/// The main actor's turns, for the trees a host owns there. Neither the main queue
/// (`execute`) nor a main-actor task (`schedule`) is served by a call's wait
/// (docs/TRANSPORT.md, "One call"): the work never runs in the middle of a callback.
public final class MainActorLoop: TreeLoop {
    public static let shared = MainActorLoop()

    private init() {}

    public func execute(_ work: @escaping () -> Void) {
        let work = MainActorWork(work)
        DispatchQueue.main.async { MainActor.assumeIsolated { work.run() } }
    }

    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void) {
        let work = MainActorWork(work)
        Task { @MainActor in
            try? await ContinuousClock().sleep(until: deadline)
            work.run()
        }
    }
}

/// A tree's work carried to the main actor. Sending it is safe although its closure is
/// not Sendable: it is made only on the main actor (checked here), where the tree whose
/// state it captures lives, and run only there (`MainActorLoop`), untouched in between.
private final class MainActorWork: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
        MainActor.preconditionIsolated("a tree owned by the main actor was touched elsewhere")
        self.run = run
    }
}
