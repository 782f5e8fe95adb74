import Foundation
import Testing
import TrellisCanvas
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisSeeds
import TrellisTransport
import TrellisWire

/// Where the container's child runs. The conformance scenarios run against every
/// placement that exists and must produce the same ordered callback log.
enum ChildPlacement: String, CaseIterable, CustomStringConvertible {
    case sameProcess, ownProcess
    var description: String { rawValue }
}

/// A container shown in a window, with its child placed as asked; the callback log is
/// read back from the routing log files of every process, merged by time.
@MainActor
final class ParityRun {
    let placement: ChildPlacement
    let run: RunDirectory
    let log: RoutingLog
    let window: Window
    let container: ParityContainer
    var childProcess: Process?
    var remote: RemoteChildren?
    /// Serves the main actor, as a host's loop does: the container's calls to its child
    /// wait by running it (`Switchboard`).
    let loop = IOLoop(mainQueueNamed: "parity-test")

    init(_ placement: ChildPlacement) async throws {
        self.placement = placement
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("trellis-parity-\(getpid())").path
        try RunDirectory.makePrivateDirectory(root)
        run = try RunDirectory.create(session: "\(placement)-\(UInt32.random(in: 0...UInt32.max))", root: root)
        log = try RoutingLog(directory: run.logs, host: "test")
        window = Window(size: Size(width: 40, height: 12), log: log, host: "test")
        let registry = ControllerRegistry()
        container = ParityContainer(registry: registry)
        switch placement {
        case .sameProcess:
            SeedControllers.register(in: registry)
        case .ownProcess:
            let endpoint = try run.ipcEndpoint("Container")
            let remote = try await RemoteChildren.bind(parent: "Container", endpoint: endpoint, loop: loop, log: log)
            self.remote = remote
            registry.register("ParityChild") { id in remote.proxy(for: id ?? "Child") }
            let p = Process()
            p.executableURL = try BuiltProducts.binary("trellis-app")
            p.arguments = [
                "--host", "Child", "--class", "ParityChild", "--parent", "Container", "--endpoint", endpoint,
                "--session", run.session, "--run-root", root,
            ]
            try p.run()
            childProcess = p
            let connected = await remote.waitForChild("Child")
            #expect(connected, "the child host did not connect within 10 s")
        }
        window.rootViewController = container
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

    func stop() async {
        if let p = childProcess, p.isRunning {
            p.terminate()
            p.waitUntilExit()
        }
        if let remote { await remote.link.close() }
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
            for placement in ChildPlacement.allCases {
                let run = try await ParityRun(placement)
                run.window.makeKeyAndVisible()
                // A tap on the child's "leave" button: the request travels up to the container,
                // which removes the child (S2-4), across the process boundary when there is one.
                #expect(run.window.touch(.began, at: Point(x: 3, y: 3)), "\(placement)")
                #expect(run.window.touch(.ended, at: Point(x: 3, y: 3)), "\(placement)")
                logs[placement] = await run.callbacks()
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
                "Container.viewDidAppear", "Child.viewDidAppear", "Leaf.viewDidAppear",
                "Child.willMove(toParent: nil)",
                "Child.viewWillDisappear", "Leaf.viewWillDisappear", "Child.viewDidDisappear", "Leaf.viewDidDisappear",
                "Child.didMove(toParent: nil)",
            ]
            #expect(logs[.sameProcess] == expected)
            #expect(logs[.ownProcess] == logs[.sameProcess])
        }
    }
}
