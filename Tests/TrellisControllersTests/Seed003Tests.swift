import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

// Seed 003: the containment API and animated transitions.

/// Seed 003's container: one child shown at a time, swapped with a slide up.
final class SlideContainer: RecordingController {
    var current: RecordingController!
    let incoming: RecordingController
    init(_ journal: Journal) {
        incoming = RecordingController("Second", journal)
        super.init("Slider", journal)
        current = RecordingController("First", journal)
    }
    override func viewDidLoad() {
        super.viewDidLoad()
        addChild(current)
        current.view.frame = view.bounds
        view.addSubview(current.view)
        current.didMove(toParent: self)
    }

    /// S3-4: the new child starts below the visible area and slides up into the old one's
    /// place while the old one moves up and away, over 0.25 s.
    func swap() throws {
        let old = current!
        let new = incoming
        let bounds = view.bounds
        old.willMove(toParent: nil)
        addChild(new)
        new.view.frame = bounds.offsetBy(dx: 0, dy: bounds.height)
        try transition(from: old, to: new, duration: 0.25, animations: {
            new.view.frame = bounds
            old.view.frame = bounds.offsetBy(dx: 0, dy: -bounds.height)
        }, completion: { [unowned self] _ in
            old.removeFromParent()
            new.didMove(toParent: self)
            self.current = new
        })
    }
}

@MainActor
@Suite struct Seed003Tests {
    @Test func s3_1_containersNestAndShowTheirBars() {
        let journal = Journal()
        let a = RecordingController("A", journal)
        a.title = "Inbox"
        let nav = NavigationController(rootViewController: a, id: "Nav")
        nav.title = "Mail"
        let b = RecordingController("B", journal)
        b.title = "Settings"
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [nav, b]
        let window = Window(size: Size(width: 40, height: 10))
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        var lines = window.screenText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].contains("Inbox"))                    // the navigation bar, inside the tab
        #expect(lines[9].contains("Mail") && lines[9].contains("Settings"))  // the tab bar
        #expect(a.appearanceState == .appeared)
        #expect(b.appearanceState == .disappeared)

        // Push inside the tab, then go back with the bar's back button.
        let detail = RecordingController("Detail", journal)
        detail.title = "Message"
        nav.push(detail, animated: false)
        lines = window.screenText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].contains("‹ Back") && lines[0].contains("Message"))
        #expect(detail.appearanceState == .appeared && a.appearanceState == .disappeared)
        let clock = ManualClock()
        clock.install(on: window)
        #expect(window.tap(at: Point(x: 1, y: 0)))
        clock.seconds += 1
        window.tick()
        #expect(nav.topViewController === a)
        #expect(detail.parent == nil)
        #expect(a.appearanceState == .appeared)

        // The other tab: the whole navigation subtree disappears, B appears — in UIKit's
        // order for a tab switch (docs/LIFECYCLE.md, "The order of a swap").
        journal.clear()
        #expect(window.tap(at: Point(x: 30, y: 9)))
        #expect(tabs.selectedIndex == 1)
        #expect(journal.only("A.view", "B.view") == ["B.viewDidLoad", "B.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear"])
    }

    @Test func s3_2_addChildAndRemoveFromParentCallTheirHalfThemselves() {
        let journal = Journal()
        let parent = RecordingController("P", journal)
        let child = RecordingController("C", journal)
        journal.clear()
        parent.addChild(child)
        #expect(journal.entries == ["C.willMove(toParent: P)"])
        #expect(child.parent === parent && parent.children.count == 1)
        child.didMove(toParent: parent)  // the container's half
        journal.clear()
        child.willMove(toParent: nil)    // the container's half
        child.removeFromParent()
        #expect(journal.entries == ["C.willMove(toParent: nil)", "C.didMove(toParent: nil)"])
        #expect(child.parent == nil && parent.children.isEmpty)
    }

    @Test func s3_2_addingAChildThatHasAnotherParentMovesIt() {
        let journal = Journal()
        let p1 = RecordingController("P1", journal), p2 = RecordingController("P2", journal)
        let child = RecordingController("C", journal)
        p1.addChild(child)
        journal.clear()
        p2.addChild(child)
        #expect(journal.entries == ["C.didMove(toParent: nil)", "C.willMove(toParent: P2)"])
        #expect(p1.children.isEmpty && child.parent === p2)
    }

    @Test func s3_3_callbacksArriveInOrder() {
        let journal = Journal()
        let window = Window(size: Size(width: 40, height: 10))
        window.rootViewController = SlideContainer(journal)
        window.makeKeyAndVisible()
        #expect(journal.entries.filter { !$0.hasSuffix("traitCollectionDidChange") && !$0.hasSuffix(".init") } == [
            "Slider.viewDidLoad",
            "First.willMove(toParent: Slider)", "First.viewDidLoad", "First.didMove(toParent: Slider)",
            "Slider.viewWillAppear", "First.viewWillAppear", "Slider.viewDidAppear", "First.viewDidAppear",
        ])
    }

    @Test func s3_4_animatedSwapSlidesUpThenCompletes() throws {
        let journal = Journal()
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        let slider = SlideContainer(journal)
        window.rootViewController = slider
        window.makeKeyAndVisible()
        let first = slider.current!, second = slider.incoming
        first.view.backgroundColor = .indexed(1)
        second.view.backgroundColor = .indexed(4)
        journal.clear()

        try slider.swap()
        #expect(journal.entries.filter { !$0.hasSuffix("traitCollectionDidChange") } == [
            "First.willMove(toParent: nil)", "Second.willMove(toParent: Slider)",
            "Second.viewWillAppear", "First.viewWillDisappear",
        ])
        // Halfway: Second has come up from below, First has gone halfway up.
        clock.seconds += 0.125
        #expect(window.animator.presentationFrame(of: second.view).minY == 5)
        #expect(window.animator.presentationFrame(of: first.view).minY == -5)
        let screen = window.compose()
        #expect(screen.cell(at: Point(x: 0, y: 2))?.background == .indexed(1))
        #expect(screen.cell(at: Point(x: 0, y: 7))?.background == .indexed(4))
        #expect(second.parent === slider && first.parent === slider)

        clock.seconds += 0.125
        window.tick()
        #expect(journal.entries.suffix(4) == [
            "Second.viewDidAppear", "First.viewDidDisappear",
            "First.didMove(toParent: nil)", "Second.didMove(toParent: Slider)",
        ])
        #expect(slider.children.map(\.id) == ["Second"])
        #expect(first.viewIfLoaded?.superview == nil)
        #expect(window.compose().cell(at: Point(x: 0, y: 2))?.background == .indexed(4))
    }

    @Test func s3_4_transitionRequiresBothToBeChildren() {
        let journal = Journal()
        let parent = RecordingController("P", journal)
        let a = RecordingController("A", journal), stranger = RecordingController("X", journal)
        parent.addChild(a)
        parent.view.addSubview(a.view)
        #expect(throws: ContainmentError.self) {
            try parent.transition(from: a, to: stranger, duration: 0, animations: nil, completion: nil)
        }
        do {
            try parent.transition(from: a, to: stranger, duration: 0, animations: nil, completion: nil)
        } catch {
            #expect(error.message.contains("X is not a child of P"))
        }
        #expect(a.view.superview === parent.view && stranger.viewIfLoaded == nil)
    }
}
