import TrellisLog

/// Which messages of a session are still in flight, from its routing logs: a message a
/// link logged as `sent` that no link has yet logged as handled (`delivered`,
/// `received`, `rejected`, `dropped`, `timeout`, `lost`) — the same source, target and
/// sequence number. Heartbeats are the links' own business and do not count.
public struct InFlight {
    private struct Key: Hashable {
        var source: String
        var target: String
        var sequence: UInt64
    }

    private var open: [Key: RoutingRecord] = [:]
    private var closed: Set<Key> = []

    public init() {}

    /// Takes in log records in any order (processes write independently).
    public mutating func add(_ records: [RoutingRecord]) {
        for r in records where r.kind != "heartbeat" && r.sequence != 0 {
            let key = Key(source: r.source, target: r.target, sequence: r.sequence)
            switch r.outcome {
            case .sent:
                if !closed.contains(key) { open[key] = r }
            case .event:
                continue
            default:
                if open.removeValue(forKey: key) == nil { closed.insert(key) }
            }
        }
    }

    /// The messages sent and not yet handled.
    public var pending: [RoutingRecord] { open.values.sorted { $0.mono < $1.mono } }
}
