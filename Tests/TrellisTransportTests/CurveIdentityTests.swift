import Foundation
import Testing
import TrellisLog
@testable import TrellisTransport
import TrellisWire

/// Issue 19 finding 8: any process of the user that connected to a parent's endpoint
/// under a child's id took over that child's link. With CURVE keys a parent admits only
/// the keys issued for its children, each as the id it was issued for.
@Suite(.serialized) struct CurveIdentityTests {
    struct Fixture {
        let session: TestSession
        let parentLoop = IOLoop(name: "parent"), childLoop = IOLoop(name: "child"), impostorLoop = IOLoop(name: "impostor")
        let parentKeys: CurveKeyPair, kidKeys: CurveKeyPair, otherKeys: CurveKeyPair
        let endpoint: String
        let parent: Link
        let kid: Link
        /// Names of the requests the parent was handed, and who sent them.
        let delivered = Recorder<String>()

        init() async throws {
            session = try TestSession()
            parentKeys = try CurveKeyPair.generate()
            kidKeys = try CurveKeyPair.generate()
            otherKeys = try CurveKeyPair.generate()
            endpoint = try session.endpoint("curve")
            var serverOptions = fastOptions()
            serverOptions.curve = .server(parentKeys, children: [kidKeys.publicKey: "kid", otherKeys.publicKey: "other"])
            let delivered = self.delivered
            parent = try await Link.bind(
                id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: serverOptions,
                onMessage: { e, link in
                    if case .request(let r) = e.message {
                        delivered.append("\(r.name) from \(e.source)")
                        link.reply(to: e, Reply(status: .ok))
                    }
                    return .handled
                })
            kid = try await Link.connect(
                id: "kid", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log,
                options: Self.client(kidKeys, server: parentKeys))
        }

        static func client(_ keys: CurveKeyPair?, server: CurveKeyPair) -> LinkOptions {
            var o = fastOptions()
            o.curve = keys.map { .client($0, serverKey: server.publicKey) }
            o.watchesHandshake = true
            return o
        }

        /// The real child asks and is answered, and is answered to.
        func kidIsServed(_ tag: String) async throws {
            let up = try await kid.request(.request(Request(name: tag)), timeout: .seconds(2))
            #expect(up.message == .reply(Reply(status: .ok)), "\(tag)")
            let down = try await parent.request(.memoryWarning, to: "kid", timeout: .seconds(2))
            #expect(down.message == .ack, "\(tag)")
        }

        func stop() async {
            await kid.close()
            await parent.close()
            for l in [parentLoop, childLoop, impostorLoop] { l.shutdown() }
        }
    }

    @Test(.timeLimit(.minutes(1)), arguments: ["no key", "a key not issued"])
    func anImpostorWithoutAnIssuedKeyIsNeverHeardAndTheChildKeepsItsLink(_ how: String) async throws {
        let f = try await Fixture()
        do {
            try await f.kidIsServed("before")
            let strangerKeys = try CurveKeyPair.generate()
            let impostor = try await Link.connect(
                id: "kid", parent: "root", endpoint: f.endpoint, loop: f.impostorLoop, log: f.session.log,
                options: Fixture.client(how == "no key" ? nil : strangerKeys, server: f.parentKeys))
            await #expect(throws: LinkError.self) {
                _ = try await impostor.request(.request(Request(name: "impostor")), timeout: .milliseconds(600))
            }
            let report = await impostor.handshake()
            #expect(report?.succeeded == 0, "\(how): \(String(describing: report))")
            if how != "no key" { #expect(report?.lastFailure?.contains("authentication failed") == true, "\(String(describing: report))") }
            try await f.kidIsServed("while an impostor tries")
            await impostor.close()
            #expect(f.delivered.all == ["before from kid", "while an impostor tries from kid"])
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    /// A child with a key of its own cannot speak as another: its messages are refused.
    /// (It can still take the other's routing id while it stays; docs/PROTOCOL.md §1.)
    @Test(.timeLimit(.minutes(1)))
    func aChildWithItsOwnKeyCannotSpeakAsAnother() async throws {
        let f = try await Fixture()
        do {
            try await f.kidIsServed("before")
            let impostor = try await Link.connect(
                id: "kid", parent: "root", endpoint: f.endpoint, loop: f.impostorLoop, log: f.session.log,
                options: Fixture.client(f.otherKeys, server: f.parentKeys))
            var answer: Result<Envelope, LinkError>
            do throws(LinkError) {
                answer = .success(try await impostor.request(.request(Request(name: "impostor")), timeout: .seconds(2)))
            } catch {
                answer = .failure(error)
            }
            guard case .failure(.rejected(let why)) = answer else {
                Issue.record("the request of a child speaking as another was answered \(answer)")
                await impostor.close()
                await f.stop()
                return
            }
            #expect(why.code == .refusedID, "\(why)")
            #expect(why.text.contains("issued for (other)"), "\(why)")
            await impostor.close()
            #expect(!f.delivered.all.contains { $0.hasPrefix("impostor") })
        } catch {
            await f.stop()
            throw error
        }
        await f.stop()
    }

    @Test("a CURVE parent's ZAP handler stops with its last link, so the context can end")
    func theHandlerEndsWithTheLastLink() async throws {
        let session = try TestSession()
        let context = ZMQContext()
        let loop = IOLoop(name: "l")
        var o = fastOptions()
        o.curve = .server(try CurveKeyPair.generate(), children: [:])
        let link = try await Link.bind(id: "root", endpoint: try session.endpoint("zap"), loop: loop, log: session.log, context: context, options: o)
        #expect(context.socketCount == 3)  // the ROUTER, its monitor's PAIR and the handler's REP
        await link.close()
        #expect(context.socketCount == 0)
        loop.shutdown()
        #expect(context.terminate())
    }
}
