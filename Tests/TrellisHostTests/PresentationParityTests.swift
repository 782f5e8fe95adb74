import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisSeeds
import TrellisWire

/// docs/LIFECYCLE.md, "Presented in another process" (issue 23): a presented controller
/// placed inline, as an actor or in a process of its own gives the same callback log in
/// every style — appearance, the presentation flags, input, focus, size and adaptation.
extension MultiProcessTests.PlacementParityTests {
    static let presentation = (
        root: { (r: ControllerRegistry) -> ViewController in ParityPresenter(registry: r) },
        placed: (className: "ParityPresented", id: ControllerID("Sheet")))

    /// Full screen: the presenter disappears and comes back; the footer lists the presented
    /// controller's commands, Tab takes focus into it, what is typed reaches it, and its
    /// "close" button — then, presented again, its F3 — dismisses it from its own process.
    @Test(.timeLimit(.minutes(1)))
    func aFullScreenPresentationIsTheSameInEveryPlacement() async throws {
        let log = try await sameLogInEveryPlacement(root: Self.presentation.root, placed: Self.presentation.placed) { run in
            let presenter = run.root as! ParityPresenter
            presenter.presentSheet(.fullScreen)
            #expect(presenter.presentedViewController === presenter.sheet, "\(run.placement)")
            #expect(presenter.sheet?.presentingViewController === presenter, "\(run.placement)")
            #expect(presenter.sheet?.isBeingPresented == false, "\(run.placement)")
            // The footer lists the presented controller's commands, wherever it runs.
            #expect(run.window.activeKeyCommands.first.map { "\($0.key) \($0.title) \($0.owner)" } == "F3 Close Sheet", "\(run.placement)")
            #expect(run.window.key(.tab) == .handled, "\(run.placement): Tab into the presented controller")
            #expect(run.window.type("x") == [.handled], "\(run.placement)")
            run.window.tap(at: Point(x: 3, y: 2))
            #expect(presenter.presentedViewController == nil, "\(run.placement): dismissed from its own process")
            #expect(presenter.view.superview != nil, "\(run.placement): the presenter is back in the window")
            // Presented again, its own key command dismisses it: the key goes to its tree.
            presenter.presentSheet(.fullScreen)
            #expect(run.window.key(.f3) == .handled, "\(run.placement)")
            #expect(presenter.presentedViewController == nil, "\(run.placement): dismissed by its F3")
        }
        #expect(inOrder(log, "Container.viewWillDisappear", "Inner.viewWillDisappear", "Sheet.viewWillAppear", "Sheet.isBeingPresented",
                        "Sheet.presented true, parent nil", "Sheet.viewDidAppear", "Sheet.size 40×12",
                        "Container.viewDidDisappear", "Inner.viewDidDisappear", "Container.presented",
                        "Sheet.s focused", "Sheet.s = x",
                        "Sheet.viewWillDisappear", "Sheet.isBeingDismissed", "Container.viewWillAppear", "Inner.viewWillAppear",
                        "Container.viewDidAppear", "Inner.viewDidAppear", "Sheet.viewDidDisappear", "Sheet.dismissed",
                        "Sheet.viewWillAppear", "Sheet.isBeingPresented", "Sheet.viewDidAppear", "Sheet.isBeingDismissed",
                        "Sheet.viewDidDisappear", "Sheet.dismissed"))
    }

    /// Over the current context, presented from a child (`Inner` defines the context), then
    /// a form sheet whose delegate keeps it a sheet in the compact width: neither takes the
    /// presenter out; the sheet is composed above the presenter at its own frame (a
    /// placement, when it is in another process), a touch outside it is dropped, and its
    /// presenter dismisses it.
    @Test(.timeLimit(.minutes(1)))
    func overCurrentContextAndAFormSheetPresentedFromAChildAreTheSameInEveryPlacement() async throws {
        let log = try await sameLogInEveryPlacement(root: Self.presentation.root, placed: Self.presentation.placed) { run in
            let presenter = run.root as! ParityPresenter
            presenter.presentSheet(.overCurrentContext, from: presenter.inner)
            #expect(presenter.sheet?.presentingViewController === presenter.inner, "\(run.placement)")
            presenter.inner.dismiss(animated: false)
            presenter.adaptiveAnswer = ModalPresentationStyle.none
            presenter.presentSheet(.formSheet, from: presenter.inner, animated: true)
            await run.settle(seconds: 0.5)
            #expect(presenter.sheet?.presentationController.presentationStyle == .formSheet, "\(run.placement)")
            _ = run.window.compose()
            if run.placement != .inline {
                let placed = run.window.remotePlacements.first { $0.surface == "Sheet" }
                #expect(placed?.frame == CellRect(x: 10, y: 3, width: 20, height: 6), "\(run.placement): \(String(describing: placed))")
            }
            #expect(!run.window.tap(at: Point(x: 0, y: 0)), "\(run.placement): outside the sheet, dropped")
            #expect(!run.window.tap(at: Point(x: 3, y: 2)), "\(run.placement): Inner's button is blocked by the modal")
            // A dismiss request the proxy cannot read is refused with the reason; the sheet stays.
            if let proxy = presenter.sheet as? RemoteController {
                let answer = proxy.dismissAsked(Array("later".utf8))
                #expect(answer.status == .failed && String(decoding: answer.payload, as: UTF8.self).contains("animated or now"))
                #expect(presenter.presentedViewController === proxy)
            }
            presenter.inner.dismiss(animated: true)
            await run.settle(seconds: 0.5)
            #expect(presenter.presentedViewController == nil, "\(run.placement)")
        }
        #expect(inOrder(log, "Sheet.viewWillAppear", "Sheet.isBeingPresented", "Sheet.viewDidAppear", "Sheet.size 20×5",
                        "Container.presented", "Sheet.viewWillDisappear", "Sheet.isBeingDismissed", "Sheet.viewDidDisappear",
                        "Sheet.viewWillAppear", "Sheet.isBeingPresented", "Sheet.viewDidAppear", "Sheet.size 20×6",
                        "Sheet.viewWillDisappear", "Sheet.isBeingDismissed", "Sheet.viewDidDisappear"))
        #expect(!log.contains("Container.viewWillDisappear") && !log.contains("Inner.viewWillDisappear"), "the presenter stays shown")
        #expect(!log.contains("Container.asked push"), "no touch reached what is beneath")
    }

    /// Adaptation: a form sheet in a compact width covers the window; resized into a
    /// regular width it is a sheet again, and back — each time a size transition at its new
    /// size, and no controller leaving the window (LIFECYCLE.md, "Adaptation"); then Escape,
    /// which nothing in it takes, dismisses it as the person's dismissal ("Dismissed by the
    /// person"), wherever it runs.
    @Test(.timeLimit(.minutes(1)))
    func aFormSheetAdaptsToTheWidthInEveryPlacement() async throws {
        let log = try await sameLogInEveryPlacement(root: Self.presentation.root, placed: Self.presentation.placed) { run in
            let presenter = run.root as! ParityPresenter
            presenter.presentSheet(.formSheet)
            #expect(presenter.sheet?.presentationController.presentationStyle == .fullScreen, "\(run.placement)")
            run.window.resize(to: Size(width: 90, height: 24))
            #expect(presenter.sheet?.presentationController.presentationStyle == .formSheet, "\(run.placement)")
            run.window.resize(to: Size(width: 40, height: 12))
            // Escape, which nothing in the sheet takes: the person dismisses it.
            #expect(run.window.key(.escape) == .handled, "\(run.placement)")
            await run.settle(seconds: 0.5)
            #expect(presenter.presentedViewController == nil, "\(run.placement)")
        }
        #expect(inOrder(log, "Sheet.viewDidAppear", "Sheet.size 40×12",
                        "Sheet.viewWillTransition(to: 20×6)", "Sheet.alongside 20×6", "Sheet.transition completed 20×6",
                        "Sheet.viewWillTransition(to: 40×12)", "Sheet.alongside 40×12", "Sheet.transition completed 40×12",
                        "Container.person dismisses", "Sheet.viewWillDisappear", "Sheet.isBeingDismissed", "Sheet.viewDidDisappear",
                        "Container.person dismissed"))
        #expect(!log.contains("Container.viewWillDisappear"), "adapting moves no controller out of the window")
    }

    /// Issue 23, `trellis tree` (docs/LIFECYCLE.md, "Presented in another process"): the
    /// reply lists what a controller presents under it, wherever the presented controller
    /// runs, with the style it is shown in — the presenter's word, adapted or not — and the
    /// text the CLI prints says so.
    @Test(.timeLimit(.minutes(1)))
    func theTreeListsPresentedControllersWithTheirStyleInEveryPlacement() async throws {
        _ = try await sameLogInEveryPlacement(root: Self.presentation.root, placed: Self.presentation.placed) { run in
            let presenter = run.root as! ParityPresenter
            let placement = run.placement == .ownProcess ? "process" : run.placement.rawValue
            #expect(presenter.describe().presented == nil, "\(run.placement): nothing presented")
            // A form sheet in a compact width (40 columns) is shown full screen.
            presenter.presentSheet(.formSheet)
            var tree = presenter.describe()
            #expect(tree.presented?.map(\.id) == ["Sheet"], "\(run.placement)")
            let sheet = tree.find("Sheet")
            #expect(sheet?.presentationStyle == "fullScreen" && sheet?.placement == placement, "\(run.placement): \(tree.text())")
            #expect(sheet?.className == "ParityPresented" && sheet?.appearance == "appeared", "\(run.placement)")
            #expect(tree.text().contains("\n  Sheet  ParityPresented  \(placement) pid"), "\(run.placement): \(tree.text())")
            #expect(tree.text().contains("presented fullScreen"), "\(run.placement): \(tree.text())")
            presenter.dismiss(animated: false)
            #expect(presenter.describe().presented == nil && presenter.describe().find("Sheet") == nil, "\(run.placement)")
            // Over the current context: listed under the controller it covers, Inner.
            presenter.presentSheet(.overCurrentContext, from: presenter.inner)
            tree = presenter.describe()
            #expect(tree.presented == nil && tree.find("Inner")?.presented?.first?.presentationStyle == "overCurrentContext",
                    "\(run.placement): \(tree.text())")
            #expect(tree.find("Sheet")?.frame == [2, 1, 20, 5], "\(run.placement): at Inner's frame")
            presenter.inner.dismiss(animated: false)
        }
    }

    /// The adaptive delegate's replacement (docs/LIFECYCLE.md, "Adaptation"), for a sheet
    /// that begins adapted in the 40-column window: in every placement the delegate — in
    /// the presenter's process, set on the proxy — puts the sheet in a navigation
    /// controller that is shown in its place; the sheet appears in it, below its bar, takes
    /// what is typed, and its own "close" dismisses the presentation. In another process the
    /// sheet is the navigation controller's child as any child is, and is told nothing of
    /// the presentation: there its parent is the proxy for the presenter's process and its
    /// `presentingViewController` nil (where the logs differ, as LIFECYCLE.md says), and its
    /// `dismiss` is its parent's process's to apply.
    @Test(.timeLimit(.minutes(1)))
    func aReplacementShownForAnAdaptedSheetHoldsItInEveryPlacement() async throws {
        var logs: [ChildPlacement: [String]] = [:]
        for placement in ChildPlacement.all(chaining: false) {
            let run = try await ParityRun(placement, root: Self.presentation.root, placed: Self.presentation.placed)
            run.window.makeKeyAndVisible()
            let presenter = run.root as! ParityPresenter
            presenter.wrapsWhenAdapted = true
            presenter.presentSheet(.formSheet)
            let nav = presenter.presentedViewController
            #expect(nav?.id == "SheetNav" && presenter.sheet?.parent === nav, "\(placement)")
            #expect(presenter.sheet?.presentationController.presentationStyle == .fullScreen, "\(placement)")
            #expect(presenter.sheet?.view.convert(presenter.sheet!.view.bounds, to: nil) == Rect(x: 0, y: 1, width: 40, height: 11), "\(placement)")
            #expect(run.window.key(.tab) == .handled, "\(placement): Tab into the sheet")
            #expect(run.window.type("x") == [.handled], "\(placement)")
            // "close", at (1, 2) in the sheet, which is one row below the bar.
            run.window.tap(at: Point(x: 3, y: 3))
            #expect(presenter.presentedViewController == nil && presenter.sheet?.parent == nil, "\(placement): dismissed from the sheet's process")
            #expect(presenter.view.superview != nil, "\(placement)")
            logs[placement] = await run.callbacks()
            await run.stop()
        }
        // The same callbacks in every placement but what the sheet's process sees: the
        // parent that stands for the presenter's process, and no presentation.
        let seen = ["Sheet.presented true, parent SheetNav", "Sheet.presented false, parent Container", "Sheet.willMove(toParent: Container)", "Sheet.didMove(toParent: Container)"]
        let inline = logs[.inline] ?? []
        #expect(inOrder(inline, "Container.wraps for fullScreen", "SheetNav.viewWillAppear", "Sheet.viewWillAppear",
                        "Sheet.presented true, parent SheetNav", "Sheet.viewDidAppear", "Sheet.size 40×11", "Sheet.s = x",
                        "SheetNav.viewWillDisappear", "Sheet.viewWillDisappear", "SheetNav.viewDidDisappear", "Sheet.viewDidDisappear",
                        "Sheet.willMove(toParent: nil)", "Sheet.didMove(toParent: nil)", "Sheet.dismissed"), "\(inline)")
        for placement in [ChildPlacement.actor, .ownProcess] {
            let other = logs[placement] ?? []
            #expect(inOrder(other, "Sheet.willMove(toParent: Container)", "Sheet.didMove(toParent: Container)", "Sheet.presented false, parent Container"),
                    "\(placement): \(other)")
            #expect(other.filter { !seen.contains($0) } == inline.filter { !seen.contains($0) }, "\(placement): \(other)")
        }
    }

    /// The presented controller's process killed while it is presented (LIFECYCLE.md,
    /// "Presented in another process": chosen): the presentation is dismissed at once, the
    /// presenter takes the window's input again, and the restarted process is not presented
    /// until the presenter presents it again — then with the state its process saved.
    @Test(.timeLimit(.minutes(1)))
    func aPresentedControllersProcessLostIsDismissedAndThePresenterStaysUsable() async throws {
        let run = try await ParityRun(.ownProcess, root: Self.presentation.root, placed: Self.presentation.placed)
        let presenter = run.root as! ParityPresenter
        run.window.makeKeyAndVisible()
        presenter.presentSheet(.fullScreen)
        #expect(presenter.view.superview == nil, "full screen took the presenter out")
        // What is typed is its state, which its process saves to the presenter's.
        #expect(run.window.key(.tab) == .handled)
        #expect(run.window.type("q") == [.handled])
        let saved = ContinuousClock.now + .seconds(5)
        while run.remote?.proxy(for: "Sheet").restorableState == nil, ContinuousClock.now < saved {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(run.remote?.proxy(for: "Sheet").restorableState != nil, "the sheet's process saved its state")
        // Read before the kill: a killed process's last lines may never reach its file.
        #expect(inOrder(await run.callbacks(), "Sheet.isBeingPresented", "Sheet.size 40×12", "Sheet.s = q"))
        let restarted = try await run.killAndRestartChild {}
        #expect(restarted, "the presented controller's process came back")
        #expect(presenter.presentedViewController == nil, "the lost presentation was dismissed")
        #expect(presenter.view.superview != nil && presenter.appearanceState == .appeared, "the presenter is shown again")
        // Inner's "push" button is the presenter's again: it presents the sheet, which the
        // new process shows, with its state back.
        #expect(run.window.tap(at: Point(x: 4, y: 2)))
        #expect(presenter.presentedViewController === presenter.sheet)
        #expect(run.window.key(.tab) == .handled)
        #expect(run.window.type("y") == [.handled])
        let log = await run.callbacks()
        #expect(inOrder(log, "Container.viewWillAppear", "Container.viewDidAppear", "Container.asked push",
                        "Sheet.viewDidLoad", "Sheet.restored q", "Sheet.isBeingPresented", "Sheet.viewDidAppear", "Sheet.size 40×12",
                        "Sheet.s focused", "Sheet.s = qy"))
        await run.stop()
    }

    /// The presented controller's process stopped (SIGSTOP) while presented: lost, the
    /// presentation is dismissed; when it answers again it is brought to where the presenter
    /// has it — disappeared, presented no more — so that it can be presented again.
    @Test(.timeLimit(.minutes(1)))
    func aPresentedControllersProcessThatStoppedIsDismissedAndCanBePresentedAgain() async throws {
        let run = try await ParityRun(.ownProcess, root: Self.presentation.root, placed: Self.presentation.placed)
        let presenter = run.root as! ParityPresenter
        run.window.makeKeyAndVisible()
        presenter.presentSheet(.formSheet)
        guard let remote = run.remote, let child = run.processes.first, child.isRunning else {
            Issue.record("the sheet's process did not start")
            return await run.stop()
        }
        // Read before the stop: a stopped process's last lines would wait in its writer.
        #expect(await run.callbacks().contains("Sheet.size 40×12"))
        kill(child.processIdentifier, SIGSTOP)
        let deadline = ContinuousClock.now + .seconds(10)
        while !remote.hasLost("Sheet"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(presenter.presentedViewController == nil, "lost, the presentation was dismissed")
        kill(child.processIdentifier, SIGCONT)
        while remote.hasLost("Sheet"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!remote.hasLost("Sheet"), "the sheet's process answers again")
        #expect(run.window.tap(at: Point(x: 4, y: 2)), "Inner's push presents it again")
        #expect(run.window.key(.tab) == .handled)
        #expect(run.window.type("z") == [.handled])
        let log = await run.callbacks()
        #expect(inOrder(log, "Sheet.size 40×12", "Sheet.viewWillDisappear", "Sheet.viewDidDisappear",
                        "Sheet.viewWillAppear", "Sheet.isBeingPresented", "Sheet.viewDidAppear", "Sheet.s focused", "Sheet.s = z"))
        await run.stop()
    }
}
