import CZeroMQ
import Foundation
import Testing
import TrellisTransport

@Suite("A socket reads what it receives in place", .timeLimit(.minutes(1)))
struct ZMQSocketTests {
    /// A connected pair in a context of its own, and a way to wait until the
    /// receiving one has input.
    private final class Pair {
        let context = ZMQContext(followLoop: false)
        let sender: ZMQSocket, receiver: ZMQSocket

        init(_ name: String) throws {
            receiver = try ZMQSocket(.pair, context: context)
            try receiver.bind("inproc://\(name)")
            sender = try ZMQSocket(.pair, context: context)
            try sender.connect("inproc://\(name)")
        }

        func waitForInput() -> Bool {
            for _ in 0..<1000 {
                if receiver.hasInput { return true }
                usleep(1000)
            }
            return false
        }

        func close() {
            sender.close(linger: 0)
            receiver.close(linger: 0)
            _ = context.terminate()
        }
    }

    @Test("a message's frames are read as they were sent, and nothing waiting is nil, not an error")
    func framesAsSent() throws {
        let pair = try Pair("frames")
        defer { pair.close() }
        #expect(try pair.receiver.receive { $0.count } == nil)

        let sent: [[UInt8]] = [[], Array("TRL".utf8), [UInt8](repeating: 7, count: 300), [1, 2, 3]]
        try pair.sender.send(sent)
        #expect(pair.waitForInput())
        let got = try pair.receiver.receive { frames in
            (frames.count, frames.kept, frames.byteCount, (0..<frames.kept).map { Array(frames[$0]) })
        }
        #expect(got?.0 == 4 && got?.1 == 4 && got?.2 == 306)
        #expect(got?.3 == sent)
        #expect(try pair.receiver.receive { $0.count } == nil)
    }

    @Test("frames beyond the ones kept are consumed and counted, and the next message is whole")
    func framesBeyondTheLimit() throws {
        let pair = try Pair("many")
        defer { pair.close() }
        let many = (0..<(ZMQSocket.maxFrames + 5)).map { [UInt8(truncatingIfNeeded: $0)] }
        try pair.sender.send(many)
        try pair.sender.send([[9, 9]])
        #expect(pair.waitForInput())
        let first = try pair.receiver.receive { frames in (frames.count, frames.kept, Array(frames[frames.kept - 1])) }
        #expect(first?.0 == ZMQSocket.maxFrames + 5)
        #expect(first?.1 == ZMQSocket.maxFrames)
        #expect(first?.2 == [UInt8(ZMQSocket.maxFrames - 1)])
        #expect(pair.waitForInput())
        let next = try pair.receiver.receive { frames in (frames.count, Array(frames[0])) }
        #expect(next?.0 == 1 && next?.1 == [9, 9])
    }
}
