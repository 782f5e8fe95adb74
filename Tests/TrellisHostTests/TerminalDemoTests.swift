import Foundation
import Testing
import TrellisCanvas
import TrellisClient
import TrellisLog

/// What a newcomer does first, in a real terminal: `trellis up deploy/scenes/demo.yaml`
/// in a tmux pane, a click on a tab written as the terminal writes it, Ctrl-C. The pane
/// must show what the compositor composed, the click must switch tabs through the root
/// container (S3-1's tab bar routes it, the seed in its own process answers), and Ctrl-C
/// must stop the whole tree in order and give the shell its terminal back.
extension MultiProcessTests.TerminalModeTests {
    @Test(.timeLimit(.minutes(2)))
    func theDemoInARealTerminalUnderTheSupervisor() async throws {
        let root = "/tmp/trellis-td-\(getpid())"
        try RunDirectory.makePrivateDirectory(root)
        let session = "td-\(UInt16.random(in: 0...UInt16.max))"
        let package = BuiltProducts.package
        let trellis = try BuiltProducts.binary("trellis").path
        let tmux = TmuxServer()
        var members: [Int32] = []
        defer {
            tmux.shutdown()
            // Only what is still ours: pids wrap at 32768, a dead member's may be reused.
            for pid in members {
                let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { String(decoding: $0, as: UTF8.self) } ?? ""
                if cmdline.contains(root) { kill(pid, SIGKILL) }
            }
            try? FileManager.default.removeItem(atPath: root)
        }
        try tmux.run(["new-session", "-d", "-s", "trellis", "-x", "100", "-y", "30", """
            cd '\(package)' && '\(trellis)' up deploy/scenes/demo.yaml --session \(session) --run-root '\(root)'; \
            echo "exit=$?"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}icanon'; sleep 30
            """])
        let app: SessionClient
        do { app = try await SessionClient.attach(session: session, root: root, timeout: .seconds(30)) } catch {
            Issue.record("the pane shows:\n\((try? tmux.capture()) ?? "?")")
            throw error
        }
        let first = Self.normalise(try await app.wait(forText: "000 circle", timeout: .seconds(30)))
        #expect(try await tmux.waitForPane { $0 == first } == first)
        members = try SessionState.read(from: RunDirectory.find(session: session, root: root)).members.map(\.pid)
        #expect(members.count == 7)

        let tab = try #require(ScreenText.locate("001 embed", in: first))
        try tmux.run(["send-keys", "-t", "trellis", "-H"]
            + Self.sgrMouse(pressed: true, x: tab.x, y: tab.y) + Self.sgrMouse(pressed: false, x: tab.x, y: tab.y))
        try await app.wait(forText: "Sub1", timeout: .seconds(15))
        try await app.waitUntilIdle()
        let second = Self.normalise(try await app.screen())
        #expect(try await tmux.waitForPane { $0 == second } == second)
        await app.close()

        try tmux.run(["send-keys", "-t", "trellis", "C-c"])
        let restored = try await tmux.waitForPane(seconds: 20) { $0.contains("exit=") && $0.contains("icanon") }
        #expect(restored.contains("exit=0"), "\(restored)")
        #expect(try tmux.format("#{alternate_on} #{mouse_sgr_flag} #{mouse_button_flag}") == "0 0 0")
        #expect(members.allSatisfy { kill($0, 0) != 0 }, "a process of the tree is still running")
        let disappeared = (try? String(contentsOfFile: "\(root)/\(session)/session.json", encoding: .utf8)) ?? ""
        #expect(disappeared.contains("\"stopped\""))
    }
}
