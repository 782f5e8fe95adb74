/// The trace id of the message a host is handling, so that what the handling sends —
/// messages to children in other processes, requests up, the frame it causes — carries
/// the same id, and `trellis trace ID` can follow one input through every hop to the
/// frame it produced.
///
/// A plain main-actor variable suffices: a host handles one message at a time on the
/// main actor, and the frame that results is published from the same actor.
@MainActor
enum TraceContext {
    static var current: UInt64 = 0

    /// Runs `body` with `trace` as the current trace (0 keeps the outer one).
    static func with<T>(_ trace: UInt64, _ body: () -> T) -> T {
        guard trace != 0 else { return body() }
        let outer = current
        current = trace
        defer { current = outer }
        return body()
    }
}
