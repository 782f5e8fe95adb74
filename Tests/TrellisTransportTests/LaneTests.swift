import Foundation
import Testing
import TrellisLog
@testable import TrellisTransport
import TrellisWire

/// Lanes (docs/TRANSPORT.md, "Lanes"): over `ipc://` a link's two ends move their
/// messages to a Unix stream socket of their own once the child's hello is answered.
@Suite("Lanes: a link's messages past libzmq's I/O threads", .timeLimit(.minutes(1)))
struct LaneTests {
    /// A parent and a child on loops of their own; the parent records the numbers of the
    /// requests named "n" it is sent, the child those the parent sends it.
    struct Pair {
        let session: TestSession
        let parentLoop = IOLoop(name: "lane-parent"), childLoop = IOLoop(name: "lane-child")
        let parent: Link, child: Link
        let atParent = Recorder<Int>(), atChild = Recorder<Int>()
        let peers = Recorder<PeerEvent>()

        init(options: LinkOptions = fastOptions(), childOptions: LinkOptions? = nil) async throws {
            session = try TestSession()
            let endpoint = try session.endpoint("lanes")
            let atParent = atParent, atChild = atChild, peers = peers
            parent = try await Link.bind(
                id: "root", endpoint: endpoint, loop: parentLoop, log: session.log, options: options,
                onMessage: { e, _ in
                    if case .request(let r) = e.message, r.name == "n" { atParent.append(Self.number(r.payload)) }
                    return .handled
                }, onPeer: { peers.append($0) })
            child = try await Link.connect(
                id: "child", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log,
                options: childOptions ?? options,
                onMessage: { e, _ in
                    if case .request(let r) = e.message, r.name == "n" { atChild.append(Self.number(r.payload)) }
                    return .handled
                })
        }

        static func numbered(_ i: Int, padding: Int = 0) -> Message {
            .request(Request(name: "n", payload: withUnsafeBytes(of: UInt32(i).littleEndian, Array.init) + [UInt8](repeating: 7, count: padding)))
        }

        static func number(_ payload: [UInt8]) -> Int {
            Int(payload[0]) | Int(payload[1]) << 8 | Int(payload[2]) << 16 | Int(payload[3]) << 24
        }

        func laneOpen() async -> Bool {
            await session.wait { records in
                records.contains { $0.at == "root" && $0.reason == "lane open with child" }
                    && records.contains { $0.at == "child" && $0.reason == "lane open with root" }
            }
        }

        func end() async {
            await child.close()
            await parent.close()
            parentLoop.shutdown()
            childLoop.shutdown()
        }
    }

    @Test("messages sent from the first moment keep their order in both directions across the switch to the lane")
    func orderAcrossTheSwitch() async throws {
        let pair = try await Pair()
        let count = 3000
        // Both ends send from before the hello is answered until well after the lane is
        // open: some of each direction's messages go over libzmq, the rest over the lane.
        async let up: Void = {
            for i in 0..<count {
                try await pair.child.send(Pair.numbered(i))
                if i % 100 == 0 { await Task.yield() }
            }
        }()
        async let down: Void = {
            #expect(await pair.peers.wait { $0.contains(.connected("child")) })
            for i in 0..<count {
                try await pair.parent.send(Pair.numbered(i), to: "child")
                if i % 100 == 0 { await Task.yield() }
            }
        }()
        try await up
        try await down
        #expect(await pair.atParent.wait { $0.count == count })
        #expect(await pair.atChild.wait { $0.count == count })
        #expect(pair.atParent.all == Array(0..<count))
        #expect(pair.atChild.all == Array(0..<count))
        #expect(await pair.laneOpen())
        await pair.end()
    }

    @Test("messages larger than the socket's buffer, many at once, arrive whole and in order")
    func largeMessagesQueueAndArrive() async throws {
        let pair = try await Pair()
        #expect(await pair.laneOpen())
        // 40 × 60 KB is ten times a Unix socket's default buffer: the writer queues and
        // waits to be writable.
        for i in 0..<40 { try await pair.child.send(Pair.numbered(i, padding: 60_000)) }
        for i in 0..<40 { try await pair.parent.send(Pair.numbered(i, padding: 60_000), to: "child") }
        #expect(await pair.atParent.wait { $0.count == 40 })
        #expect(await pair.atChild.wait { $0.count == 40 })
        #expect(pair.atParent.all == Array(0..<40))
        #expect(pair.atChild.all == Array(0..<40))
        let answer = try await pair.child.request(.memoryWarning)
        #expect(answer.message == .ack)
        await pair.end()
    }

    @Test("what is sent while corked waits, and goes in one write when uncorked (a click's press and release read together)")
    func corkedMessagesGoTogether() async throws {
        let pair = try await Pair()
        #expect(await pair.laneOpen())
        await pair.parent.cork()
        for i in 0..<3 { try await pair.parent.send(Pair.numbered(i), to: "child") }
        try await Task.sleep(for: .milliseconds(100))
        #expect(pair.atChild.all.isEmpty)
        await pair.parent.uncork()
        #expect(await pair.atChild.wait { $0.count == 3 })
        #expect(pair.atChild.all == [0, 1, 2])
        await pair.end()
    }

    @Test("a lane that ends is its peer lost at once, not after the heartbeat timeout")
    func aLanesEndIsALoss() async throws {
        var options = fastOptions()
        options.heartbeatTimeout = .seconds(30)
        let pair = try await Pair(options: options)
        #expect(await pair.laneOpen())
        await pair.child.close()
        #expect(await pair.peers.wait { $0.contains(.lost("child")) })
        #expect(pair.session.records().contains { $0.outcome == .lost && $0.kind == "lane" && $0.reason == "its connection closed" })
        await pair.end()
    }

    @Test("a connection whose token was never given is refused and logged; the link goes on")
    func anUnknownTokenIsRefused() async throws {
        let pair = try await Pair()
        #expect(await pair.laneOpen())
        let path = try #require(Link.lanePath(pair.parent.endpoint))
        let stranger = UnixStream.connect(to: path)
        #expect(stranger >= 0)
        let token = [UInt8](repeating: 0x5A, count: Lane.tokenSize)
        _ = token.withUnsafeBytes { UnixStream.send(stranger, $0) }
        #expect(await pair.session.wait { $0.contains { $0.outcome == .rejected && $0.reason == "lane: unknown token" } })
        UnixStream.close(stranger)
        // A connection that says nothing at all is closed after the request timeout.
        let silent = UnixStream.connect(to: path)
        #expect(await pair.session.wait {
            $0.contains { $0.outcome == .rejected && $0.reason == "lane: no lane was opened with its token in time" }
        })
        UnixStream.close(silent)
        let answer = try await pair.child.request(.memoryWarning)
        #expect(answer.message == .ack)
        await pair.end()
    }

    @Test("garbage on an open lane closes it as a protocol error, logged; the child says hello again and opens a new one")
    func garbageClosesTheLane() async throws {
        let pair = try await Pair()
        #expect(await pair.laneOpen())
        // What a broken child would write: a length no message may have.
        let fd = try #require(await pair.child.laneDescriptor(to: "root"))
        let garbage: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F] + [UInt8](repeating: 0xEE, count: 200)
        _ = garbage.withUnsafeBytes { UnixStream.send(fd, $0) }
        #expect(await pair.session.wait { records in
            records.contains { $0.at == "root" && $0.outcome == .rejected && $0.reason?.hasSuffix("the lane is closed") == true }
        })
        #expect(await pair.peers.wait { $0.contains(.lost("child")) })
        // Its lane ended, the child lost its parent, said hello again and opened another.
        #expect(await pair.session.wait { records in
            records.filter { $0.at == "root" && $0.reason == "lane open with child" }.count == 2
        })
        let answer = try await pair.child.request(.memoryWarning)
        #expect(answer.message == .ack)
        await pair.end()
    }

    @Test("a well-formed message on a lane from another id than the lane's is refused, and the lane closed")
    func anotherIDOnALaneIsRefused() async throws {
        let pair = try await Pair()
        #expect(await pair.laneOpen())
        let fd = try #require(await pair.child.laneDescriptor(to: "root"))
        let forged = LaneFraming.encode(Envelope(
            sequence: 1, trace: 0, correlation: 0, source: "intruder", target: "root", flags: [], message: Pair.numbered(7)))
        _ = forged.withUnsafeBytes { UnixStream.send(fd, $0) }
        #expect(await pair.session.wait { records in
            records.contains {
                $0.at == "root" && $0.outcome == .rejected && $0.source == "intruder"
                    && $0.reason?.hasPrefix("refused-id: source intruder is not child, whose lane it is") == true
            }
        })
        #expect(pair.atParent.all.isEmpty)
        // The child's own lane is gone with it; it opens another and goes on.
        #expect(await pair.session.wait { records in
            records.filter { $0.at == "root" && $0.reason == "lane open with child" }.count == 2
        })
        try await pair.child.send(Pair.numbered(8))
        #expect(await pair.atParent.wait { $0 == [8] })
        await pair.end()
    }

    @Test("a parent without lanes declines, and the child stays on libzmq")
    func aParentWithoutLanesDeclines() async throws {
        var off = fastOptions()
        off.lanes = false
        let pair = try await Pair(options: off, childOptions: fastOptions())
        #expect(await pair.session.wait { $0.contains { $0.at == "child" && $0.reason == "no lane: the parent declined to give a token" } })
        for i in 0..<10 { try await pair.child.send(Pair.numbered(i)) }
        #expect(await pair.atParent.wait { $0.count == 10 })
        #expect(pair.atParent.all == Array(0..<10))
        #expect(!pair.session.records().contains { $0.reason?.hasPrefix("lane open") == true })
        await pair.end()
    }

    @Test("a lane's reader takes messages in any pieces and refuses a length over the limit")
    func readerPieces() throws {
        let envelopes = (0..<20).map { i in
            Envelope(sequence: UInt64(i + 1), trace: 0, correlation: 0, source: "a", target: "b", flags: [],
                     message: Pair.numbered(i, padding: i * 37))
        }
        let stream = envelopes.flatMap(LaneFraming.encode)
        for piece in [1, 7, 96, 1000, stream.count] {
            var reader = LaneReader(capacity: 128)
            var ids = ControllerIDCache()
            var read: [Envelope] = []
            var at = 0
            while at < stream.count {
                reader.append(stream[at..<min(at + piece, stream.count)])
                at += piece
                while let (e, _) = try reader.next(ids: &ids) { read.append(e) }
            }
            #expect(read == envelopes, "in pieces of \(piece)")
            #expect(reader.bufferedCount == 0)
        }
        var reader = LaneReader()
        var ids = ControllerIDCache()
        reader.append([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(reader.hasWholeMessage)
        #expect(throws: Rejection.self) { _ = try reader.next(ids: &ids) }
        #expect(reader.broken)
    }
}
