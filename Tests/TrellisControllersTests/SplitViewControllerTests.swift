import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Built-in containers" (issue 23): a list and its detail side by
/// side, one column when the horizontal size class is compact (below 80 columns).
@MainActor
@Suite struct SplitViewControllerTests {
    let journal = Journal()

    func make(width: Int, secondary: ViewController? = nil) -> (Window, SplitViewController, ViewController, NavigationController) {
        let list = RecordingController("List", journal)
        let nav = NavigationController(rootViewController: list, id: "Nav")
        let split = SplitViewController(primary: nav, secondary: secondary, id: "Split")
        let window = Window(size: Size(width: width, height: 20))
        window.rootViewController = split
        window.makeKeyAndVisible()
        return (window, split, list, nav)
    }

    @Test func expandedTheListAndTheDetailStandSideBySide() {
        let first = RecordingController("First", journal)
        let (_, split, list, nav) = make(width: 100, secondary: first)
        #expect(!split.isCollapsed)
        #expect(nav.view.frame == Rect(x: 0, y: 0, width: 28, height: 20))
        #expect(first.view.frame == Rect(x: 29, y: 0, width: 71, height: 20))
        #expect(list.appearanceState == .appeared && first.appearanceState == .appeared)
        // Documented: showDetailViewController from the list, inside a navigation
        // controller that does not handle it, reaches the split, which shows it as the detail.
        journal.clear()
        let detail = RecordingController("Detail", journal)
        list.showDetailViewController(detail, sender: nil)
        #expect(split.secondary === detail && first.parent == nil && nav.topViewController === list)
        #expect(journal.only("First.view", "Detail.view").filter { $0.contains("ppear") } == [
            "First.viewWillDisappear", "First.viewDidDisappear", "Detail.viewWillAppear", "Detail.viewDidAppear",
        ])
        #expect(detail.view.frame == Rect(x: 29, y: 0, width: 71, height: 20))
    }

    /// Compact width: one column — the detail chosen, else the list; `back` returns to the
    /// list; widened again, both come back and appear.
    @Test func compactWidthCollapsesToOneColumn() {
        let (window, split, list, _) = make(width: 100)
        let detail = RecordingController("Detail", journal)
        list.showDetailViewController(detail, sender: nil)
        journal.clear()
        window.resize(to: Size(width: 60, height: 20))
        #expect(split.isCollapsed)
        #expect(detail.view.superview === split.view && detail.view.frame == Rect(x: 0, y: 0, width: 60, height: 20))
        #expect(list.appearanceState == .disappeared && detail.appearanceState == .appeared)
        #expect(journal.only("List.view").filter { $0.contains("ppear") } == ["List.viewWillDisappear", "List.viewDidDisappear"])
        var reply: Reply?
        detail.sendRequest(StandardRequest.back) { reply = $0 }
        #expect(reply?.status == .ok)
        #expect(list.appearanceState == .appeared && detail.appearanceState == .disappeared)
        window.resize(to: Size(width: 100, height: 20))
        #expect(!split.isCollapsed && list.appearanceState == .appeared && detail.appearanceState == .appeared)
        #expect(detail.view.frame == Rect(x: 29, y: 0, width: 71, height: 20))
    }

    @Test func collapsedWithNoDetailChosenShowsTheList() {
        let (window, split, list, nav) = make(width: 60, secondary: RecordingController("Placeholder", journal))
        #expect(split.isCollapsed && nav.view.superview === split.view && list.appearanceState == .appeared)
        #expect(split.secondary?.appearanceState == .disappeared)
        #expect(nav.view.frame == Rect(x: 0, y: 0, width: 60, height: 20) && window.size.width == 60)
    }
}
