import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Containment": `isMovingToParent` / `isMovingFromParent`, as the
/// appearance callbacks read them.
@MainActor
@Suite struct MovingFlagsTests {
    /// Notes, in each appearance callback, which flags were set.
    final class FlagReader: ViewController {
        var seen: [String] = []
        func note(_ callback: String) {
            seen.append(callback + (isMovingToParent ? " toParent" : "") + (isMovingFromParent ? " fromParent" : ""))
        }
        override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); note("willAppear") }
        override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); note("didAppear") }
        override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); note("willDisappear") }
        override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); note("didDisappear") }
    }

    func shown(_ root: ViewController) -> (Window, ManualClock) {
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = root
        window.makeKeyAndVisible()
        return (window, clock)
    }

    @Test func aPushedControllerIsMovingToItsParentWhileItAppears() {
        let a = FlagReader(id: "A")
        let nav = NavigationController(rootViewController: a, id: "Nav")
        let (window, clock) = shown(nav)
        a.seen = []
        let b = FlagReader(id: "B")
        nav.push(b, animated: true)
        clock.seconds += 0.3
        window.tick()
        #expect(b.seen == ["willAppear toParent", "didAppear toParent"])
        #expect(a.seen == ["willDisappear", "didDisappear"])   // covered, not removed
        #expect(!b.isMovingToParent)

        a.seen = []
        b.seen = []
        nav.popViewController(animated: true)
        clock.seconds += 0.3
        window.tick()
        #expect(b.seen == ["willDisappear fromParent", "didDisappear fromParent"])
        #expect(a.seen == ["willAppear", "didAppear"])
        #expect(!b.isMovingFromParent)
    }

    @Test func aChildAddedToAShownParentIsMovingToItWhileItAppears() {
        let parent = ViewController(id: "P")
        _ = shown(parent)
        let child = FlagReader(id: "C")
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(child.seen == ["willAppear toParent", "didAppear toParent"])
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        #expect(child.seen.suffix(2) == ["willDisappear fromParent", "didDisappear fromParent"])
    }

    /// Embedded in `viewDidLoad`, the child's `didMove` comes before the parent appears:
    /// it appears with its parent, not because it moved.
    @Test func aChildThatAppearsWithItsParentIsNotMoving() {
        let child = FlagReader(id: "C")
        let parent = ViewController(id: "P")
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        _ = shown(parent)
        #expect(child.seen == ["willAppear", "didAppear"])
    }

    @Test func aTabSwitchMovesNobody() {
        let a = FlagReader(id: "A"), b = FlagReader(id: "B")
        let tabs = TabBarController(id: "Tabs")
        tabs.viewControllers = [a, b]
        _ = shown(tabs)
        tabs.selectedIndex = 1
        #expect(a.seen == ["willAppear", "didAppear", "willDisappear", "didDisappear"])
        #expect(b.seen == ["willAppear", "didAppear"])
    }
}
