import Foundation
import Testing
import TrellisCanvas
@testable import TrellisControllers
import TrellisLog
import TrellisViews
import TrellisWire

/// The rules of docs/LIFECYCLE.md that no single seed covers.
@MainActor
@Suite struct LifecycleTests {
    func shown(_ root: ViewController, size: Size = Size(width: 80, height: 24)) -> Window {
        let w = Window(size: size)
        w.rootViewController = root
        w.makeKeyAndVisible()
        return w
    }

    func embed(_ child: ViewController, in parent: ViewController) {
        parent.addChild(child)
        child.view.frame = parent.view.bounds
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
    }

    @Test func aCancelledDisappearanceStaysBalanced() {
        let journal = Journal()
        let c = RecordingController("C", journal)
        _ = shown(c)
        journal.clear()
        c.beginAppearanceTransition(false, animated: true)   // an interactive pop starts
        c.beginAppearanceTransition(true, animated: true)    // … and is cancelled
        c.endAppearanceTransition()
        #expect(journal.entries == ["C.viewWillDisappear", "C.viewWillAppear", "C.viewDidAppear"])
        #expect(c.appearanceState == .appeared)
    }

    @Test func unbalancedCallsAreReportedAndIgnored() {
        let journal = Journal()
        let c = RecordingController("C", journal)
        _ = shown(c)
        journal.clear()
        let said = diagnostics {
            c.beginAppearanceTransition(true, animated: false)
            c.endAppearanceTransition()
        }
        #expect(journal.entries.isEmpty)
        #expect(said.count == 2)
        #expect(said[0].contains("Unbalanced calls to begin/end appearance transitions for C"))
    }

    final class ManualContainer: RecordingController {
        override var shouldAutomaticallyForwardAppearanceMethods: Bool { false }
    }

    @Test func manualForwardingLeavesChildrenToTheContainer() {
        let journal = Journal()
        let parent = ManualContainer("P", journal)
        let child = RecordingController("C", journal)
        embed(child, in: parent)
        _ = shown(parent)
        #expect(journal.entries.filter { $0.hasSuffix("Appear") } == ["P.viewWillAppear", "P.viewDidAppear"])
        child.beginAppearanceTransition(true, animated: false)
        child.endAppearanceTransition()
        #expect(journal.entries.filter { $0.hasSuffix("Appear") } == ["P.viewWillAppear", "P.viewDidAppear", "C.viewWillAppear", "C.viewDidAppear"])
    }

    @Test func aChildAddedToAVisibleContainerAppearsAndLeavesByDisappearing() {
        let journal = Journal()
        let parent = RecordingController("P", journal)
        _ = shown(parent)
        let child = RecordingController("C", journal)
        journal.clear()
        embed(child, in: parent)
        #expect(journal.only("C.") == [
            "C.willMove(toParent: P)", "C.traitCollectionDidChange", "C.viewDidLoad",
            "C.viewWillAppear", "C.viewDidAppear", "C.didMove(toParent: P)",
        ])
        journal.clear()
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        #expect(journal.entries == ["C.willMove(toParent: nil)", "C.viewWillDisappear", "C.viewDidDisappear", "C.didMove(toParent: nil)"])
    }

    @Test func appearanceIsParentFirstAtEveryDepth() {
        let journal = Journal()
        let a = RecordingController("A", journal), b = RecordingController("B", journal), c = RecordingController("C", journal)
        embed(b, in: a)
        embed(c, in: b)
        let w = shown(a)
        #expect(journal.entries.filter { $0.hasSuffix("Appear") } == [
            "A.viewWillAppear", "B.viewWillAppear", "C.viewWillAppear",
            "A.viewDidAppear", "B.viewDidAppear", "C.viewDidAppear",
        ])
        journal.clear()
        w.rootViewController = nil
        #expect(journal.entries == [
            "A.viewWillDisappear", "B.viewWillDisappear", "C.viewWillDisappear",
            "A.viewDidDisappear", "B.viewDidDisappear", "C.viewDidDisappear",
        ])
    }

    @Test func sizeClassesFollowTheTerminalSize() {
        #expect(TraitCollection.sizeClasses(for: Size(width: 79, height: 24)) == (.compact, .regular))
        #expect(TraitCollection.sizeClasses(for: Size(width: 80, height: 23)) == (.regular, .compact))
        #expect(TraitCollection.sizeClasses(for: Size(width: 200, height: 60)) == (.regular, .regular))
    }

    @Test func traitsChangeTopDownAndOnlyWhenTheyChange() {
        let journal = Journal()
        let a = RecordingController("A", journal), b = RecordingController("B", journal)
        embed(b, in: a)
        let w = shown(a, size: Size(width: 100, height: 30))
        #expect(b.traitCollection.horizontalSizeClass == .regular)
        journal.clear()
        w.resize(to: Size(width: 110, height: 30))          // still regular: no callback
        #expect(journal.only("A.trait", "B.trait").isEmpty)
        w.resize(to: Size(width: 60, height: 30))           // compact now
        #expect(journal.only("A.trait", "B.trait") == ["A.traitCollectionDidChange", "B.traitCollectionDidChange"])
        #expect(b.traitCollection.horizontalSizeClass == .compact)

        // An override for B alone: only B hears of it, and A's own traits are untouched.
        journal.clear()
        a.setOverrideTraitCollection(TraitCollection(userInterfaceStyle: .light), forChild: b)
        #expect(journal.only("A.trait", "B.trait") == ["B.traitCollectionDidChange"])
        #expect(b.traitCollection.userInterfaceStyle == .light && b.traitCollection.horizontalSizeClass == .compact)
        #expect(a.traitCollection.userInterfaceStyle == .dark)
        journal.clear()
        a.setOverrideTraitCollection(TraitCollection(userInterfaceStyle: .light), forChild: b)
        #expect(journal.entries.isEmpty)
    }

    @Test func memoryWarningsReachEveryControllerParentFirst() {
        let journal = Journal()
        let a = RecordingController("A", journal), b = RecordingController("B", journal), c = RecordingController("C", journal)
        embed(b, in: a)
        embed(c, in: a)
        let w = shown(a)
        journal.clear()
        w.simulateMemoryWarning()
        #expect(journal.entries == ["A.didReceiveMemoryWarning", "B.didReceiveMemoryWarning", "C.didReceiveMemoryWarning"])
    }

    final class SizeWatcher: RecordingController {
        var reported: [String] = []
        override func preferredContentSizeDidChange(forChild child: ViewController) {
            reported.append("\(child.id) \(child.preferredContentSize)")
        }
    }

    @Test func preferredContentSizeChangesAreReportedToTheParent() {
        let parent = SizeWatcher("P", Journal())
        let child = RecordingController("C", Journal())
        parent.addChild(child)
        child.preferredContentSize = Size(width: 20, height: 5)
        child.preferredContentSize = Size(width: 20, height: 5)
        #expect(parent.reported == ["C 20×5"])
    }

    @Test func sizeTransitionsReachChildrenWithACoordinator() {
        final class Watcher: RecordingController {
            var seen: [String] = []
            override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
                super.viewWillTransition(to: size, with: coordinator)
                seen.append("will \(size) view \(view.bounds.size)")
                coordinator.animate(alongsideTransition: { [unowned self] _ in seen.append("alongside view \(view.bounds.size)") },
                                    completion: { [unowned self] _ in seen.append("done") })
            }
        }
        let a = Watcher("A", Journal()), b = Watcher("B", Journal())
        embed(b, in: a)
        b.view.pinEdges(to: a.view)
        let w = shown(a, size: Size(width: 80, height: 24))
        w.resize(to: Size(width: 100, height: 30))
        #expect(a.seen == ["will 100×30 view 80×24", "alongside view 100×30", "done"])
        #expect(b.seen == ["will 100×30 view 80×24", "alongside view 100×30", "done"])
    }

    @Test func routingLogFileHoldsTheInProcessMessages() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-lc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try RoutingLog(directory: dir.path, host: "app")
        let parent = RecordingController("P", Journal()), child = RecordingController("C", Journal())
        embed(child, in: parent)
        let w = Window(size: Size(width: 80, height: 24), log: log, host: "app")
        w.rootViewController = parent
        w.makeKeyAndVisible()
        log.flush()
        log.close()
        var reader = LogReader(directory: dir.path)
        let lines = reader.readNew().map { "\($0.kind) \($0.source)→\($0.target) \($0.outcome.rawValue) \($0.via) \($0.detail ?? "")" }
        #expect(lines.contains("appearance P→C delivered local willAppear"))
        #expect(lines.contains("appearance P→C delivered local didAppear"))
        #expect(reader.malformed.isEmpty)
    }
}

/// Touches: hit-testing rules and the responder chain (DESIGN's routing section).
@MainActor
@Suite struct TouchRoutingTests {
    final class Recorder: View {
        var got: [String] = []
        override func touchesBegan(_ touches: Set<Touch>) { got.append("began \(touches.first!.location(in: self))") }
        override func touchesMoved(_ touches: Set<Touch>) { got.append("moved \(touches.first!.location(in: self))") }
        override func touchesEnded(_ touches: Set<Touch>) { got.append("ended \(touches.first!.location(in: self))") }
    }

    func tree() -> (Window, ViewController, Recorder, Recorder) {
        let c = ViewController(id: "Root")
        let w = Window(size: Size(width: 40, height: 10))
        w.rootViewController = c
        w.makeKeyAndVisible()
        let back = Recorder(frame: Rect(x: 0, y: 0, width: 20, height: 10))
        let front = Recorder(frame: Rect(x: 10, y: 0, width: 20, height: 5))
        c.view.addSubview(back)
        c.view.addSubview(front)
        return (w, c, back, front)
    }

    @Test func theFrontmostDeepestViewWins() {
        let (w, _, back, front) = tree()
        w.tap(at: Point(x: 15, y: 2))
        #expect(front.got == ["began (5, 2)", "ended (5, 2)"] && back.got.isEmpty)
        w.tap(at: Point(x: 5, y: 2))
        #expect(back.got == ["began (5, 2)", "ended (5, 2)"])
    }

    @Test func hiddenAndNonInteractiveViewsAreNeverHit() {
        let (w, _, back, front) = tree()
        front.isHidden = true
        w.tap(at: Point(x: 15, y: 2))
        #expect(front.got.isEmpty && back.got.count == 2)
        front.isHidden = false
        front.isUserInteractionEnabled = false
        w.tap(at: Point(x: 12, y: 1))
        #expect(front.got.isEmpty && back.got.count == 4)
    }

    @Test func overflowingSubviewsAreNotHitOutsideTheirSuperview() {
        let (w, c, _, front) = tree()
        let overflow = Recorder(frame: Rect(x: 15, y: 0, width: 10, height: 3))  // sticks out of `front` to x = 35 > 30
        front.addSubview(overflow)
        w.tap(at: Point(x: 26, y: 1))            // inside overflow's own frame, inside front: hit
        #expect(overflow.got.count == 2)
        w.tap(at: Point(x: 32, y: 1))            // inside overflow's frame but outside front
        #expect(overflow.got.count == 2)
        _ = c
    }

    @Test func aTouchStaysWithTheViewWhereItBegan() {
        let (w, _, back, front) = tree()
        w.touch(.began, at: Point(x: 15, y: 2))
        w.touch(.moved, at: Point(x: 2, y: 8))   // over `back` now
        w.touch(.ended, at: Point(x: 2, y: 8))
        #expect(front.got == ["began (5, 2)", "moved (-8, 8)", "ended (-8, 8)"])
        #expect(back.got.isEmpty)
    }

    @Test func aTouchWithNoBeginningIsDroppedAndLogged() {
        let (w, _, back, front) = tree()
        let routes = RouteRecorder(w)
        #expect(!w.touch(.moved, at: Point(x: 15, y: 2), pointer: 9))
        #expect(front.got.isEmpty && back.got.isEmpty)
        #expect(routes.records.contains { $0.outcome == .dropped && $0.reason?.contains("pointer 9") == true })
    }

    @Test func anUnhandledTouchInAChildContinuesInTheParentsTree() {
        let parent = ViewController(id: "Parent")
        let w = Window(size: Size(width: 40, height: 10))
        w.rootViewController = parent
        w.makeKeyAndVisible()
        let holder = Recorder(frame: Rect(x: 5, y: 2, width: 20, height: 6))
        parent.view.addSubview(holder)
        let child = ViewController(id: "Child")   // handles nothing
        parent.addChild(child)
        child.view.frame = Rect(x: 2, y: 1, width: 10, height: 3)
        holder.addSubview(child.view)
        child.didMove(toParent: parent)
        let routes = RouteRecorder(w)
        w.tap(at: Point(x: 8, y: 4))
        // Through the child (as a message) and back up into the parent's holder view.
        #expect(routes.lines.contains("touch Parent→Child"))
        #expect(holder.got == ["began (3, 2)", "ended (3, 2)"])
    }
}
