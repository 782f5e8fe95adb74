import Foundation
import Testing
import TrellisClient
import TrellisLog
import TrellisTransport
import TrellisWire

/// Issue 19 finding 8: `control.sock` accepted any id — a controller's, a reserved one —
/// and a second client with a live client's id cut the first off. The compositor alone
/// (no root connects), driven through its control endpoint as clients do.
@Suite(.serialized) struct ControlClientIdentityTests {
    /// Waits up to 5 s for the compositor's answer to `link`'s hello.
    static func helloAnswer(_ link: Link) async throws -> HelloAnswer? {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if let answer = await link.helloAnswer { return answer }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test(.timeLimit(.minutes(1)))
    func controllerAndReservedIDsAreRefusedWithAReasonAndALogLine() async throws {
        let s = try MultiProcessTests.Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "40x12"])
            try await s.connect()
            #expect(try await s.screen().filter { $0 == "\n" }.count == 11)

            for impostor in ["Container", "Seed001", "compositor", "control", "supervisor", "-", "clientX"] as [ControllerID] {
                let link = try await Link.connect(
                    id: impostor, parent: "control", endpoint: try s.endpoint("control"), loop: s.loop, log: s.log)
                let answer = try await Self.helloAnswer(link)
                guard case .refused(let why)? = answer else {
                    Issue.record("\(impostor): hello answered \(String(describing: answer)), not refused")
                    await link.close()
                    continue
                }
                #expect(why.code == .refusedID, "\(impostor): \(why)")
                #expect(why.text.contains("begins with 'client-'"), "\(impostor): \(why)")
                // Nothing it asks is answered but by the refusal.
                await #expect(throws: LinkError.self) { _ = try await link.request(.request(Request(name: "screen"))) }
                await link.close()
            }

            // SessionClient says so, instead of attaching.
            do {
                let c = try await SessionClient.attach(session: s.run.session, root: s.root, timeout: .seconds(15), id: "Container")
                await c.close()
                Issue.record("a client attached as the root controller Container")
            } catch let error as ClientError {
                guard case .refused("Container", let why) = error else { throw error }
                #expect(why.contains("may name a controller of the tree"), "\(why)")
            }

            // Each refusal is a routing-log line of the compositor's.
            var reader = LogReader(directory: s.run.logs)
            var refused = Set<String>()
            let deadline = ContinuousClock.now + .seconds(5)
            while refused.count < 7 && ContinuousClock.now < deadline {
                for r in reader.readNew()
                where r.host == "compositor" && r.outcome == .rejected && r.reason?.hasPrefix("refused-id") == true {
                    refused.insert(r.source)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(refused == ["Container", "Seed001", "compositor", "control", "supervisor", "-", "clientX"])
            // The client that is entitled to speak still is answered.
            #expect(try await s.screen().filter { $0 == "\n" }.count == 11)
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    @Test(.timeLimit(.minutes(1)))
    func aSecondClientWithALiveClientsIDDoesNotCutTheFirstOff() async throws {
        let s = try MultiProcessTests.Session()
        do {
            try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "40x12"])
            let first = try await SessionClient.attach(session: s.run.session, root: s.root, id: "client-twin")
            #expect(try await first.screen().filter { $0 == "\n" }.count == 11)

            // A newcomer under the same id, which keeps saying hello.
            let twin = try await Link.connect(
                id: "client-twin", parent: "control", endpoint: try s.endpoint("control"), loop: s.loop, log: s.log)
            let until = ContinuousClock.now + .seconds(1)
            while ContinuousClock.now < until {
                // With handover, the first's requests were answered to the newcomer.
                #expect(try await first.screen().filter { $0 == "\n" }.count == 11)
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(await twin.helloAnswer == nil, "the newcomer was heard under a live client's id")
            await twin.close()

            // A client that tries is told why, not left waiting for the whole timeout.
            let started = ContinuousClock.now
            do {
                let c = try await SessionClient.attach(session: s.run.session, root: s.root, timeout: .seconds(8), id: "client-twin")
                await c.close()
                Issue.record("a second client attached under a live client's id")
            } catch let error as ClientError {
                guard case .idInUse("client-twin") = error else { throw error }
                #expect("\(error)" == "client id client-twin is in use: another client is attached under it, and keeps it")
            }
            #expect(ContinuousClock.now - started < .seconds(6))
            #expect(try await first.screen().filter { $0 == "\n" }.count == 11)
            await first.close()
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }
}
