import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "The order of a swap": the order UIKit's containers are known for
/// when one child replaces another, and `viewDidAppear` after the appearing view's layout.
@MainActor
@Suite struct SwapOrderTests {
    let journal = Journal()

    /// Also records its layout callbacks.
    final class LayingOut: RecordingController {
        override func viewWillLayoutSubviews() { super.viewWillLayoutSubviews(); journal.add("\(name).viewWillLayoutSubviews") }
        override func viewDidLayoutSubviews() { super.viewDidLayoutSubviews(); journal.add("\(name).viewDidLayoutSubviews") }
    }

    func shown(_ root: ViewController) -> (Window, ManualClock) {
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = root
        window.makeKeyAndVisible()
        return (window, clock)
    }

    /// The appearance callbacks of A and B, in order.
    var appearance: [String] {
        journal.only("A.view", "B.view").filter { $0.hasSuffix("Appear") || $0.hasSuffix("Disappear") }
    }

    @Test(arguments: [false, true])
    func aPushTellsTheCoveredControllerFirst(animated: Bool) {
        let nav = NavigationController(rootViewController: RecordingController("A", journal), id: "Nav")
        let (window, clock) = shown(nav)
        journal.clear()
        nav.push(RecordingController("B", journal), animated: animated)
        clock.seconds += 0.3
        window.tick()
        #expect(appearance == ["A.viewWillDisappear", "B.viewWillAppear", "A.viewDidDisappear", "B.viewDidAppear"])
    }

    @Test(arguments: [false, true])
    func aPopTellsThePoppedControllerFirst(animated: Bool) {
        let nav = NavigationController(rootViewController: RecordingController("A", journal), id: "Nav")
        let (window, clock) = shown(nav)
        nav.push(RecordingController("B", journal), animated: false)
        journal.clear()
        nav.popViewController(animated: animated)
        clock.seconds += 0.3
        window.tick()
        #expect(appearance == ["B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear", "A.viewDidAppear"])
    }

    @Test func aTabSwitchTellsTheNewTabsWillFirstAndTheOldTabsDidFirst() {
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [RecordingController("A", journal), RecordingController("B", journal)]
        _ = shown(tabs)
        journal.clear()
        tabs.selectedIndex = 1
        #expect(appearance == ["B.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear"])
        journal.clear()
        tabs.selectedIndex = 0
        #expect(appearance == ["A.viewWillAppear", "B.viewWillDisappear", "B.viewDidDisappear", "A.viewDidAppear"])
    }

    @Test func aNewTabIsLaidOutBeforeItsViewDidAppear() {
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [RecordingController("A", journal), LayingOut("B", journal)]
        _ = shown(tabs)
        journal.clear()
        tabs.selectedIndex = 1
        #expect(journal.only("B.view") == [
            "B.viewDidLoad", "B.viewWillAppear", "B.viewWillLayoutSubviews", "B.viewDidLayoutSubviews", "B.viewDidAppear",
        ])
    }

    /// Also shows its name in a label.
    final class Labelled: RecordingController {
        override func viewDidLoad() {
            super.viewDidLoad()
            view.addSubview(Label("tab \(name)", frame: Rect(x: 0, y: 0, width: 10, height: 1)))
        }
    }

    /// Issue 20: a tab switch asks for its frame (`Window.showLaidOutTree`, which a host
    /// answers by sending one) once the new tab is in and laid out, before the dids,
    /// whose round trips to children in other processes no longer delay what is seen.
    @Test func aTabSwitchIsShownBeforeTheDids() {
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [Labelled("A", journal), Labelled("B", journal)]
        let (window, _) = shown(tabs)
        var seen: [(callbacks: [String], screen: String)] = []
        window.showsNow = { seen.append((self.appearance, window.screenText)) }
        journal.clear()
        tabs.selectedIndex = 1
        #expect(seen.count == 1)
        #expect(seen.first?.callbacks == ["B.viewWillAppear", "A.viewWillDisappear"])
        #expect(seen.first.map { $0.screen.contains("tab B") && !$0.screen.contains("tab A") } == true)
        // The callbacks themselves are as before.
        #expect(appearance == ["B.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear"])
    }

    @Test func aPushedControllerIsLaidOutBeforeItsViewDidAppear() {
        let nav = NavigationController(rootViewController: RecordingController("A", journal), id: "Nav")
        let (window, clock) = shown(nav)
        journal.clear()
        nav.push(LayingOut("B", journal), animated: true)
        clock.seconds += 0.3
        window.tick()
        let b = journal.only("B.view")
        #expect(b.first == "B.viewDidLoad" && b.last == "B.viewDidAppear")
        #expect(b.firstIndex(of: "B.viewDidLayoutSubviews")! < b.firstIndex(of: "B.viewDidAppear")!)
    }

    @Test func theRootIsLaidOutBeforeItsViewDidAppear() {
        _ = shown(LayingOut("A", journal))
        #expect(journal.only("A.view") == [
            "A.viewDidLoad", "A.viewWillAppear", "A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews", "A.viewDidAppear",
        ])
    }
}

/// Pages that record their callbacks in the suite's journal, made on demand.
final class RecordedPages: PageViewControllerDataSource {
    let journal: Journal
    var made: [String: RecordingController] = [:]
    init(_ journal: Journal) { self.journal = journal }
    func page(_ n: Int) -> RecordingController {
        let name = "P\(n)"
        if let p = made[name] { return p }
        let p = RecordingController(name, journal)
        made[name] = p
        return p
    }
    func index(of page: ViewController) -> Int { Int(page.id.rawValue.dropFirst())! }
    func pageViewController(_ pageViewController: PageViewController, viewControllerBefore page: ViewController) -> ViewController? {
        index(of: page) > 0 ? self.page(index(of: page) - 1) : nil
    }
    func pageViewController(_ pageViewController: PageViewController, viewControllerAfter page: ViewController) -> ViewController? {
        self.page(index(of: page) + 1)
    }
}

extension SwapOrderTests {
    @Test func aPageTurnTellsTheNewPageFirstInBothPhases() {
        let pages = RecordedPages(journal)
        let pager = PageViewController(id: "Pager")
        pager.dataSource = pages
        pager.setViewController(pages.page(0))
        let (window, clock) = shown(pager)
        journal.clear()
        #expect(pager.goToNextPage(animated: true))
        clock.seconds += 0.3
        window.tick()
        #expect(journal.entries.filter { $0.hasSuffix("Appear") || $0.hasSuffix("Disappear") } == [
            "P1.viewWillAppear", "P0.viewWillDisappear", "P1.viewDidAppear", "P0.viewDidDisappear",
        ])
    }
}
