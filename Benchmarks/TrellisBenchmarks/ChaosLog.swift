import TrellisLog

/// What the routing log of a chaos run says, read once the run is over: the order in
/// which the root handled the touches, and when each killed child's content was back.
struct ChaosLog {
    let records: [RoutingRecord]

    init(directory: String) {
        var reader = LogReader(directory: directory)
        records = reader.readNew()
    }

    /// Touches the root handed to its controllers out of the order the client sent them:
    /// each `delivered` touch line of the root's own link, in the order it wrote them,
    /// whose send index is below one already delivered. The answers' order is not the
    /// measure: a touch the root answers at once may rightly overtake one a child is
    /// still answering.
    func outOfOrder(root: String, sendIndex: [UInt64: Int]) -> (outOfOrder: Int, delivered: Int) {
        var highest = -1, late = 0, delivered = 0
        for r in records where r.host == root && r.at == root && r.kind == "touch" && r.outcome == .delivered {
            guard let i = sendIndex[r.trace] else { continue }
            delivered += 1
            if i < highest { late += 1 } else { highest = i }
        }
        return (late, delivered)
    }

    /// Traces of the touches that reached the root at all.
    func tracesDelivered(root: String) -> Set<UInt64> {
        Set(records.lazy.filter { $0.host == root && $0.at == root && $0.kind == "touch" && $0.outcome == .delivered }.map(\.trace))
    }

    /// A kill: which child, its process, and when (CLOCK_MONOTONIC, as the log's `mono`).
    struct Kill: Sendable {
        var id: String
        var pid: Int32
        var at: UInt64
    }

    /// For each kill, the time until the compositor took in the first frame of the child's
    /// next process: the first `frame` it logged from the child after that process said
    /// hello to it — the compositor composes as it takes a frame in — or nil if none came
    /// within `bound` (a frame the old process had in flight is not taken for the new one).
    func backTimes(_ kills: [Kill], bound: UInt64) -> [UInt64?] {
        let compositor = records.filter { $0.host == "compositor" }
        return kills.map { kill in
            let after = compositor.drop { $0.mono <= kill.at }
            guard let hello = after.first(where: { $0.kind == "hello" && $0.source == kill.id && $0.outcome != .sent }) else { return nil }
            let frame = after.first { $0.mono >= hello.mono && $0.kind == "frame" && $0.source == kill.id && $0.outcome == .delivered }
            guard let frame, frame.mono - kill.at <= bound else { return nil }
            return frame.mono - kill.at
        }
    }
}
