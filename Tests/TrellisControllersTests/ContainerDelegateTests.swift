import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Built-in containers" (issue 23): the navigation, tab bar and page
/// view controller delegates, weak as UIKit's are, told what UIKit tells them.
@MainActor
@Suite struct ContainerDelegateTests {
    let journal = Journal()
    let clock = ManualClock()

    final class Listener: NavigationControllerDelegate, TabBarControllerDelegate, PageViewControllerDelegate {
        let journal: Journal
        var refuse: Set<String> = []
        init(_ journal: Journal) { self.journal = journal }
        func navigationController(_ n: NavigationController, willShow c: ViewController, animated: Bool) {
            journal.add("willShow \(c.id) animated:\(animated)")
        }
        func navigationController(_ n: NavigationController, didShow c: ViewController, animated: Bool) {
            journal.add("didShow \(c.id) animated:\(animated)")
        }
        func tabBarController(_ t: TabBarController, shouldSelect c: ViewController) -> Bool {
            journal.add("shouldSelect \(c.id)")
            return !refuse.contains(c.id.rawValue)
        }
        func tabBarController(_ t: TabBarController, didSelect c: ViewController) { journal.add("didSelect \(c.id)") }
        func pageViewController(_ p: PageViewController, willTransitionTo pending: [ViewController]) {
            journal.add("willTransition \(pending.map(\.id.rawValue))")
        }
        func pageViewController(
            _ p: PageViewController, didFinishAnimating finished: Bool, previousViewControllers: [ViewController],
            transitionCompleted completed: Bool
        ) {
            journal.add("didFinish previous:\(previousViewControllers.map(\.id.rawValue)) completed:\(completed)")
        }
    }

    func shown(_ root: ViewController) -> Window {
        let window = Window(size: Size(width: 40, height: 10))
        clock.install(on: window)
        window.rootViewController = root
        window.makeKeyAndVisible()
        return window
    }

    /// Observed: willShow before the new top's viewWillAppear, didShow after its
    /// viewDidAppear (after the slide); when the navigation controller appears, for its top.
    @Test(arguments: [false, true])
    func theNavigationDelegateHearsOfEachTopShown(animated: Bool) {
        let listener = Listener(journal)
        let nav = NavigationController(rootViewController: RecordingController("A", journal), id: "Nav")
        nav.delegate = listener
        let window = shown(nav)
        #expect(journal.entries.filter { !$0.contains("trait") && !$0.contains("Move") && !$0.contains("Load") && !$0.contains("init") } == [
            "willShow A animated:false", "A.viewWillAppear", "A.viewDidAppear", "didShow A animated:false",
        ])
        journal.clear()
        nav.push(RecordingController("B", journal), animated: animated)
        clock.seconds += 0.3
        window.tick()
        #expect(journal.entries.filter { $0.hasPrefix("willShow") || $0.hasPrefix("didShow") || $0.hasPrefix("B.view") } == [
            "willShow B animated:\(animated)", "B.viewDidLoad", "B.viewWillAppear", "B.viewDidAppear", "didShow B animated:\(animated)",
        ])
        journal.clear()
        nav.popViewController(animated: animated)
        clock.seconds += 0.3
        window.tick()
        #expect(journal.entries.filter { $0.hasPrefix("willShow") || $0.hasPrefix("didShow") } == [
            "willShow A animated:\(animated)", "didShow A animated:\(animated)",
        ])
    }

    /// Weak: the navigation controller does not keep its delegate alive.
    @Test func delegatesAreWeak() {
        let nav = NavigationController(rootViewController: ViewController(id: "A"), id: "Nav")
        let tabs = TabBarController(id: "Tabs")
        let pages = PageViewController(id: "Pages")
        do {
            let listener = Listener(journal)
            nav.delegate = listener
            tabs.delegate = listener
            pages.delegate = listener
        }
        #expect(nav.delegate == nil && tabs.delegate == nil && pages.delegate == nil)
    }

    /// Documented: the tab bar delegate is asked and told only for taps on the tab bar —
    /// refused, nothing changes; told even when the tapped tab was selected already; never
    /// when code sets `selectedIndex`.
    @Test func theTabBarDelegateDecidesTapsOnly() {
        let listener = Listener(journal)
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [ViewController(id: "A"), ViewController(id: "B"), ViewController(id: "C")]
        tabs.delegate = listener
        listener.refuse = ["C"]
        let window = shown(tabs)
        func tapTab(_ i: Int) { window.tap(at: Point(x: i * 13 + 2, y: 9)) }
        tapTab(1)
        #expect(tabs.selectedIndex == 1)
        tapTab(2)
        #expect(tabs.selectedIndex == 1)
        tapTab(1)
        tabs.selectedIndex = 0
        #expect(journal.entries == ["shouldSelect B", "didSelect B", "shouldSelect C", "shouldSelect B", "didSelect B"])
    }

    /// Documented: the page view controller delegate hears of turns a drag makes, not of
    /// turns code makes.
    @Test func thePageDelegateHearsOfDragTurnsOnly() {
        let listener = Listener(journal)
        let source = NumberedPages(count: 5)
        let pages = PageViewController(id: "Pages")
        pages.dataSource = source
        pages.delegate = listener
        pages.setViewController(source.page(0))
        let window = shown(pages)
        window.touch(.began, at: Point(x: 30, y: 5))
        window.touch(.moved, at: Point(x: 20, y: 5))
        window.touch(.ended, at: Point(x: 10, y: 5))
        let first = pages.currentPage!.id.rawValue
        #expect(journal.entries.first?.hasPrefix("willTransition [") == true)
        clock.seconds += 0.3
        window.tick()
        let current = pages.currentPage!.id.rawValue
        #expect(journal.entries.count == 2)
        #expect(journal.entries.last?.hasPrefix("didFinish previous:[") == true && journal.entries.last?.hasSuffix("completed:true") == true)
        #expect(journal.entries.first == "willTransition [\"\(current)\"]" && first == current)
        journal.clear()
        pages.goToNextPage(animated: false)
        #expect(journal.entries.isEmpty)
    }
}
