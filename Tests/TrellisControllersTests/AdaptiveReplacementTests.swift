import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Modal presentation", "Adaptation" (issue 23): the adaptive
/// delegate's `presentationController(_:viewControllerForAdaptivePresentationStyle:)` —
/// documented: "the view controller to display in place of the existing presented view
/// controller" when the style adapts; nil keeps the presented one.
@MainActor
@Suite struct AdaptiveReplacementTests {
    let journal = Journal()

    /// Wraps the presented controller in a navigation controller, as Apple's example does.
    final class Wraps: AdaptivePresentationControllerDelegate {
        var asked: [ModalPresentationStyle] = []
        var wraps = true
        var made: NavigationController?
        func presentationController(_ controller: PresentationController, viewControllerForAdaptivePresentationStyle style: ModalPresentationStyle) -> ViewController? {
            asked.append(style)
            guard wraps else { return nil }
            made = NavigationController(rootViewController: controller.presentedViewController, id: "Nav")
            return made
        }
    }

    func shown(_ root: ViewController, width: Int) -> Window {
        let window = Window(size: Size(width: width, height: 24))
        window.rootViewController = root
        window.makeKeyAndVisible()
        return window
    }

    /// Presented in a compact width, a sheet adapts to full screen and the delegate's
    /// navigation controller is shown in its place: it fills the window with the presented
    /// controller inside, below its bar; the presented controller appears through it (the presenter, adapted, hears nothing), and
    /// its `presentingViewController`, presentation style and `dismiss` work as if shown
    /// itself. Dismissed, it leaves the navigation controller and can be presented again.
    @Test func theDelegatesControllerIsShownInPlaceOfTheAdaptedOne() {
        let a = RecordingController("A", journal)
        let window = shown(a, width: 40)
        let b = RecordingController("B", journal)
        b.modalPresentationStyle = .formSheet
        let delegate = Wraps()
        b.presentationController.delegate = delegate
        journal.clear()
        a.present(b, animated: false)
        let nav = try! #require(delegate.made)
        #expect(delegate.asked == [.fullScreen])
        #expect(a.presentedViewController === nav && window.presentedViewControllers.map(\.id) == ["Nav"])
        #expect(b.parent === nav && b.presentingViewController === a && nav.presentingViewController === a)
        #expect(b.presentationController.presentationStyle == .fullScreen)
        #expect(nav.view.frame == Rect(x: 0, y: 0, width: 40, height: 24))
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 0, y: 1, width: 40, height: 23), "below the navigation bar")
        #expect(journal.only("B.willMove", "B.didMove") == ["B.willMove(toParent: Nav)", "B.didMove(toParent: Nav)"])
        // Adapted, the presenter stays in the window and hears nothing ("Adaptation": chosen).
        #expect(journal.only("A.view", "B.viewWillAppear", "B.viewDidAppear") == ["B.viewWillAppear", "B.viewDidAppear"])
        // Its own dismiss dismisses the presentation.
        journal.clear()
        b.dismiss(animated: false)
        #expect(a.presentedViewController == nil && window.presentedViewControllers.isEmpty)
        #expect(journal.only("A.view", "B.view", "B.willMove", "B.didMove") == [
            "B.viewWillDisappear", "B.viewDidDisappear", "B.willMove(toParent: nil)", "B.didMove(toParent: nil)",
        ])
        #expect(b.parent == nil && b.presentingViewController == nil)
        // Presented again, without the replacement: shown itself, full screen.
        delegate.wraps = false
        a.present(b, animated: false)
        #expect(a.presentedViewController === b && b.presentationController.presentationStyle == .fullScreen)
        #expect(delegate.asked == [.fullScreen, .fullScreen])
        b.dismiss(animated: false)
    }

    /// Not adapted — a regular width, or a style that never adapts — the delegate is not
    /// asked; nor when a shown presentation crosses the boundary (chosen: adapting moves no
    /// controller in or out of the window), where the controller shown stays.
    @Test func theDelegateIsAskedOnlyForAPresentationThatBeginsAdapted() {
        let a = RecordingController("A", journal)
        let window = shown(a, width: 90)
        let b = RecordingController("B", journal)
        b.modalPresentationStyle = .formSheet
        let delegate = Wraps()
        b.presentationController.delegate = delegate
        a.present(b, animated: false)
        #expect(delegate.asked.isEmpty && a.presentedViewController === b)
        window.resize(to: Size(width: 40, height: 24))
        #expect(b.presentationController.presentationStyle == .fullScreen && delegate.asked.isEmpty && a.presentedViewController === b)
        b.dismiss(animated: false)
        // Begun adapted, then regular: the navigation controller stays, as a sheet.
        a.present(b, animated: false)
        let nav = try! #require(delegate.made)
        window.resize(to: Size(width: 90, height: 24))
        #expect(b.presentationController.presentationStyle == .formSheet && a.presentedViewController === nav)
        #expect(nav.view.frame.width == 60, "a sheet: two thirds of the width, with no preferred size")
        nav.dismiss(animated: false)
        #expect(b.parent == nil && a.presentedViewController == nil)
    }
}
