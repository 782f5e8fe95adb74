import CZeroMQ
import Foundation
import Synchronization
import Testing
import TrellisLog
import TrellisSession
@testable import TrellisTransport
import TrellisWire

@Suite("Links between a parent and its children", .timeLimit(.minutes(1)))
struct LinkTests {
    /// Both placements of a child — another socket, or the same-process fast path —
    /// must deliver the same messages in the same order (DESIGN: placement parity).
    @Test("request/ack and delivery order are the same over ipc and the local fast path", arguments: [false, true])
    func requestAckParity(localFastPath: Bool) async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "parent"), childLoop = IOLoop(name: "child")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let seenByChild = Recorder<Message>()
        let seenByParent = Recorder<Message>()
        let peers = Recorder<PeerEvent>()
        let endpoint = try session.endpoint("parity")
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(localFastPath: localFastPath),
            onMessage: { e, link in
                seenByParent.append(e.message)
                link.reply(to: e, Reply(status: .declined))
                return .handled
            }, onPeer: { peers.append($0) })
        let child = try await Link.connect(
            id: "child", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log,
            options: fastOptions(localFastPath: localFastPath),
            onMessage: { e, _ in seenByChild.append(e.message); return .handled })
        #expect(await peers.wait { $0.contains(.connected("child")) })

        let phases: [Message] = [
            .containment(Containment(.willMove, parent: "root")),
            .appearance(Appearance(.willAppear, animated: false)),
            .traits(Traits(horizontal: .regular, vertical: .compact, style: .dark)),
            .sizeTransition(SizeTransition(width: 80, height: 24, durationMilliseconds: 250)),
            .appearance(Appearance(.didAppear, animated: false)),
            .containment(Containment(.didMove, parent: "root")),
        ]
        for m in phases {
            let ack = try await parent.request(m, to: "child")
            #expect(ack.message == .ack)
        }
        #expect(seenByChild.all == phases)

        let up = try await child.request(.request(Request(name: "push", payload: Array("detail".utf8))))
        #expect(up.message == .reply(Reply(status: .declined)))
        #expect(seenByParent.all == [.request(Request(name: "push", payload: Array("detail".utf8)))])
        await child.close()
        await parent.close()
        let via = session.records().filter { $0.outcome == .delivered }.map(\.via)
        #expect(Set(via) == [localFastPath ? "local" : "ipc"])
    }

    @Test("a request is answered by the parent's reply, correlated by sequence (S1-3 delegation)")
    func delegationReply() async throws {
        let session = try TestSession()
        let loop = IOLoop(name: "both")
        defer { loop.shutdown() }
        let endpoint = try session.endpoint("reply")
        let parent = try await Link.bind(
            id: "main", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions(),
            onMessage: { e, link in
                guard case .request(let r) = e.message else { return .handled }
                link.reply(to: e, Reply(status: .ok, payload: Array("pushed \(r.name)".utf8)))
                return .handled
            })
        let child = try await Link.connect(id: "sub1", parent: "main", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions())
        let answer = try await child.request(.request(Request(name: "showDetail")))
        #expect(answer.message == .reply(Reply(status: .ok, payload: Array("pushed showDetail".utf8))))
        await child.close()
        await parent.close()
    }

    /// How a host's main actor waits for a remote child (`Switchboard.call`):
    /// it sends from the loop's thread and runs the loop nested until the answer comes,
    /// while a request the child sends up in the meantime is served by the same wait.
    @Test("a request answered through a callback, waited for by running the loop nested, serves the child's call up meanwhile")
    func callbackRequestWithNestedWait() async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "parent"), childLoop = IOLoop(name: "child")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let endpoint = try session.endpoint("nested")
        let servedUp = Recorder<String>()
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(),
            onMessage: { e, link in
                if case .request(let r) = e.message { servedUp.append(r.name) }
                link.reply(to: e, Reply(status: .ok))
                return .handled
            })
        let child = try await Link.connect(
            id: "child", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log, options: fastOptions(),
            onMessage: { e, link in
                // While handling the parent's message, the child asks its parent something.
                _ = try? link.send(.request(Request(name: "delegate")))
                return .handled
            })
        let outcome = Mutex<String?>(nil)
        let finished = DispatchSemaphore(value: 0)
        parentLoop.execute {
            parent.assumeIsolated { l in
                let got = Mutex<Result<Envelope, LinkError>?>(nil)
                // The child may not have said hello yet: a request to it waits for that.
                let deadline = MonotonicClock.nanoseconds() + 5_000_000_000
                while !l.isConnected("child"), MonotonicClock.nanoseconds() < deadline {
                    _ = parentLoop.run(until: { false }, deadline: MonotonicClock.nanoseconds() + 5_000_000)
                }
                l.request(.appearance(Appearance(.willAppear, animated: false)), to: "child") { r in got.withLock { $0 = r } }
                let answered = parentLoop.run(until: { got.withLock { $0 != nil } }, deadline: deadline)
                let text: String
                switch got.withLock({ $0 }) {
                case .success(let e)?: text = answered && e.message == .ack ? "ack" : "\(e.message)"
                case .failure(let error)?: text = "\(error)"
                case nil: text = "no answer"
                }
                outcome.withLock { $0 = text }
            }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(outcome.withLock { $0 } == "ack")
        #expect(await servedUp.wait { $0 == ["delegate"] })
        await child.close()
        await parent.close()
    }

    @Test("back-to-back requests across two loops each get their own answer, even when it outruns the waiting task")
    func answersNeverOutrunTheirRequest() async throws {
        // Regression: the answer used to be matched against a table the request
        // had not yet been entered in, and was dropped as "nothing is waiting".
        let session = try TestSession()
        let parentLoop = IOLoop(name: "p"), childLoop = IOLoop(name: "c")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let endpoint = try session.endpoint("race")
        let peers = Recorder<PeerEvent>()
        let parent = try await Link.bind(
            id: "main", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(), onPeer: { peers.append($0) })
        let child = try await Link.connect(
            id: "echo", parent: "main", endpoint: endpoint, loop: childLoop, log: session.log, options: fastOptions(),
            onMessage: { e, link in
                if case .request(let r) = e.message { link.reply(to: e, Reply(status: .ok, payload: r.payload)) }
                return .handled
            })
        #expect(await peers.wait { $0.contains(.connected("echo")) })
        for i in 0..<3_000 {
            let payload = withUnsafeBytes(of: UInt32(i).littleEndian, Array.init)
            let answer = try await parent.request(.request(Request(name: "n", payload: payload)), to: "echo")
            #expect(answer.message == .reply(Reply(status: .ok, payload: payload)))
        }
        #expect(!session.records().contains { $0.outcome == .dropped && $0.kind == "reply" })
        await child.close()
        await parent.close()
    }

    /// A parent and a child linked over inproc, where a send is in the receiver's queue
    /// when it returns. Once the child is connected, requests "a", "b" and "c" are sent
    /// while its loop is held, so all three wait in its socket when it reads; its handler
    /// gets each request's name.
    private func threeWaitingRequests(
        _ session: TestSession, parentLoop: IOLoop, childLoop: IOLoop, childOptions: LinkOptions = fastOptions(),
        onRequest: @escaping @Sendable (String, isolated Link) -> Void
    ) async throws -> (parent: Link, child: Link) {
        let peers = Recorder<PeerEvent>()
        let endpoint = session.inprocEndpoint("three")
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(),
            onPeer: { peers.append($0) })
        let child = try await Link.connect(
            id: "child", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log, options: childOptions,
            onMessage: { e, link in
                if case .request(let r) = e.message { onRequest(r.name, link) }
                return .handled
            })
        #expect(await peers.wait { $0.contains(.connected("child")) })
        try await whileHeld(childLoop) {
            for name in ["a", "b", "c"] { try await parent.send(.request(Request(name: name)), to: "child") }
        }
        return (parent, child)
    }

    /// A host hands each message to its main actor as work on the loop; that work runs
    /// before the link reads the next message, rather than after a receive that finds
    /// nothing, which costs libzmq system calls on the path of a tap.
    @Test("work a handler queues on the loop runs before the link reads the next message, unless the link reads ahead", arguments: [false, true])
    func queuedHandlingRunsBeforeTheNextReceive(readsAhead: Bool) async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "parent"), childLoop = IOLoop(name: "child")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let events = Recorder<String>()
        var options = fastOptions()
        options.readsAhead = readsAhead
        let (parent, child) = try await threeWaitingRequests(session, parentLoop: parentLoop, childLoop: childLoop, childOptions: options) { name, link in
            events.append("read \(name)")
            link.loop.execute { events.append("handled \(name)") }
        }
        #expect(await events.wait { $0.count == 6 })
        // Reading ahead, as the compositor's link from its hosts does (a burst of frames
        // is composed once), everything waiting is read first.
        #expect(events.all == (readsAhead
            ? ["read a", "read b", "read c", "handled a", "handled b", "handled c"]
            : ["read a", "handled a", "read b", "handled b", "read c", "handled c"]))
        await child.close()
        await parent.close()
    }

    /// A handler runs inside the link's read of its socket and may close the link: the
    /// read stops there.
    @Test("a handler that closes its own link while more messages wait ends the read without touching the closed socket")
    func aHandlerClosingItsLinkEndsTheRead() async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "parent"), childLoop = IOLoop(name: "child")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let read = Recorder<String>()
        let (parent, child) = try await threeWaitingRequests(session, parentLoop: parentLoop, childLoop: childLoop) { name, link in
            read.append(name)
            link.close()
        }
        #expect(await read.wait { $0.count == 1 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(read.all == ["a"])
        var afterClose: LinkError?
        do { try await child.send(.request(Request(name: "late"))) } catch { afterClose = error }
        #expect(afterClose == .closed)
        await parent.close()
    }

    @Test("a message for a controller this end does not serve is rejected with unknown-target")
    func unknownTarget() async throws {
        let session = try TestSession()
        let loop = IOLoop(name: "l")
        defer { loop.shutdown() }
        let endpoint = try session.endpoint("target")
        let parent = try await Link.bind(id: "root", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions())
        let child = try await Link.connect(id: "kid", parent: "somebody-else", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions())
        await #expect(throws: LinkError.rejected(WireError(.unknownTarget, "target somebody-else is not served here (this end is root)"))) {
            _ = try await child.request(.memoryWarning)
        }
        await child.close()
        await parent.close()
        let rejected = session.records().filter { $0.outcome == .rejected }
        #expect(rejected.count == 1)
        #expect(rejected.first?.reason?.hasPrefix("unknown-target") == true)
    }

    @Test("a request with no answer times out, and the timeout is logged")
    func requestTimeout() async throws {
        let session = try TestSession()
        let loop = IOLoop(name: "l")
        defer { loop.shutdown() }
        let endpoint = try session.endpoint("timeout")
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions(),
            onMessage: { _, _ in .deferred })  // never acknowledges
        let child = try await Link.connect(id: "kid", parent: "root", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions())
        await #expect(throws: LinkError.self) {
            _ = try await child.request(.memoryWarning, timeout: .milliseconds(100))
        }
        await child.close()
        await parent.close()
        #expect(session.records().contains { $0.outcome == .timeout && $0.kind == "memory-warning" })
    }

    @Test("a child that goes silent is reported lost, and connected again when it returns")
    func heartbeatLoss() async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "p")
        defer { parentLoop.shutdown() }
        let endpoint = try session.endpoint("hb")
        let events = Recorder<PeerEvent>()
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(), onPeer: { events.append($0) })
        do {
            let childLoop = IOLoop(name: "c")
            let child = try await Link.connect(id: "kid", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log, options: fastOptions())
            #expect(await events.wait { $0 == [.connected("kid")] })
            await child.close()
            childLoop.shutdown()
        }
        #expect(await events.wait { $0 == [.connected("kid"), .lost("kid")] })
        let childLoop = IOLoop(name: "c2")
        defer { childLoop.shutdown() }
        let again = try await Link.connect(id: "kid", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log, options: fastOptions())
        #expect(await events.wait { $0 == [.connected("kid"), .lost("kid"), .connected("kid")] })
        // The restarted child took over its routing id: the parent reaches it.
        _ = try await parent.request(.memoryWarning, to: "kid")
        await again.close()
        await parent.close()
        #expect(session.records().contains { $0.outcome == .lost && $0.source == "kid" })
    }

    /// Issue 19, finding 1: a child killed just as its parent sent to it took the request
    /// with it; its restarted process says hello within milliseconds, and the parent must
    /// stop waiting then, not at the request's 2 s deadline.
    @Test("a request to a child that is restarted meanwhile fails at the new hello, not at its deadline")
    func restartEndsTheWait() async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "p"), oldLoop = IOLoop(name: "old"), newLoop = IOLoop(name: "new")
        defer { parentLoop.shutdown(); oldLoop.shutdown(); newLoop.shutdown() }
        let endpoint = try session.endpoint("restart")
        let peers = Recorder<PeerEvent>()
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(), onPeer: { peers.append($0) })
        var first = fastOptions()
        first.incarnation = 1
        // The old process takes the request and never answers; its connection stays
        // open (a killed process's closes, and `disconnectEndsTheWait` covers that), so
        // only the replacement's hello can say it will not.
        let old = try await Link.connect(
            id: "kid", parent: "root", endpoint: endpoint, loop: oldLoop, log: session.log, options: first,
            onMessage: { _, _ in .deferred })
        #expect(await peers.wait { $0 == [.connected("kid")] })
        async let answer = outcome { () async throws(LinkError) in
            try await parent.request(.memoryWarning, to: "kid", timeout: .seconds(10))
        }
        #expect(await session.wait { $0.contains { $0.outcome == .delivered && $0.kind == "memory-warning" } })
        var second = fastOptions()
        second.incarnation = 2
        // Handed the routing id over (ROUTER_HANDOVER), as a restarted process is.
        let restarted = try await Link.connect(id: "kid", parent: "root", endpoint: endpoint, loop: newLoop, log: session.log, options: second)
        let result = await answer
        // The old one must not reconnect and take the id back.
        await old.close()
        #expect(result == .failure(.peerGone("kid", "restarted (pid 1 → 2)")))
        // Not a timing claim (the machine is shared): only the new hello says "restarted",
        // and without it the wait would end at its 10 s deadline with a timeout.
        #expect(session.records().contains { $0.outcome == .lost && $0.kind == "memory-warning" })
        // The restarted child is reachable.
        _ = try await parent.request(.memoryWarning, to: "kid")
        await restarted.close()
        await parent.close()
    }

    /// A hung child keeps its connection open and stops heartbeating: its loop is held.
    @Test("a request to a child that goes silent fails when it is reported lost, not at its deadline")
    func lossEndsTheWait() async throws {
        try await waitEnds(byClosing: false) { why in why.hasPrefix("silent for") }
    }

    /// Issue 19: a killed child's connection closes at once; the parent learns it from
    /// libzmq's monitor, not from a replacement's hello or missed heartbeats.
    @Test("a request to a child whose connection closes fails then, as does the child's presence")
    func disconnectEndsTheWait() async throws {
        try await waitEnds(byClosing: true) { why in why == "its connection closed" }
    }

    /// Issue 21: a CLI client that is done closes its connection; on an endpoint whose
    /// peers come and go (the compositor's control endpoint) that is a departure, not a
    /// loss, and leaves no `lost` line behind it.
    @Test("a peer that closes its connection on a departures-are-normal end is logged as left, not lost")
    func aDepartureIsNotALoss() async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "p"), childLoop = IOLoop(name: "c")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let endpoint = try session.endpoint("departs")
        var options = fastOptions()
        options.departuresAreNormal = true
        let peers = Recorder<PeerEvent>()
        let parent = try await Link.bind(
            id: "control", endpoint: endpoint, loop: parentLoop, log: session.log, options: options, onPeer: { peers.append($0) })
        let client = try await Link.connect(
            id: "client-1", parent: "control", endpoint: endpoint, loop: childLoop, log: session.log, options: fastOptions())
        #expect(await peers.wait { $0 == [.connected("client-1")] })
        await client.close()
        #expect(await peers.wait { $0 == [.connected("client-1"), .lost("client-1")] })
        #expect(await session.wait { $0.contains { $0.reason == "peer client-1 left (its connection closed)" } })
        #expect(!session.records().contains { $0.outcome == .lost && $0.source == "client-1" })
        await parent.close()
    }

    /// A parent asks a child that takes the request and then closes its connection, or
    /// holds its loop (a hang); the wait must end with `peerGone` for `reason`, and the
    /// child be reported lost.
    private func waitEnds(byClosing closing: Bool, reason: (String) -> Bool) async throws {
        let session = try TestSession()
        let parentLoop = IOLoop(name: "p"), childLoop = IOLoop(name: "c")
        defer { parentLoop.shutdown(); childLoop.shutdown() }
        let endpoint = try session.endpoint(closing ? "closes" : "silent")
        let peers = Recorder<PeerEvent>()
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: fastOptions(), onPeer: { peers.append($0) })
        let child = try await Link.connect(
            id: "kid", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log, options: fastOptions(),
            onMessage: { _, _ in .deferred })
        #expect(await peers.wait { $0 == [.connected("kid")] })
        async let answer = outcome { () async throws(LinkError) in
            try await parent.request(.memoryWarning, to: "kid", timeout: .seconds(10))
        }
        #expect(await session.wait { $0.contains { $0.outcome == .delivered && $0.kind == "memory-warning" } })
        let released = DispatchSemaphore(value: 0)
        if closing {
            await child.close()
        } else {
            childLoop.execute { _ = released.wait(timeout: .now() + 5) }
        }
        let result = await answer
        // Seen lost before the silent child's loop is let go: once it runs again its
        // heartbeats bring it back (`.connected` again), which this test is not about.
        let lost = await peers.wait { $0 == [.connected("kid"), .lost("kid")] }
        released.signal()
        guard case .failure(.peerGone("kid", let why)) = result else {
            Issue.record("the wait ended with \(result), not peerGone")
            return
        }
        // Not the 10 s deadline: the closed connection, or the heartbeat timeout (300 ms).
        #expect(reason(why), "\(why)")
        #expect(lost)
        if !closing { await child.close() }
        await parent.close()
    }

    @Test("sending to a child that does not exist is dropped with a reason, not queued")
    func noSuchPeer() async throws {
        let session = try TestSession()
        let loop = IOLoop(name: "l")
        defer { loop.shutdown() }
        let parent = try await Link.bind(id: "root", endpoint: try session.endpoint("none"), loop: loop, log: session.log, options: fastOptions())
        await #expect(throws: LinkError.dropped("no such peer (ghost)")) {
            try await parent.send(.memoryWarning, to: "ghost")
        }
        await parent.close()
        #expect(session.records().contains { $0.outcome == .dropped && $0.reason == "no such peer" })
    }

    @Test("binding an endpoint twice fails with a clear error")
    func bindConflict() async throws {
        let session = try TestSession()
        let loop = IOLoop(name: "l")
        defer { loop.shutdown() }
        let endpoint = "tcp://127.0.0.1:\(Int.random(in: 20000...40000))"
        let first = try await Link.bind(id: "a", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions())
        await #expect(throws: LinkError.self) {
            _ = try await Link.bind(id: "b", endpoint: endpoint, loop: loop, log: session.log, options: fastOptions())
        }
        await first.close()
    }

    @Test("closing links and loops leaves no socket open, so the context terminates")
    func cleanShutdown() async throws {
        let session = try TestSession()
        let context = ZMQContext()
        let loop = IOLoop(name: "l")
        let endpoint = try session.endpoint("shutdown")
        _ = try await Link.bind(id: "root", endpoint: endpoint, loop: loop, log: session.log, context: context, options: fastOptions())
        _ = try await Link.connect(id: "kid", parent: "root", endpoint: endpoint, loop: loop, log: session.log, context: context, options: fastOptions())
        // The parent end's socket monitor is read through a socket too.
        #expect(context.socketCount == 3)
        loop.shutdown()  // closes what is still registered
        #expect(context.socketCount == 0)
        let start = ContinuousClock.now
        #expect(context.terminate())
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}

/// docs/PROCESSES.md, "Idle": the defaults trade an idle tree's wake-ups against how soon
/// a silent peer is lost; whatever they become, a peer is lost only after three missed
/// heartbeats, and still in well under a second (DESIGN.md: a hung process is detected
/// in well under a second), and the pulse beats no less often than the heartbeats, in
/// the same wake-ups.
@Test func livenessDefaultsLoseAPeerAfterThreeMissedHeartbeatsWithinASecond() {
    let options = LinkOptions()
    #expect(options.heartbeatTimeout >= options.heartbeatInterval * 3)
    #expect(options.heartbeatTimeout < .seconds(1))
    #expect(Pulse.interval <= options.heartbeatInterval)
}

/// What a throwing call gave, as a value to compare.
private func outcome<T>(_ body: () async throws(LinkError) -> T) async -> Result<T, LinkError> {
    do throws(LinkError) { return .success(try await body()) } catch { return .failure(error) }
}
