import TrellisLog

/// Which messages of a session are still in flight, from its routing logs: a message a
/// link logged as `sent` that no link has yet logged as handled (`delivered`,
/// `received`, `rejected`, `dropped`, `timeout`, `lost`) — the same source, target and
/// sequence number. Heartbeats and hellos are the links' own business and do not count
/// (a hello to a compositor that is not up yet is never answered, and need not be).
/// A message sent to a process that died is never handled either: one unanswered for
/// `horizon` (longer than any link's request timeout) is taken as lost, not in flight.
public struct InFlight {
    private struct Key: Hashable {
        var source: String
        var target: String
        var sequence: UInt64
    }

    private var open: [Key: RoutingRecord] = [:]
    private var closed: Set<Key> = []
    private var newest: UInt64 = 0
    private let horizon: UInt64

    public init(horizon: Duration = .seconds(5)) {
        self.horizon = horizon.nanoseconds
    }

    /// Takes in log records in any order (processes write independently).
    public mutating func add(_ records: [RoutingRecord]) {
        for r in records {
            newest = max(newest, r.mono)
            guard r.kind != "heartbeat", r.kind != "hello", r.sequence != 0 else { continue }
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

    /// Time passes while nothing is logged (heartbeats are not): a reader calls this with
    /// the clock the lines carry (CLOCK_MONOTONIC), so that a message sent to a process
    /// that died still ages out of flight in an idle tree.
    public mutating func advance(to now: UInt64) {
        newest = max(newest, now)
    }

    /// The messages sent and not yet handled.
    public var pending: [RoutingRecord] {
        open.values.filter { $0.mono &+ horizon >= newest }.sorted { $0.mono < $1.mono }
    }
}
