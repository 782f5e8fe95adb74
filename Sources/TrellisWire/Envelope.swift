/// One message with its header: what travels over a link.
public struct Envelope: Sendable, Equatable {
    /// Per-sender, per-link, increasing from 1.
    public var sequence: UInt64
    /// Follows one input through every hop to the frame it produced; 0 = none.
    public var trace: UInt64
    /// For `ack`, `reply` and `error`: the sequence of the message answered; else 0.
    public var correlation: UInt64
    public var source: ControllerID
    public var target: ControllerID
    public var flags: EnvelopeFlags
    public var message: Message

    public init(
        sequence: UInt64, trace: UInt64 = 0, correlation: UInt64 = 0,
        source: ControllerID, target: ControllerID, flags: EnvelopeFlags = [],
        message: Message
    ) {
        self.sequence = sequence
        self.trace = trace
        self.correlation = correlation
        self.source = source
        self.target = target
        self.flags = flags
        self.message = message
    }

    public var kind: MessageKind { message.kind }
}

/// Header flags. Unknown bits are rejected so that a future meaning is never
/// silently ignored by an old peer.
public struct EnvelopeFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The receiver answers with `ack` once the target's handler has run.
    public static let ackRequested = EnvelopeFlags(rawValue: 1 << 0)

    /// The sender sent this message together with others, and more of them follow: a
    /// receiver that acts once per batch (the compositor composing the screen) may wait
    /// for the rest, which the sender has already handed to its socket.
    public static let moreInBatch = EnvelopeFlags(rawValue: 1 << 1)

    public static let known: EnvelopeFlags = [.ackRequested, .moreInBatch]
}
