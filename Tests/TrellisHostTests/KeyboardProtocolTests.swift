#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import Testing
import TrellisLog

/// Issue 22, docs/TERMINAL.md "Keyboard protocol": the compositor in a terminal this
/// test plays — a pseudo-terminal whose other end the test reads and writes — asks for
/// the kitty keyboard protocol, pushes its flags only when the terminal answers for it,
/// delivers press, repeat and release to a text field in a child process, works with
/// legacy bytes when the terminal does not answer, and pops the flags on its way out.
///
/// Nested in `MultiProcessTests` so that its `.serialized` runs these one at a time with
/// the other multi-process tests.
extension MultiProcessTests {
    @Suite struct KeyboardProtocolTests {
        /// Container (ParityFocusContainer, field `a`) with its child ParityForm (fields `b`
        /// and `c`) in a process of its own, under a compositor on `terminal`.
        static func start(_ s: MultiProcessTests.Session, _ terminal: ScriptedTerminal) throws -> Process {
            let compositor = Process()
            compositor.executableURL = try BuiltProducts.binary("trellis-compositor")
            compositor.arguments = ["--root", "Container", "--session", s.run.session, "--run-root", s.root]
            compositor.standardInput = try terminal.slave()
            compositor.standardOutput = try terminal.slave()
            compositor.standardError = FileHandle.nullDevice
            compositor.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
            try compositor.run()
            s.processes.append(compositor)
            try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityFocusContainer", "--parent", "compositor",
                "--endpoint", try s.endpoint("compositor"), "--remote-child", "ParityForm",
            ])
            try s.launch("trellis-app", ["--host", "Child", "--class", "ParityForm", "--parent", "Container", "--endpoint", try s.endpoint("Container")])
            return compositor
        }

        /// The compositor's log lines for typed keys nothing took, with the root's reason.
        static func unhandledKeys(_ s: MultiProcessTests.Session, until count: Int, seconds: Int = 10) async throws -> [String] {
            var reader = LogReader(directory: s.run.logs)
            var reasons: [String] = []
            let deadline = ContinuousClock.now + .seconds(seconds)
            while reasons.count < count && ContinuousClock.now < deadline {
                reasons += reader.readNew()
                    .filter { $0.host == "compositor" && $0.kind == "key" && $0.outcome == .dropped }
                    .compactMap(\.reason)
                try await Task.sleep(for: .milliseconds(50))
            }
            return reasons
        }

        /// SIGTERM to the compositor (ours: the process this test started), then the
        /// bytes it wrote on the way out.
        static func stop(_ compositor: Process, _ terminal: ScriptedTerminal) async throws -> String {
            let before = terminal.output.count
            compositor.terminate()
            let deadline = ContinuousClock.now + .seconds(10)
            while compositor.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(for: .milliseconds(100))
            return String(decoding: terminal.output.dropFirst(before), as: UTF8.self)
        }

        @Test(.timeLimit(.minutes(1)))
        func aTerminalThatAnswersGetsTheFlagsAndPressRepeatAndReleaseReachTheChildsField() async throws {
            let s = try MultiProcessTests.Session()
            let terminal = try ScriptedTerminal(columns: 40, rows: 12)
            defer { terminal.close() }
            do {
                let compositor = try Self.start(s, terminal)
                #expect(try await terminal.waitFor("\u{1B}[?u\u{1B}[c"), "the query never came: \(terminal.text)")
                #expect(!terminal.text.contains("\u{1B}[>"), "flags pushed before the terminal answered")
                terminal.send("\u{1B}[?0u\u{1B}[?62;22c")
                #expect(try await terminal.waitFor("\u{1B}[>7u"), "no push after the flags answer: \(terminal.text)")

                try await s.connect()
                _ = try await s.waitForScreen { $0.contains("b") }
                // Tab twice: field a, then the child's field b. Text keys are their text
                // under flags 7; Left is pressed, held (one repeat) and let go as kitty
                // sends it; then x goes in where the cursor is.
                terminal.send("\t")
                _ = try await s.waitForScreen { _ in true }
                terminal.send("\tqwe")
                terminal.send("\u{1B}[D\u{1B}[1;1:2D\u{1B}[1;1:3Dx")
                let screen = try await s.waitForScreen { $0.contains("qxwe") }
                #expect(screen.contains("qxwe"), "the press and the repeat move the cursor, the release does not:\n\(screen)")
                // The release went the key's way — into the child's tree, to its field b and
                // up — and nothing took it; the press and the repeat were taken.
                let unhandled = try await Self.unhandledKeys(s, until: 1)
                #expect(unhandled == ["unhandled: no responder took ← (release) (from the focused Child of Child up to the window)"], "\(unhandled)")

                let restore = try await Self.stop(compositor, terminal)
                let parts = restore.split(separator: "\u{1B}")
                let pop = parts.firstIndex(of: "[<u"), alternate = parts.firstIndex(of: "[?1049l")
                #expect(pop != nil && alternate != nil && pop! < alternate!, "the pop is not before leaving the alternate screen: \(parts)")
            } catch {
                await s.stop()
                throw error
            }
            await s.stop()
        }

        /// A terminal that does not answer the query (tmux without extended keys): keys
        /// typed before any answer are legacy bytes and work at once; the attributes
        /// answer alone settles it, and nothing is ever pushed.
        @Test(.timeLimit(.minutes(1)))
        func aTerminalThatDoesNotAnswerKeepsLegacyKeys() async throws {
            let s = try MultiProcessTests.Session()
            let terminal = try ScriptedTerminal(columns: 40, rows: 12)
            defer { terminal.close() }
            do {
                let compositor = try Self.start(s, terminal)
                #expect(try await terminal.waitFor("\u{1B}[?u\u{1B}[c"), "the query never came: \(terminal.text)")
                try await s.connect()
                _ = try await s.waitForScreen { $0.contains("b") }
                terminal.send("\t")
                _ = try await s.waitForScreen { _ in true }
                terminal.send("\tqq")
                let screen = try await s.waitForScreen { $0.contains("qq") }
                #expect(screen.contains("qq"), "legacy keys did not reach the field:\n\(screen)")
                // The screen shows the keys, so their answers are in: none was declined.
                #expect(try await Self.unhandledKeys(s, until: 1, seconds: 1).isEmpty, "a legacy key was not taken")

                terminal.send("\u{1B}[?62;22c")
                terminal.send("w")
                let after = try await s.waitForScreen { $0.contains("qqw") }
                #expect(after.contains("qqw"), "\(after)")
                #expect(!terminal.text.contains("\u{1B}[>"), "flags pushed to a terminal that did not answer for them")

                let restore = try await Self.stop(compositor, terminal)
                // Popped all the same: harmless with nothing pushed (docs/TERMINAL.md).
                #expect(restore.contains("\u{1B}[<u\u{1B}[?2004l") && restore.contains("\u{1B}[?1049l"), "\(restore)")
            } catch {
                await s.stop()
                throw error
            }
            await s.stop()
        }
    }
}

/// A pseudo-terminal whose master end this test holds: what the program on the slave
/// writes is collected by a thread of its own (a terminal always reads, or the program's
/// blocking writes at exit would stall), and `send` types into it.
final class ScriptedTerminal: @unchecked Sendable {
    // @unchecked: `master`, `path` and `thread` are set once, in init, before the thread
    // starts; `collected` is a Mutex; `reading` is an Atomic.
    private let master: Int32
    private let path: String
    private let collected = Mutex<[UInt8]>([])
    private let reading = Atomic<Bool>(true)
    private var thread: Thread?

    init(columns: UInt16, rows: UInt16) throws {
        // posix_openpt and friends are not exported to Swift; these are their ioctls
        // (Linux: TIOCSPTLCK unlocks the slave, TIOCGPTN names it).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0 && ioctl(master, 0x8004_5430, &number) == 0)
        path = "/dev/pts/\(number)"
        var window = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
        try #require(ioctl(master, UInt(TIOCSWINSZ), &window) == 0)
        let thread = Thread { [self] in collect() }
        self.thread = thread
        thread.start()
    }

    /// A descriptor of the slave for a child's standard input or output.
    func slave() throws -> FileHandle {
        try #require(FileHandle(forUpdatingAtPath: path))
    }

    var output: [UInt8] { collected.withLock { $0 } }
    var text: String { String(decoding: output, as: UTF8.self) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits (at most 10 s) until the program has written `text`.
    func waitFor(_ text: String) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if self.text.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    func close() {
        reading.store(false, ordering: .releasing)
        while thread?.isFinished == false { usleep(1_000) }
        closeDescriptor(master)
    }

    private func collect() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while reading.load(ordering: .acquiring) {
            var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 20) > 0 else { continue }
            let n = read(master, &buffer, buffer.count)
            // EIO: no slave is open (before the program opens it, or after it exits).
            if n <= 0 { usleep(5_000); continue }
            collected.withLock { $0 += buffer[..<n] }
        }
    }
}

// close(2) under a name `ScriptedTerminal.close` does not shadow.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
