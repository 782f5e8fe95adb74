import Foundation
import Testing
import TrellisClient

/// The dashboard under its supervisor, headless, driven through `SessionClient` (issue
/// 21): the counter counts, the log lives in its own process and ticks by itself, and a
/// counter killed outright comes back with its count while the rest of the screen stays.
@Suite(.serialized, .timeLimit(.minutes(2))) struct DashboardTests {
    @Test func aTapOnPlusOneCounts() async throws {
        let session = try DashboardSession()
        defer { session.stop() }
        let app = try await session.attach()
        try await app.wait(forText: "count: 0", timeout: .seconds(20))
        try await app.tap(text: "+1")
        try await app.tap(text: "+1")
        try await app.wait(forText: "count: 2")
        await app.close()
    }

    @Test func theLogShowsItsOwnLifecycleAndTaps() async throws {
        let session = try DashboardSession()
        defer { session.stop() }
        let app = try await session.attach()
        try await app.wait(forText: "viewDidAppear", timeout: .seconds(20))
        // A tap on a row chooses it: the table tells its delegate, which logs it.
        try await app.tap(text: "viewDidAppear")
        try await app.wait(forText: "chose viewDidAppear")
        await app.close()
    }

    /// Issue 22: a click on the log's filter field focuses it in the log's own process,
    /// and what is typed at the terminal goes there: only the lines that contain it stay.
    @Test func typingInTheFilterKeepsTheLinesThatMatch() async throws {
        let session = try DashboardSession()
        defer { session.stop() }
        let app = try await session.attach()
        try await app.wait(forText: "tick 1", timeout: .seconds(20))
        try await app.tap(text: "filter")
        try await app.type("tick")
        try await app.wait(forText: "tick", timeout: .seconds(5))
        // The lifecycle lines are filtered out; new ticks keep coming in.
        try await app.wait(forText: "tick 3", timeout: .seconds(10))
        #expect(try await !app.screen().contains("viewDidAppear"))
        await app.close()
    }

    /// Issue 21: a label a timer changes is on the composed screen with no input.
    @Test func theLogTicksWithNoInput() async throws {
        let session = try DashboardSession()
        defer { session.stop() }
        let app = try await session.attach()
        try await app.wait(forText: "tick 2", timeout: .seconds(20))
        await app.close()
    }

    @Test func aCounterKilledOutrightComesBackAndTheLogStays() async throws {
        let session = try DashboardSession()
        defer { session.stop() }
        let app = try await session.attach()
        try await app.wait(forText: "count: 0", timeout: .seconds(20))
        try await app.tap(text: "+1")
        try await app.tap(text: "+1")
        try await app.tap(text: "+1")
        try await app.wait(forText: "count: 3")
        try await app.wait(forText: "viewDidAppear")
        try await app.tap(text: "viewDidAppear")
        try await app.wait(forText: "chose viewDidAppear")
        // The saved count reaches the parent's process at the end of the tap's turn.
        try await Task.sleep(for: .milliseconds(300))
        let counter = try session.pid(of: "Counter")
        kill(counter, SIGKILL)
        try await session.until { (try? session.pid(of: "Counter")).map { $0 != counter && $0 > 0 } ?? false }
        // The restarted counter draws again, with its count; the log's process never stopped.
        try await app.wait(forText: "count: 3", timeout: .seconds(15))
        #expect(try await app.screen().contains("chose viewDidAppear"))
        await app.close()
    }
}

/// One `trellis up dashboard.yaml --headless` in a private run root.
final class DashboardSession {
    let root = "/tmp/dashboard-test-\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
    let session = "dash"
    private let up: Process

    /// This package's directory, where dashboard.yaml is.
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `trellis` built in the Trellis checkout this package sits in, else the one on PATH.
    static func trellis() throws -> URL {
        let candidates = [package.appendingPathComponent("../../.build/debug/trellis").standardizedFileURL.path]
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/trellis" }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw DashboardTestError("no trellis on PATH or in ../../.build/debug: build Trellis first (`swift build` there)")
        }
        return URL(fileURLWithPath: found)
    }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        up = Process()
        up.executableURL = try Self.trellis()
        up.arguments = ["up", Self.package.appendingPathComponent("dashboard.yaml").path, "--headless",
                        "--session", session, "--run-root", root]
        up.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: "\(root)/up.err", contents: nil)
        up.standardError = FileHandle(forWritingAtPath: "\(root)/up.err")
        try up.run()
    }

    /// Attaches to the session; if `trellis up` gave up instead, says what it printed
    /// (a scene it refused, an app it could not find).
    func attach() async throws -> SessionClient {
        do { return try await SessionClient.attach(session: session, root: root, timeout: .seconds(20)) } catch {
            let printed = (try? String(contentsOfFile: "\(root)/up.err", encoding: .utf8)) ?? ""
            throw DashboardTestError("\(error)\ntrellis up \(up.isRunning ? "is running" : "has exited"); it printed:\n\(printed)")
        }
    }

    /// The pid the supervisor recorded for `id` (0 while it is restarting).
    func pid(of id: String) throws -> Int32 {
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(root)/\(session)/session.json"))
        let state = try JSONDecoder().decode(State.self, from: data)
        guard let member = state.members.first(where: { $0.id == id }) else { throw DashboardTestError("no \(id) in session.json") }
        return member.pid
    }

    private struct State: Decodable {
        struct Member: Decodable { let id: String; let pid: Int32 }
        let members: [Member]
    }

    /// Polls `condition` for up to 15 s.
    func until(_ condition: () throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            if try condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw DashboardTestError("timed out")
    }

    /// SIGTERM to the supervisor stops the tree in order; then the run root goes.
    func stop() {
        if up.isRunning { up.terminate() }
        up.waitUntilExit()
        try? FileManager.default.removeItem(atPath: root)
    }
}

struct DashboardTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
