import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisViews

/// Issue 20 ("One house"), docs/VIEWS.md "Whose a tree is": a tree of views and
/// controllers belongs to whoever owns it, not to the main actor. Here an actor of its own
/// owns one: it builds it, shows it, runs a controller's timer on its own turns
/// (`TreeLoop`), hears the change the timer made and composes the screen — none of it on
/// the main actor.
@Suite(.timeLimit(.minutes(1))) struct TreeOwnershipTests {
    /// Shows "tick N" and counts, from its timer, N once a tick.
    final class Ticking: ViewController {
        let label = Label("tick 0", frame: Rect(x: 0, y: 0, width: 10, height: 1))
        var ticks = 0
        var tickedOnMainThread = false

        override func viewDidLoad() {
            super.viewDidLoad()
            view.addSubview(label)
            scheduleTimer(after: .milliseconds(5), repeats: true) { [unowned self] timer in
                ticks += 1
                tickedOnMainThread = tickedOnMainThread || Thread.isMainThread
                label.text = "tick \(ticks)"
                if ticks == 2 { timer.invalidate() }
            }
        }
    }

    /// What the owner's tree tells it: how many times a view changed.
    final class Changes {
        var count = 0
    }

    actor Owner {
        private var window: Window?
        private var root: Ticking?
        private let changes = Changes()

        func show() -> String {
            let window = Window(size: Size(width: 10, height: 2), loop: OwnerTurns(owner: self))
            let changes = self.changes
            window.tree.observe(by: changes) { changes.count += 1 }
            let root = Ticking(id: "Ticking")
            window.rootViewController = root
            window.makeKeyAndVisible()
            (self.window, self.root) = (window, root)
            return window.compose().text
        }

        /// Waits, on the owner's turns, for the timer's two ticks; then the screen.
        func afterTwoTicks() async -> (screen: String, ticks: Int, onMainThread: Bool, changes: Int)? {
            guard let window, let root else { return nil }
            let deadline = ContinuousClock.now + .seconds(30)
            while root.ticks < 2, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            return (window.compose().text, root.ticks, root.tickedOnMainThread, changes.count)
        }

        func run(_ work: OwnerWork) { work.run() }
    }

    /// The owner's turns: each piece of the tree's later work is a job on the actor.
    final class OwnerTurns: TreeLoop {
        let owner: Owner
        init(owner: Owner) { self.owner = owner }

        func execute(_ work: @escaping () -> Void) {
            let work = OwnerWork(work, on: owner)
            Task { await owner.run(work) }
        }

        func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void) {
            let work = OwnerWork(work, on: owner)
            Task {
                try? await Task.sleep(until: deadline)
                await owner.run(work)
            }
        }
    }

    /// The tree's work carried to its owner. Sending it is safe although its closure is not
    /// Sendable: it is made only on the owner (checked here), whose tree its closure
    /// captures, and run only there (`Owner.run`), untouched in between.
    final class OwnerWork: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void, on owner: Owner) {
            owner.preconditionIsolated("a tree's work was made off its owner")
            self.run = run
        }
    }

    @Test func anActorOfItsOwnOwnsATreeItsTimerAndItsFrames() async throws {
        let owner = Owner()
        #expect(await owner.show().hasPrefix("tick 0"))
        let after = try #require(await owner.afterTwoTicks())
        #expect(after.ticks == 2)
        #expect(after.screen.hasPrefix("tick 2"))
        #expect(!after.onMainThread)
        // Each tick's new text told the tree's owner that a frame is due.
        #expect(after.changes >= 2)
    }
}
