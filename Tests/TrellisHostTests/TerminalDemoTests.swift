import Foundation
import Testing
import TrellisCanvas
import TrellisClient
import TrellisLog
import TrellisSession

/// What a newcomer does first, in a real terminal: `trellis up deploy/scenes/demo.yaml`
/// in a tmux pane, a click on a tab written as the terminal writes it, Ctrl-C. The pane
/// must show what the compositor composed, the click must switch tabs through the root
/// container (S3-1's tab bar routes it, the seed in its own process answers), and Ctrl-C
/// must stop the whole tree in order and give the shell its terminal back.
extension MultiProcessTests.TerminalModeTests {
    @Test(.timeLimit(.minutes(2)))
    func theDemoInARealTerminalUnderTheSupervisor() async throws {
        let pane = try DemoPane()
        defer { pane.cleanUp() }
        let app = try await pane.up()
        let first = Self.normalise(try await app.wait(forText: "000 circle", timeout: .seconds(30)))
        #expect(try await pane.tmux.waitForPane { $0 == first } == first)
        #expect(pane.members.count == 8)

        let tab = try #require(ScreenText.locate("001 embed", in: first))
        try pane.tmux.run(["send-keys", "-t", "trellis", "-H"]
            + Self.sgrMouse(pressed: true, x: tab.x, y: tab.y) + Self.sgrMouse(pressed: false, x: tab.x, y: tab.y))
        try await app.wait(forText: "Sub1", timeout: .seconds(15))
        try await app.waitUntilIdle()
        let second = Self.normalise(try await app.screen())
        #expect(try await pane.tmux.waitForPane { $0 == second } == second)
        // Issue 22: the click carries a trace id from the terminal on, and `trellis trace
        // last` follows it to the frame it caused.
        var trace = ""
        for _ in 0..<50 where !trace.contains("was composed after") {
            trace = try pane.cli("trace", "last")
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(trace.hasPrefix("trace ") && trace.contains("touch") && trace.contains("was composed after"), "\(trace)")
        await app.close()
        try await pane.stopWithCtrlC()
    }

    /// Issue 19, finding 4: a compositor killed outright left the terminal raw, and the
    /// one restarted after it took that for the terminal's own state, so stopping the
    /// tree left the shell in raw mode. The supervisor gives it back as it found it.
    @Test(.timeLimit(.minutes(2)))
    func aCompositorKilledInATerminalIsRestartedAndTheShellGetsItsTerminalBack() async throws {
        let pane = try DemoPane()
        defer { pane.cleanUp() }
        let app = try await pane.up()
        _ = try await app.wait(forText: "000 circle", timeout: .seconds(30))
        await app.close()
        let compositor = try #require(try pane.state().members.first { $0.id == "compositor" })
        #expect(pane.isOurs(compositor.pid))
        kill(compositor.pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, (try? pane.state().members.first { $0.id == "compositor" }?.restarts) != 1 {
            try await Task.sleep(for: .milliseconds(50))
        }
        // The restarted compositor draws the whole screen again (every host redraws).
        let again = try await SessionClient.attach(session: pane.session, root: pane.root, timeout: .seconds(20))
        let screen = Self.normalise(try await again.wait(forText: "tap me", timeout: .seconds(20)))
        #expect(try await pane.tmux.waitForPane { $0 == screen } == screen)
        await again.close()
        try await pane.stopWithCtrlC()
    }
}

/// `trellis up` of the demo in a tmux pane of its own, in a private run root; the pane
/// shows, once the tree stops, its exit status and whether the terminal is cooked again.
final class DemoPane {
    let root = "/tmp/trellis-td-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
    let session = "td-\(UInt16.random(in: 0...UInt16.max))"
    let tmux = TmuxServer()
    private(set) var members: [Int32] = []

    init() throws {
        try RunDirectory.makePrivateDirectory(root)
    }

    func up() async throws -> SessionClient {
        let trellis = try BuiltProducts.binary("trellis").path
        try tmux.run(["new-session", "-d", "-s", "trellis", "-x", "100", "-y", "30", """
            cd '\(BuiltProducts.package)' && '\(trellis)' up deploy/scenes/demo.yaml --session \(session) --run-root '\(root)'; \
            echo "exit=$?"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}icanon'; sleep 30
            """])
        let app: SessionClient
        do { app = try await SessionClient.attach(session: session, root: root, timeout: .seconds(30)) } catch {
            Issue.record("the pane shows:\n\((try? tmux.capture()) ?? "?")")
            throw error
        }
        _ = try await app.wait(forText: "000 circle", timeout: .seconds(30))
        members = try state().members.map(\.pid)
        return app
    }

    func state() throws -> SessionState { try SessionState.read(from: RunDirectory.find(session: session, root: root)) }

    /// What `trellis ARGS` prints for this session, its errors after it.
    func cli(_ args: String...) throws -> String {
        let p = Process(), out = Pipe()
        p.executableURL = try BuiltProducts.binary("trellis")
        p.arguments = args + ["--session", session, "--run-root", root]
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text
    }

    /// Whether `pid` is still a process of this session (its command line names the root).
    func isOurs(_ pid: Int32) -> Bool {
        let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) } ?? ""
        return cmdline.contains(root)
    }

    /// Ctrl-C in the pane: the tree stops in order, and the shell has a cooked terminal
    /// in its normal screen with no mouse reporting.
    func stopWithCtrlC() async throws {
        let running = (try? state().members.map(\.pid)) ?? members
        try tmux.run(["send-keys", "-t", "trellis", "C-c"])
        let restored = try await tmux.waitForPane(seconds: 20) { $0.contains("exit=") && $0.contains("icanon") }
        #expect(restored.contains("exit=0"), "\(restored)")
        #expect(restored.split(separator: "\n").contains("icanon"), "the terminal is still raw:\n\(restored)")
        #expect(try tmux.format("#{alternate_on} #{mouse_sgr_flag} #{mouse_button_flag}") == "0 0 0")
        #expect(running.allSatisfy { kill($0, 0) != 0 }, "a process of the tree is still running")
        let stopped = (try? String(contentsOfFile: "\(root)/\(session)/session.json", encoding: .utf8)) ?? ""
        #expect(stopped.contains("\"stopped\""))
    }

    func cleanUp() {
        tmux.shutdown()
        // Only what is still ours: pids wrap at 32768, a dead member's may be reused.
        for pid in members + ((try? state().members.map(\.pid)) ?? []) where pid > 0 && isOurs(pid) { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: root)
    }
}
