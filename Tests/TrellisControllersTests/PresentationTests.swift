import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisViews
import TrellisWire

/// docs/LIFECYCLE.md, "Modal presentation" (issue 23): `present` / `dismiss`, the styles,
/// the presentation context, the callbacks each style gives, and a modal taking the
/// window's input.
@MainActor
@Suite struct PresentationTests {
    let journal = Journal()
    /// Held here: the animator reads it unowned.
    let clock = ManualClock()

    /// Records whether it was being presented or dismissed in each appearance callback.
    final class Flagged: RecordingController {
        var flags: [String] = []
        override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); flags.append("willAppear presented:\(isBeingPresented)") }
        override func viewDidAppear(_ animated: Bool) { super.viewDidAppear(animated); flags.append("didAppear presented:\(isBeingPresented)") }
        override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); flags.append("willDisappear dismissed:\(isBeingDismissed)") }
        override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); flags.append("didDisappear dismissed:\(isBeingDismissed)") }
    }

    /// A controller whose view is filled with one letter, so the screen shows whose it is.
    final class Filled: RecordingController {
        let letter: Character
        init(_ name: String, _ journal: Journal, letter: Character) {
            self.letter = letter
            super.init(name, journal)
        }
        override func loadView() { view = FillView(letter) }
    }

    final class FillView: View {
        var letter: Character = " "
        convenience init(_ letter: Character) {
            self.init(frame: .zero)
            self.letter = letter
        }
        override func draw(in surface: inout Surface) {
            super.draw(in: &surface)
            for y in 0..<bounds.height {
                surface.put(String(repeating: letter, count: bounds.width), at: Point(x: 0, y: y), style: style)
            }
        }
    }

    /// Keeps a sheet a sheet in these tests' compact windows (fewer than 80 columns), where
    /// it would otherwise cover the window ("Adaptation").
    final class KeepsSheets: AdaptivePresentationControllerDelegate {
        var asked: [TraitCollection.SizeClass] = []
        func adaptivePresentationStyle(for controller: PresentationController, traitCollection: TraitCollection) -> ModalPresentationStyle {
            asked.append(traitCollection.horizontalSizeClass)
            return .none
        }
    }
    let keepsSheets = KeepsSheets()

    func shown(_ root: ViewController, size: Size = Size(width: 30, height: 12)) -> (Window, ManualClock) {
        let window = Window(size: size)
        clock.install(on: window)
        window.rootViewController = root
        window.makeKeyAndVisible()
        return (window, clock)
    }

    var appearance: [String] {
        journal.entries.filter { $0.hasSuffix("Appear") || $0.hasSuffix("Disappear") }
    }

    // MARK: - Styles and their callbacks

    /// Observed order: the covered controller's will, the presented one's will, the
    /// presented one's did, then the covered one's did; dismissal mirrors it. Full screen
    /// takes the presenter's view out of the window (documented: `.fullScreen` removes the
    /// views beneath; `.overFullScreen` is documented as the style that does not).
    @Test func fullScreenTakesThePresenterOutAndGivesItsDisappearCallbacks() {
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        let b = Filled("B", journal, letter: "b")
        b.modalPresentationStyle = .fullScreen
        journal.clear()
        var completed = false
        a.present(b, animated: false) { completed = true }
        #expect(appearance == ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear", "A.viewDidDisappear"])
        #expect(completed)
        #expect(a.viewIfLoaded?.superview == nil && a.appearanceState == .disappeared)
        #expect(a.presentedViewController === b && b.presentingViewController === a)
        #expect(window.screenText.split(separator: "\n").allSatisfy { $0.allSatisfy { $0 == "b" } })
        journal.clear()
        a.dismiss(animated: false)
        #expect(appearance == ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidAppear", "B.viewDidDisappear"])
        #expect(a.view.superview === window.rootView && a.appearanceState == .appeared)
        #expect(a.presentedViewController == nil && b.presentingViewController == nil && b.viewIfLoaded?.superview == nil)
        #expect(window.screenText.split(separator: "\n").allSatisfy { $0.allSatisfy { $0 == "a" } })
    }

    /// Documented: with `.overFullScreen`, `.overCurrentContext` and the sheets the views
    /// beneath stay in the window, so the presenter gets no appearance callbacks.
    @Test(arguments: [ModalPresentationStyle.overFullScreen, .overCurrentContext, .formSheet, .automatic])
    func stylesThatLeaveThePresenterShownGiveItNoCallbacks(style: ModalPresentationStyle) {
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        defer { withExtendedLifetime(window) {} }
        let b = RecordingController("B", journal)
        b.modalPresentationStyle = style
        journal.clear()
        a.present(b, animated: false)
        #expect(appearance == ["B.viewWillAppear", "B.viewDidAppear"])
        #expect(a.view.superview != nil && a.appearanceState == .appeared)
        journal.clear()
        b.dismiss(animated: false)
        #expect(appearance == ["B.viewWillDisappear", "B.viewDidDisappear"])
        #expect(a.appearanceState == .appeared && b.appearanceState == .disappeared)
    }

    /// Documented (`.formSheet`): the content centred on the screen, at its
    /// `preferredContentSize`; what lies beneath shows around it.
    @Test func aSheetIsCentredAtItsPreferredSizeWithThePresenterAroundIt() {
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        let b = Filled("B", journal, letter: "b")
        b.modalPresentationStyle = .formSheet
        b.preferredContentSize = Size(width: 10, height: 4)
        b.presentationController.delegate = keepsSheets
        a.present(b, animated: false)
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 10, y: 4, width: 10, height: 4))
        let rows = window.screenText.split(separator: "\n").map(String.init)
        #expect(rows[0] == String(repeating: "a", count: 30))
        #expect(rows[5] == String(repeating: "a", count: 10) + String(repeating: "b", count: 10) + String(repeating: "a", count: 10))
        // A resize centres it again, and it hears the transition.
        window.resize(to: Size(width: 40, height: 20))
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 15, y: 8, width: 10, height: 4))
    }

    // MARK: - Adaptation

    /// LIFECYCLE.md, "Adaptation" (documented: a horizontally compact environment presents
    /// full screen; chosen: only the presented view's frame changes): a form sheet in a
    /// compact width covers the window, a resize into a regular width makes it a sheet
    /// again — a size transition at its new size — and back; the presenter hears nothing.
    @Test func aFormSheetInACompactWidthCoversTheWindowAndAdaptsBack() {
        final class Sizes: RecordingController {
            var sizes: [Size] = []
            override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
                sizes.append(size)
                super.viewWillTransition(to: size, with: coordinator)
            }
        }
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a, size: Size(width: 40, height: 12))
        let b = Sizes("B", journal)
        b.modalPresentationStyle = .formSheet
        b.preferredContentSize = Size(width: 10, height: 4)
        #expect(b.presentationController.presentationStyle == .formSheet, "not presented: the style it would have")
        journal.clear()
        a.present(b, animated: false)
        #expect(b.presentationController.presentationStyle == .fullScreen)
        #expect(b.presentationController.presentingViewController === a)
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 0, y: 0, width: 40, height: 12))
        #expect(a.view.superview != nil, "adapted, the presenter's views stay in the window")
        window.resize(to: Size(width: 90, height: 24))
        #expect(b.presentationController.presentationStyle == .formSheet)
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 40, y: 10, width: 10, height: 4))
        window.resize(to: Size(width: 60, height: 24))
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 0, y: 0, width: 60, height: 24))
        #expect(b.sizes == [Size(width: 10, height: 4), Size(width: 60, height: 24)])
        #expect(appearance == ["B.viewWillAppear", "B.viewDidAppear"], "adapting moves no controller")
        // An alert keeps its look in every size class.
        b.dismiss(animated: false)
        let alert = AlertController(title: "T", message: nil)
        alert.addAction(AlertAction(title: "OK", style: .default))
        a.present(alert, animated: false)
        #expect(alert.presentationController.presentationStyle == .formSheet)
        #expect(alert.view.frame.width < 60)
    }

    /// Documented (`adaptivePresentationStyle(for:traitCollection:)`): the delegate is asked
    /// in the compact width; `.none` keeps the sheet, `.overFullScreen` is taken, and an
    /// answer that is no full-screen style counts as `.none`.
    @Test func aDelegateThatAnswersNoneKeepsTheSheet() {
        final class Answers: AdaptivePresentationControllerDelegate {
            var answer: ModalPresentationStyle = .none
            func adaptivePresentationStyle(for controller: PresentationController, traitCollection: TraitCollection) -> ModalPresentationStyle { answer }
        }
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        defer { withExtendedLifetime(window) {} }
        let delegate = Answers()
        for (answer, shownAs) in [(ModalPresentationStyle.none, ModalPresentationStyle.formSheet), (.overFullScreen, .overFullScreen),
                                  (.overCurrentContext, .formSheet)] {
            let b = ViewController(id: "B")
            b.modalPresentationStyle = .formSheet
            b.presentationController.delegate = delegate
            delegate.answer = answer
            a.present(b, animated: false)
            #expect(b.presentationController.presentationStyle == shownAs, "\(answer)")
            b.dismiss(animated: false)
        }
        let d = ViewController(id: "D")
        d.modalPresentationStyle = .overCurrentContext
        d.presentationController.delegate = keepsSheets
        a.present(d, animated: false)
        #expect(keepsSheets.asked.isEmpty, "only a sheet adapts: the delegate is not asked for another style")
    }

    // MARK: - Dismissed by the person

    /// Records what the delegate is told about the person's dismissals.
    final class Told: AdaptivePresentationControllerDelegate {
        var told: [String] = []
        var allows = true
        func adaptivePresentationStyle(for controller: PresentationController, traitCollection: TraitCollection) -> ModalPresentationStyle { .none }
        func presentationControllerShouldDismiss(_ controller: PresentationController) -> Bool { told.append("should"); return allows }
        func presentationControllerWillDismiss(_ controller: PresentationController) { told.append("will") }
        func presentationControllerDidDismiss(_ controller: PresentationController) { told.append("did") }
        func presentationControllerDidAttemptToDismiss(_ controller: PresentationController) { told.append("attempt") }
    }

    /// Documented (`presentationControllerShouldDismiss`, `WillDismiss`, `DidDismiss`,
    /// `DidAttemptToDismiss`, `isModalInPresentation`; "not called if the presentation is
    /// dismissed programmatically"); chosen: Escape that the sheet's tree did not take is
    /// the swipe down, for a sheet only.
    @Test func escapeDismissesASheetAsThePersonsDismissal() {
        let a = Filled("A", journal, letter: "a")
        let (window, clock) = shown(a)
        let told = Told()
        let b = ViewController(id: "B")
        b.presentationController.delegate = told
        a.present(b, animated: false)
        // Refused while modal in presentation: the delegate hears of the attempt only.
        b.isModalInPresentation = true
        #expect(window.key(.escape) == .handled)
        #expect(told.told == ["attempt"] && a.presentedViewController === b)
        b.isModalInPresentation = false
        told.allows = false
        #expect(window.key(.escape) == .handled)
        #expect(told.told == ["attempt", "should", "attempt"] && a.presentedViewController === b)
        told.allows = true
        told.told = []
        #expect(window.key(.escape) == .handled)
        #expect(told.told == ["should", "will"], "did waits for the slide")
        clock.seconds += 1
        window.tick()
        #expect(told.told == ["should", "will", "did"] && a.presentedViewController == nil)
        // Dismissed by code: the delegate hears nothing.
        told.told = []
        a.present(b, animated: false)
        a.dismiss(animated: false)
        #expect(told.told.isEmpty)
        // A full-screen presentation is not the person's to dismiss: Escape is unhandled.
        let c = ViewController(id: "C")
        c.modalPresentationStyle = .fullScreen
        c.presentationController.delegate = told
        a.present(c, animated: false)
        #expect(window.key(.escape) != .handled)
        #expect(told.told.isEmpty && a.presentedViewController === c)
    }

    /// A key the sheet's tree takes is not a dismissal: Escape bound by the sheet runs its own command.
    @Test func escapeTheSheetTakesIsNotADismissal() {
        final class TakesEscape: ViewController {
            var escapes = 0
            override var keyCommands: [KeyCommand] { [KeyCommand(Key(.escape), title: "Back") { [unowned self] in escapes += 1 }] }
        }
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        let b = TakesEscape(id: "B")
        a.present(b, animated: false)
        #expect(window.key(.escape) == .handled)
        #expect(b.escapes == 1 && a.presentedViewController === b)
    }

    /// Documented (`definesPresentationContext`, `.overCurrentContext`): UIKit walks up from
    /// the presenter to the first controller that defines the context and covers its view;
    /// `presentedViewController` answers for descendants, `presentingViewController` is
    /// the one covered.
    @Test func overCurrentContextCoversTheNearestAncestorThatDefinesTheContext() {
        let root = ViewController(id: "Root")
        let context = ViewController(id: "Context")
        let inner = ViewController(id: "Inner")
        let (window, _) = shown(root)
        root.addChild(context)
        context.view.frame = Rect(x: 2, y: 3, width: 12, height: 5)
        root.view.addSubview(context.view)
        context.didMove(toParent: root)
        context.addChild(inner)
        inner.view.frame = Rect(x: 1, y: 1, width: 4, height: 2)
        context.view.addSubview(inner.view)
        inner.didMove(toParent: context)
        context.definesPresentationContext = true
        let b = RecordingController("B", journal)
        b.modalPresentationStyle = .overCurrentContext
        inner.present(b, animated: false)
        window.rootView.layoutIfNeeded()
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 2, y: 3, width: 12, height: 5))
        #expect(b.presentingViewController === context)
        #expect(inner.presentedViewController === b && context.presentedViewController === b)
        #expect(root.presentedViewController == nil)
        // Without a controller that defines it, the context is the root of the layer.
        b.dismiss(animated: false)
        context.definesPresentationContext = false
        inner.present(b, animated: false)
        #expect(b.presentingViewController === root)
        #expect(b.view.convert(b.view.bounds, to: nil) == Rect(x: 0, y: 0, width: 30, height: 12))
    }

    /// UIKit: `isBeingPresented` in the presented controller's appear callbacks,
    /// `isBeingDismissed` in its disappear callbacks.
    @Test func thePresentedControllerKnowsItIsBeingPresentedAndDismissed() {
        let a = ViewController(id: "A")
        let (window, _) = shown(a)
        defer { withExtendedLifetime(window) {} }
        let b = Flagged("B", journal)
        a.present(b, animated: false)
        #expect(!b.isBeingPresented)
        b.dismiss(animated: false)
        #expect(!b.isBeingDismissed)
        #expect(b.flags == [
            "willAppear presented:true", "didAppear presented:true",
            "willDisappear dismissed:true", "didDisappear dismissed:true",
        ])
    }

    /// An animated presentation slides up over `presentationDuration`; the dids and the
    /// completion come when it is over, and the presented view is laid out by then.
    @Test func anAnimatedPresentationEndsWithItsDidsAfterTheSlide() {
        let a = Filled("A", journal, letter: "a")
        let (window, clock) = shown(a)
        let b = Filled("B", journal, letter: "b")
        b.modalPresentationStyle = .fullScreen
        journal.clear()
        var completed = false
        a.present(b, animated: true) { completed = true }
        #expect(appearance == ["A.viewWillDisappear", "B.viewWillAppear"])
        #expect(!completed && b.isBeingPresented)
        clock.seconds += 0.125
        #expect(window.animator.presentationFrame(of: b.view).minY > 0)
        // Meanwhile another presentation is refused, as UIKit warns.
        let refused = diagnostics { a.present(ViewController(id: "C"), animated: false) }
        #expect(refused.first?.contains("in progress") == true)
        clock.seconds += 0.2
        window.tick()
        #expect(appearance == ["A.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear", "A.viewDidDisappear"])
        #expect(completed && !b.isBeingPresented)
        // A dismissal asked while the presentation slides waits for its end (chosen: a click
        // on a button of a sheet still sliding in is not lost).
        a.dismiss(animated: false)
        a.present(b, animated: true)
        a.dismiss(animated: false)
        #expect(window.presentedViewControllers.map(\.id) == ["B"])
        clock.seconds += 0.3
        window.tick()
        #expect(window.presentedViewControllers.isEmpty && a.appearanceState == .appeared)
        a.present(b, animated: true)
        clock.seconds += 0.3
        window.tick()
        journal.clear()
        a.dismiss(animated: true)
        #expect(appearance == ["B.viewWillDisappear", "A.viewWillAppear"])
        clock.seconds += 0.3
        window.tick()
        #expect(appearance == ["B.viewWillDisappear", "A.viewWillAppear", "A.viewDidAppear", "B.viewDidDisappear"])
    }

    // MARK: - Chains

    /// Documented (`dismiss(animated:completion:)`): dismissing from a controller lower in
    /// the stack dismisses its immediate presented controller and all above it; called on
    /// the presented controller, the presenter dismisses it.
    @Test func dismissingAPresenterDismissesEverythingAboveIt() {
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        let b = RecordingController("B", journal)
        b.modalPresentationStyle = .overFullScreen
        let c = RecordingController("C", journal)
        c.modalPresentationStyle = .formSheet
        a.present(b, animated: false)
        b.present(c, animated: false)
        #expect(window.presentedViewControllers.map(\.id) == ["B", "C"])
        #expect(c.presentingViewController === b && b.presentedViewController === c)
        journal.clear()
        var completed = false
        a.dismiss(animated: false) { completed = true }
        #expect(appearance == ["C.viewWillDisappear", "B.viewWillDisappear", "C.viewDidDisappear", "B.viewDidDisappear"])
        #expect(completed && window.presentedViewControllers.isEmpty && a.presentedViewController == nil)
        // On the presented controller itself: only it goes.
        a.present(b, animated: false)
        b.present(c, animated: false)
        c.dismiss(animated: false)
        #expect(window.presentedViewControllers.map(\.id) == ["B"])
    }

    /// A full-screen presentation over an over-full-screen one takes both layers beneath
    /// out of the window; dismissing it brings them back in their order, each appearing.
    @Test func aFullScreenPresentationCoversEveryLayerBeneathAndGivesThemBack() {
        let a = Filled("A", journal, letter: "a")
        let (window, _) = shown(a)
        let b = Filled("B", journal, letter: "b")
        b.modalPresentationStyle = .formSheet
        b.presentationController.delegate = keepsSheets
        let c = Filled("C", journal, letter: "c")
        c.modalPresentationStyle = .fullScreen
        a.present(b, animated: false)
        journal.clear()
        b.present(c, animated: false)
        #expect(appearance == [
            "A.viewWillDisappear", "B.viewWillDisappear", "C.viewWillAppear", "C.viewDidAppear",
            "A.viewDidDisappear", "B.viewDidDisappear",
        ])
        #expect(window.rootView.subviews.count == 1)
        journal.clear()
        c.dismiss(animated: false)
        #expect(appearance == [
            "C.viewWillDisappear", "A.viewWillAppear", "B.viewWillAppear", "A.viewDidAppear", "B.viewDidAppear",
            "C.viewDidDisappear",
        ])
        let rows = window.screenText.split(separator: "\n").map(String.init)
        #expect(rows[0].allSatisfy { $0 == "a" } && rows[6].contains("b"))
    }

    // MARK: - Input

    /// A modal takes the window's touches and keys: a tap beside a sheet reaches nothing
    /// beneath it, a tap on it reaches its button, a key command of the presenter does not
    /// run, Tab moves only among the sheet's views.
    @Test func aModalTakesTheWindowsTouchesAndKeys() {
        final class WithCommand: ViewController {
            var quit = 0
            override var keyCommands: [KeyCommand] { [KeyCommand(Key(text: "q"), title: "Quit") { [unowned self] in quit += 1 }] }
        }
        let a = WithCommand(id: "A")
        let (window, _) = shown(a)
        var below = 0, onSheet = 0
        let under = Button(title: "under")
        under.frame = Rect(x: 0, y: 0, width: 8, height: 1)
        under.addAction { _ in below += 1 }
        a.view.addSubview(under)
        let sheet = ViewController(id: "Sheet")
        sheet.preferredContentSize = Size(width: 10, height: 4)
        sheet.presentationController.delegate = keepsSheets
        let ok = Button(title: "ok")
        ok.frame = Rect(x: 0, y: 0, width: 4, height: 1)
        ok.addAction { _ in onSheet += 1 }
        let other = Button(title: "no")
        other.frame = Rect(x: 5, y: 0, width: 4, height: 1)
        sheet.view.addSubview(ok)
        sheet.view.addSubview(other)
        #expect(under.becomeFirstResponder())
        a.present(sheet, animated: false)
        #expect(window.focusedView == nil)
        #expect(!window.tap(at: Point(x: 1, y: 0)))
        #expect(below == 0)
        #expect(window.tap(at: Point(x: 11, y: 4)))
        #expect(onSheet == 1)
        #expect(window.key(KeyPress(text: "q")) != .handled && a.quit == 0)
        #expect(!window.activeKeyCommands.contains { $0.key == "q" })
        window.key(.tab)
        #expect(window.focusedView === ok || window.focusedView === other)
        window.key(.tab)
        window.key(.tab)
        #expect(window.focusedView === ok || window.focusedView === other)
        // Dismissed, the presenter has its input back, and its focused view its focus.
        sheet.dismiss(animated: false)
        #expect(window.focusedView === under)
        #expect(window.key(KeyPress(text: "q")) == .handled && a.quit == 1)
        #expect(window.tap(at: Point(x: 1, y: 0)) && below == 1)
    }

    /// A modal takes the wheel as it takes touches (LIFECYCLE.md, "A modal takes the
    /// window's input"): beside a sheet it reaches nothing beneath, on it it scrolls the
    /// sheet's view — from the window, and as the message a child process gets.
    @Test func aModalTakesTheWindowsWheel() {
        final class Wheel: View {
            var turns = 0
            override func scrollWheel(_ input: ScrollInput) -> Bool {
                turns += 1
                return true
            }
        }
        let a = ViewController(id: "A")
        let (window, _) = shown(a)
        let under = Wheel(frame: Rect(x: 0, y: 0, width: 30, height: 12))
        a.view.addSubview(under)
        #expect(window.scroll(deltaY: 1, at: Point(x: 1, y: 1)) && under.turns == 1)
        let sheet = ViewController(id: "Sheet")
        sheet.preferredContentSize = Size(width: 10, height: 4)
        sheet.presentationController.delegate = keepsSheets
        let onSheet = Wheel(frame: Rect(x: 0, y: 0, width: 10, height: 4))
        sheet.view.addSubview(onSheet)
        a.present(sheet, animated: false)
        #expect(!window.scroll(deltaY: 1, at: Point(x: 1, y: 1)), "beside the sheet: dropped")
        #expect(window.scroll(deltaY: 1, at: Point(x: 11, y: 5)))
        #expect(under.turns == 1 && onSheet.turns == 1)
        let answer = a.handleMessage(.scroll(ScrollInput(deltaX: 0, deltaY: 1, x: 11, y: 5, timestamp: 1)), from: ViewController(id: "Parent"))
        #expect(answer == nil && under.turns == 1 && onSheet.turns == 2)
    }

    /// In a child process the touches and keys of the window's root arrive as messages to
    /// the controller beneath (from its parent's proxy): the modal takes those too.
    @Test func touchesAndKeysSentToAControllerBeneathAModalGoToTheModal() {
        let a = ViewController(id: "A")
        let (window, _) = shown(a)
        var below = 0, onSheet = 0
        let under = Button(title: "under")
        under.frame = Rect(x: 10, y: 4, width: 8, height: 1)
        under.addAction { _ in below += 1 }
        a.view.addSubview(under)
        let sheet = ViewController(id: "Sheet")
        sheet.preferredContentSize = Size(width: 10, height: 4)
        sheet.presentationController.delegate = keepsSheets
        let ok = Button(title: "ok")
        ok.frame = Rect(x: 0, y: 0, width: 4, height: 1)
        ok.addAction { _ in onSheet += 1 }
        sheet.view.addSubview(ok)
        a.present(sheet, animated: false)
        let parent = ViewController(id: "Parent")
        for phase in [TouchInput.Phase.began, .ended] {
            let answer = a.handleMessage(.touch(TouchInput(phase: phase, tapCount: 1, pointer: 0, x: 11, y: 4, timestamp: 1)), from: parent)
            #expect(answer == nil)
        }
        #expect(onSheet == 1 && below == 0)
        _ = a.handleMessage(.key(KeyPress(special: .tab)), from: parent)
        #expect(window.focusedView === ok)
    }

    // MARK: - Misuse

    /// UIKit warns and presents nothing: presenting from a controller that is presenting
    /// already, or from beneath another presentation, or from outside a window.
    @Test func presentingFromAControllerThatPresentsAlreadyIsRefusedWithUIKitsWarning() {
        let root = ViewController(id: "Root")
        let child = ViewController(id: "Child")
        let (window, _) = shown(root)
        root.addChild(child)
        root.view.addSubview(child.view)
        child.didMove(toParent: root)
        let b = ViewController(id: "B")
        root.present(b, animated: false)
        var result: Result<Void, PresentationRefusal>?
        let said = diagnostics { result = root.present(ViewController(id: "C"), animated: false) }
        #expect(said.first?.contains("Attempt to present C on Root, which is already presenting B") == true)
        if case .failure(let refusal)? = result { #expect(refusal.message == said.first) } else { Issue.record("not refused") }
        let beneath = diagnostics { child.present(ViewController(id: "D"), animated: false) }
        #expect(beneath.first?.contains("already presenting B") == true)
        #expect(window.presentedViewControllers.map(\.id) == ["B"])
        let loose = ViewController(id: "Loose")
        let outside = diagnostics { loose.present(ViewController(id: "E"), animated: false) }
        #expect(outside.first?.contains("whose view is not in the window hierarchy") == true)
    }

    /// UIKit raises for presenting a controller that is already presented, and for one
    /// that has a parent: the process stops with the message.
    @Test func presentingAControllerThatIsAlreadyPresentedStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let window = Window(size: Size(width: 20, height: 8))
                let a = ViewController(id: "A")
                window.rootViewController = a
                window.makeKeyAndVisible()
                let b = ViewController(id: "B")
                b.modalPresentationStyle = .overFullScreen
                a.present(b, animated: false)
                let c = ViewController(id: "C")
                b.present(c, animated: false)
                c.present(b, animated: false)
            }
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("C: presenting B, which is already presented by A, is not supported"))
    }

    @Test func presentingAChildStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await MainActor.run {
                let window = Window(size: Size(width: 20, height: 8))
                let a = ViewController(id: "A")
                window.rootViewController = a
                window.makeKeyAndVisible()
                let child = ViewController(id: "Child")
                a.addChild(child)
                a.present(child, animated: false)
            }
        }
        let said = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(said.contains("presenting Child, which is a child of A, is not supported"))
    }
}
