import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "The responder chain" (issues 22 and 23): `next` as UIKit documents it.
@MainActor
@Suite struct ResponderChainTests {
    /// A window showing Parent, whose view holds a panel holding Child's view, whose view
    /// holds a button.
    func tree() -> (Window, parent: ViewController, panel: View, child: ViewController, button: Button) {
        let parent = ViewController(id: "Parent")
        let child = ViewController(id: "Child")
        let panel = View(frame: Rect(x: 2, y: 2, width: 40, height: 10))
        let button = Button(title: "OK", frame: Rect(x: 1, y: 1, width: 6, height: 1))
        let window = Window(size: Size(width: 80, height: 24))
        window.rootViewController = parent
        window.makeKeyAndVisible()
        parent.view.addSubview(panel)
        parent.addChild(child)
        child.view.frame = panel.bounds
        panel.addSubview(child.view)
        child.didMove(toParent: parent)
        child.view.addSubview(button)
        return (window, parent, panel, child, button)
    }

    func chain(from responder: Responder) -> [Responder] {
        var out: [Responder] = []
        var r: Responder? = responder
        while let current = r {
            out.append(current)
            r = current.next
        }
        return out
    }

    @Test func walkingNextFromAChildsViewReachesTheParentAndTheWindow() {
        let (window, parent, panel, child, button) = tree()
        let walked = chain(from: button)
        let expected: [Responder] = [button, child.view, child, panel, parent.view, parent, window.rootView]
        #expect(walked.count == expected.count)
        #expect(zip(walked, expected).allSatisfy { $0 === $1 })
        #expect((walked.last as? WindowRootView)?.window === window)
    }

    @Test func aControllersRootViewHandsOnToTheControllerAndTheControllerToItsViewsSuperview() {
        let (_, _, panel, child, _) = tree()
        #expect(child.view.next === child)
        #expect(child.next === panel)
    }

    @Test func aChildWhoseViewIsNotShownHandsOnToItsParent() {
        let (_, parent, _, child, _) = tree()
        let hidden = ViewController(id: "Unshown")
        parent.addChild(hidden)
        hidden.didMove(toParent: parent)
        #expect(hidden.next === parent)
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        #expect(child.next == nil)
    }

    @Test func aChildOfAParentInAnotherProcessHandsOnToTheParentsProxy() {
        // In a child's host the child's root view sits in the host's window; the parent is
        // a proxy for a controller behind a link.
        final class NoPort: RemotePort {
            func exchange(_ message: Message, from source: ControllerID, to target: ControllerID) -> Reply? { nil }
        }
        let proxy = ParentProxy(id: "Remote", port: NoPort())
        let child = ViewController(id: "Hosted")
        let window = Window(size: Size(width: 20, height: 5))
        window.host(proxy)
        proxy.adopt(child)
        window.rootView.addSubview(child.view)
        #expect(child.next === proxy)
    }

    @Test func touchesStillEndAtTheControllerAndContinueInTheParentsTree() {
        // S0-3's rule is unchanged by `next` going on past the controller: the child's tree
        // declines, and the parent's tree continues from the viewport's superview.
        final class Catcher: View {
            var caught = 0
            override func touchesBegan(_ touches: Set<Touch>) { caught += 1 }
        }
        let (window, parent, panel, child, _) = tree()
        panel.removeFromSuperview()
        let catcher = Catcher(frame: panel.frame)
        parent.view.addSubview(catcher)
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        parent.addChild(child)
        child.view.frame = catcher.bounds
        catcher.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(window.touch(.began, at: Point(x: 10, y: 8)))
        #expect(catcher.caught == 1)
    }
}
