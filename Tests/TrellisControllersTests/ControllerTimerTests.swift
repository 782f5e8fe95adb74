import Testing
import TrellisCanvas
import TrellisControllers

/// docs/LIFECYCLE.md, "Timers": a controller's timer fires on its tree's loop — the main
/// actor's here, for a controller in no window — once or repeatedly, until it is
/// invalidated, its controller is released, or — if asked — the controller disappears
/// (issue 21).
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ControllerTimerTests {
    /// Lets the main actor run the timers for `duration`.
    private func settle(_ duration: Duration = .milliseconds(100)) async {
        try? await Task.sleep(for: duration)
    }

    /// Waits until `condition` holds, at most 10 s: the main actor is shared with the
    /// other tests, so a timer fires when it gets its turn.
    /// Up to 60 s, not 10: in the parallel suite this process's main actor is shared with
    /// the host tests, whose calls to a child process wait in a nested loop that by design
    /// runs no main-actor job (docs/TRANSPORT.md, "One call") — a timer's turn can come
    /// 20 s late there on a loaded machine. It returns as soon as the condition holds.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
        return condition()
    }

    @Test func aOneShotTimerFiresOnceAndIsThenInvalid() async {
        let c = ViewController(id: "C")
        var fired = 0
        let timer = c.scheduleTimer(after: .milliseconds(10)) { _ in fired += 1 }
        #expect(timer.isValid)
        #expect(await eventually { fired == 1 })
        await settle()
        #expect(fired == 1)
        #expect(!timer.isValid)
    }

    @Test func aRepeatingTimerFiresUntilInvalidated() async {
        let c = ViewController(id: "C")
        var fired = 0
        let timer = c.scheduleTimer(after: .milliseconds(10), repeats: true) { _ in fired += 1 }
        #expect(await eventually { fired >= 3 })
        timer.invalidate()
        let stopped = fired
        await settle(.milliseconds(100))
        #expect(fired == stopped)
        #expect(!timer.isValid)
    }

    @Test func aTimerEndsWithItsController() async {
        var fired = 0
        var c: ViewController? = ViewController(id: "C")
        let timer = c!.scheduleTimer(after: .milliseconds(20), repeats: true) { _ in fired += 1 }
        c = nil
        #expect(await eventually { !timer.isValid })
        #expect(fired == 0)
    }

    @Test func anUntilDisappearTimerEndsAtViewDidDisappearAndAControllerTimerDoesNot() async {
        let window = Window(size: Size(width: 10, height: 2))
        let c = ViewController(id: "C")
        window.rootViewController = c
        window.makeKeyAndVisible()
        let whileShown = c.scheduleTimer(after: .milliseconds(10), repeats: true, lifetime: .untilDisappear) { _ in }
        let always = c.scheduleTimer(after: .milliseconds(10), repeats: true) { _ in }
        c.beginAppearanceTransition(false, animated: false)
        #expect(whileShown.isValid, "the will alone does not end it")
        c.endAppearanceTransition()
        #expect(!whileShown.isValid)
        #expect(always.isValid)
        always.invalidate()
    }
}
