import CPlatform
import CZeroMQ
import Foundation
import Synchronization
import TrellisLog
import TrellisTransport
import TrellisWire

/// What part of the chaos run a tap was sent in.
enum ChaosPhase: String, Sendable, CaseIterable {
    /// Before any kill: the baseline.
    case quiet
    /// While a random child is killed every few hundred ms.
    case kills
    /// After the last kill, while the tree recovers.
    case after
    /// Between the switch away from the child about to be stopped and its stop: counted
    /// nowhere, so that no stopped-phase tap can still select it.
    case settle
    /// While one child is stopped (SIGSTOP), tapping only what does not need it.
    case stopped
}

/// How a touch was answered.
enum TouchAnswer: Sendable, Equatable {
    case ok, declined, failed, stale
}

/// One tap: a touch began and a touch ended at the same cell, each with its own trace id,
/// so the routing log tells them apart at every hop.
struct ChaosTap: Sendable {
    var phase: ChaosPhase
    var tab: Int
    /// Inside the tab's content: only its child can answer.
    var inside: Bool
    var traces: (began: UInt64, ended: UInt64)
    var sentAt: UInt64 = 0
    var answers: [(at: UInt64, answer: TouchAnswer)] = []

    /// Both touches answered: the later answer's time.
    var answeredAt: UInt64? { answers.count == 2 ? answers.map(\.at).max() : nil }

    /// The worst of its two answers: stale, then failed, then declined, then ok.
    var answer: TouchAnswer? {
        guard answers.count == 2 else { return nil }
        let all = answers.map(\.answer)
        for a in [TouchAnswer.stale, .failed, .declined] where all.contains(a) { return a }
        return .ok
    }
}

/// Sends taps at a steady rate from a thread of its own, pipelined: each tap's touches
/// go out on schedule whatever is still unanswered, as a person's terminal sends input
/// without waiting for the screen — stop-and-wait would let one slow answer hide the
/// taps that should have queued behind it.
final class ChaosTapper: Sendable {
    private struct State {
        var taps: [ChaosTap] = []
        var phase = ChaosPhase.quiet
        var cycle: ChaosTargets.Cycle
        var sending = true
    }

    private let state: Mutex<State>
    private let link: Link
    private let targets: ChaosTargets
    private let interval: UInt64
    private let finished = Mutex<Bool>(false)
    /// How long a touch may stay unanswered before the link gives up on it: far past the
    /// bench's own bound for "lost", so that only the bench decides what was lost.
    static let answerBound = Duration.seconds(120)

    init(link: Link, targets: ChaosTargets, rate: Double, perTab: Int) {
        self.link = link
        self.targets = targets
        interval = UInt64(1e9 / rate)
        state = Mutex(State(cycle: ChaosTargets.Cycle(perTab: perTab)))
    }

    var phase: ChaosPhase {
        get { state.withLock { $0.phase } }
        set { state.withLock { $0.phase = newValue } }
    }

    /// Taps from now on never select or touch tab `index` (nil: every tab again).
    func avoid(_ index: Int?) { state.withLock { $0.cycle.avoiding = index } }

    func start() {
        Thread { [self] in
            trellis_thread_set_name("chaos-tapper")
            sendLoop()
            finished.withLock { $0 = true }
        }.start()
    }

    /// Stops sending and waits until the sending thread has ended.
    func stopSending() async {
        state.withLock { $0.sending = false }
        while !finished.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
    }

    func taps() -> [ChaosTap] { state.withLock { $0.taps } }

    /// Taps of `phase` sent so far, and how many of them are answered.
    func progress(_ phase: ChaosPhase? = nil) -> (sent: Int, answered: Int) {
        state.withLock { s in
            let mine = s.taps.filter { phase == nil || $0.phase == phase }
            return (mine.count, mine.filter { $0.answeredAt != nil }.count)
        }
    }

    private func sendLoop() {
        var next = MonotonicClock.nanoseconds()
        while true {
            next += interval
            let now = MonotonicClock.nanoseconds()
            // Behind by more than a few taps (the machine is shared): start the schedule
            // again from now rather than send a burst no terminal would.
            if now > next + 20 * interval { next = now }
            if next > now {
                var ts = timespec(tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
                while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
            }
            let planned: (index: Int, point: (x: Int32, y: Int32), traces: (UInt64, UInt64))? = state.withLock { s in
                guard s.sending else { return nil }
                let t = s.cycle.next(in: targets)
                let traces = (TraceID.make(), TraceID.make())
                s.taps.append(ChaosTap(phase: s.phase, tab: t.tab, inside: t.inside, traces: traces))
                return (s.taps.count - 1, (Int32(t.point.x), Int32(t.point.y)), traces)
            }
            guard let planned else { return }
            send(planned.index, at: planned.point, traces: planned.traces)
        }
    }

    private func send(_ index: Int, at p: (x: Int32, y: Int32), traces: (UInt64, UInt64)) {
        let bound = Self.answerBound
        link.run { [self] link in
            // Read on the link's thread just before the send, as `BenchSession.touch` does.
            let sentAt = MonotonicClock.nanoseconds()
            state.withLock { $0.taps[index].sentAt = sentAt }
            for (phase, trace) in [(TouchInput.Phase.began, traces.0), (.ended, traces.1)] {
                let touch = Message.touch(TouchInput(phase: phase, tapCount: 1, pointer: 0, x: p.x, y: p.y, timestamp: sentAt))
                link.request(touch, trace: trace, timeout: bound) { [self] result in
                    let at = MonotonicClock.nanoseconds()
                    let answer = Self.classify(result)
                    state.withLock { $0.taps[index].answers.append((at, answer)) }
                }
            }
        }
    }

    /// An ack is ok; a reply says its status (`stale`: it waited past the hosts' input
    /// bound and was not run, docs/PROCESSES.md).
    static func classify(_ result: Result<Envelope, LinkError>) -> TouchAnswer {
        guard case .success(let envelope) = result else { return .failed }
        guard case .reply(let r) = envelope.message else { return .ok }
        switch r.status {
        case .ok: return .ok
        case .declined: return .declined
        case .failed: return .failed
        case .stale: return .stale
        }
    }
}
