import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisSeeds
import TrellisSession
import TrellisTransport
import TrellisWire

/// Where the container's child runs. The conformance scenarios run against every
/// placement that exists and must produce the same ordered callback log.
enum ChildPlacement: String, CaseIterable, CustomStringConvertible {
    /// `inline`: in the container's process, called directly. `actor`: in the container's
    /// process, hosted apart and reached over an inproc link (`ActorChildren`).
    /// `ownProcess`: in a process of its own. `processChain`: in its own process, and a
    /// child it makes by name in a third — a process under a process.
    case inline, actor, ownProcess, processChain
    var description: String { rawValue }

    /// The placements a tree can run in: a chain needs a grandchild to place.
    static func all(chaining grandchild: Bool) -> [ChildPlacement] { grandchild ? allCases : [.inline, .actor, .ownProcess] }
}

/// A tree shown in a window, with one of its controllers placed as asked; the callback log
/// is read back from the routing log files of every process, merged by time.
@MainActor
final class ParityRun {
    let placement: ChildPlacement
    let placedID: ControllerID
    let run: RunDirectory
    let log: RoutingLog
    let window: Window
    let root: ViewController
    var container: ParityContainer { root as! ParityContainer }
    var processes: [Process] = []
    var remote: RemoteChildren?
    var actors: ActorChildren?
    /// How the placed child's process was started, to start it again.
    private var childArguments: [String] = []
    /// Serves the main actor, as a host's loop does: the container's calls to its child
    /// wait by running it (`Switchboard`).
    let loop = IOLoop(mainQueueNamed: "parity-test")

    /// `root` is made with the run's registry; the controller its tree asks the registry for
    /// as `placed` (class and id) is the one placed, and `parent` is its parent's id.
    init(
        _ placement: ChildPlacement, root makeRoot: (ControllerRegistry) -> ViewController = { ParityContainer(registry: $0) },
        placed: (className: String, id: ControllerID) = ("ParityChild", "Child"), parent: ControllerID = "Container",
        grandchild: (className: String, id: ControllerID)? = nil
    ) async throws {
        self.placement = placement
        placedID = placed.id
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-parity-\(getpid())").path
        try RunDirectory.makePrivateDirectory(root)
        run = try RunDirectory.create(session: "\(placement)-\(UInt32.random(in: 0...UInt32.max))", root: root)
        log = try RoutingLog(directory: run.logs, host: "test")
        window = Window(size: Size(width: 40, height: 12), log: log, host: "test")
        let registry = ControllerRegistry()
        SeedControllers.register(in: registry)
        self.root = makeRoot(registry)
        switch placement {
        case .inline:
            break
        case .actor:
            // The children's state is the process's, as a host's is (HostCommand); each is
            // made on its own loop by a registry of its own, as a process child is in its host.
            let actors = try await ActorChildren.bind(
                parent: parent, loop: loop, log: log, compositor: try run.ipcEndpoint("compositor"),
                registering: SeedControllers.register(in:), stateRestoration: window.stateRestoration)
            self.actors = actors
            let seeds = ControllerRegistry()
            SeedControllers.register(in: seeds)
            registry.register(placed.className) { id in
                if let id, id != placed.id, let local = seeds.make(placed.className, id: id) { return local }
                return actors.host(placed.className, id: placed.id)
            }
        case .ownProcess, .processChain:
            let endpoint = try run.ipcEndpoint(parent.rawValue)
            let remote = try await RemoteChildren.bind(parent: parent, endpoint: endpoint, loop: loop, log: log)
            self.remote = remote
            // Only the placed one: other controllers of its class stay in this process.
            let seeds = ControllerRegistry()
            SeedControllers.register(in: seeds)
            registry.register(placed.className) { id in
                if let id, id != placed.id, let local = seeds.make(placed.className, id: id) { return local }
                return remote.proxy(for: placed.id)
            }
            var arguments = [
                "--host", placed.id.rawValue, "--class", placed.className, "--parent", parent.rawValue, "--endpoint", endpoint,
                "--session", run.session, "--run-root", root,
            ]
            if placement == .processChain, let grandchild {
                arguments += ["--remote-child", grandchild.className]
                try launch([
                    "--host", grandchild.id.rawValue, "--class", grandchild.className, "--parent", placed.id.rawValue,
                    "--endpoint", try run.ipcEndpoint(placed.id.rawValue), "--session", run.session, "--run-root", root,
                ])
            }
            childArguments = arguments
            try launch(arguments)
            let childConnected = await remote.waitForChild(placed.id)
            #expect(childConnected, "the child host did not connect within 10 s")
            if placement == .processChain, let grandchild {
                #expect(await connected(grandchild.id, to: placed.id), "the grandchild host did not connect within 10 s")
            }
        }
        window.rootViewController = self.root
    }

    /// Kills the placed child's process (the first this run started: its pid is ours) and
    /// starts it again once the parent has seen it lost; returns when it has connected.
    func killAndRestartChild(meanwhile: () -> Void = {}) async throws -> Bool {
        guard let remote, let child = processes.first, child.isRunning else { return false }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        meanwhile()
        let deadline = ContinuousClock.now + .seconds(5)
        while !remote.hasLost(placedID), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        processes[0] = try start(childArguments)
        return await remote.waitForChild(placedID)
    }

    private func launch(_ arguments: [String]) throws {
        processes.append(try start(arguments))
    }

    private func start(_ arguments: [String]) throws -> Process {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis-app")
        p.arguments = arguments
        try p.run()
        return p
    }

    /// Whether `child` connected to `parent`'s host within 10 s, as that host's log says.
    private func connected(_ child: ControllerID, to parent: ControllerID) async -> Bool {
        var reader = LogReader(directory: run.logs)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if reader.readNew().contains(where: { $0.kind == "link" && $0.reason == "peer \(child) connected" }) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Lets an animation run to its end: the window's animator is ticked, as a host's
    /// frames tick its own, meanwhile serving the links.
    func settle(seconds: Double = 1) async {
        let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < end {
            try? await Task.sleep(for: .milliseconds(20))
            window.tick()
        }
    }

    /// Every `callback` line of every process of this run, in time order.
    func callbacks() async -> [String] {
        log.flush()
        // The child's writer batches every 50 ms: wait until nothing new comes for 300 ms,
        // then read every file at once, so that the merge by time sees all of them.
        var probe = LogReader(directory: run.logs)
        var quiet = 0
        while quiet < 6 {
            // Liveness goes on for ever; only the tree's own lines break the quiet.
            quiet = probe.readNew().allSatisfy { $0.kind == "link" || $0.kind == "hello" } ? quiet + 1 : 0
            try? await Task.sleep(for: .milliseconds(50))
        }
        var reader = LogReader(directory: run.logs)
        return reader.readNew().filter { $0.kind == "callback" }.compactMap(\.detail)
    }

    /// The kinds of the messages a link sent to `target`, in order (an in-process
    /// delivery is logged as delivered only).
    func linkMessages(to target: ControllerID) async -> [String] {
        log.flush()
        try? await Task.sleep(for: .milliseconds(100))
        var reader = LogReader(directory: run.logs)
        return reader.readNew().filter { $0.target == target.rawValue && $0.outcome == .sent }.map(\.kind)
    }

    func stop() async {
        for p in processes where p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
        if let remote { await remote.link.close() }
        if let actors { await actors.close() }
        log.close()
        loop.shutdown()
        try? FileManager.default.removeItem(atPath: run.path)
    }
}

extension MultiProcessTests {
    /// In `MultiProcessTests`, whose `.serialized` keeps whole-process tests one at a time.
    @MainActor
    @Suite struct PlacementParityTests {
        /// S2-2's order and S3-3's, with the child in the same process and in its own.
        @Test(.timeLimit(.minutes(1)))
        func theCallbackLogIsTheSameInEveryPlacement() async throws {
            var logs: [ChildPlacement: [String]] = [:]
            for placement in ChildPlacement.all(chaining: false) {
                let run = try await ParityRun(placement)
                run.window.makeKeyAndVisible()
                // A tap on the child's "leave" button: the request travels up to the container,
                // which removes the child (S2-4), across the process boundary when there is one.
                #expect(run.window.touch(.began, at: Point(x: 3, y: 3)), "\(placement)")
                #expect(run.window.touch(.ended, at: Point(x: 3, y: 3)), "\(placement)")
                logs[placement] = await run.callbacks()
                // Issue 20: an actor child is reached as a process child is, over a link —
                // every containment message a line of the routing log — and an inline one
                // is called directly, with none.
                let links = await run.linkMessages(to: "Child").filter { $0 == "containment" }
                #expect(placement == .inline ? links.isEmpty : links.count >= 4, "\(placement): \(links)")
                #expect(run.container.requestsAnswered == ["leave"], "\(placement)")
                #expect(run.container.children.isEmpty, "\(placement)")
                await run.stop()
            }
            let expected = [
                "Container.traitCollectionDidChange", "Container.viewDidLoad", "Container.viewWillAppear",
                "Child.willMove(toParent: Container)", "Child.traitCollectionDidChange",
                "Child.viewDidLoad", "Leaf.willMove(toParent: Child)", "Leaf.traitCollectionDidChange",
                "Leaf.viewDidLoad", "Leaf.didMove(toParent: Child)",
                "Child.didMove(toParent: Container)",
                "Child.viewWillAppear", "Leaf.viewWillAppear",
                "Container.viewIsAppearing", "Container.viewDidAppear", "Child.viewIsAppearing", "Child.viewDidAppear",
                "Leaf.viewIsAppearing", "Leaf.viewDidAppear",
                "Child.willMove(toParent: nil)",
                "Child.viewWillDisappear", "Leaf.viewWillDisappear", "Child.viewDidDisappear", "Leaf.viewDidDisappear",
                "Child.didMove(toParent: nil)",
            ]
            #expect(logs[.inline] == expected)
            #expect(logs[.ownProcess] == logs[.inline])
            #expect(logs[.actor] == logs[.inline])
        }

        /// Issue 20 (docs/LIFECYCLE.md, "Touches read together"): a click whose press and
        /// release are read in one piece goes to an actor or process child in one call of
        /// two messages, and to an inline one a touch at a time — with the same callbacks,
        /// in the same order, as the two touches one after the other give.
        @Test(.timeLimit(.minutes(1)))
        func aClickReadInOnePieceGivesTheSameCallbackLogInEveryPlacement() async throws {
            var logs: [ChildPlacement: [String]] = [:]
            for placement in ChildPlacement.all(chaining: false) {
                let run = try await ParityRun(placement)
                run.window.makeKeyAndVisible()
                let click = [TouchInput.Phase.began, .ended].map { TouchInput(phase: $0, x: 3, y: 3, timestamp: 1) }
                let answers = run.root.handleTouches(click, from: run.root)
                #expect(answers.count == 2 && answers.allSatisfy { $0 == nil }, "\(placement): \(answers)")
                logs[placement] = await run.callbacks()
                #expect(run.container.requestsAnswered == ["leave"], "\(placement)")
                #expect(run.container.children.isEmpty, "\(placement)")
                await run.stop()
            }
            #expect(logs[.inline]?.last == "Child.didMove(toParent: nil)", "\(logs[.inline] ?? [])")
            #expect(logs[.ownProcess] == logs[.inline])
            #expect(logs[.actor] == logs[.inline])
        }

        // MARK: - Issue 23: containers, swaps, resizes and laziness in every placement

        /// Container ▸ Tabs ▸ (Nav ▸ NavRoot, TabB), Tabs placed: a container in another
        /// process with children of its own.
        static let nested = (
            root: { (r: ControllerRegistry) -> ViewController in ParityContainer(registry: r, childClass: "ParityTabs") },
            placed: (className: "ParityTabs", id: ControllerID("Child")),
            grandchild: (className: "ParityStep", id: ControllerID("TabB")))
        // Where the nested tree's controls are in the 40×12 window: Tabs fills the
        // container but for a cell each side; the navigation bar is its first row, the tab
        // bar its last; NavRoot's (and a pushed step's) "push" button is at (1, 1) in it.
        static let push = Point(x: 2, y: 3), back = Point(x: 3, y: 1)
        static let firstTab = Point(x: 5, y: 10), secondTab = Point(x: 25, y: 10)

        /// Runs `scenario` on a fresh tree in every placement and expects the same callback
        /// log from each; returns the log of the same-process run, for the scenario's own checks.
        func sameLogInEveryPlacement(
            root: (ControllerRegistry) -> ViewController, placed: (className: String, id: ControllerID),
            parent: ControllerID = "Container", grandchild: (className: String, id: ControllerID)? = nil,
            _ scenario: (ParityRun) async throws -> Void
        ) async throws -> [String] {
            var logs: [ChildPlacement: [String]] = [:]
            for placement in ChildPlacement.all(chaining: grandchild != nil) {
                let run = try await ParityRun(placement, root: root, placed: placed, parent: parent, grandchild: grandchild)
                run.window.makeKeyAndVisible()
                do { try await scenario(run) } catch {
                    await run.stop()
                    throw error
                }
                logs[placement] = await run.callbacks()
                await run.stop()
            }
            let same = logs[.inline] ?? []
            for (placement, other) in logs where placement != .inline {
                guard let i = same.indices.first(where: { $0 >= other.count || same[$0] != other[$0] })
                    ?? (same.count < other.count ? same.count : nil) else { continue }
                Issue.record("""
                    the logs differ from line \(i):
                    inline: \(same[min(i, same.count)...].prefix(12).joined(separator: ", "))
                    \(placement): \(other[min(i, other.count)...].prefix(12).joined(separator: ", "))
                    """)
            }
            return same
        }

        /// Whether `lines` occur in `log` in this order (others may come between).
        func inOrder(_ log: [String], _ lines: String...) -> Bool {
            var rest = log[...]
            for line in lines {
                guard let i = rest.firstIndex(of: line) else { return false }
                rest = rest[(i + 1)...]
            }
            return true
        }

        /// Nested containers, a push and a pop, two tab switches: the swap orders of
        /// LIFECYCLE.md ("The order of a swap") and the movement flags, in every placement.
        @Test(.timeLimit(.minutes(1)))
        func nestedContainersPushPopAndSwitchTabsAlike() async throws {
            let log = try await sameLogInEveryPlacement(root: Self.nested.root, placed: Self.nested.placed, grandchild: Self.nested.grandchild) { run in
                run.window.tap(at: Self.push)
                await run.settle()
                run.window.tap(at: Self.back)
                await run.settle()
                run.window.tap(at: Self.secondTab)
                // With the tab of the process chain shown, a resize reaches three processes.
                run.window.resize(to: Size(width: 44, height: 12))
                run.window.tap(at: Self.firstTab)
            }
            #expect(inOrder(log, "TabB.viewWillTransition(to: 44×12)", "Child.alongside 42×10", "TabB.alongside 42×9",
                            "Child.transition completed 42×10", "TabB.transition completed 42×9"))
            // Push: the covered controller first in both phases; the pushed one is moving to its parent.
            #expect(inOrder(log, "NavRoot.viewWillDisappear", "Pushed1.viewWillAppear", "Pushed1.isMovingToParent",
                            "NavRoot.viewDidDisappear", "Pushed1.viewDidAppear", "Pushed1.didMove(toParent: Nav)"))
            // Pop: the popped one first, moving from its parent.
            #expect(inOrder(log, "Pushed1.willMove(toParent: nil)", "Pushed1.viewWillDisappear", "Pushed1.isMovingFromParent",
                            "NavRoot.viewWillAppear", "Pushed1.viewDidDisappear", "NavRoot.viewDidAppear", "Pushed1.didMove(toParent: nil)"))
            // Tab switches: the new tab's will first, the old tab's did first; TabB loads on first selection.
            #expect(inOrder(log, "Pushed1.didMove(toParent: nil)", "TabB.viewDidLoad", "TabB.viewWillAppear", "Nav.viewWillDisappear",
                            "Nav.viewDidDisappear", "TabB.viewDidAppear",
                            "Nav.viewWillAppear", "TabB.viewWillDisappear", "TabB.viewDidDisappear", "Nav.viewDidAppear"))
        }

        /// Rule 8: a tab switched away while its push slides takes the pushed controller with
        /// it, and the tab coming back brings it back — across the process boundary too.
        @Test(.timeLimit(.minutes(1)))
        func aTabSwitchedAwayMidPushTakesThePushedControllerWithIt() async throws {
            let log = try await sameLogInEveryPlacement(root: Self.nested.root, placed: Self.nested.placed, grandchild: Self.nested.grandchild) { run in
                run.window.tap(at: Self.push)
                run.window.tap(at: Self.secondTab)
                await run.settle()
                run.window.tap(at: Self.firstTab)
            }
            #expect(inOrder(log, "Pushed1.viewWillAppear", "TabB.viewWillAppear", "Nav.viewWillDisappear", "Pushed1.viewWillDisappear",
                            "Nav.viewDidDisappear", "Pushed1.viewDidDisappear", "TabB.viewDidAppear",
                            "Nav.viewWillAppear", "Pushed1.viewWillAppear", "Nav.viewDidAppear", "Pushed1.viewDidAppear"))
            #expect(!inOrder(log, "TabB.viewWillAppear", "NavRoot.viewWillAppear"), "the covered root stays covered")
        }

        /// Issue 23: a size transition has one coordinator for the whole tree — every
        /// participant's alongside blocks run once, parents first, after the tree has been
        /// laid out at the new size — and a resize during a push is laid out when it ends
        /// (LIFECYCLE.md, "Size transitions", "A resize during an animation is never lost").
        @Test(.timeLimit(.minutes(1)))
        func aResizeHasOneCoordinatorForTheWholeTreeInEveryPlacement() async throws {
            let log = try await sameLogInEveryPlacement(root: Self.nested.root, placed: Self.nested.placed, grandchild: Self.nested.grandchild) { run in
                run.window.resize(to: Size(width: 50, height: 14))
                run.window.tap(at: Self.push)
                run.window.resize(to: Size(width: 44, height: 12))
                await run.settle()
            }
            let sizes = log.filter { $0.contains("Transition") || $0.contains("alongside") || $0.contains("completed") }
            #expect(sizes.prefix(9) == [
                "Child.viewWillTransition(to: 50×14)", "Nav.viewWillTransition(to: 50×14)", "NavRoot.viewWillTransition(to: 50×14)",
                "Child.alongside 48×12", "Nav.alongside 48×11", "NavRoot.alongside 48×10",
                "Child.transition completed 48×12", "Nav.transition completed 48×11", "NavRoot.transition completed 48×10",
            ])
            #expect(log.filter { $0.hasPrefix("NavRoot.viewWillTransition") }.count == 2, "one transition per resize")
            #expect(inOrder(log, "Pushed1.viewWillAppear", "Child.viewWillTransition(to: 44×12)", "Pushed1.size 42×8"))
        }

        /// Issue 22: one focus for the whole tree, wherever its views are (docs/LIFECYCLE.md,
        /// "Focus across processes"). Tab and Shift-Tab go through the container's field and
        /// on into the child's, wrapping; a click moves focus into and out of the child;
        /// what is typed — Japanese too — reaches the focused field in whatever process; and
        /// the callback log is the same in every placement.
        @Test(.timeLimit(.minutes(1)))
        func focusAndTypingCrossIntoAChildAsInOneTree() async throws {
            let a = Point(x: 3, y: 0), b = Point(x: 3, y: 2)
            let log = try await sameLogInEveryPlacement(
                root: { ParityFocusContainer(registry: $0) }, placed: (className: "ParityForm", id: "Child")
            ) { run in
                let w = run.window
                #expect(w.key(.tab) == .handled)
                #expect(w.type("x") == [.handled])
                #expect(w.key(.tab) == .handled, "\(run.placement): Tab into the child")
                // The child's commands first, wherever it runs; its F2 hides the container's.
                #expect(w.activeKeyCommands.map { "\($0.key) \($0.title) \($0.owner)" } == ["F2 Clear Child", "F1 Help Container"], "\(run.placement)")
                #expect(w.key(.f2) == .handled)
                #expect(w.type("日本") == [.handled, .handled], "\(run.placement)")
                #expect(w.key(.tab) == .handled)
                #expect(w.type("z") == [.handled])
                #expect(w.key(.tab) == .handled, "\(run.placement): Tab out of the child, wrapping")
                #expect(w.key(.tab, modifiers: .shift) == .handled, "\(run.placement): Shift-Tab into the child's last")
                #expect(w.touch(.began, at: b) && w.touch(.ended, at: b))
                #expect(w.touch(.began, at: a) && w.touch(.ended, at: a))
                #expect(w.type("!") == [.handled])
            }
            let focus = log.filter { $0.contains(" focused") || $0.contains(" resigned") || $0.contains(" = ") || $0.hasSuffix("clear") }
            #expect(focus == [
                "Container.a focused", "Container.a = x", "Container.a resigned",
                "Child.b focused", "Child.clear", "Child.b = 日", "Child.b = 日本", "Child.b resigned",
                "Child.c focused", "Child.c = z", "Child.c resigned",
                "Container.a focused", "Container.a resigned",
                "Child.c focused", "Child.c resigned",
                "Child.b focused", "Child.b resigned",
                "Container.a focused", "Container.a = x!",
            ])
        }

        /// Issue 22: press phases cross into a child as they go in one tree (docs/LIFECYCLE.md,
        /// "Keys", press phases): a repeat types once more into the child's focused field, a
        /// release types nothing and is unhandled, a command fires on press and repeat but
        /// not on release — the same in every placement.
        @Test(.timeLimit(.minutes(1)))
        func pressRepeatAndReleaseCrossIntoAChildAsInOneTree() async throws {
            let log = try await sameLogInEveryPlacement(
                root: { ParityFocusContainer(registry: $0) }, placed: (className: "ParityForm", id: "Child")
            ) { run in
                let w = run.window
                #expect(w.key(.tab) == .handled && w.key(.tab) == .handled, "\(run.placement): Tab into the child")
                #expect(w.key(KeyPress(text: "k")) == .handled)
                #expect(w.key(KeyPress(text: "k", phase: .repeated)) == .handled)
                guard case .unhandled(let why) = w.key(KeyPress(text: "k", phase: .ended)) else {
                    Issue.record("\(run.placement): a release was taken")
                    return
                }
                #expect(why.contains("k (release)"), "\(run.placement): \(why)")
                #expect(w.key(KeyPress(special: .f2)) == .handled)
                #expect(w.key(KeyPress(special: .f2, phase: .repeated)) == .handled)
                #expect(w.key(KeyPress(special: .f2, phase: .ended)) != .handled, "\(run.placement): F2 fired on release")
            }
            let typed = log.filter { $0.contains(" = ") || $0.hasSuffix("clear") }
            #expect(typed == ["Child.b = k", "Child.b = kk", "Child.clear", "Child.clear"])
        }

        /// Issue 22: the mouse wheel scrolls the list under the pointer, wherever it runs —
        /// into the child's tree as a `scroll` message — and at the top, where nothing
        /// scrolls that way, it is unhandled (docs/LIFECYCLE.md, "The mouse wheel").
        @Test(.timeLimit(.minutes(1)))
        func theWheelScrollsTheListUnderThePointerInEveryPlacement() async throws {
            let overList = Point(x: 5, y: 5)
            let log = try await sameLogInEveryPlacement(
                root: { ParityContainer(registry: $0, childClass: "ParityList") }, placed: (className: "ParityList", id: "Child")
            ) { run in
                let w = run.window
                #expect(w.scroll(deltaY: 2, at: overList), "\(run.placement)")
                #expect(w.scroll(deltaY: -1, at: overList), "\(run.placement)")
                #expect(w.scroll(deltaY: -5, at: overList), "\(run.placement)")
                #expect(!w.scroll(deltaY: -1, at: overList), "\(run.placement): nothing scrolls up from the top")
            }
            #expect(log.filter { $0.contains("top line") } == ["Child.top line 6", "Child.top line 3", "Child.top line 0"])
        }

        /// Issue 22: only one process has a focused view, across a crash and restart of the
        /// child's (docs/LIFECYCLE.md, "Focus across processes"): the parent's focus leaves
        /// the lost child's viewport, the restarted child starts with nothing focused, and
        /// Tab brings focus back into it, where typing lands.
        @Test(.timeLimit(.minutes(1)))
        func aChildKilledWithFocusTakesItAndARestartedOneStartsWithout() async throws {
            let run = try await ParityRun(
                .ownProcess, root: { ParityFocusContainer(registry: $0) }, placed: (className: "ParityForm", id: "Child"))
            let w = run.window
            w.makeKeyAndVisible()
            w.key(.tab)
            w.key(.tab)
            #expect(w.focusedView?.identifier == "Child", "focus is in the child's tree")
            // Read before the kill: a killed process's last lines may never reach its file.
            #expect(await run.callbacks().contains("Child.b focused"))
            let restarted = try await run.killAndRestartChild {
                // A key for the process that just died: unhandled, with the reason, and
                // nothing else lost (issue 22, "keys for a process that just died").
                guard case .unhandled(let why) = w.key(KeyPress(text: "x")) else {
                    Issue.record("a key for a dead child's focused field was handled")
                    return
                }
                #expect(why.contains("Child"), "\(why)")
            }
            #expect(restarted, "the child's process came back")
            #expect(w.focusedView == nil, "the lost child took focus with it")
            #expect(w.key(.tab) == .handled)
            #expect(w.focusedView?.identifier == "a")
            #expect(w.key(.tab) == .handled)
            #expect(w.focusedView?.identifier == "Child")
            #expect(w.type("k") == [.handled])
            let log = await run.callbacks().filter { $0.hasPrefix("Child.b") || $0.hasPrefix("Container.a") }
            #expect(log.suffix(4) == [
                // The new process: nothing focused until Tab comes back into it.
                "Container.a focused", "Container.a resigned", "Child.b focused", "Child.b = k",
            ])
            await run.stop()
        }

        /// Issue 23: a tab in another process loads its view when an in-process one would —
        /// on its first selection — not when it becomes a child.
        @Test(.timeLimit(.minutes(1)))
        func aTabLoadsItsViewOnFirstSelectionInEveryPlacement() async throws {
            let log = try await sameLogInEveryPlacement(
                root: { ParityTabs(registry: $0, id: "Tabs") }, placed: (className: "ParityStep", id: "TabB"), parent: "Tabs"
            ) { run in
                #expect(run.root.children.count == 2)
                run.window.tap(at: Point(x: 30, y: 11))
            }
            #expect(inOrder(log, "TabB.didMove(toParent: Tabs)", "Tabs.viewDidAppear", "TabB.viewDidLoad", "TabB.viewWillAppear"))
        }

        /// `transition(from:to:)` (S3-4) from a child in another process to one in this
        /// process: the new one hears each phase first ("The order of a swap"), and the old
        /// one's whole tree disappears with it.
        @Test(.timeLimit(.minutes(1)))
        func aTransitionFromAContainerInAnotherProcessIsTheSameInEveryPlacement() async throws {
            let log = try await sameLogInEveryPlacement(root: Self.nested.root, placed: Self.nested.placed, grandchild: Self.nested.grandchild) { run in
                let leaving = run.container.child
                run.container.swapChild(duration: 0.3)
                // The parent reads the flags of a child in another process as of one in its own.
                #expect(leaving?.isMovingFromParent == true, "\(run.placement)")
                #expect(run.container.child?.isMovingToParent == true, "\(run.placement)")
                await run.settle(seconds: 0.6)
                #expect(leaving?.isMovingFromParent == false, "\(run.placement)")
            }
            #expect(inOrder(log, "Child.willMove(toParent: nil)", "Other.willMove(toParent: Container)",
                            "Other.viewWillAppear", "Other.isMovingToParent", "Child.viewWillDisappear", "Child.isMovingFromParent",
                            "Nav.viewWillDisappear", "NavRoot.viewWillDisappear",
                            "Other.viewDidAppear", "Child.viewDidDisappear", "Nav.viewDidDisappear", "NavRoot.viewDidDisappear",
                            "Child.didMove(toParent: nil)", "Other.didMove(toParent: Container)"))
        }

        /// Rule 8: the container taken out of the window while its `transition(from:to:)`
        /// runs — the one coming in is cancelled to disappeared, the one going out (in
        /// another process, with its tree) finishes disappearing, and no did comes after.
        @Test(.timeLimit(.minutes(1)))
        func aContainerLeavingTheWindowMidTransitionTakesBothChildrenWithIt() async throws {
            let log = try await sameLogInEveryPlacement(root: Self.nested.root, placed: Self.nested.placed, grandchild: Self.nested.grandchild) { run in
                run.container.swapChild(duration: 0.3)
                run.window.rootViewController = nil
                await run.settle(seconds: 0.6)
            }
            #expect(inOrder(log, "Other.viewWillAppear", "Child.viewWillDisappear", "Container.viewWillDisappear",
                            "Child.viewDidDisappear"))
            #expect(log.last(where: { $0.hasPrefix("Other.view") }) == "Other.viewDidDisappear")
            #expect(!log.contains("Other.viewDidAppear"))
            #expect(log.suffix(2) == ["Child.didMove(toParent: nil)", "Other.didMove(toParent: Container)"])
        }

        /// An override set for a child in another process reaches its whole tree there, and
        /// goes with the child: removed, it is dropped (LIFECYCLE.md, "Traits").
        @Test(.timeLimit(.minutes(1)))
        func aTraitOverrideForAChildInAnotherProcessReachesItsTreeAndLeavesWithIt() async throws {
            let log = try await sameLogInEveryPlacement(root: Self.nested.root, placed: Self.nested.placed, grandchild: Self.nested.grandchild) { run in
                guard let child = run.container.child else { return }
                run.container.setOverrideTraitCollection(TraitCollection(userInterfaceStyle: .light), forChild: child)
                child.willMove(toParent: nil)
                child.view.removeFromSuperview()
                child.removeFromParent()
                #expect(run.container.overrideTraitCollection(forChild: child) == nil)
            }
            let changes = log.drop { $0 != "NavRoot.size 38×8" }.filter { $0.hasSuffix("traitCollectionDidChange") }
            #expect(changes == ["Child.traitCollectionDidChange", "Nav.traitCollectionDidChange",
                                "NavRoot.traitCollectionDidChange", "TabB.traitCollectionDidChange"])
        }

        /// A page view controller in another process turns a page, and the terminal is
        /// resized while the page slides: the page is at the final size by its
        /// `viewDidAppear`, the page it left is released, alike in every placement
        /// (LIFECYCLE.md, "A resize during an animation is never lost"; S4-3).
        @Test(.timeLimit(.minutes(1)))
        func aPageTurnedInAnotherProcessDuringAResizeIsTheSameInEveryPlacement() async throws {
            let log = try await sameLogInEveryPlacement(
                root: { ParityContainer(registry: $0, childClass: "ParityPages") }, placed: (className: "ParityPages", id: "Child")
            ) { run in
                run.window.tap(at: Point(x: 2, y: 2))
                run.window.resize(to: Size(width: 44, height: 12))
                await run.settle()
            }
            #expect(inOrder(log, "Page2.viewWillAppear", "Page1.viewWillDisappear", "Child.viewWillTransition(to: 44×12)",
                            "Page2.viewDidAppear", "Page2.size 42×10", "Page1.viewDidDisappear",
                            "Page2.didMove(toParent: Child)", "Page1.willMove(toParent: nil)", "Page1.didMove(toParent: nil)"))
        }

        /// Rule 8 with the controller pushed in another process: switched away mid-push, its
        /// tab takes it along, a resize meanwhile reaches it, and it appears again with its
        /// tab — at the final size.
        @Test(.timeLimit(.minutes(1)))
        func aControllerPushedInAnotherProcessFollowsItsTabMidPush() async throws {
            let log = try await sameLogInEveryPlacement(
                root: { ParityTabs(registry: $0, id: "Tabs") }, placed: (className: "ParityPushed", id: "Pushed1"), parent: "Nav"
            ) { run in
                run.window.tap(at: Point(x: 1, y: 2))
                run.window.resize(to: Size(width: 44, height: 12))
                run.window.tap(at: Point(x: 30, y: 11))
                await run.settle()
                run.window.tap(at: Point(x: 5, y: 11))
            }
            #expect(inOrder(log, "Pushed1.viewDidLoad", "NavRoot.viewWillDisappear", "Pushed1.viewWillAppear", "Pushed1.isMovingToParent",
                            "Pushed1.viewWillTransition(to: 44×12)", "TabB.viewWillAppear", "Nav.viewWillDisappear",
                            "Pushed1.viewWillDisappear", "Nav.viewDidDisappear", "Pushed1.viewDidDisappear",
                            "Pushed1.didMove(toParent: Nav)",
                            "Nav.viewWillAppear", "Pushed1.viewWillAppear", "Nav.viewDidAppear", "Pushed1.viewDidAppear", "Pushed1.size 44×10"))
        }
    }
}
