import Foundation
import Synchronization
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// A private run directory and routing log for one test, removed afterwards.
final class TestSession: Sendable {
    let run: RunDirectory
    let log: RoutingLog

    init(_ name: String = "t") throws {
        let root = "/tmp/trellis-test-\(getuid())-\(getpid())"
        run = try RunDirectory.create(session: "\(name)-\(UInt32.random(in: 0...UInt32.max))", root: root)
        log = try RoutingLog(directory: run.logs, host: "test")
    }

    func endpoint(_ name: String) throws -> String { try run.ipcEndpoint(name) }
    /// An endpoint inside this process, unique to the test: libzmq puts what is sent there
    /// straight into the receiver's queue, with no I/O thread in between.
    func inprocEndpoint(_ name: String) -> String { "inproc://\(run.session)-\(name)" }

    /// Every line this test's log holds so far.
    func records() -> [RoutingRecord] {
        log.flush()
        var reader = LogReader(directory: run.logs)
        return reader.readNew()
    }

    /// Waits (bounded) until the log's lines so far satisfy `predicate`.
    func wait(timeout: Duration = .seconds(5), until predicate: ([RoutingRecord]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(records()) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(records())
    }

    deinit {
        log.close()
        try? FileManager.default.removeItem(atPath: run.path)
    }
}

/// Collects what handlers see, from any thread, in order.
final class Recorder<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var all: [T] { items.withLock { $0 } }

    /// Waits (bounded) until `predicate` holds for what has been recorded.
    func wait(timeout: Duration = .seconds(5), until predicate: ([T]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(all) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return predicate(all)
    }
}

func fastOptions(localFastPath: Bool = false) -> LinkOptions {
    var o = LinkOptions()
    o.localFastPath = localFastPath
    o.heartbeatInterval = .milliseconds(50)
    o.heartbeatTimeout = .milliseconds(300)
    o.requestTimeout = .seconds(2)
    o.linger = .zero
    return o
}

/// Runs `body` while `loop` is held inside a job of its own, so that what arrives
/// meanwhile waits in its sockets; `body` starts once the loop is in that job (queued
/// only, a socket read in the same wake-up could still run first), and the loop is let
/// go however `body` ends (a loop left held would never shut down).
func whileHeld(_ loop: IOLoop, _ body: () async throws -> Void) async rethrows {
    let held = DispatchSemaphore(value: 0)
    await withCheckedContinuation { (entered: CheckedContinuation<Void, Never>) in
        loop.execute {
            entered.resume()
            held.wait()
        }
    }
    defer { held.signal() }
    try await body()
}
