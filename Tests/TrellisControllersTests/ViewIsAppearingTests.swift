import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "viewIsAppearing" (issue 23). Documented (`viewIsAppearing(_:)`): called
/// once per appearance after `viewWillAppear`, once the view is in the view hierarchy and
/// its superview has laid it out, with traits and geometry up to date; `viewDidAppear` after.
@MainActor
@Suite struct ViewIsAppearingTests {
    let journal = Journal()
    let clock = ManualClock()

    /// Writes what it finds in `viewIsAppearing`: in a window or not, its size, its traits.
    final class Seeing: RecordingController {
        override func viewIsAppearing(_ animated: Bool) {
            super.viewIsAppearing(animated)
            let inWindow = view.focusSystem != nil
            journal.add("\(name).viewIsAppearing inWindow:\(inWindow) \(view.bounds.width)×\(view.bounds.height) h:\(traitCollection.horizontalSizeClass)")
        }
    }

    func entries(_ name: String) -> [String] {
        journal.only("\(name).view").filter { $0.contains("ppear") }
    }

    @Test func theRootSeesItselfInTheWindowAndLaidOutBetweenWillAndDid() {
        let window = Window(size: Size(width: 90, height: 20))
        window.rootViewController = Seeing("A", journal)
        window.makeKeyAndVisible()
        #expect(entries("A") == [
            "A.viewWillAppear", "A.viewIsAppearing inWindow:true 90×20 h:regular", "A.viewDidAppear",
        ])
    }

    /// A pushed controller sees its final frame, below the bar, once per appearance; a pop
    /// back to it is a new appearance.
    @Test(arguments: [false, true])
    func aPushedControllerSeesItsFinalFrame(animated: Bool) {
        let window = Window(size: Size(width: 40, height: 10))
        clock.install(on: window)
        let nav = NavigationController(rootViewController: Seeing("A", journal), id: "Nav")
        window.rootViewController = nav
        window.makeKeyAndVisible()
        journal.clear()
        nav.push(Seeing("B", journal), animated: animated)
        clock.seconds += 0.3
        window.tick()
        #expect(entries("B") == ["B.viewWillAppear", "B.viewIsAppearing inWindow:true 40×9 h:compact", "B.viewDidAppear"])
        nav.popViewController(animated: animated)
        clock.seconds += 0.3
        window.tick()
        #expect(entries("A").filter { $0.contains("IsAppearing") } == ["A.viewIsAppearing inWindow:true 40×9 h:compact"])
    }

    /// A cancelled disappearance (rule 5) ends in an appearance: it is told it is appearing.
    @Test func aCancelledDisappearanceStillSaysItIsAppearing() {
        let window = Window(size: Size(width: 40, height: 10))
        window.rootViewController = Seeing("A", journal)
        window.makeKeyAndVisible()
        let a = window.rootViewController!
        journal.clear()
        a.beginAppearanceTransition(false, animated: false)
        a.beginAppearanceTransition(true, animated: false)
        a.endAppearanceTransition()
        #expect(entries("A") == ["A.viewWillDisappear", "A.viewWillAppear", "A.viewIsAppearing inWindow:true 40×10 h:compact", "A.viewDidAppear"])
    }
}
