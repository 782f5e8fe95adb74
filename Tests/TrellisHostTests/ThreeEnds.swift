import Foundation
import Testing
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisTransport
import TrellisWire

/// Top ▸ Middle ▸ Leaf, for tests of what a host does between its parent and a child in
/// another process (`SwitchboardTests`, `TouchesReadTogetherTests`): Top and Leaf are bare
/// links on threads of their own, driven by the test; Middle's host runs as hosts do, its
/// main actor on its loop, with Leaf's proxy for its child. Connected, and Middle moved
/// into Top (its `willMove`), when made.
@MainActor
final class ThreeEnds<Middle: ViewController> {
    let test: PrivateRun
    let topLoop = IOLoop(name: "top"), leafLoop = IOLoop(name: "leaf"), loop = IOLoop(mainQueueNamed: "middle")
    let top: Link
    let leaves: RemoteChildren
    let middle: Middle
    let host: ChildHost
    let leaf: Link

    init(
        _ name: String, middle make: (RemoteController) -> Middle,
        top onTop: @escaping @Sendable (Envelope, isolated Link) -> Disposition = { _, _ in .handled },
        leaf onMessage: @escaping @Sendable (Envelope, isolated Link) -> Disposition
    ) async throws {
        test = try PrivateRun(name)
        let run = test.run, log = test.log
        top = try await Link.bind(
            id: "Top", endpoint: try run.ipcEndpoint("top"), loop: topLoop, log: log, options: .sharingTheTestsMainActor,
            onMessage: onTop)
        leaves = try await RemoteChildren.bind(
            parent: "Middle", endpoint: try run.ipcEndpoint("middle"), loop: loop, log: log, options: .sharingTheTestsMainActor)
        middle = make(leaves.proxy(for: "Leaf"))
        host = try await ChildHost.start(
            controller: middle, parent: "Top", endpoint: try run.ipcEndpoint("top"), loop: loop, log: log,
            options: .sharingTheTestsMainActor)
        leaf = try await Link.connect(
            id: "Leaf", parent: "Middle", endpoint: try run.ipcEndpoint("middle"), loop: leafLoop, log: log,
            options: .sharingTheTestsMainActor, onMessage: onMessage)
        let deadline = ContinuousClock.now + .seconds(5)
        while await !top.isConnected("Middle"), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(await leaves.waitForChild("Leaf"))
        _ = try await top.request(.containment(Containment(.willMove, parent: "Top")), to: "Middle")
    }

    func close() async {
        await leaf.close()
        await host.link.close()
        await leaves.link.close()
        await top.close()
        topLoop.shutdown()
        leafLoop.shutdown()
        loop.shutdown()
    }
}
