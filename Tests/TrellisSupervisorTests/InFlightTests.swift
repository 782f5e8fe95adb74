import Testing
import TrellisClient
import TrellisLog

/// `trellis wait --idle` decides from the logs: a message is in flight from the line
/// that says it was sent until the line that says it was handled, in whichever order
/// the processes' logs are read.
@Suite struct InFlightTests {
    func line(_ outcome: RoutingRecord.Outcome, _ src: String, _ dst: String, _ seq: UInt64, kind: String = "touch", at mono: UInt64 = 1) -> RoutingRecord {
        RoutingRecord(mono: mono, host: src, at: src, source: src, target: dst, kind: kind, sequence: seq, outcome: outcome)
    }

    @Test func aMessageToADeadProcessIsLostAfterTheHorizonAndHellosNeverCount() {
        var f = InFlight(horizon: .seconds(5))
        f.add([line(.sent, "Root", "Child", 3, at: 1_000_000_000), line(.sent, "client", "control", 1, kind: "hello", at: 1_000_000_000)])
        #expect(f.pending.map(\.sequence) == [3])
        f.add([line(.event, "Root", "Root", 0, kind: "link", at: 7_000_000_000)])
        #expect(f.pending.isEmpty)
    }

    /// Heartbeats are not logged: an idle tree writes nothing, and the horizon must
    /// still pass (the restarted compositor of RecoveryTests left such a message).
    @Test func aMessageToADeadProcessAgesOutWithTheClockWhenNothingIsLogged() {
        var f = InFlight(horizon: .seconds(5))
        f.add([line(.sent, "Root", "compositor", 3, kind: "frame", at: 1_000_000_000)])
        f.advance(to: 4_000_000_000)
        #expect(f.pending.map(\.sequence) == [3])
        f.advance(to: 7_000_000_000)
        #expect(f.pending.isEmpty)
    }

    @Test func aSentMessageIsInFlightUntilItIsHandled() {
        var f = InFlight()
        f.add([line(.sent, "compositor", "Root", 1)])
        #expect(f.pending.map(\.sequence) == [1])
        f.add([line(.delivered, "compositor", "Root", 1)])
        #expect(f.pending.isEmpty)
    }

    @Test func theReceiversLineMayBeReadFirst() {
        var f = InFlight()
        f.add([line(.received, "Child", "Root", 7, kind: "reply")])
        f.add([line(.sent, "Child", "Root", 7, kind: "reply")])
        #expect(f.pending.isEmpty)
    }

    @Test func everyEndOfAMessageCloses_heartbeatsAndEventsNeverOpen() {
        var f = InFlight()
        let ends: [RoutingRecord.Outcome] = [.rejected, .dropped, .timeout, .lost]
        for (i, o) in ends.enumerated() {
            f.add([line(.sent, "A", "B", UInt64(i + 1)), line(o, "A", "B", UInt64(i + 1))])
        }
        f.add([line(.sent, "A", "B", 99, kind: "heartbeat"), line(.event, "A", "A", 5, kind: "callback")])
        #expect(f.pending.isEmpty)
        // Same sequence, other direction: a different message.
        f.add([line(.sent, "B", "A", 1)])
        #expect(f.pending.count == 1)
    }
}
