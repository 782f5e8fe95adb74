import Foundation
import Testing
import TrellisCanvas
import TrellisLog
import TrellisTransport
import TrellisWire

/// What a client sends the control endpoint is bounded before the compositor acts on it:
/// one `size` of 65536×1 stopped the compositor with SIGILL (issue 19 finding 5).
@Suite(.serialized) struct ControlEndpointBoundsTests {
    /// The compositor alone (no root connects: a size from a client still resizes its
    /// screen), driven through `control.sock` as `trellis resize` does.
    @Test(.timeLimit(.minutes(1)))
    func anOutOfBoundsSizeIsDeclinedAndTheCompositorKeepsItsScreen() async throws {
        let s = try MultiProcessTests.Session()
        do {
            let compositor = try s.launch("trellis-compositor", ["--root", "Container", "--headless", "--size", "40x12"])
            try await s.connect()
            #expect(try await s.screen().filter { $0 == "\n" }.count == 11)

            for (width, height) in [(65536, 1), (1, 65536), (0, 5), (1001, 10), (UInt32.max, UInt32.max)] as [(UInt32, UInt32)] {
                let answer = try await s.client!.request(.sizeTransition(SizeTransition(width: width, height: height)))
                guard case .reply(let reply) = answer.message else {
                    Issue.record("size \(width)×\(height) was acknowledged, not declined")
                    continue
                }
                #expect(reply.status == .declined)
                let why = String(decoding: reply.payload, as: UTF8.self)
                #expect(why == "size \(width)×\(height) is outside 1…1000 columns and rows; the screen stays 40×12", "\(why)")
            }
            #expect(compositor.isRunning, "the compositor stopped on an out-of-bounds size")
            #expect(try await s.screen().filter { $0 == "\n" }.count == 11, "a declined size changed the screen")

            // The largest size there is still works, and the next request after it.
            let answer = try await s.client!.request(.sizeTransition(SizeTransition(width: 1000, height: 3)))
            #expect(answer.message == .ack)
            #expect(try await s.screen().filter { $0 == "\n" }.count == 2)

            var reader = LogReader(directory: s.run.logs)
            var rejected: [RoutingRecord] = []
            let deadline = ContinuousClock.now + .seconds(5)
            while rejected.count < 5 && ContinuousClock.now < deadline {
                rejected += reader.readNew().filter { $0.host == "compositor" && $0.kind == "size" && $0.outcome == .rejected }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(rejected.count == 5, "each declined size is a routing-log line")
            #expect(rejected.first?.reason?.hasPrefix("size 65536×1 is outside 1…1000") == true)
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }
}
