import Foundation

/// The figures of a chaos run, the targets of issue 19, and the report.
struct ChaosResult {
    struct Stopped {
        var id: String
        var pid: Int32 = 0
        var stoppedAt: UInt64 = 0
        /// Still the same process at the end, so continued (not killed as hung).
        var continued = false
        var pidAfter: Int32 = 0
    }

    let taps: [ChaosTap]
    let kills: [ChaosLog.Kill]
    let skippedKills: Int
    let restarts: Int
    let stopped: Stopped
    let options: ChaosBench

    let ok, declined, failed, stale, lost: Int
    /// Failed taps that touched inside a tab: the only ones that needed a child.
    let failedInside: Int
    let outOfOrder: Int
    let deliveredAtRoot: Int
    /// Lost taps whose touches the root's log shows it handled (the answer went missing
    /// on the way back) — the rest never reached it.
    let lostButDelivered: Int
    let latency: [ChaosPhase: Percentiles]
    let back: Percentiles
    let neverBack: Int

    init(taps: [ChaosTap], kills: [ChaosLog.Kill], skippedKills: Int, restarts: Int, stopped: Stopped, log: ChaosLog, options: ChaosBench) {
        self.taps = taps
        self.kills = kills
        self.skippedKills = skippedKills
        self.restarts = restarts
        self.stopped = stopped
        self.options = options
        let answered = taps.compactMap(\.answer)
        ok = answered.filter { $0 == .ok }.count
        declined = answered.filter { $0 == .declined }.count
        failed = answered.filter { $0 == .failed }.count
        stale = answered.filter { $0 == .stale }.count
        lost = taps.count - answered.count
        failedInside = taps.filter { $0.answer == .failed && $0.inside }.count

        var sendIndex: [UInt64: Int] = [:]
        for (i, t) in taps.enumerated() {
            sendIndex[t.traces.began] = 2 * i
            sendIndex[t.traces.ended] = 2 * i + 1
        }
        (outOfOrder, deliveredAtRoot) = log.outOfOrder(root: ChaosBench.root, sendIndex: sendIndex)
        let reached = log.tracesDelivered(root: ChaosBench.root)
        lostButDelivered = taps.filter { $0.answer == nil && (reached.contains($0.traces.began) || reached.contains($0.traces.ended)) }.count

        var latency: [ChaosPhase: Percentiles] = [:]
        for phase in ChaosPhase.allCases {
            latency[phase] = Percentiles(taps.filter { $0.phase == phase }.compactMap { t in t.answeredAt.map { $0 - t.sentAt } })
        }
        self.latency = latency
        let backTimes = log.backTimes(kills, bound: ChaosBench.backBound)
        back = Percentiles(backTimes.compactMap { $0 })
        neverBack = backTimes.filter { $0 == nil }.count
    }

    var failedPercent: Double { taps.isEmpty ? 0 : 100 * Double(failed) / Double(taps.count) }
    func ms(_ p: Percentiles?, _ at: Double) -> Double { (p?.at(at) ?? .nan) / 1e6 }
    var stoppedRatio: Double { ms(latency[.stopped], 0.99) / ms(latency[.quiet], 0.99) }

    /// Issue 19's targets, each with its figure.
    var targets: [(name: String, met: Bool)] {
        [
            ("lost = 0", lost == 0),
            ("out_of_order = 0", outOfOrder == 0),
            ("never_back = 0", neverBack == 0),
            ("failed_pct <= 1", failedPercent <= 1),
            ("during_p99_ms <= 100", ms(latency[.kills], 0.99) <= 100),
            ("back_p99_ms <= 300", back.sorted.isEmpty || back.p99 / 1e6 <= 300),
            ("stopped_ratio <= 2", options.stopSeconds == 0 || stoppedRatio <= 2),
        ]
    }

    func report() {
        let count = { (phase: ChaosPhase) in taps.filter { $0.phase == phase }.count }
        print("  taps: \(taps.count) sent, \(ok) answered ok, \(declined) declined, \(failed) failed (\(figure(failedPercent, 2))%; "
            + "\(failedInside) inside a tab, \(failed - failedInside) on a tab), \(stale) stale, \(lost) lost"
            + (lost > 0 ? " (\(lostButDelivered) of them reached the root, per its log)" : ""))
        for phase in [ChaosPhase.quiet, .kills, .after, .stopped] {
            let p = latency[phase]
            print("  answer latency, \(phase.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)): "
                + "p50 \(figure(ms(p, 0.5), 2)) ms, p99 \(figure(ms(p, 0.99), 2)) ms, max \(figure((p?.max ?? .nan) / 1e6, 2)) ms "
                + "(\(p?.sorted.count ?? 0) of \(count(phase)) taps answered)")
        }
        print("  kills: \(kills.count) (\(skippedKills) turns skipped: the child drawn was restarting); restarts during the run: \(restarts)")
        print("  kill -> the next process's first frame taken in by the compositor: p50 \(figure(back.p50 / 1e6, 1)) ms, "
            + "p99 \(figure(back.p99 / 1e6, 1)) ms, max \(figure(back.max / 1e6, 1)) ms; never back within "
            + "\(ChaosBench.backBound / 1_000_000_000) s: \(neverBack) of \(kills.count)")
        print("  touches the root handled out of the order sent: \(outOfOrder) of \(deliveredAtRoot) it handled")
        let fate = stopped.pid == 0 ? "not stopped (no verified pid)"
            : stopped.continued ? "pid \(stopped.pid), continued after \(figure(options.stopSeconds)) s"
            : "pid \(stopped.pid), killed as hung by the supervisor while stopped (pid now \(stopped.pidAfter))"
        print("  stopped: \(stopped.id) (\(fate)); taps elsewhere p99 \(figure(ms(latency[.stopped], 0.99), 2)) ms "
            + "/ quiet p99 \(figure(ms(latency[.quiet], 0.99), 2)) ms = \(figure(stoppedRatio, 2))")
        let missed = targets.filter { !$0.met }.map(\.name)
        print("targets: " + targets.map { "\($0.name) (\($0.met ? "met" : "missed"))" }.joined(separator: ", "))
        print("bench=chaos taps=\(taps.count) ok=\(ok) declined=\(declined) failed=\(failed) stale=\(stale) lost=\(lost) "
            + "failed_pct=\(figure(failedPercent, 2)) "
            + "quiet_p50_ms=\(figure(ms(latency[.quiet], 0.5), 2)) quiet_p99_ms=\(figure(ms(latency[.quiet], 0.99), 2)) "
            + "during_p50_ms=\(figure(ms(latency[.kills], 0.5), 2)) during_p99_ms=\(figure(ms(latency[.kills], 0.99), 2)) "
            + "after_p50_ms=\(figure(ms(latency[.after], 0.5), 2)) after_p99_ms=\(figure(ms(latency[.after], 0.99), 2)) "
            + "kills=\(kills.count) restarts=\(restarts) back_p50_ms=\(figure(back.p50 / 1e6, 1)) back_p99_ms=\(figure(back.p99 / 1e6, 1)) "
            + "never_back=\(neverBack) out_of_order=\(outOfOrder) "
            + "stopped_p99_ms=\(figure(ms(latency[.stopped], 0.99), 2)) stopped_ratio=\(figure(stoppedRatio, 2)) "
            + "targets_met=\(missed.isEmpty ? "yes" : "no")")
    }
}
