import Testing
import TrellisCanvas
import TrellisControllers
import TrellisViews

/// `View.hasOwner`, which the tree's walks read instead of loading the weak `owner` (a
/// runtime call and a retain and release each: docs/BENCHMARKS.md, e2e, "Where a tab
/// switch waits"), says what `owner` says: set by the controller that loads or takes the
/// view, cleared when that controller gives the view up or goes away.
@MainActor
@Suite struct ViewOwnerTests {
    @Test func aViewThatOutlivesItsControllerHasNoOwner() {
        let container = View(frame: Rect(x: 0, y: 0, width: 10, height: 5))
        var controller: ViewController? = ViewController()
        let view = controller!.view
        container.addSubview(view)
        let inside = View()
        view.addSubview(inside)
        #expect(view.hasOwner && view.owner === controller)
        #expect(inside.layoutRoot === view)
        controller = nil
        #expect(view.owner == nil && !view.hasOwner)
        // The walk up no longer stops at a domain nobody owns.
        #expect(inside.layoutRoot === container)
    }

    @Test func aViewTakenByAnotherControllerKeepsItsNewOwnerWhenTheFirstGoes() {
        var first: ViewController? = ViewController()
        let view = first!.view
        let second = ViewController()
        second.view = view
        first = nil
        #expect(view.owner === second && view.hasOwner)
    }

    @Test func aViewGivenUpHasNoOwner() {
        let controller = ViewController()
        let old = controller.view
        controller.view = View()
        #expect(old.owner == nil && !old.hasOwner)
        #expect(controller.view.hasOwner)
    }
}
