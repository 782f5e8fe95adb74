import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Built-in containers": the navigation stack beyond push and pop —
/// `popToRootViewController`, `popToViewController`, `setViewControllers`.
@MainActor
@Suite struct NavigationStackTests {
    let journal = Journal()

    func controller(_ name: String) -> RecordingController {
        let c = RecordingController(name, journal)
        c.title = name
        return c
    }

    /// Nav ▸ [A, B, C, D…] (the names given), shown, the last on top.
    func stack(_ names: String...) -> (Window, ManualClock, NavigationController, [RecordingController]) {
        let controllers = names.map(controller)
        let nav = NavigationController(rootViewController: controllers[0], id: "Nav")
        for c in controllers.dropFirst() { nav.push(c, animated: false) }
        let window = Window(size: Size(width: 40, height: 10))
        let clock = ManualClock()
        clock.install(on: window)
        window.rootViewController = nav
        window.makeKeyAndVisible()
        journal.clear()
        return (window, clock, nav, controllers)
    }

    func finish(_ window: Window, _ clock: ManualClock) {
        clock.seconds += 0.3
        window.tick()
    }

    /// What each controller heard of its containment and appearance.
    var heard: [String] {
        journal.entries.filter { !$0.hasSuffix("traitCollectionDidChange") && !$0.hasSuffix(".init") && !$0.hasSuffix(".viewDidLoad") }
    }

    @Test func popToRootSlidesTheTopOutAndTheOnesBetweenLeaveUnseen() {
        let (window, clock, nav, c) = stack("A", "B", "C")
        #expect(nav.popToRootViewController(animated: true)?.map(\.id) == ["B", "C"])
        #expect(nav.isTransitioning && nav.topViewController === c[0])
        finish(window, clock)
        #expect(heard == [
            "B.willMove(toParent: nil)", "C.willMove(toParent: nil)",
            "C.viewWillDisappear", "A.viewWillAppear", "C.viewDidDisappear", "A.viewDidAppear",
            "B.didMove(toParent: nil)", "C.didMove(toParent: nil)",
        ])
        #expect(nav.children.map(\.id) == ["A"] && nav.viewControllers.map(\.id) == ["A"])
        #expect(c[0].view.superview === nav.contentView && c[0].view.frame == nav.contentView.bounds)
        #expect(nav.backButton.isHidden && nav.titleLabel.text == "A")
    }

    @Test func popToAControllerInTheMiddleLeavesTheOnesBelowIt() {
        let (window, clock, nav, c) = stack("A", "B", "C", "D")
        #expect(nav.popToViewController(c[1], animated: false)?.map(\.id) == ["C", "D"])
        finish(window, clock)
        #expect(nav.viewControllers.map(\.id) == ["A", "B"])
        #expect(c[1].appearanceState == .appeared && c[3].appearanceState == .disappeared)
        #expect(c[2].parent == nil && c[3].parent == nil)
        #expect(nav.titleLabel.text == "B" && !nav.backButton.isHidden)
        #expect(nav.popToViewController(c[1], animated: false)?.isEmpty == true)   // already on top
    }

    @Test func popToAControllerNotInTheStackStops() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let nav = NavigationController(rootViewController: ViewController(id: "A"), id: "Nav")
                _ = nav.popToViewController(ViewController(id: "X"), animated: false)
            }
        }
    }

    @Test func setViewControllersWithANewTopSlidesItInAsAPush() {
        let (window, clock, nav, c) = stack("A", "B")
        let x = controller("X")
        #expect(nav.setViewControllers([c[0], x], animated: true))
        #expect(x.appearanceState == .appearing && nav.isTransitioning)
        finish(window, clock)
        #expect(heard == [
            "B.willMove(toParent: nil)", "X.willMove(toParent: Nav)",
            "B.viewWillDisappear", "X.viewWillAppear", "B.viewDidDisappear", "X.viewDidAppear",
            "B.didMove(toParent: nil)", "X.didMove(toParent: Nav)",
        ])
        #expect(nav.children.map(\.id) == ["A", "X"])
        #expect(x.view.frame == nav.contentView.bounds)
    }

    @Test func setViewControllersWithATopFromBelowSlidesAsAPop() {
        let (window, clock, nav, c) = stack("A", "B", "C")
        #expect(nav.setViewControllers([c[1], c[0]], animated: true))
        // A was below: it waits a third of the way to the left, C slides out to the right.
        clock.seconds += 0.125
        #expect(window.animator.presentationFrame(of: c[2].view).minX > 0)
        #expect(window.animator.presentationFrame(of: c[0].view).minX < 0)
        finish(window, clock)
        #expect(nav.viewControllers.map(\.id) == ["B", "A"] && c[2].parent == nil)
        #expect(c[0].appearanceState == .appeared && c[2].appearanceState == .disappeared)
    }

    @Test func setViewControllersUnderAnUnchangedTopTellsNoOneToAppear() {
        let (window, clock, nav, c) = stack("A", "B")
        let x = controller("X")
        #expect(nav.setViewControllers([x, c[1]], animated: true))
        #expect(!nav.isTransitioning)
        finish(window, clock)
        #expect(heard == ["A.willMove(toParent: nil)", "X.willMove(toParent: Nav)", "A.didMove(toParent: nil)", "X.didMove(toParent: Nav)"])
        #expect(nav.popViewController(animated: false) === c[1])
        #expect(x.appearanceState == .appeared)
    }

    @Test func aStackWithAControllerTwiceStops() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let a = ViewController(id: "A")
                let nav = NavigationController(rootViewController: a, id: "Nav")
                nav.setViewControllers([a, ViewController(id: "B"), a], animated: false)
            }
        }
    }

    @Test func everyStackChangeIsRefusedWhileASlideRuns() {
        let (window, clock, nav, c) = stack("A", "B")
        nav.push(controller("C"), animated: true)
        let said = diagnostics {
            #expect(nav.popToRootViewController(animated: true) == nil)
            #expect(nav.popToViewController(c[0], animated: true) == nil)
            #expect(!nav.setViewControllers([c[0]], animated: true))
        }
        #expect(said.count == 3 && said.allSatisfy { $0.contains("refused: a transition is in progress") })
        finish(window, clock)
        #expect(nav.viewControllers.map(\.id) == ["A", "B", "C"])
    }
}
