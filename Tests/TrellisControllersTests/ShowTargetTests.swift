import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Showing without knowing the container" (issue 23). Documented
/// (`show(_:sender:)`, `showDetailViewController(_:sender:)`): the default finds the
/// controller that handles the action with `targetViewController(forAction:sender:)` and
/// calls it there; a navigation controller pushes for `show`; with no target, the
/// controller is presented modally.
@MainActor
@Suite struct ShowTargetTests {
    let clock = ManualClock()

    func shown(_ root: ViewController) -> Window {
        let window = Window(size: Size(width: 40, height: 12))
        clock.install(on: window)
        window.rootViewController = root
        window.makeKeyAndVisible()
        return window
    }

    func settle(_ window: Window) {
        clock.seconds += 0.3
        window.tick()
    }

    /// A detail column of its own: handles `showDetail` by putting the controller there.
    final class Detailing: ViewController, ShowTarget {
        var detail: ViewController?
        func canPerformShow(_ action: ShowAction) -> Bool { action == .showDetail }
        func performShow(_ action: ShowAction, _ controller: ViewController, sender: Any?) { detail = controller }
    }

    /// Tabs ▸ Nav ▸ List: the list shows a detail and the navigation controller pushes it.
    @Test func showFromInsideANavigationControllerPushes() {
        let list = ViewController(id: "List")
        let nav = NavigationController(rootViewController: list, id: "Nav")
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [nav]
        let window = shown(tabs)
        #expect(list.targetViewController(forAction: .show, sender: nil) === nav)
        let detail = ViewController(id: "Detail")
        list.show(detail, sender: list)
        settle(window)
        #expect(nav.topViewController === detail && detail.appearanceState == .appeared)
        #expect(window.presentedViewControllers.isEmpty)
    }

    /// Nothing handles it: presented modally, from the root of the caller's layer.
    @Test func showWithNoContainerPresents() {
        let root = ViewController(id: "Root")
        let child = ViewController(id: "Child")
        let window = shown(root)
        root.addChild(child)
        root.view.addSubview(child.view)
        child.didMove(toParent: root)
        #expect(child.targetViewController(forAction: .show, sender: nil) == nil)
        let detail = ViewController(id: "Detail")
        child.show(detail, sender: nil)
        settle(window)
        #expect(window.presentedViewControllers.map(\.id) == ["Detail"])
        #expect(detail.presentingViewController === root && detail.appearanceState == .appeared)
    }

    /// A navigation controller does not handle `showDetail` (UIKit's does not override it):
    /// the nearest container that does gets it; with none, it is presented.
    @Test func showDetailGoesToTheNearestContainerThatHandlesDetails() {
        let list = ViewController(id: "List")
        let nav = NavigationController(rootViewController: list, id: "Nav")
        let split = Detailing(id: "Split")
        let window = shown(split)
        split.addChild(nav)
        split.view.addSubview(nav.view)
        nav.didMove(toParent: split)
        #expect(list.targetViewController(forAction: .showDetail, sender: nil) === split)
        let detail = ViewController(id: "Detail")
        list.showDetailViewController(detail, sender: nil)
        #expect(split.detail === detail && nav.topViewController === list)
        // Without one: presented.
        let alone = NavigationController(rootViewController: ViewController(id: "Top"), id: "Alone")
        let other = shown(alone)
        alone.topViewController!.showDetailViewController(ViewController(id: "D2"), sender: nil)
        settle(other)
        #expect(other.presentedViewControllers.map(\.id) == ["D2"])
        _ = window
    }

    /// Across a presentation: a controller in a presented navigation controller pushes there;
    /// one in a presented controller with no container finds the one it covers.
    @Test func theSearchGoesOnFromAPresentedControllerToTheOneItCovers() {
        let root = ViewController(id: "Root")
        let nav = NavigationController(rootViewController: root, id: "Nav")
        let window = shown(nav)
        let sheet = ViewController(id: "Sheet")
        root.present(sheet, animated: false)
        #expect(sheet.targetViewController(forAction: .show, sender: nil) === nav)
        let presentedNav = NavigationController(rootViewController: ViewController(id: "Inner"), id: "PresentedNav")
        sheet.dismiss(animated: false)
        root.present(presentedNav, animated: false)
        presentedNav.topViewController!.show(ViewController(id: "Deeper"), sender: nil)
        settle(window)
        #expect(presentedNav.topViewController?.id == "Deeper" && nav.topViewController === root)
    }
}
