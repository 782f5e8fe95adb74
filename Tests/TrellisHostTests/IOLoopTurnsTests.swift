import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisTransport

/// Issue 20 ("One house"), docs/PROCESSES.md "Placements": a tree a host owns on an
/// `IOLoop` thread of its own, not on the main actor, runs its later work — a
/// controller's timer, the end-of-turn save of its state — on that thread (`IOLoopTurns`).
@Suite(.timeLimit(.minutes(1))) struct IOLoopTurnsTests {
    /// Remembers, each time it is encoded, whether that ran on its loop's thread.
    final class Saving: ViewController {
        var savedOnLoop: [Bool] = []
        var isOnLoop: () -> Bool = { false }
        override func encodeRestorableState(with coder: RestorationCoder) { savedOnLoop.append(isOnLoop()) }
    }

    @Test func aTreeOnALoopOfItsOwnRunsItsTimerAndItsSaveThere() async {
        let loop = IOLoop(name: "tree-turns")
        defer { loop.shutdown() }
        // Where each tick and each save ran: on the loop's thread or not.
        let ran: (ticks: [Bool], saves: [Bool], saved: Bool) = await withCheckedContinuation { done in
            loop.execute {
                let window = Window(size: Size(width: 10, height: 1), loop: IOLoopTurns(loop))
                let root = Saving(id: "Root")
                root.isOnLoop = { loop.isCurrent }
                window.rootViewController = root
                window.makeKeyAndVisible()
                var saved = false
                window.stateRestoration.saver = { _ in saved = true }
                var ticks: [Bool] = []
                root.scheduleTimer(after: .milliseconds(5), repeats: true) { [unowned root] timer in
                    ticks.append(loop.isCurrent)
                    root.setNeedsStateSave()
                    guard ticks.count == 2 else { return }
                    timer.invalidate()
                    // The save asked for in this turn runs after it, on the loop too.
                    loop.schedule(afterNanoseconds: 1_000_000) {
                        done.resume(returning: (ticks, root.savedOnLoop, saved))
                        window.rootViewController = nil
                    }
                }
            }
        }
        #expect(ran.ticks == [true, true])
        #expect(!ran.saves.isEmpty && ran.saves.allSatisfy { $0 })
        #expect(ran.saved)
    }
}
