import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// Issue 20: with a compositor (a host's window, `Animator.presentsElsewhere`), a push's
/// slide is declared to it once — each moving in-process child lifted into a layer of its
/// own, placed where the model has it — and the push completes when the compositor says
/// the motion is over, not when the host's clock says so (docs/LIFECYCLE.md, "Animations").
@MainActor
@Suite struct CompositorAnimationTests {
    let journal = Journal()

    /// Nav ▸ A, in a window whose animations a compositor shows, its first frame taken.
    func shown() -> (Window, ManualClock, NavigationController, RecordingController) {
        let a = RecordingController("A", journal)
        let nav = NavigationController(rootViewController: a, id: "Nav")
        let window = Window(size: Size(width: 40, height: 10))
        window.animator.presentsElsewhere = true
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = nav
        window.makeKeyAndVisible()
        _ = window.takeFrame(number: 1)
        journal.clear()
        return (window, clock, nav, a)
    }

    var dids: [String] { journal.entries.filter { ($0.contains("viewDid") && !$0.hasSuffix("viewDidLoad")) || $0.contains("didMove") } }

    @Test func aPushIsDeclaredOnceWithBothStepsLiftedAndCompletesWhenTheCompositorSaysSo() throws {
        let (window, clock, nav, a) = shown()
        let x = RecordingController("X", journal)
        #expect(nav.push(x, animated: true))
        _ = window.takeFrame(number: 2)

        // A slides a third of the way out to the left, X in from the right: both declared,
        // from where they were to where the model has them, in the window's coordinates.
        let content = nav.contentView.frame
        let declared = Dictionary(uniqueKeysWithValues: window.declarations.map { ($0.animation.surface, $0.animation) })
        let groups = Set(window.declarations.map(\.group))
        #expect(groups.count == 1, "one push, one animation")
        let group = try #require(groups.first)
        let width = content.width
        #expect(declared["X"]?.to == CellRect(content) && declared["X"]?.from == CellRect(content.offsetBy(dx: width, dy: 0)))
        #expect(declared["A"]?.from == CellRect(content) && declared["A"]?.to == CellRect(content.offsetBy(dx: -width / 3, dy: 0)))
        #expect(declared.values.allSatisfy { $0.durationMilliseconds == UInt32(nav.slideDuration * 1000) && $0.curve == .easeInOut })
        // Each in a layer of its own, placed at its end: the compositor moves it.
        #expect(Set(window.liftedFrames.compactMap(\.layer)) == ["A", "X"])
        #expect(window.remotePlacements.first { $0.surface == "X" }?.frame == CellRect(content))

        // The host's clock passing the end changes nothing: the compositor has not said so.
        clock.seconds += 10
        window.tick()
        #expect(dids.isEmpty && nav.isTransitioning)
        _ = window.takeFrame(number: 3)
        #expect(window.declarations.isEmpty, "declared twice")

        window.animator.finished(group: group)
        #expect(dids.isEmpty, "one motion of two is over: the push is not")
        window.animator.finished(group: group)
        #expect(dids == ["A.viewDidDisappear", "X.viewDidAppear", "X.didMove(toParent: Nav)"])
        #expect(!nav.isTransitioning && a.parent === nav)

        // The layers go back into the window's surface: no placement is left for them.
        _ = window.takeFrame(number: 4)
        #expect(window.remotePlacements.isEmpty && window.liftedFrames.isEmpty)
    }

    @Test func anAnimationWithNothingOnTheScreenToMoveEndsByTime() {
        let (window, clock, nav, _) = shown()
        var done = false
        window.animator.animate(in: nav.view, duration: 0.25, {}, completion: { _ in done = true })
        _ = window.takeFrame(number: 2)
        #expect(window.declarations.isEmpty && !done)
        clock.seconds += 0.25
        window.tick()
        #expect(done)
    }
}
