/// Work for an object that does not exist yet: held, in order, until the object is
/// attached, then run with it; after that, run at once.
///
/// The compositor's links deliver from the moment they are bound, before `start` has
/// made the compositor (it still binds the control endpoint in between). A host that
/// connects in that gap must not be lost: dropped, the root's "connected" would never
/// bring the root up, and the screen would stay blank for the whole session.
@MainActor
final class UntilAttached<Target: AnyObject> {
    private(set) var target: Target?
    private var waiting: [@MainActor (Target) -> Void] = []

    nonisolated init() {}

    /// Runs `body` with the target now, or as soon as it is attached.
    func run(_ body: @escaping @MainActor (Target) -> Void) {
        if let target { body(target) } else { waiting.append(body) }
    }

    /// The target exists: what waited for it runs, in the order it came — work queued
    /// while that runs included, after it.
    func attach(_ target: Target) {
        precondition(self.target == nil, "UntilAttached: attached twice")
        var next = 0
        while next < waiting.count {
            waiting[next](target)
            next += 1
        }
        waiting = []
        self.target = target
    }
}
