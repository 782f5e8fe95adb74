import TrellisWire

/// What a link hands the routing log for each message it sends, receives,
/// delivers, rejects or drops: the line's variable fields, and nothing the log can
/// work out later.
///
/// A `RoutingRecord` built on a link's loop thread cost two clock reads and eight
/// strings copied in and destroyed again per message — about a quarter of the loop
/// thread in the fan-out benchmark. An event carries the two controller ids and
/// numbers; the strings that never change for a link (`at`, `via`) are registered
/// once as an `origin`, the kind's name is looked up when the line is formatted, and
/// the wall-clock time is derived from `mono` on the writer thread (see
/// `RoutingLog`).
public struct MessageEvent: Sendable {
    public var mono: UInt64
    public var sequence: UInt64
    public var trace: UInt64
    public var bytes: Int
    public var source: ControllerID
    public var target: ControllerID
    public var kind: MessageKind
    public var outcome: RoutingRecord.Outcome
    /// From `RoutingLog.registerOrigin`: which link wrote it, and how the message travelled.
    public var origin: RoutingLog.Origin
    public var reason: String?

    public init(
        mono: UInt64 = MonotonicClock.nanoseconds(), sequence: UInt64, trace: UInt64, bytes: Int,
        source: ControllerID, target: ControllerID, kind: MessageKind, outcome: RoutingRecord.Outcome,
        origin: RoutingLog.Origin, reason: String? = nil
    ) {
        self.mono = mono
        self.sequence = sequence
        self.trace = trace
        self.bytes = bytes
        self.source = source
        self.target = target
        self.kind = kind
        self.outcome = outcome
        self.origin = origin
        self.reason = reason
    }
}
