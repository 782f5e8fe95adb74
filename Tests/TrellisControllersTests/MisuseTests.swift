import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Misuse": where UIKit raises, Trellis stops with a message that
/// names the controllers and says what to do instead.
@MainActor
@Suite struct MisuseTests {
    /// A precondition stops the process: run in a process of its own (an exit test), and
    /// read what it said on standard error.
    @Test func pushingAControllerAlreadyInTheStackStopsWithUIKitsMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let a = ViewController(id: "A")
                let nav = NavigationController(rootViewController: a, id: "Nav")
                nav.push(ViewController(id: "B"), animated: false)
                nav.push(a, animated: false)
            }
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("Nav: pushing A, which is already in the stack, is not supported"))
        #expect(said.contains("Pushing the same view controller instance more than once is not supported"))
    }

    @Test func pushingTheTopControllerAgainStopsToo() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let a = ViewController(id: "A")
                let nav = NavigationController(rootViewController: a, id: "Nav")
                nav.push(a, animated: false)
            }
        }
    }

    final class ManualContainer: ViewController {
        override var shouldAutomaticallyForwardAppearanceMethods: Bool { false }
    }

    @Test func transitionOnAContainerThatForwardsAppearanceByHandIsRefused() {
        let parent = ManualContainer(id: "M")
        let window = Window(size: Size(width: 40, height: 10))
        window.rootViewController = parent
        window.makeKeyAndVisible()
        let a = ViewController(id: "A"), b = ViewController(id: "B")
        parent.addChild(a)
        parent.view.addSubview(a.view)
        a.didMove(toParent: parent)
        parent.addChild(b)
        var completed = false
        #expect {
            try parent.transition(from: a, to: b, duration: 0, animations: nil, completion: { _ in completed = true })
        } throws: { error in
            let message = (error as? ContainmentError)?.message ?? ""
            return message.contains("M forwards appearance to its children by hand")
                && message.contains("beginAppearanceTransition")
        }
        // Nothing changed: A still shown, B's view never added, no completion.
        #expect(a.view.superview === parent.view && b.viewIfLoaded?.superview == nil)
        #expect(!completed && !parent.isRunningTransition)
    }
}
