import Foundation
import Synchronization
import TrellisControllers
import TrellisHost
import TrellisTransport
import TrellisWire

/// A host running `controller` on a main-queue loop in this test process, under a bare
/// parent link the test drives message by message: for tests of what a host does with
/// what its parent sends.
@MainActor
final class HostUnderTest {
    let test: PrivateRun
    let parentLoop = IOLoop(name: "parent")
    let loop = IOLoop(mainQueueNamed: "host")
    let parent: Link
    let host: ChildHost
    /// What the host sent its parent unasked (requests, posts), in order; answered ok.
    let received = Inbox()

    init(_ name: String, controller: ViewController) async throws {
        test = try PrivateRun(name)
        let endpoint = try test.run.ipcEndpoint("parent")
        let received = received
        parent = try await Link.bind(
            id: "Parent", endpoint: endpoint, loop: parentLoop, log: test.log, options: .sharingTheTestsMainActor,
            onMessage: { envelope, link in
                received.messages.withLock { $0.append(envelope.message) }
                if envelope.kind == .request { link.reply(to: envelope, Reply(status: .ok)) }
                return .handled
            })
        host = try await ChildHost.start(controller: controller, parent: "Parent", endpoint: endpoint, loop: loop, log: test.log)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !parent.isConnected(controller.id), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// Sends `message` to the host and returns its answer (nil: acknowledged).
    func send(_ message: Message) async throws -> Reply? {
        guard case .reply(let r) = try await parent.request(message, to: host.controller.id).message else { return nil }
        return r
    }

    /// Asks request `name` of the host; returns the status of its answer (ok for an ack).
    func request(_ name: String, _ payload: [UInt8] = []) async throws -> Reply.Status {
        try await send(.request(Request(name: name, payload: payload)))?.status ?? .ok
    }

    /// Makes the controller the parent's child with a loaded view of `size`, as a parent
    /// adding it and laying it out would.
    func adopt(size: SizeTransition) async throws {
        _ = try await send(.containment(Containment(.willMove, parent: "Parent")))
        _ = try await request(ProcessChildRequest.loadView)
        _ = try await send(.sizeTransition(size))
    }

    /// The payloads of the requests named `name` the host has sent so far.
    func requests(named name: String) -> [[UInt8]] {
        received.messages.withLock { list in
            list.compactMap { if case .request(let r) = $0, r.name == name { r.payload } else { nil } }
        }
    }

    /// Waits until the host has sent `count` requests named `name`, or 5 s passed.
    func waitForRequests(named name: String, count: Int) async throws -> [[UInt8]] {
        let deadline = ContinuousClock.now + .seconds(5)
        while requests(named: name).count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return requests(named: name)
    }

    func close() async {
        await host.link.close()
        await parent.close()
        parentLoop.shutdown()
        loop.shutdown()
    }
}

/// Messages one loop's handler appends and the test reads: a `Mutex` is what makes it
/// safe to share between the parent's loop thread and the test.
final class Inbox: Sendable {
    let messages = Mutex<[Message]>([])
}
