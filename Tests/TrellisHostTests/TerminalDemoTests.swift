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

// The demo from the keyboard in a real terminal (issue 22's "Done when": Tab through the
// demo, key commands in a footer, typing into a text field in a child process, a table
// scrolled by keys and the wheel — "in a real terminal (tmux) as well as headless"; and
// issue 23's alert and split view in the demo). Keys are `tmux send-keys` — the bytes a
// terminal writes for them — and the wheel an SGR mouse report; every step is checked
// on the pane, which shows what the terminal was sent.
extension MultiProcessTests.TerminalModeTests {
    /// Sends each tmux key name in turn, letting the tree go idle after each, as a person
    /// typing does: a Tab that moves focus into another process has landed before the
    /// Enter after it is read.
    static func press(_ keys: String..., in pane: DemoPane, app: SessionClient) async throws {
        for key in keys {
            try pane.tmux.run(["send-keys", "-t", "trellis", key])
            try await app.waitUntilIdle(quiet: .milliseconds(100))
        }
    }

    /// Waits for the pane to show every one of `texts`; returns it, recording what it
    /// showed instead.
    @discardableResult
    static func paneShows(_ texts: String..., in pane: DemoPane, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let shown = try await pane.tmux.waitForPane(seconds: 15) { screen in texts.allSatisfy { screen.contains($0) } }
        for t in texts where !shown.contains(t) { Issue.record("the pane does not show \(t.debugDescription):\n\(shown)", sourceLocation: sourceLocation) }
        return shown
    }

    /// Tab into seed 000's process, Enter on the circle; its alert opened and answered from
    /// the keyboard (issue 23, "a modal in a child process chosen from the keyboard").
    @Test(.timeLimit(.minutes(2)))
    func tabThroughTheDemoAndAnswerTheAlertFromTheKeyboardInARealTerminal() async throws {
        let pane = try DemoPane()
        defer { pane.cleanUp() }
        let app = try await pane.up()
        // The footer above the tab bar: F1 … F6.
        try await Self.paneShows("F1 circle  F2 embed  F3 files  F4 cycle  F5 paging  F6 keys", "tap me", in: pane)
        // Alert…, Sheet…, the circle: Enter taps it.
        try await Self.press("Tab", "Tab", "Tab", "Enter", in: pane, app: app)
        try await Self.paneShows("child ×1", in: pane)
        // Shift-Tab twice to Alert…; Enter opens it with Reset focused; → to Cancel, Enter.
        try await Self.press("BTab", "BTab", "Enter", in: pane, app: app)
        try await Self.paneShows("Reset the count?", in: pane)
        try await Self.press("Right", "Enter", in: pane, app: app)
        var shown = try await Self.paneShows("Alert: cancelled", in: pane)
        #expect(!shown.contains("Reset the count?") && shown.contains("child ×1"), "\(shown)")
        // Again; this time Enter chooses Reset; then once more, and Escape is Cancel.
        try await Self.press("Enter", "Enter", in: pane, app: app)
        shown = try await Self.paneShows("Alert: reset", "tap me", in: pane)
        try await Self.press("Enter", in: pane, app: app)
        try await Self.paneShows("Reset the count?", in: pane)
        try await Self.press("Escape", in: pane, app: app)
        shown = try await Self.paneShows("Alert: cancelled", in: pane)
        #expect(!shown.contains("Reset the count?"), "\(shown)")
        await app.close()
        try await pane.stopWithCtrlC()
    }

    /// F6 to the keys tab (its own process), typing into its filter field, the table
    /// scrolled by ↓ and Page Down and by the wheel, the scroll indicator beside it.
    @Test(.timeLimit(.minutes(2)))
    func theKeysTabFiltersAndScrollsItsTableInARealTerminal() async throws {
        let pane = try DemoPane()
        defer { pane.cleanUp() }
        let app = try await pane.up()
        try await Self.paneShows("F6 keys", in: pane)
        try await Self.press("F6", in: pane, app: app)
        var shown = try await Self.paneShows("304 characters", "Code   Ch Name", "┃", in: pane)
        // A click in the filter field (DemoKeys' process) focuses it: its ^F comes first.
        let field = try #require(ScreenText.locate("type to filter", in: shown))
        try pane.tmux.run(["send-keys", "-t", "trellis", "-H"]
            + Self.sgrMouse(pressed: true, x: field.x, y: field.y) + Self.sgrMouse(pressed: false, x: field.x, y: field.y))
        try await Self.paneShows("^F Filter  F1 circle", in: pane)
        try pane.tmux.run(["send-keys", "-t", "trellis", "-l", "letter ka"])
        shown = try await Self.paneShows("2 of 304 match", "HIRAGANA LETTER KA", "KATAKANA LETTER KA", in: pane)
        #expect(!shown.contains("U+2500"), "\(shown)")
        for _ in 0..<9 { try pane.tmux.run(["send-keys", "-t", "trellis", "BSpace"]) }
        try await Self.paneShows("304 characters", in: pane)
        try await app.waitUntilIdle(quiet: .milliseconds(100))
        // Tab to the table; ↓ selects the first row and the detail shows it.
        try await Self.press("Tab", "Down", in: pane, app: app)
        try await Self.paneShows("BOX DRAWINGS LIGHT HORIZONTAL", "UTF-8: E2 94 80", in: pane)
        // At 100×30 the table shows 25 rows under its header: two pages (24 rows each)
        // select row 48, U+2530, with row 24, U+2518, at the top.
        try await Self.press("NPage", "NPage", in: pane, app: app)
        shown = try await Self.paneShows("UTF-8: E2 94 B0", in: pane)
        func topRow(_ screen: String) -> String {
            String(screen.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).first ?? "")
        }
        #expect(topRow(shown).hasPrefix("U+2518"), "\(shown)")
        // One notch of the wheel down over the table (SGR button 65): three rows on, the
        // selection kept.
        let wheel = Array("\u{1B}[<65;11;10M".utf8).map { String(format: "%02x", $0) }
        try pane.tmux.run(["send-keys", "-t", "trellis", "-H"] + wheel)
        shown = try await pane.tmux.waitForPane(seconds: 15) { topRow($0).hasPrefix("U+251B") }
        #expect(topRow(shown).hasPrefix("U+251B") && shown.contains("UTF-8: E2 94 B0"), "\(shown)")
        await app.close()
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
