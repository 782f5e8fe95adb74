import Testing
@testable import TrellisCompositor

/// The compositor's links deliver before `Compositor.start` has made the compositor: a
/// root host that says hello while the control endpoint is still being bound must still
/// be brought up (before this, one `trellis bench latency` run in about twenty, and once
/// a multi-process test, waited 20 s on a blank screen: the root's "connected" had
/// reached no one).
@MainActor
struct UntilAttachedTests {
    final class Target {
        var seen: [String] = []
    }

    @Test func whatArrivesFirstWaitsAndRunsInOrderOnceAttached() {
        let box = UntilAttached<Target>()
        var ran: [String] = []
        box.run { $0.seen.append("peer Root connected"); ran.append("first") }
        box.run { $0.seen.append("frame from Root"); ran.append("second") }
        #expect(ran.isEmpty)
        #expect(box.target == nil)

        let target = Target()
        box.attach(target)
        #expect(ran == ["first", "second"])
        #expect(target.seen == ["peer Root connected", "frame from Root"])

        box.run { $0.seen.append("touch"); ran.append("third") }
        #expect(ran == ["first", "second", "third"], "after attaching, work runs at once")
        #expect(target.seen.last == "touch")
    }

    @Test func workQueuedWhileTheWaitingRunsGoesAfterIt() {
        let box = UntilAttached<Target>()
        box.run { target in
            target.seen.append("a")
            // Arrives while the earlier work is being run: after it, not lost.
            box.run { $0.seen.append("c") }
        }
        box.run { $0.seen.append("b") }
        let target = Target()
        box.attach(target)
        #expect(target.seen == ["a", "b", "c"])
    }
}
