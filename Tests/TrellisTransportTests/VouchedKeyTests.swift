import Foundation
import Testing
import TrellisLog
@testable import TrellisTransport
import TrellisWire

/// Issue 23: a controller presented from a child's tree is hosted on a link of its own,
/// under an id the supervisor issued no key for. Its process vouches for a fresh key over
/// its own authenticated link; the parent end admits that key for that id only, and only
/// while the child that vouched for it is connected (docs/PROTOCOL.md §1, "Vouched keys").
@Suite(.serialized) struct VouchedKeyTests {
    struct Fixture {
        let session: TestSession
        let parentLoop = IOLoop(name: "parent"), childLoop = IOLoop(name: "child"), standInLoop = IOLoop(name: "stand-in")
        let parentKeys: CurveKeyPair, kidKeys: CurveKeyPair, otherKeys: CurveKeyPair
        let endpoint: String
        let parent: Link
        let kid: Link

        init() async throws {
            session = try TestSession()
            parentKeys = try CurveKeyPair.generate()
            kidKeys = try CurveKeyPair.generate()
            otherKeys = try CurveKeyPair.generate()
            endpoint = try session.endpoint("vouch")
            var serverOptions = fastOptions()
            serverOptions.curve = .server(parentKeys, children: [kidKeys.publicKey: "kid", otherKeys.publicKey: "other"])
            parent = try await Link.bind(
                id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: serverOptions,
                onMessage: { e, link in
                    if case .request = e.message { link.reply(to: e, Reply(status: .ok)) }
                    return .handled
                })
            kid = try await Link.connect(
                id: "kid", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log,
                options: Self.client(kidKeys, server: parentKeys))
        }

        static func client(_ keys: CurveKeyPair, server: CurveKeyPair) -> LinkOptions {
            var o = fastOptions()
            o.curve = .client(keys, serverKey: server.publicKey)
            o.watchesHandshake = true
            return o
        }

        /// What the parent answers `kid` vouching for `key` as `id`.
        func vouch(_ key: CurveKeyPair, as id: ControllerID, by voucher: Link? = nil) async throws -> Reply? {
            let answer = try await (voucher ?? kid).request(
                .request(Request(name: Link.vouchRequest, payload: Link.vouchPayload(key.publicKey, as: id))), timeout: .seconds(2))
            guard case .reply(let r) = answer.message else { return nil }
            return r
        }

        /// Connects as `id` with `keys`: whether the parent answers it.
        func connects(as id: ControllerID, with keys: CurveKeyPair) async -> Bool {
            guard let link = try? await Link.connect(
                id: id, parent: "root", endpoint: endpoint, loop: standInLoop, log: session.log,
                options: Self.client(keys, server: parentKeys))
            else { return false }
            let answer = try? await link.request(.request(Request(name: "hello from \(id)")), timeout: .milliseconds(800))
            await link.close()
            return answer?.message == .reply(Reply(status: .ok))
        }

        /// What a reply says.
        func said(_ reply: Reply?) -> String { String(decoding: reply?.payload ?? [], as: UTF8.self) }

        func stop() async {
            await kid.close()
            await parent.close()
            for l in [parentLoop, childLoop, standInLoop] { l.shutdown() }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aStandInConnectsWithTheKeyItsChildVouchedFor() async throws {
        let f = try await Fixture()
        let standIn = try CurveKeyPair.generate(), unvouched = try CurveKeyPair.generate()
        #expect(await !f.connects(as: "kid.alert", with: standIn), "before it is vouched for, the key is nobody's")
        #expect(try await f.vouch(standIn, as: "kid.alert")?.status == .ok)
        #expect(await f.connects(as: "kid.alert", with: standIn))
        #expect(await !f.connects(as: "kid.other", with: unvouched), "a key nobody vouched for is refused")
        #expect(await f.session.wait { $0.contains { ($0.reason ?? "").contains("handshake refused: the key \(unvouched.publicKey) was neither") } })
        #expect(await !f.connects(as: "other", with: standIn), "the vouched key is admitted as its id only")
        #expect(f.session.records().contains { ($0.reason ?? "").contains("admitted a key for kid.alert, vouched for by kid") })
        await f.stop()
    }

    @Test(.timeLimit(.minutes(1)), arguments: [
        ("other", "has a key of its own"), ("kid", "own id"), ("root", "reserved, a client's or this end's"),
        ("compositor", "reserved"),
    ] as [(ControllerID, String)])
    func anIDThatIsNotTheChildsToVouchForIsRefusedAndLogged(_ id: ControllerID, _ reason: String) async throws {
        let f = try await Fixture()
        let standIn = try CurveKeyPair.generate()
        let answer = try await f.vouch(standIn, as: id)
        #expect(answer?.status == .declined)
        #expect(f.said(answer).contains(reason), "\(String(describing: answer))")
        #expect(f.session.records().contains { ($0.reason ?? "").contains("refused the key kid vouched for \(id): ") })
        #expect(await !f.connects(as: id, with: standIn))
        await f.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func anotherChildsVouchedIDAndAnIssuedKeyAreRefused() async throws {
        let f = try await Fixture()
        let standIn = try CurveKeyPair.generate()
        #expect(try await f.vouch(standIn, as: "kid.alert")?.status == .ok)
        let other = try await Link.connect(
            id: "other", parent: "root", endpoint: f.endpoint, loop: f.standInLoop, log: f.session.log,
            options: Fixture.client(f.otherKeys, server: f.parentKeys))
        let theirs = try CurveKeyPair.generate()
        let stolen = try await f.vouch(theirs, as: "kid.alert", by: other)
        #expect(stolen?.status == .declined)
        #expect(f.said(stolen).contains("kid vouched for kid.alert"))
        let issued = try await f.vouch(f.otherKeys, as: "kid.extra")
        #expect(f.said(issued).contains("another controller's"))
        let garbage = try await f.kid.request(.request(Request(name: Link.vouchRequest, payload: [0xFF, 0x20, 0x00])), timeout: .seconds(2))
        #expect(garbage.message == .reply(Reply(status: .failed, payload: Array("a \(Link.vouchRequest)'s payload is: ID KEY".utf8))))
        let notAKey = try await f.vouch(CurveKeyPair(publicKey: String(repeating: "~", count: 40), secretKey: ""), as: "kid.extra")
        #expect(f.said(notAKey) == "not a Z85 CURVE public key")
        await other.close()
        #expect(await f.connects(as: "kid.alert", with: standIn), "the first voucher's key still stands")
        await f.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aVouchedKeyIsAdmittedOnlyWhileItsVoucherIsConnected() async throws {
        let f = try await Fixture()
        let standIn = try CurveKeyPair.generate()
        #expect(try await f.vouch(standIn, as: "kid.alert")?.status == .ok)
        await f.kid.close()
        let gone = await f.session.wait { $0.contains { ($0.reason ?? "").contains("no longer admits kid.alert's key") } }
        #expect(gone)
        #expect(await !f.connects(as: "kid.alert", with: standIn))
        await f.stop()
    }
}
