import Foundation
import Testing
import TrellisCanvas
import TrellisClient
import TrellisLog
import TrellisSession
import TrellisTestSupport

/// A session driven through `trellis` alone, as a person or a CI script would: up,
/// wait, screen, tap, logs, ps, down — and a killed host restarted under its policy.
/// The scene is deploy/scenes/parity.yaml: a container (own process) whose child runs
/// in another process and asks, by delegation, to leave (S2-4's order, S1-3's
/// delegation).
///
/// Nested in `MultiProcessTests`, whose `.serialized` runs every whole-session test one
/// at a time: several sessions at once on a 2-core machine starve each other's
/// heartbeats, and children are then taken for lost.
extension MultiProcessTests {
    @Suite(.timeLimit(.minutes(2))) struct SessionEndToEndTests {
        @Test func upTapWaitScreenLogsDown() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/parity.yaml")
            #expect(try s.cli("wait", "--controller", "Leaf", "--state", "appeared", "--timeout", "15").status == 0)
            // Appeared is a callback in the child's process; its frame reaches the
            // compositor a little later, so wait for the compose before reading the screen.
            #expect(try s.cli("wait", "--text", "leave", "--timeout", "15").status == 0)
            let screen = try s.cli("screen").output
            #expect(screen.contains("leaf") && screen.contains("leave"))

            let ps = try s.cli("ps").output
            #expect(ps.contains("running") && ps.contains("ParityChild") && ps.contains("ParityContainer") && ps.contains("compositor"))

            // With attributes: the child's blue background around its own label.
            let cells = try s.cli("screen", "--cells").output
            #expect(cells.contains("fg=default bg=4") && cells.contains("\"leave\""))

            // The tree across processes: Leaf, which Child adds in code, is inline in Child's process, inside Child's viewport.
            let tree = try s.cli("tree").output
            #expect(tree.contains("Container  ParityContainer  process"))
            #expect(tree.contains("    Leaf  ParityLeaf  inline"))
            #expect(tree.contains("  Child  ParityChild  process") && tree.contains("appeared"))

            // Issue 21: a tap that reaches the tree and that nothing handles says so, and
            // exits 2 — neither success nor the 1 of a tap that could not be delivered.
            let nothing = try s.cli("tap", "30,6")
            #expect(nothing.status == 2 && nothing.errors.contains("nothing handled the tap at 30,6: no view there takes it"), "\(nothing)")

            let tapped = try s.cli("tap", "--text", "leave").output
            #expect(tapped.contains("tapped \"leave\""))
            #expect(try s.cli("wait", "--gone", "leaf", "--timeout", "10").status == 0)
            // The tap's path: client → compositor → Container → Child, the request back up,
            // and the frames it caused, composed.
            let trace = String(tapped.split(separator: " ").last ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            // Each process writes its routing log off the hot path, a batch at a time: the
            // frame's line can be read before the Container's are, and a process's first
            // lines before its later ones — so the wait is for every hop checked below.
            let path = try await s.eventually { try s.cli("trace", trace).output } until: {
                $0.contains("was composed after") && $0.contains("in 4 processes") && $0.contains("Child → Container")
            }
            #expect(path.contains("compositor → Container") && path.contains("Container → Child") && path.contains("Child → Container"))
            #expect(path.contains("in 4 processes"))
            // Waiting for what never comes fails, and says what the screen showed.
            let late = try s.cli("wait", "--text", "never shown", "--timeout", "0.5")
            #expect(late.status != 0 && late.errors.contains("timed out"))

            let logs = try s.cli("logs", "--json", "--kind", "callback").output
            for callback in ["Child.viewWillDisappear", "Child.didMove(toParent: nil)", "Leaf.viewDidDisappear"] {
                #expect(logs.contains(callback), "\(callback) in the log")
            }

            let pids = try s.state().members.map(\.pid)
            #expect(try s.cli("down").output.contains("stopped"))
            #expect(try s.waitForUpToExit() == 0)
            // Nothing left running, and the tree disappeared before its processes stopped.
            #expect(pids.allSatisfy { kill($0, 0) != 0 })
            #expect(try s.state().state == "stopped")
            let callbacks = try s.cli("logs", "--json", "--kind", "callback").output
            #expect(callbacks.contains("Container.viewDidDisappear"))
            // Issue 21: a dozen `trellis` calls, one clients' log file between them.
            let files = try FileManager.default.contentsOfDirectory(atPath: "\(s.root)/\(s.session)/logs")
            #expect(files.contains(SessionClient.logFile) && !files.contains { $0.hasPrefix("client-") }, "\(files)")
            let both = try s.cli("logs", "--kind", "link", "--exclude-kind", "link")
            #expect(both.status != 0 && both.errors.contains("would show nothing"))
        }

        @Test func aKilledHostIsRestartedOneForOneAndTheLogSaysWhy() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/parity.yaml")
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "15").status == 0)
            let child = try #require(try s.state().members.first { $0.id == "Child" })
            let container = try #require(try s.state().members.first { $0.id == "Container" })
            kill(child.pid, SIGKILL)

            let restarted = try await s.until { try s.state().members.first { $0.id == "Child" }.map { $0.restarts == 1 && $0.pid > 0 } ?? false }
            #expect(restarted)
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "15").status == 0)
            // One-for-one: the container kept its process.
            #expect(try s.state().members.first { $0.id == "Container" }?.pid == container.pid)
            let decisions = try s.cli("logs", "--kind", "supervisor").output
            #expect(decisions.contains("Child (pid \(child.pid)) was killed by signal 9"))
            #expect(decisions.contains("restarting Child (one-for-one, restart 1"))
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        /// Issue 19, finding 2: a stopped (hung) child was never restarted, and its
        /// parent waited out the whole bound for it on every message. Now its parent sees
        /// it lost within the heartbeat timeout and shows a placeholder; the supervisor
        /// sees its pulse stop and, past `restart.hang`, kills it, and the policy restarts it.
        @Test func aStoppedHostIsAPlaceholderThenKilledAndRestarted() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = try s.variant(of: "parity", named: "hangs") {
                $0.replacingOccurrences(of: "period: 10", with: "period: 10\n  hang: 1")
            }
            try s.up(scene)
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "15").status == 0)
            let child = try #require(try s.state().members.first { $0.id == "Child" })
            #expect(CLISession.isOurs(child.pid, root: s.root))
            kill(child.pid, SIGSTOP)
            // Seen lost after the heartbeat timeout (600 ms): long before the hang limit.
            #expect(try s.cli("wait", "--text", "Child is not responding", "--timeout", "5").status == 0)
            let restarted = try await s.until { try s.state().members.first { $0.id == "Child" }.map { $0.restarts == 1 && $0.pid > 0 } ?? false }
            #expect(restarted)
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "15").status == 0)
            let decisions = try s.cli("logs", "--kind", "supervisor").output
            #expect(decisions.contains("Child (pid \(child.pid)) is hung: its main thread has not run for"))
            #expect(decisions.contains("Child (pid \(child.pid)) was killed by signal 9"))
            #expect(decisions.contains("restarting Child (one-for-one, restart 1"))
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        @Test func pastItsRestartIntensityTheSupervisorStopsTheTreeAndSaysWhy() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = try s.variant(of: "parity", named: "fragile") { $0.replacingOccurrences(of: "intensity: 3", with: "intensity: 0") }
            try s.up(scene)
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "15").status == 0)
            let members = try s.state().members
            kill(try #require(members.first { $0.id == "Child" }).pid, SIGKILL)
            #expect(try s.waitForUpToExit() == 1)
            #expect(try s.upErrors().contains("more than 0 restarts within 10.0 s"))
            #expect(members.allSatisfy { kill($0.pid, 0) != 0 })
            #expect(try s.state().reason?.contains("Child was killed by signal 9") == true)
        }

        @Test func oneForAllRestartsEveryHostAndTheTreeComesBack() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = try s.variant(of: "parity", named: "together") {
                $0.replacingOccurrences(of: "strategy: one-for-one", with: "strategy: one-for-all")
            }
            try s.up(scene)
            #expect(try s.cli("wait", "--controller", "Leaf", "--timeout", "15").status == 0)
            let before = try s.state().members
            kill(try #require(before.first { $0.id == "Child" }).pid, SIGKILL)

            let restarted = try await s.until {
                let now = try s.state().members
                return now.filter { $0.role != "compositor" }.allSatisfy { $0.restarts == 1 && $0.pid > 0 }
            }
            #expect(restarted)
            let after = try s.state().members
            // Every host is a new process; the compositor (and so the terminal) stayed.
            for id in ["Child", "Container"] {
                #expect(after.first { $0.id == id }?.pid != before.first { $0.id == id }?.pid)
            }
            #expect(after.first { $0.id == "compositor" }?.pid == before.first { $0.id == "compositor" }?.pid)
            #expect(try s.cli("wait", "--controller", "Leaf", "--timeout", "15").status == 0)
            #expect(try s.cli("screen").output.contains("leave"))
            let decisions = try s.cli("logs", "--kind", "supervisor").output
            #expect(decisions.contains("restarting Container (one-for-all"))
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        @Test func aMisspeltClassIsRefusedWithItsLineBeforeAnythingStarts() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = try s.variant(of: "parity", named: "typo") { $0.replacingOccurrences(of: "class: ParityChild", with: "class: ParityChld") }
            let source = try String(contentsOfFile: scene, encoding: .utf8)
            try s.up(scene)
            #expect(try s.waitForUpToExit() != 0)
            let line = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("ParityChld") }! + 1
            // The app by the path it was found at (`.build/debug` may be a symlink).
            let errors = try s.upErrors()
            #expect(errors.contains("\(scene):\(line): class: /") && errors.contains("/trellis-app has no controller class 'ParityChld'"), "\(errors)")
            #expect((try? s.state()) == nil, "a supervisor started something")
            // Issue 21: a refused scene leaves nothing behind, not even its run directory.
            #expect(!FileManager.default.fileExists(atPath: "\(s.root)/\(s.session)"))
        }

        /// Issue 21: `app:` names an app wherever it is — here a path relative to the scene
        /// file, to a binary neither beside `trellis` nor on PATH.
        @Test func aSceneRunsTheAppItNamesRelativeToItself() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let bin = "\(s.root)/app/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: "\(bin)/seeds", withDestinationPath: try BuiltProducts.binary("trellis-app").path)
            let scene = try s.variant(of: "parity", named: "elsewhere") { "app: app/bin/seeds\n" + $0 }
            try s.up(scene)
            #expect(try s.cli("wait", "--text", "leave", "--timeout", "15").status == 0)
            let started = try s.cli("logs", "--kind", "supervisor").output
            #expect(started.contains("app \(bin)/seeds") && started.contains("started root Container (ParityContainer)"))
            let container = try #require(try s.state().members.first { $0.id == "Container" })
            let command = try String(contentsOfFile: "/proc/\(container.pid)/cmdline", encoding: .utf8)
            #expect(command.hasPrefix("\(bin)/seeds\u{0}"), "\(command)")
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        @Test func aSceneNamingAnAppThatIsNowhereSaysWhereItLooked() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = try s.variant(of: "parity", named: "noapp") { "app: no-such-app\n" + $0 }
            try s.up(scene)
            #expect(try s.waitForUpToExit() != 0)
            let errors = try s.upErrors()
            #expect(errors.contains("\(scene):1: app: no executable 'no-such-app' beside trellis (") && errors.contains("or on PATH ("), "\(errors)")
            #expect(!FileManager.default.fileExists(atPath: "\(s.root)/\(s.session)"))
        }

        /// An actor-placed child with a child of its own, in a supervised session, drawn in
        /// its viewport, tapped through it and described under it:
        /// - issue 21: its child in a process of its own connects to a parent end that is
        ///   bound (it once dialled the actor's socket, which nobody bound, while the
        ///   supervisor said the tree was up);
        /// - issue 20, "One house": that end is the actor's own, on its own loop in its
        ///   parent's process — the tree is up only once the child said hello there; with an
        ///   inline child too, the actor runs on a loop of its own, made there by a registry
        ///   of its own, its frames on its own keyed link to the compositor; and an actor
        ///   child of its own runs on a loop of its own as well, with its own keyed link.
        @Test(arguments: ["process", "inline", "actor"])
        func anActorChildAndItsChildDrawAndAnswerInASession(leafPlacement: String) async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = "\(s.root)/actor-\(leafPlacement).yaml"
            try ActorTapScene.write(to: scene, leaf: leafPlacement)
            try s.up(scene)
            #expect(try s.cli("wait", "--text", "[taps 0]", "--timeout", "15").status == 0)
            // The screen can show it a moment before the supervisor has read as much.
            let decisions = try await s.eventually { try s.cli("logs", "--kind", "supervisor").output } until: { $0.contains("the tree is up") }
            #expect(decisions.contains("the tree is up: \(leafPlacement == "process" ? 3 : 2) processes"), "\(decisions)")
            #expect(try s.cli("tap", "--text", "[taps 0]").status == 0)
            #expect(try s.cli("wait", "--text", "[taps 1]", "--timeout", "10").status == 0)
            let tree = try s.cli("tree").output
            let leaf = leafPlacement == "inline" ? "    Leaf  TapLeaf" : "    Leaf  TapLeaf  \(leafPlacement)"
            #expect(tree.contains("  Middle  TapRelay  actor") && tree.contains(leaf), "\(tree)")
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        /// Issue 20: a process child of an actor, killed, is restarted by the policy as any
        /// process child, connects again to the actor's own parent end and is given its
        /// place again by its real parent there, on the actor's loop: it draws, answers a
        /// tap, and is described under the actor (docs/SCENES.md, "A process under an actor").
        @Test func aProcessChildOfAnActorKilledComesBackUnderTheActor() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = "\(s.root)/actor-restart.yaml"
            try ActorTapScene.write(to: scene, leaf: "process")
            try s.up(scene)
            #expect(try s.cli("wait", "--text", "[taps 0]", "--timeout", "15").status == 0)
            #expect(try s.cli("tap", "--text", "[taps 0]").status == 0)
            #expect(try s.cli("wait", "--text", "[taps 1]", "--timeout", "10").status == 0)
            let leaf = try #require(try s.state().members.first { $0.id == "Leaf" })
            let root = try #require(try s.state().members.first { $0.id == "Root" })
            try #require(CLISession.isOurs(leaf.pid, root: s.root), "Leaf's pid \(leaf.pid) is not this session's")
            kill(leaf.pid, SIGKILL)

            let restarted = try await s.until { try s.state().members.first { $0.id == "Leaf" }.map { $0.restarts == 1 && $0.pid > 0 && $0.pid != leaf.pid } ?? false }
            #expect(restarted)
            // A new process: its count starts again, drawn where its parent placed it.
            #expect(try s.cli("wait", "--text", "[taps 0]", "--timeout", "15").status == 0)
            #expect(try s.cli("tap", "--text", "[taps 0]").status == 0)
            #expect(try s.cli("wait", "--text", "[taps 1]", "--timeout", "10").status == 0)
            let again = try #require(try s.state().members.first { $0.id == "Leaf" })
            let tree = try s.cli("tree").output
            let line = try #require(tree.split(separator: "\n").first { $0.contains("Leaf  TapLeaf") }, "\(tree)")
            #expect(tree.contains("  Middle  TapRelay  actor") && line.hasPrefix("    Leaf") && line.contains("process pid \(again.pid)"), "\(tree)")
            // One-for-one: the actor's process, which holds its parent end, kept running.
            #expect(try s.state().members.first { $0.id == "Root" }?.pid == root.pid)
            let decisions = try s.cli("logs", "--kind", "supervisor").output
            #expect(decisions.contains("restarting Leaf (one-for-one, restart 1"), "\(decisions)")
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        /// Issue 21: a client that names no session, started right after `trellis up &`,
        /// attaches to the session being started — not to the newest run directory of
        /// one that has stopped, which is all there is for a moment.
        @Test func anUnnamedClientWaitsForTheSessionBeingStartedNotAStoppedOne() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let old = try RunDirectory.create(session: "stopped-before", root: s.root)
            try SessionState(supervisor: 1, scene: "old.yaml", state: "stopped", members: []).write(to: old)
            try s.up("deploy/scenes/parity.yaml")
            let app = try await SessionClient.attach(root: s.root, timeout: .seconds(20))
            #expect(await app.run.session == s.session)
            try await app.wait(forText: "leave", timeout: .seconds(15))
            await app.close()
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        /// S4-1 three processes deep: the demo root, seed 004's tab bar in its own process,
        /// and its first page style in a third. The grandchild is sized through two
        /// proxies and draws (a remote container's remote child was once told 0×0).
        @Test func aGrandchildInAThirdProcessIsSizedAndDraws() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let scene = try s.variant(of: "demo", named: "deep") { $0 + "  - id: Fixed\n    class: Seed004Fixed\n    parent: Seed004\n" }
            try s.up(scene)
            #expect(try s.cli("wait", "--text", "004 paging", "--timeout", "20").status == 0)
            _ = try s.cli("tap", "--text", "004 paging")
            #expect(try s.cli("wait", "--controller", "Fixed", "--timeout", "15").status == 0)
            #expect(try s.cli("wait", "--text", "page 0", "--timeout", "10").status == 0)
            let fixed = try #require(try s.state().members.first { $0.id == "Fixed" })
            let tree = try s.cli("tree").output
            let line = try #require(tree.split(separator: "\n").first { $0.contains("Fixed  ScrollPaging") })
            #expect(line.contains("process pid \(fixed.pid)") && line.contains("80×21"), "\(line)")
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        @Test func withoutATerminalUpAsksForHeadlessAndStartsNothing() throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            let r = try s.cli("up", "deploy/scenes/parity.yaml")
            #expect(r.status != 0 && r.errors.contains("standard output is not a terminal"))
            #expect((try? s.state()) == nil)
        }

        @Test func aSupervisorKilledOutrightLeavesNothingRunning() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/parity.yaml")
            #expect(try s.cli("wait", "--controller", "Leaf", "--timeout", "15").status == 0)
            let pids = try s.state().members.map(\.pid)
            s.killUp()
            #expect(try await s.until { pids.allSatisfy { kill($0, 0) != 0 } })
        }

        /// The demo a newcomer runs first, through `trellis` alone: every seed in its own
        /// process, a tab per seed (S0-1, S1-3, S4-1), a resize (traits follow).
        @Test func theDemoThroughTrellisAlone() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/demo.yaml")
            #expect(try s.cli("wait", "--text", "000 circle", "--timeout", "20").status == 0)
            #expect(try s.state().members.count == 8)
            // The tab bar is the root's; the circle is Seed000's own frame, from its process.
            #expect(try s.cli("wait", "--text", "tap me", "--timeout", "10").status == 0)

            _ = try s.cli("tap", "--text", "001 embed")
            #expect(try s.cli("wait", "--text", "Sub1", "--timeout", "10").status == 0)
            _ = try s.cli("tap", "--text", "next")
            #expect(try s.cli("wait", "--text", "MainDetail", "--timeout", "10").status == 0)
            #expect(try s.cli("wait", "--idle").status == 0)
            _ = try s.cli("tap", "--text", "‹ Back")
            #expect(try s.cli("wait", "--text", "Sub1", "--timeout", "10").status == 0)

            _ = try s.cli("tap", "--text", "004 paging")
            #expect(try s.cli("wait", "--controller", "Seed004", "--timeout", "10").status == 0)
            #expect(try s.cli("resize", "120x40").status == 0)
            #expect(try s.cli("wait", "--idle").status == 0)
            let wide = try s.cli("screen").output.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(wide.count >= 40 && wide.contains { $0.contains("004 paging") })

            // Issue 22: the tabs switch with keys, the root's commands, whichever process
            // holds focus; a key that nothing takes is answered with the reason.
            _ = try s.cli("key", "--special", "f3")
            #expect(try s.cli("wait", "--controller", "Seed002", "--timeout", "10").status == 0)
            let unhandled = try s.cli("key", "--special", "f12")
            #expect((unhandled.output + unhandled.errors).contains("unhandled: no responder took F12"), "\(unhandled)")
            // Unhandled, as an unhandled tap is: exit 2, not 1 (which is "not delivered").
            #expect(unhandled.status == 2, "\(unhandled)")
            // As a kitty-protocol terminal reports it: a release is a key of its own, which
            // no command takes (commands fire on press); modifiers as the terminal holds them.
            let released = try s.cli("key", "--special", "f3", "--phase", "release")
            #expect(released.status == 2 && (released.output + released.errors).contains("F3 (release)"), "\(released)")
            let shifted = try s.cli("key", "a", "--shift")
            #expect(shifted.status != 0 && shifted.errors.contains("--shift goes with --special"), "\(shifted)")
            #expect(try s.cli("key", "x", "--phase", "sideways").status != 0)
            _ = try s.cli("key", "--special", "f5")
            #expect(try s.cli("wait", "--idle").status == 0)
            // `trellis keys` lists what a key would reach now: the root's tab commands.
            let keys = try s.cli("keys")
            #expect(keys.status == 0 && keys.output.contains("F1") && keys.output.contains("— Demo"), "\(keys)")

            let tree = try s.cli("tree").output
            #expect(tree.contains("Seed004  Seed004  process") && tree.contains("h:regular"))
            #expect(try s.cli("logs", "--kind", "touch", "--controller", "Seed001").output.contains("delivered"))
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        /// The Swift test client: tap by text, wait for text, the ordered callback log.
        @Test func theSwiftClientTapsByTextAndReadsTheOrderedCallbackLog() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/parity.yaml")
            let app = try await SessionClient.attach(session: s.session, root: s.root)
            try await app.wait(forText: "leave", timeout: .seconds(15))
            try await app.tap(text: "leave")
            // Idle: every message the tap caused has been handled, frames included.
            try await app.waitUntilIdle(timeout: .seconds(10))
            #expect(try await !app.screen().contains("leaf"))
            let child = try await app.wait(forCallback: "Child.didMove(toParent: nil)", of: ["Child"])
            let leaving = Array(child.drop { !$0.hasPrefix("Child.willMove(toParent: nil") })
            #expect(leaving.map { String($0.prefix { $0 != "(" }) } == [
                "Child.willMove", "Child.viewWillDisappear", "Child.viewDidDisappear", "Child.didMove",
            ])
            await app.close()
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }
    }
}

/// One `trellis up --headless` in a private run root, and `trellis` commands against it.
final class CLISession {
    let root: String
    let session = "e2e-\(UInt32.random(in: 0...UInt32.max))"
    private var upProcess: Process?
    private let upErrorsPath: String

    init() throws {
        root = "/tmp/trellis-e2e-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        try RunDirectory.makePrivateDirectory(root)
        upErrorsPath = root + "/up.err"
    }

    /// deploy/scenes/BASE.yaml changed by `change`, written into this session's root.
    func variant(of base: String, named name: String, _ change: (String) -> String) throws -> String {
        let path = "\(root)/\(name).yaml"
        let source = try String(contentsOfFile: "\(BuiltProducts.package)/deploy/scenes/\(base).yaml", encoding: .utf8)
        try change(source).write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func up(_ scene: String) throws {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis")
        p.currentDirectoryURL = URL(fileURLWithPath: BuiltProducts.package)
        p.arguments = ["up", scene, "--headless", "--session", session, "--run-root", root]
        _ = FileManager.default.createFile(atPath: upErrorsPath, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: upErrorsPath)
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        upProcess = p
    }

    func killUp() { if let p = upProcess { kill(p.processIdentifier, SIGKILL) } }

    func upErrors() throws -> String { try String(contentsOfFile: upErrorsPath, encoding: .utf8) }

    /// Runs `trellis ARGS --session … --run-root …`, at most 30 s.
    @discardableResult
    func cli(_ args: String...) throws -> (status: Int32, output: String, errors: String) {
        let p = Process()
        p.executableURL = try BuiltProducts.binary("trellis")
        p.arguments = args + ["--session", session, "--run-root", root]
        let out = root + "/cli.out", err = root + "/cli.err"
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        p.standardOutput = FileHandle(forWritingAtPath: out)
        p.standardError = FileHandle(forWritingAtPath: err)
        try p.run()
        let deadline = Date().addingTimeInterval(30)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning { p.terminate(); throw CLIFailure("trellis \(args.joined(separator: " ")) did not finish in 30 s") }
        p.waitUntilExit()
        return (p.terminationStatus, try String(contentsOfFile: out, encoding: .utf8), try String(contentsOfFile: err, encoding: .utf8))
    }

    func state() throws -> SessionState { try SessionState.read(from: RunDirectory.find(session: session, root: root)) }

    /// The exit status of `trellis up`, waiting at most 20 s.
    func waitForUpToExit() throws -> Int32 {
        guard let p = upProcess else { throw CLIFailure("not up") }
        let deadline = Date().addingTimeInterval(20)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        guard !p.isRunning else { throw CLIFailure("trellis up did not exit within 20 s") }
        return p.terminationStatus
    }

    /// Runs `body` until its result satisfies `done` (logs are written within 50 ms), 10 s at most.
    func eventually(_ body: () throws -> String, until done: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(10)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try body()
            if done(last) { return last }
            try await Task.sleep(for: .milliseconds(100))
        }
        return last
    }

    /// Polls `condition` for up to 15 s.
    func until(_ condition: () throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if (try? condition()) == true { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Whether `pid` is a process of a session under `root` (its command line names it).
    static func isOurs(_ pid: Int32, root: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self).contains(root)
    }

    /// Whatever happened, nothing is left running.
    func cleanUp() {
        if let p = upProcess, p.isRunning {
            p.terminate()
            let deadline = Date().addingTimeInterval(10)
            while p.isRunning && Date() < deadline { usleep(10_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
        // Only processes still ours: pids wrap at 32768 here, and a pid from a stale
        // session.json may already belong to another test's process.
        for m in (try? state().members) ?? [] where m.pid > 0 && Self.isOurs(m.pid, root: root) { kill(m.pid, SIGKILL) }
        if ProcessInfo.processInfo.environment["TRELLIS_KEEP_RUN"] == nil { try? FileManager.default.removeItem(atPath: root) }
    }
}

struct CLIFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
