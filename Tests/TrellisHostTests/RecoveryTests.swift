import Foundation
import Testing
import TrellisLog

/// After any process restarts — the compositor, the root — the screen and the tree agree
/// again (issue 19, "Recovery is complete"). Through `trellis` alone, as in
/// SessionEndToEndTests; nested in `MultiProcessTests`, whose sessions run one at a time.
extension MultiProcessTests {
    @Suite(.timeLimit(.minutes(2))) struct RecoveryTests {
        /// Issue 19, finding 4: a restarted compositor showed a blank screen, because
        /// hosts only ever send what changed.
        @Test func aRestartedCompositorShowsTheWholeScreenAgain() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/parity.yaml")
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "15").status == 0)
            #expect(try s.cli("wait", "--idle").status == 0)
            let before = try s.cli("screen").output
            let compositor = try #require(try s.state().members.first { $0.id == "compositor" })
            #expect(CLISession.isOurs(compositor.pid, root: s.root))
            kill(compositor.pid, SIGKILL)
            #expect(try await s.until { try s.state().members.first { $0.id == "compositor" }.map { $0.restarts == 1 && $0.pid > 0 } ?? false })
            #expect(try s.cli("wait", "--text", "leaf", "--timeout", "10").status == 0)
            #expect(try s.cli("wait", "--text", "leave", "--timeout", "10").status == 0)
            #expect(try s.cli("wait", "--idle").status == 0)
            #expect(try s.cli("screen").output == before)
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }

        /// Issue 19, finding 3: after the root restarted the old tab's content stayed on
        /// screen, two tabs were "appeared", and a tap on the visible button reached the
        /// other tab's child. The dead root's placements go with it, and the processes
        /// below it restart with it, so the new root's tree is the one shown.
        @Test func aRestartedRootShowsItsOwnTabAndTheTreeAgrees() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/demo.yaml")
            #expect(try s.cli("wait", "--text", "000 circle", "--timeout", "20").status == 0)
            _ = try s.cli("tap", "--text", "001 embed")
            #expect(try s.cli("wait", "--text", "Sub1", "--timeout", "10").status == 0)
            let root = try #require(try s.state().members.first { $0.id == "Demo" })
            #expect(CLISession.isOurs(root.pid, root: s.root))
            kill(root.pid, SIGKILL)
            #expect(try await s.until {
                try s.state().members.filter { $0.role != "compositor" }.allSatisfy { $0.restarts == 1 && $0.pid > 0 }
            })
            // The new root shows its first tab, drawn by a new Seed000.
            #expect(try s.cli("wait", "--text", "tap me", "--timeout", "15").status == 0)
            #expect(try s.cli("wait", "--idle").status == 0)
            let screen = try s.cli("screen").output
            #expect(!screen.contains("Sub1"), "\(screen)")
            let tree = try s.cli("tree").output
            let appearedSeeds = tree.split(separator: "\n").filter { $0.contains("  Seed0") && $0.contains("appeared") && !$0.contains("disappeared") }
            #expect(appearedSeeds.count == 1 && appearedSeeds.first?.contains("Seed000") == true, "\(tree)")
            let decisions = try s.cli("logs", "--kind", "supervisor").output
            #expect(decisions.contains("restarting Seed001 (below Demo"))
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }
    }
}
