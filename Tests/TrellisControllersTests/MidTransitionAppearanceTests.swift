import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Appearance: the global order", rule 8: a controller whose view
/// leaves the window disappears, even in the middle of its own container's transition,
/// and appears again when the view comes back.
@MainActor
@Suite struct MidTransitionAppearanceTests {
    let journal = Journal()

    /// Tabs ▸ [Nav ▸ A, C], shown, with a clock the test moves.
    func tabs() -> (Window, ManualClock, TabBarController, NavigationController, RecordingController) {
        let a = RecordingController("A", journal)
        let nav = NavigationController(rootViewController: a, id: "Nav")
        let c = RecordingController("C", journal)
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [nav, c]
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        return (window, clock, tabs, nav, c)
    }

    func appearance(_ names: String...) -> [String] {
        journal.entries.filter { e in names.contains { e.hasPrefix("\($0).view") } && (e.hasSuffix("Appear") || e.hasSuffix("Disappear")) }
    }

    @Test func aTabSwitchDuringAPushLeavesThePushedControllerDisappearedUntilTheTabComesBack() {
        let (window, clock, tabs, nav, _) = tabs()
        let b = RecordingController("B", journal)
        nav.push(b, animated: true)
        #expect(b.appearanceState == .appearing)
        journal.clear()

        tabs.selectedIndex = 1                       // while B still slides in
        #expect(b.appearanceState == .disappeared)
        #expect(nav.viewControllers.first?.appearanceState == .disappeared)
        #expect(appearance("A", "B") == ["B.viewWillDisappear", "A.viewDidDisappear", "B.viewDidDisappear"])

        journal.clear()
        clock.seconds += 0.3
        window.tick()                                 // the slide ends in the hidden tab
        #expect(appearance("A", "B").isEmpty)
        #expect(journal.only("B.didMove") == ["B.didMove(toParent: Nav)"])
        #expect(b.appearanceState == .disappeared)

        journal.clear()
        tabs.selectedIndex = 0
        #expect(appearance("A", "B") == ["B.viewWillAppear", "B.viewDidAppear"])
        #expect(b.appearanceState == .appeared)
        #expect(nav.viewControllers.first?.appearanceState == .disappeared)
    }

    @Test func aTabSwitchDuringAPageTurnLeavesTheNewPageDisappearedUntilTheTabComesBack() {
        let pages = PagesContainer(journal, count: 10)
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [pages, RecordingController("C", journal)]
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = tabs
        window.makeKeyAndVisible()
        let first = pages.pager.currentPage!
        #expect(pages.pager.goToNextPage(animated: true))
        let second = pages.pager.currentPage!
        #expect(second.appearanceState == .appearing)

        tabs.selectedIndex = 1                       // mid-turn
        #expect(first.appearanceState == .disappeared && second.appearanceState == .disappeared)
        clock.seconds += 0.3
        window.tick()
        #expect(second.appearanceState == .disappeared && first.parent == nil)
        #expect(pages.pageControl.currentPage == 1)

        tabs.selectedIndex = 0
        #expect(second.appearanceState == .appeared)
        #expect(second.view.frame == pages.pager.view.bounds)
    }

    /// P ▸ Slider (seed 003's container), shown.
    func slider() -> (Window, ManualClock, RecordingController, SlideContainer) {
        let p = RecordingController("P", journal)
        let slider = SlideContainer(journal)
        p.addChild(slider)
        p.view.addSubview(slider.view)
        slider.didMove(toParent: p)
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = p
        window.makeKeyAndVisible()
        return (window, clock, p, slider)
    }

    @Test func aContainerTakenOutOfTheWindowDuringItsTransitionTakesBothChildrenWithIt() throws {
        let (window, clock, p, slider) = slider()
        try slider.swap()
        journal.clear()

        slider.view.removeFromSuperview()            // mid-slide
        #expect(appearance("Slider", "First", "Second") == [
            "Slider.viewWillDisappear", "Second.viewWillDisappear",
            "Slider.viewDidDisappear", "First.viewDidDisappear", "Second.viewDidDisappear",
        ])

        journal.clear()
        clock.seconds += 0.3
        window.tick()
        #expect(appearance("Slider", "First", "Second").isEmpty)
        #expect(journal.only("First.didMove", "Second.didMove") == ["First.didMove(toParent: nil)", "Second.didMove(toParent: Slider)"])

        journal.clear()
        p.view.addSubview(slider.view)
        #expect(appearance("Slider", "First", "Second") == [
            "Slider.viewWillAppear", "Second.viewWillAppear", "Slider.viewDidAppear", "Second.viewDidAppear",
        ])
    }

    @Test func aContainerBackInTheWindowBeforeItsTransitionEndsShowsBothUntilTheOldOneLeaves() throws {
        let (window, clock, p, slider) = slider()
        try slider.swap()
        slider.view.removeFromSuperview()
        journal.clear()

        p.view.addSubview(slider.view)               // back while the slide still runs
        #expect(appearance("Slider", "First", "Second") == [
            "Slider.viewWillAppear", "First.viewWillAppear", "Second.viewWillAppear",
            "Slider.viewDidAppear", "First.viewDidAppear", "Second.viewDidAppear",
        ])

        journal.clear()
        clock.seconds += 0.3
        window.tick()                                 // First's view leaves: First disappears
        #expect(appearance("First", "Second") == ["First.viewWillDisappear", "First.viewDidDisappear"])
        #expect(slider.incoming.appearanceState == .appeared)
    }
}
