import Foundation
import Testing
import TrellisClient
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// Issue 19 finding 8: a process of the same user that connected to `Demo.sock` as
/// `Seed001` took over that child's link until it left. In a supervised session every
/// parent end admits only the keys the supervisor issued for its children.
///
/// Nested in `MultiProcessTests`, whose `.serialized` runs one whole session at a time.
extension MultiProcessTests {
    @Suite(.timeLimit(.minutes(2))) struct SupervisedIdentityTests {
        /// What the impostors' messages carry, to find them in the log.
        static let trace: UInt64 = 0x1D_0019_0008
        @Test func anImpostorAtAParentsEndpointIsNeverHeardAndTheChildKeepsItsLink() async throws {
            let s = try CLISession()
            defer { s.cleanUp() }
            try s.up("deploy/scenes/parity.yaml")
            #expect(try s.cli("wait", "--controller", "Child", "--state", "appeared", "--timeout", "15").status == 0)
            let run = try RunDirectory.find(session: s.session, root: s.root)
            let loop = IOLoop(name: "impostor")
            let log = try RoutingLog(directory: run.logs, host: "impostor")
            let app = try await SessionClient.attach(session: s.session, root: s.root)
            defer { log.close() }

            // The child at its parent's endpoint, and the root at the compositor's; with no
            // key, and with a key of its own (it cannot know the parent's public key either).
            for (endpoint, id) in [("Container", "Child"), ("compositor", "Container")] as [(String, ControllerID)] {
                for keyed in [false, true] {
                    var options = LinkOptions()
                    options.watchesHandshake = true
                    if keyed { options.curve = .client(try CurveKeyPair.generate(), serverKey: try CurveKeyPair.generate().publicKey) }
                    let impostor = try await Link.connect(
                        id: id, parent: ControllerID(endpoint)!, endpoint: try run.ipcEndpoint(endpoint), loop: loop, log: log,
                        options: options)
                    let what = "\(keyed ? "a stranger's key" : "no key") as \(id) at \(endpoint).sock"
                    await #expect(throws: LinkError.self, "\(what)") {
                        _ = try await impostor.request(.request(Request(name: "impostor")), trace: Self.trace, timeout: .milliseconds(800))
                    }
                    #expect(await impostor.helloAnswer == nil, "\(what): its hello was answered")
                    #expect(await impostor.handshake()?.succeeded == 0, "\(what)")
                    // Describing the tree goes compositor → Container → Child: both real
                    // links still answer while the impostor is connected.
                    let tree = try await app.tree()
                    #expect(tree.find("Child")?.appearance == "appeared", "\(what):\n\(tree.text())")
                    #expect(tree.find("Container")?.appearance == "appeared", "\(what):\n\(tree.text())")
                    await impostor.close()
                }
            }
            // Nothing the impostors sent reached a link of the tree, let alone a controller.
            let heard = app.records().filter { $0.trace == Self.trace && $0.host != "impostor" }
            #expect(heard.isEmpty, "\(heard)")
            try await app.tap(text: "leave")
            try await app.wait(forTextGone: "leaf", timeout: .seconds(10))
            await app.close()
            loop.shutdown()
            _ = try s.cli("down")
            #expect(try s.waitForUpToExit() == 0)
        }
    }
}
