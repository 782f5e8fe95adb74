import TrellisLog

/// Which supervised processes are hung: started, beaten at least once, and silent past
/// the scene's limit since. A process that has not beaten yet is starting, and is
/// judged by whether it connects (`Supervisor.waitUntilUp`), not here.
///
/// Each verdict is given once per process (by pid): the supervisor kills what is hung,
/// and the process's exit, not a second verdict, starts its restart.
struct HangWatch {
    let limit: UInt64
    private var judged: Set<Int32> = []

    init(limit seconds: Double) { limit = UInt64(seconds * 1e9) }

    /// A process found hung: who, which pid, and how long it has been silent.
    struct Verdict: Equatable {
        var id: String
        var pid: Int32
        var silentNanoseconds: UInt64
    }

    /// `running`: each running process's id and pid; `lastBeat`: its last beat, if any.
    mutating func check(running: [(id: String, pid: Int32)], now: UInt64, lastBeat: (String) -> UInt64?) -> [Verdict] {
        judged.formIntersection(running.map(\.pid))
        var hung: [Verdict] = []
        for (id, pid) in running where !judged.contains(pid) {
            guard let beat = lastBeat(id), now > beat, now - beat > limit else { continue }
            judged.insert(pid)
            hung.append(Verdict(id: id, pid: pid, silentNanoseconds: now - beat))
        }
        return hung
    }
}
