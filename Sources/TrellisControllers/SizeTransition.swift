import TrellisCanvas
import TrellisViews
import TrellisWire

/// Handed to `viewWillTransition(to:with:)`: lets every controller in the tree run
/// its own changes alongside one size transition, and be told when it is over (S4-4).
///
/// Alongside blocks run after the new size has been laid out, in the order they were
/// registered (parents first: a parent registers before it forwards to its children);
/// completions run after all of them. A terminal resize has no animation of its own, so
/// `duration` is 0 there; containers that animate pass theirs on.
public final class TransitionCoordinator {
    public let size: Size
    public let duration: Double
    public private(set) var isCompleted = false
    private var alongside: [(TransitionCoordinator) -> Void] = []
    private var completions: [(TransitionCoordinator) -> Void] = []

    init(size: Size, duration: Double) {
        self.size = size
        self.duration = duration
    }

    /// Registers `animation` to run alongside the transition and `completion` after it.
    @discardableResult
    public func animate(
        alongsideTransition animation: ((TransitionCoordinator) -> Void)?,
        completion: ((TransitionCoordinator) -> Void)? = nil
    ) -> Bool {
        guard !isCompleted else { return false }
        if let animation { alongside.append(animation) }
        if let completion { completions.append(completion) }
        return true
    }

    /// Sends the transition to `child` as a `size` message; in this process the child
    /// joins this coordinator, so all alongside blocks of the tree run together.
    func forward(_ size: Size, to child: ViewController, from parent: ViewController) {
        child.pendingCoordinator = self
        defer { child.pendingCoordinator = nil }
        parent.send(.sizeTransition(SizeTransition(
            width: UInt32(max(0, size.width)), height: UInt32(max(0, size.height)),
            durationMilliseconds: UInt32(max(0, duration * 1000)))), to: child)
    }

    func runAlongside() {
        // Blocks may register more blocks (a child forwarding late): run until none is left.
        var i = 0
        while i < alongside.count {
            alongside[i](self)
            i += 1
        }
        alongside.removeAll()
    }

    func complete() {
        isCompleted = true
        let c = completions
        completions.removeAll()
        for block in c { block(self) }
    }
}

extension ViewController {
    /// A `size` message: the child side of a size transition.
    func receiveSizeTransition(_ size: Size, duration: Double) {
        if let c = pendingCoordinator {
            viewWillTransition(to: size, with: c)
        } else {
            // Not part of a transition run in this process (a parent behind a link):
            // this controller runs one of its own.
            let c = TransitionCoordinator(size: size, duration: duration)
            viewWillTransition(to: size, with: c)
            view.layoutIfNeeded()
            c.runAlongside()
            view.layoutIfNeeded()
            c.complete()
        }
    }
}
