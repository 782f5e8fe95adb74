import Foundation
import Testing
import TrellisCanvas
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// A whole session in separate processes: the compositor (headless), the root
/// controller's host, and a child's host; driven through the compositor's control
/// endpoint exactly as a test client would (issue 4's "seed scenarios with children in
/// separate processes, in headless mode").
@Suite(.serialized) struct MultiProcessTests {
    final class Session {
        let root: String
        let run: RunDirectory
        var processes: [Process] = []
        let loop = IOLoop(name: "client")
        let log: RoutingLog
        var client: Link?

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-mp-\(getpid())").path
            try RunDirectory.makePrivateDirectory(root)
            run = try RunDirectory.create(session: "mp-\(UInt32.random(in: 0...UInt32.max))", root: root)
            log = try RoutingLog(directory: run.logs, host: "client")
        }

        @discardableResult
        func launch(_ name: String, _ arguments: [String]) throws -> Process {
            let p = Process()
            p.executableURL = try BuiltProducts.binary(name)
            p.arguments = arguments + ["--session", run.session, "--run-root", root]
            try p.run()
            processes.append(p)
            return p
        }

        func endpoint(_ name: String) throws -> String { try run.ipcEndpoint(name) }

        func connect() async throws {
            let c = try await Link.connect(id: "client-test", parent: "control", endpoint: try endpoint("control"), loop: loop, log: log)
            client = c
            let deadline = ContinuousClock.now + .seconds(10)
            while await !c.connectedPeers.contains("control"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        func screen() async throws -> String {
            let answer = try await client!.request(.request(Request(name: "screen")))
            guard case .reply(let r) = answer.message else { return "" }
            return String(decoding: r.payload, as: UTF8.self)
        }

        /// Polls the screen until `predicate` holds or 20 s pass; returns the last screen.
        /// (Generous: a restarted process on a loaded 2-core CI machine is slow to start.)
        func waitForScreen(_ predicate: (String) -> Bool) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(20)
            var last = ""
            while ContinuousClock.now < deadline {
                last = try await screen()
                if predicate(last) { return last }
                try await Task.sleep(for: .milliseconds(50))
            }
            return last
        }

        /// Taps at a screen point; returns the root's answers (nil: handled, else the reply).
        @discardableResult
        func tap(_ x: Int32, _ y: Int32) async throws -> [Reply?] {
            var answers: [Reply?] = []
            for phase in [TouchInput.Phase.began, .ended] {
                let e = try await client!.request(.touch(TouchInput(phase: phase, tapCount: 1, pointer: 0, x: x, y: y, timestamp: 0)))
                if case .reply(let r) = e.message { answers.append(r) } else { answers.append(nil) }
            }
            return answers
        }

        /// Types `text` one character a key, as a terminal sends typing.
        func typeText(_ text: String) async throws {
            for c in text { _ = try await client!.request(.key(KeyPress(text: String(c)))) }
        }

        func stop() async {
            if let client { await client.close() }
            for p in processes.reversed() where p.isRunning {
                p.terminate()
                p.waitUntilExit()
            }
            log.close()
            loop.shutdown()
            if ProcessInfo.processInfo.environment["TRELLIS_KEEP_RUN"] == nil {
                try? FileManager.default.removeItem(atPath: run.path)
            } else {
                print("run directory kept: \(run.path)")
            }
        }
    }

    static let childArguments = ["--host", "Child", "--class", "ParityChild", "--parent", "Container"]

    /// Kill a child process mid-session: its viewport shows a placeholder, the rest of the
    /// tree keeps answering, and a restarted child gets its state back.
    @Test(.timeLimit(.minutes(1)))
    func aKilledChildIsAPlaceholderUntilItIsBack() async throws {
        let s = try Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "40x12"])
            let child = try s.launch("trellis-app", Self.childArguments + ["--endpoint", try s.endpoint("Container")])
            try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityContainer", "--parent", "compositor",
                "--endpoint", try s.endpoint("compositor"), "--remote-child", "ParityChild",
            ])
            try await s.connect()
            _ = try await s.waitForScreen { $0.contains("leaf") }

            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let placeholder = try await s.waitForScreen { $0.contains("Child is not responding") }
            #expect(placeholder.contains("Child is not responding"), "\(placeholder)")
            // The root still answers: a tap outside the child's viewport is routed and declined.
            let answers = try await s.tap(0, 0)
            #expect(answers.allSatisfy { $0?.status == .declined })

            try s.launch("trellis-app", Self.childArguments + ["--endpoint", try s.endpoint("Container")])
            let back = try await s.waitForScreen { $0.contains("leaf") && !$0.contains("not responding") }
            #expect(back.contains("leaf") && back.contains("leave"), "\(back)")
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    /// A host whose child never connects waits for it during bring-up, on its main
    /// thread, a bounded wait at a time — and the waits chain. SIGTERM must end it at once
    /// all the same: a supervisor stopping a session gives each process a few seconds.
    @Test(.timeLimit(.minutes(1)))
    func sigtermEndsAHostAtOnceWhileItWaitsForAChild() async throws {
        let s = try Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "40x12"])
            let host = try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityContainer", "--parent", "compositor",
                "--endpoint", try s.endpoint("compositor"), "--remote-child", "ParityChild",
            ])
            // Its bring-up reaches the child, which is never started, within a second; each
            // wait for it lasts 2 s.
            try await Task.sleep(for: .milliseconds(1500))
            #expect(host.isRunning)
            let sent = ContinuousClock.now
            host.terminate()
            host.waitUntilExit()
            let took = ContinuousClock.now - sent
            // Under the 2 s a wait lasts, with room for a loaded 2-core machine: a host that
            // finished its wait first would take longer.
            #expect(took < .milliseconds(1500), "the host took \(took) to end after SIGTERM")
            #expect(host.terminationReason == .exit && host.terminationStatus == 0)
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aTreeOfThreeProcessesComposesAndAnswersInput() async throws {
        let s = try Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "40x12"])
            // The child first: it connects to its parent's endpoint as soon as it exists.
            try s.launch("trellis-app", [
                "--host", "Child", "--class", "ParityChild", "--parent", "Container", "--endpoint", try s.endpoint("Container"),
            ])
            try s.launch("trellis-app", [
                "--host", "Container", "--class", "ParityContainer", "--parent", "compositor",
                "--endpoint", try s.endpoint("compositor"), "--remote-child", "ParityChild",
            ])
            try await s.connect()

            // The child's surface (another process) shows inside the container's viewport.
            let shown = try await s.waitForScreen { $0.contains("leaf") && $0.contains("leave") }
            let rows = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // Inside the viewport at (1, 1): the leaf label at (1, 1), the button at (1, 2).
            #expect(rows.count >= 4 && rows[2].hasPrefix("  leaf") && rows[3].contains("leave"), "\(shown)")

            // A tap on "leave": compositor → Container (hit-test) → Child (its button) → a
            // request back up → the container removes the child; its viewport empties.
            try await s.tap(3, 3)
            let after = try await s.waitForScreen { !$0.contains("leaf") }
            #expect(!after.contains("leaf"), "\(after)")
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }
}
