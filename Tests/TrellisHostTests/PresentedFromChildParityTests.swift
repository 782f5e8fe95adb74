import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisSeeds
import TrellisWire

/// docs/LIFECYCLE.md, "Presented from a child in another process" (issue 23): a child
/// placed inline, as an actor or in a process of its own presents a controller of its own
/// process, which covers what it would in one process — the window, a sheet centred on
/// it, the context its parent defines — with the same callback log, the same frames and
/// placements, and input reaching it; and its process's loss leaves the window usable.
extension MultiProcessTests.PlacementParityTests {
    static let childPresents = (
        root: { (r: ControllerRegistry) -> ViewController in ParityContainer(registry: r, childClass: "ParityChildPresenter") },
        placed: (className: "ParityChildPresenter", id: ControllerID("Child")))

    /// Where the presented controller is in the window: its view's frame, or its stand-in's
    /// viewport's, and — a stand-in — the placement the compositor is sent for its surface.
    func modalFrame(_ run: ParityRun) -> (frame: Rect?, placed: CellRect?) {
        let modal = run.window.presentedViewControllers.first { $0.id == "Modal" }
        _ = run.window.compose()
        let placed = run.window.remotePlacements.first { $0.surface == "Modal" && $0.visible }
        return (modal?.viewIfLoaded?.frame, placed?.frame)
    }

    /// Full screen from the child: the whole window is covered and the container and the
    /// child disappear; Tab, typing and a click reach the presented controller, whose
    /// "close" dismisses it from its own process — then, presented again, its F3.
    @Test(.timeLimit(.minutes(1)))
    func fullScreenFromAChildCoversTheWindowInEveryPlacement() async throws {
        let log = try await sameLogInEveryPlacement(root: Self.childPresents.root, placed: Self.childPresents.placed) { run in
            #expect(run.window.tap(at: Point(x: 3, y: 1)), "\(run.placement): the child's \"full\"")
            #expect(run.window.presentedViewControllers.map(\.id) == ["Modal"], "\(run.placement)")
            let (frame, placed) = modalFrame(run)
            #expect(frame == Rect(x: 0, y: 0, width: 40, height: 12), "\(run.placement): the whole window, not the child's viewport")
            #expect(run.placement == .inline ? placed == nil : placed == CellRect(x: 0, y: 0, width: 40, height: 12), "\(run.placement): \(String(describing: placed))")
            #expect(run.root.view.superview == nil, "\(run.placement): full screen took the container out")
            #expect(run.window.activeKeyCommands.first.map { "\($0.key) \($0.title) \($0.owner)" } == "F3 Close Modal", "\(run.placement)")
            #expect(run.window.key(.tab) == .handled, "\(run.placement): Tab into the presented controller")
            #expect(run.window.type("x") == [.handled], "\(run.placement)")
            run.window.tap(at: Point(x: 3, y: 2))
            #expect(run.window.presentedViewControllers.isEmpty, "\(run.placement): dismissed from its own process")
            #expect(run.root.view.superview != nil, "\(run.placement): the container is back")
            #expect(run.window.tap(at: Point(x: 3, y: 1)), "\(run.placement): presented again")
            #expect(run.window.key(.f3) == .handled, "\(run.placement)")
            #expect(run.window.presentedViewControllers.isEmpty, "\(run.placement): dismissed by its F3")
            // Dismissed by the parent's process: the child's is told, and presents again
            // (it checks `presentedViewController` first, UIKit's idiom).
            #expect(run.window.tap(at: Point(x: 3, y: 1)), "\(run.placement)")
            run.root.dismiss(animated: false)
            #expect(run.window.presentedViewControllers.isEmpty, "\(run.placement): dismissed by the container")
            #expect(run.window.tap(at: Point(x: 3, y: 1)), "\(run.placement): presented again")
            #expect(run.window.presentedViewControllers.map(\.id) == ["Modal"], "\(run.placement)")
            #expect(run.window.key(.f3) == .handled, "\(run.placement)")
        }
        // The child's `presentedViewController` and the modal's `presentingViewController`
        // are UIKit's in its process too, and cleared when the presentation ends.
        #expect(!log.contains("Child.presents Modal already"), "\(log)")
        #expect(inOrder(log, "Container.viewWillDisappear", "Child.viewWillDisappear", "Modal.viewWillAppear", "Modal.isBeingPresented",
                        "Modal.presented true, parent nil", "Modal.viewDidAppear", "Modal.size 40×12",
                        "Container.viewDidDisappear", "Child.viewDidDisappear", "Child.presented", "Child.presents Modal, by Container",
                        "Modal.s focused", "Modal.s = x",
                        "Modal.viewWillDisappear", "Modal.isBeingDismissed", "Container.viewWillAppear", "Child.viewWillAppear",
                        "Container.viewDidAppear", "Child.viewDidAppear", "Modal.viewDidDisappear", "Modal.dismissed",
                        "Modal.viewWillAppear", "Modal.viewDidAppear", "Modal.viewDidDisappear", "Modal.dismissed",
                        "Modal.viewWillAppear", "Child.presents Modal, by Container", "Modal.viewDidDisappear",
                        "Modal.viewWillAppear", "Child.presents Modal, by Container", "Modal.viewDidDisappear", "Modal.dismissed"), "\(log)")
    }

    /// A form sheet from the child, in a regular width: centred on the window, above the
    /// container and the child, which stay appeared; a click outside it is dropped, one on
    /// its "close" dismisses it. Then over the current context with the context in the
    /// parent: it covers the container's view — the window here — not the child's viewport.
    @Test(.timeLimit(.minutes(1)))
    func aSheetAndOverTheParentsContextFromAChildAreTheSameInEveryPlacement() async throws {
        let log = try await sameLogInEveryPlacement(root: Self.childPresents.root, placed: Self.childPresents.placed) { run in
            run.window.resize(to: Size(width: 90, height: 24))
            #expect(run.window.tap(at: Point(x: 3, y: 2)), "\(run.placement): the child's \"sheet\"")
            var (frame, placed) = modalFrame(run)
            #expect(frame == Rect(x: 35, y: 9, width: 20, height: 6), "\(run.placement): centred on the window")
            #expect(run.placement == .inline ? placed == nil : placed == CellRect(x: 35, y: 9, width: 20, height: 6), "\(run.placement)")
            if run.placement != .inline {
                let child = run.window.remotePlacements.first { $0.surface == "Child" }
                #expect((child?.z ?? .max) < (run.window.remotePlacements.first { $0.surface == "Modal" }?.z ?? .min), "\(run.placement): above the child")
            }
            #expect(run.root.view.superview != nil, "\(run.placement): a sheet leaves the container")
            #expect(!run.window.tap(at: Point(x: 3, y: 1)), "\(run.placement): outside the sheet, dropped")
            #expect(run.window.tap(at: Point(x: 37, y: 11)), "\(run.placement): the sheet's close")
            #expect(run.window.presentedViewControllers.isEmpty, "\(run.placement)")
            run.window.resize(to: Size(width: 40, height: 12))
            run.root.definesPresentationContext = true
            #expect(run.window.tap(at: Point(x: 3, y: 3)), "\(run.placement): the child's \"over\"")
            (frame, placed) = modalFrame(run)
            #expect(frame == Rect(x: 0, y: 0, width: 40, height: 12), "\(run.placement): the container's view, not the child's viewport")
            #expect(run.window.presentedViewControllers.first?.presentingViewController === run.root, "\(run.placement)")
            run.window.tap(at: Point(x: 3, y: 2))
            #expect(run.window.presentedViewControllers.isEmpty, "\(run.placement)")
        }
        #expect(inOrder(log, "Modal.viewWillAppear", "Modal.presented true, parent nil", "Modal.viewDidAppear", "Modal.size 20×6",
                        "Child.presented", "Child.presents Modal, by Container", "Modal.viewWillDisappear", "Modal.viewDidDisappear", "Modal.dismissed",
                        "Modal.viewWillAppear", "Modal.viewDidAppear", "Modal.size 40×12", "Child.presents Modal, by Container", "Modal.viewDidDisappear"), "\(log)")
        #expect(!log.contains("Child.presents Modal already"), "\(log)")
        #expect(!log.contains("Container.viewWillDisappear") && !log.contains("Child.viewWillDisappear"), "neither style takes the presenter out")
    }

    /// The child's process — the presented controller's — killed while it is presented
    /// (chosen, as for any presented controller in another process): the presentation is
    /// dismissed at once, and the window is usable: the container is back and takes input.
    @Test(.timeLimit(.minutes(1)))
    func theChildsProcessLostWhileItsModalIsPresentedLeavesTheWindowUsable() async throws {
        let run = try await ParityRun(.ownProcess, root: Self.childPresents.root, placed: Self.childPresents.placed)
        run.window.makeKeyAndVisible()
        #expect(run.window.tap(at: Point(x: 3, y: 1)))
        #expect(run.window.presentedViewControllers.map(\.id) == ["Modal"], "presented within the tap")
        #expect(try await run.killAndRestartChild())
        let deadline = ContinuousClock.now + .seconds(5)
        while !run.window.presentedViewControllers.isEmpty, ContinuousClock.now < deadline { await run.settle(seconds: 0.05) }
        #expect(run.window.presentedViewControllers.isEmpty, "dismissed: its process is gone")
        #expect(run.root.view.superview != nil, "the container is back in the window")
        // The restarted child presents again, from its new process — once this process has
        // seen that one's new link to it (LIFECYCLE.md), maybe just after the tap.
        await run.settle(seconds: 0.3)
        #expect(run.window.tap(at: Point(x: 3, y: 1)))
        let again = ContinuousClock.now + .seconds(5)
        while run.window.presentedViewControllers.isEmpty, ContinuousClock.now < again { await run.settle(seconds: 0.05) }
        #expect(run.window.presentedViewControllers.map(\.id) == ["Modal"])
        #expect(run.window.key(.f3) == .handled)
        #expect(run.window.presentedViewControllers.isEmpty)
        await run.stop()
    }
}
