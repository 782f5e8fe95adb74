import Testing
import TrellisCanvas
import TrellisControllers
import TrellisViews
import TrellisWire

// A controller's root view is a layout domain of its own (docs/VIEWS.md): these check
// that the domain is laid out when it joins a tree late and re-solved when the parent
// resizes it — both found by the demo (a tab shown after the first layout; a child
// pinned by constraints in its parent, as every child in another process is).

@MainActor
@Suite struct LayoutDomainTests {
    /// A child whose label fills its root view by constraints.
    func child(_ id: ControllerID) -> (ViewController, Label) {
        let c = ViewController(id: id)
        let label = Label("inside")
        c.view.addSubview(label)
        label.pinEdges(to: c.view)
        return (c, label)
    }

    @Test func aChildViewSizedOffScreenIsLaidOutWhenItJoinsALaidOutTree() {
        let window = Window(size: Size(width: 40, height: 10))
        let parent = ViewController(id: "P")
        window.rootViewController = parent
        window.makeKeyAndVisible()
        window.rootView.layoutIfNeeded()

        let (c, label) = child("C")
        c.view.frame = Rect(x: 0, y: 0, width: 20, height: 5)
        parent.addChild(c)
        parent.view.addSubview(c.view)
        c.didMove(toParent: parent)
        window.rootView.layoutIfNeeded()
        #expect(label.frame == Rect(x: 0, y: 0, width: 20, height: 5))
    }

    @Test func aChildPinnedByItsParentsConstraintsIsReSolvedWhenResized() {
        let window = Window(size: Size(width: 40, height: 10))
        let parent = ViewController(id: "P")
        let (c, label) = child("C")
        parent.addChild(c)
        parent.view.addSubview(c.view)
        c.view.pinEdges(to: parent.view, insets: 1)
        c.didMove(toParent: parent)
        window.rootViewController = parent
        window.makeKeyAndVisible()
        window.rootView.layoutIfNeeded()
        #expect(label.frame == Rect(x: 0, y: 0, width: 38, height: 8))

        window.resize(to: Size(width: 60, height: 20))
        #expect(c.view.frame == Rect(x: 1, y: 1, width: 58, height: 18))
        #expect(label.frame == Rect(x: 0, y: 0, width: 58, height: 18))
    }
}
