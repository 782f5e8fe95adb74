import Foundation
import Testing
import TrellisWire

/// The compositor in a real terminal: tmux, on a private server socket, runs
/// `trellis-compositor` without `--headless`; the root and its child run in their own
/// processes exactly as `MultiProcessTests` launches them. What tmux shows must be what
/// the control endpoint's `screen` says; a mouse click written into the pane must reach
/// the child's button through the root; SIGWINCH must resize the tree; SIGTERM must give
/// the shell its normal screen and cooked mode back (issue 4; docs/TERMINAL.md).
///
/// Nested in `MultiProcessTests` so that its `.serialized` runs these one at a time with
/// the other multi-process tests: each starts a whole session, and several at once on
/// a small machine starve one another's heartbeats.
extension MultiProcessTests {
    @Suite(.enabled(if: TmuxServer.path != nil, "tmux is not installed: the real-terminal tests need it (apt-get install tmux)"))
    struct TerminalModeTests {
        static func normalise(_ text: String) -> String {
            var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map { row in
                String(row.reversed().drop(while: { $0 == " " }).reversed())
            }
            while rows.last?.isEmpty == true { rows.removeLast() }
            return rows.joined(separator: "\n")
        }

        /// The process ids of `pid`'s children (Linux /proc).
        static func children(of pid: String) -> [Int32] {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }

        /// SGR mouse (mode 1006) report bytes for a button event at a 0-based cell, as hex
        /// for `tmux send-keys -H`: what a terminal writes when the user clicks there.
        static func sgrMouse(pressed: Bool, x: Int, y: Int) -> [String] {
            Array("\u{1B}[<0;\(x + 1);\(y + 1)\(pressed ? "M" : "m")".utf8).map { String(format: "%02x", $0) }
        }

        /// The pane's command: the compositor in a shell, so the pane outlives it and shows
        /// what it left behind: its exit status and whether the terminal is cooked again.
        /// Swift's crash backtracer is off so that a fatal signal ends the process at once.
        static func paneCommand(_ s: MultiProcessTests.Session) throws -> String {
            let compositor = try BuiltProducts.binary("trellis-compositor").path
            return """
                printf 'before trellis\\n'; SWIFT_BACKTRACE=enable=no '\(compositor)' --root Container \
                --session \(s.run.session) --run-root '\(s.root)'; \
                echo "exit=$?"; stty -a | tr ' ;' '\\n\\n' | grep -x -- '-\\{0,1\\}icanon'; sleep 30
                """
        }

        /// Starts tmux with the compositor and the two hosts; returns once the tree is drawn.
        static func start(_ s: MultiProcessTests.Session, _ tmux: TmuxServer) async throws -> String {
            try tmux.run(["new-session", "-d", "-s", "trellis", "-x", "40", "-y", "12", try paneCommand(s)])
            try s.launch("trellis-app", MultiProcessTests.childArguments + ["--endpoint", try s.endpoint("Container")])
            try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityContainer", "--parent", "compositor",
                "--endpoint", try s.endpoint("compositor"), "--remote-child", "ParityChild",
            ])
            try await s.connect()
            let screen = normalise(try await s.waitForScreen { $0.contains("leaf") && $0.contains("leave") })
            _ = try await tmux.waitForPane { $0 == screen }
            return screen
        }

        /// The compositor's process: the only child of the pane's shell.
        static func compositorPID(_ tmux: TmuxServer) throws -> Int32 {
            let shell = try tmux.format("#{pane_pid}")
            return try #require(children(of: shell).first, "no compositor under the pane's shell \(shell)")
        }

        /// Every way out restores the terminal: the signals a terminal session gets (SIGINT,
        /// SIGHUP; SIGTERM is checked above), a fatal signal (SIGABRT: restored by the
        /// handler, then the process dies of it, status 134), and the normal exit (an
        /// unhandled Ctrl+C, which raw mode delivers as a key).
        @Test(.timeLimit(.minutes(1)), arguments: ["SIGINT", "SIGHUP", "SIGABRT", "Ctrl+C"])
        func everyExitPathRestoresTheTerminal(_ ending: String) async throws {
            let s = try MultiProcessTests.Session()
            let tmux = TmuxServer()
            do {
                let screen = try await Self.start(s, tmux)
                #expect(try tmux.capture() == screen)
                #expect(try tmux.format("#{alternate_on}") == "1")
                switch ending {
                case "SIGINT": kill(try Self.compositorPID(tmux), SIGINT)
                case "SIGHUP": kill(try Self.compositorPID(tmux), SIGHUP)
                case "SIGABRT": kill(try Self.compositorPID(tmux), SIGABRT)
                default: try tmux.run(["send-keys", "-t", "trellis", "C-c"])
                }
                let restored = try await tmux.waitForPane { $0.contains("exit=") && $0.contains("icanon") }
                let status = ending == "SIGABRT" ? "exit=134" : "exit=0"
                #expect(restored.contains("before trellis") && restored.contains(status), "\(ending):\n\(restored)")
                #expect(restored.split(separator: "\n").contains("icanon"), "\(ending): raw mode left on:\n\(restored)")
                #expect(try tmux.format("#{alternate_on} #{mouse_sgr_flag} #{mouse_button_flag}") == "0 0 0", "\(ending)")
            } catch {
                tmux.shutdown()
                await s.stop()
                throw error
            }
            tmux.shutdown()
            await s.stop()
        }

        /// What this file's servers rely on when a test process dies before `shutdown`: the
        /// watchdog kills a server once its owner is gone (here a short `sleep` stands in
        /// for the test process), hanging up what runs in its pane.
        @Test(.timeLimit(.minutes(1)))
        func aServerOutlivesItsOwnerByAtMostItsWatchdogsPoll() async throws {
            let owner = Process()
            owner.executableURL = URL(fileURLWithPath: "/bin/sleep")
            owner.arguments = ["1"]
            try owner.run()
            let tmux = TmuxServer(owner: owner.processIdentifier)
            defer { tmux.shutdown() }
            try tmux.run(["new-session", "-d", "-s", "trellis", "-x", "20", "-y", "5", "sleep 60"])
            #expect((try? tmux.run(["has-session", "-t", "trellis"])) != nil)
            owner.waitUntilExit()
            var alive = true
            for _ in 0..<100 where alive {
                try await Task.sleep(for: .milliseconds(100))
                alive = (try? tmux.run(["list-sessions"]))?.contains("trellis") == true
            }
            #expect(!alive, "the server outlived its owner by 10 s")
        }

        @Test(.timeLimit(.minutes(1)))
        func theCompositorOwnsATerminalAndGivesItBack() async throws {
            let s = try MultiProcessTests.Session()
            let tmux = TmuxServer()
            do {
                // S2-2 (the container embeds its child, in another process): the composed
                // screen is in the terminal, cell for cell what the control endpoint reports.
                let screen = try await Self.start(s, tmux)
                let pane = try tmux.capture()
                #expect(pane == screen, "tmux shows:\n\(pane)\ncontrol says:\n\(screen)")
                #expect(try tmux.format("#{alternate_on} #{mouse_sgr_flag} #{mouse_button_flag}") == "1 1 1")

                // S2-4 through the terminal: a click on the child's "leave" button, written into
                // the pane as the terminal would, goes root → hit-test → child → request up →
                // the container removes the child. The screen changes as `screen` says.
                let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
                let buttonRow = try #require(rows.firstIndex { $0.contains("leave") }, "no button on the screen:\n\(screen)\npane:\n\(pane)")
                let buttonColumn = try #require(rows[buttonRow].range(of: "leave")).lowerBound
                let x = rows[buttonRow].distance(from: rows[buttonRow].startIndex, to: buttonColumn) + 1
                try tmux.run(["send-keys", "-t", "trellis", "-H"]
                    + Self.sgrMouse(pressed: true, x: x, y: buttonRow) + Self.sgrMouse(pressed: false, x: x, y: buttonRow))
                let after = Self.normalise(try await s.waitForScreen { !$0.contains("leaf") })
                #expect(!after.contains("leaf"), "\(after)")
                let paneAfter = try await tmux.waitForPane { $0 == after }
                #expect(paneAfter == after, "tmux shows:\n\(paneAfter)\ncontrol says:\n\(after)")

                // A terminal resize (SIGWINCH) is a size transition at the root, as `size` is.
                try tmux.run(["resize-window", "-t", "trellis", "-x", "30", "-y", "9"])
                let resized = try await s.waitForScreen { $0.split(separator: "\n", omittingEmptySubsequences: false).count == 9 }
                let resizedRows = resized.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(resizedRows.count == 9 && resizedRows.allSatisfy { $0.count <= 30 }, "\(resized)")

                // SIGTERM: the normal screen (with what was there before) and cooked mode return.
                kill(try Self.compositorPID(tmux), SIGTERM)
                let restored = try await tmux.waitForPane { $0.contains("exit=") && $0.contains("icanon") }
                #expect(restored.contains("before trellis") && restored.contains("exit=0"), "\(restored)")
                #expect(restored.split(separator: "\n").contains("icanon"), "raw mode left on:\n\(restored)")
                #expect(try tmux.format("#{alternate_on} #{mouse_sgr_flag} #{mouse_button_flag}") == "0 0 0")
            } catch {
                tmux.shutdown()
                await s.stop()
                throw error
            }
            tmux.shutdown()
            await s.stop()
        }
    }
}

/// One private tmux server, killed when the test ends whatever happened.
final class TmuxServer {
    static let path: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    let socket = "trellis-test-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"

    /// A test process that dies — a crash, a time limit — skips `shutdown`, and its server
    /// with the tree running in its pane would outlive it (one did, for an hour and more,
    /// under every benchmark run after it). A watchdog in a session of its own kills the
    /// server once `owner` is gone; the pane's `trellis up` takes the hang-up as a stop.
    init(owner: pid_t = getpid()) {
        let script = "while kill -0 \(owner) 2>/dev/null; do sleep 1; done; exec '\(Self.path ?? "tmux")' -L '\(socket)' kill-server"
        _ = try? Self.spawn(["/bin/sh", "-c", script], stdout: nil, newSession: true)
    }

    /// Runs tmux with `arguments` on this server; gives up (and kills it) after `timeout`.
    ///
    /// Spawned directly, with every signal unblocked and at its default: a test runs on a
    /// thread that blocks most signals, `Process` passes that mask on, and a tmux server
    /// started with SIGCHLD and SIGTERM blocked never answers its client.
    @discardableResult
    func run(_ arguments: [String], timeout: Double = 5) throws -> String {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TmuxError("pipe failed") }
        defer { close(fds[0]) }
        let pid: pid_t
        do {
            defer { close(fds[1]) }
            pid = try Self.spawn([Self.path!, "-L", socket, "-f", "/dev/null"] + arguments, stdout: fds)
        }
        // Read until the client exits (the server it may start closes its copy of the pipe).
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var status: Int32 = 0
        while true {
            var readable = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            if poll(&readable, 1, 20) > 0 {
                let n = read(fds[0], &buffer, buffer.count)
                if n > 0 { output += buffer[..<n] }
            }
            if waitpid(pid, &status, WNOHANG) == pid { break }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw TmuxError("tmux \(arguments.first ?? "") timed out after \(timeout) s")
            }
        }
        while true {
            var readable = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard poll(&readable, 1, 0) > 0 else { break }
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[..<n]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Starts `argv` with every signal unblocked and at its default, standard input and
    /// error on /dev/null, standard output the write end of `stdout` (or /dev/null);
    /// `newSession`: in a session of its own, out of reach of a signal to this process's
    /// group.
    #if os(Linux)
    /// glibc's POSIX_SPAWN_SETSID (2.26 and later), which its header shows only to C
    /// compiled with _GNU_SOURCE.
    private static let setsid: Int32 = 0x80
    #else
    private static let setsid = POSIX_SPAWN_SETSID
    #endif

    private static func spawn(_ argv: [String], stdout: [Int32]?, newSession: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
            posix_spawn_file_actions_addclose(&actions, stdout[0])
            posix_spawn_file_actions_addclose(&actions, stdout[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | (newSession ? Self.setsid : 0)))
        let cargv = argv.map { strdup($0) } + [nil]
        defer { for a in cargv { free(a) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, cargv, environ)
        guard spawned == 0 else { throw TmuxError("cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// The pane as text, each row without trailing blanks, trailing empty rows dropped.
    func capture() throws -> String { MultiProcessTests.TerminalModeTests.normalise(try run(["capture-pane", "-p", "-t", "trellis"])) }

    func format(_ f: String) throws -> String {
        try run(["display-message", "-p", "-t", "trellis", f]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `predicate` holds or `seconds` pass; returns the last capture.
    func waitForPane(seconds: Double = 10, _ predicate: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var last = ""
        while ContinuousClock.now < deadline {
            last = try capture()
            if predicate(last) { return last }
            try await Task.sleep(for: .milliseconds(50))
        }
        return last
    }

    /// Kills the server (and with it the pane's processes) and removes its socket file.
    func shutdown() {
        _ = try? run(["kill-server"], timeout: 5)
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        try? FileManager.default.removeItem(atPath: "\(directory)/tmux-\(getuid())/\(socket)")
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
