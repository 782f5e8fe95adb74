import Dispatch
import Synchronization
import TrellisTransport

/// Work for the main actor that arrived over links, and the one place the main thread
/// waits for an answer.
///
/// While the main thread waits in `LinkPort.exchange` for a peer to handle a message,
/// the jobs that arrive over the links still run — so a child that, while handling the
/// parent's message, calls back up (a button's action sending a request, S1-3, S2-4) is
/// served at once, as the same call is served synchronously when the child is in the
/// parent's process. No other work runs during the wait: only what arrives over the
/// links.
///
/// A process whose links run on a main-thread loop (`IOLoop.servesMainActor`: the
/// hosts and the compositor) hands jobs to that loop, and waits by running it nested;
/// nothing changes threads. Otherwise (a test process, whose main thread is the test
/// runner's) a job runs from the main queue, and the waiting main thread runs the jobs
/// posted here itself.
final class MainMailbox: Sendable {
    static let shared = MainMailbox()

    private let jobs = Mutex<[@Sendable @MainActor () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    /// Queues `job` for the main actor; `loop` is the loop of the link it came over, and
    /// `peer` who sent it, if anyone: on a main-thread loop a wait runs it only if it
    /// waits for that peer (`IOLoop.execute(from:)`) — the peer calling back, as one
    /// process allows, not another's message cutting into the handling of the last
    /// one. (A parent whose request timed out sends its next one early: a didAppear
    /// would run inside the willAppear it follows.)
    ///
    /// `atOnce`: on a main-thread loop, run it in place when nothing is queued before it
    /// and nothing runs that it would interrupt (`IOLoop.onMainActorAtOnce`) — for a
    /// message a link just read, so that a touch is handled without waiting for the
    /// loop's next pass. Elsewhere it is queued all the same.
    func post(
        via loop: IOLoop, from peer: IOLoop.WaitKey? = nil, atOnce: Bool = false,
        _ job: @escaping @Sendable @MainActor () -> Void
    ) {
        if loop.servesMainActor {
            return atOnce ? loop.onMainActorAtOnce(from: peer, job) : loop.onMainActor(from: peer, job)
        }
        jobs.withLock { $0.append(job) }
        wake.signal()
        DispatchQueue.main.async { MainActor.assumeIsolated { MainMailbox.shared.drain() } }
    }

    /// Wakes a waiting `wait(until:)` without a job (an answer arrived).
    func poke() { wake.signal() }

    /// Runs every queued job, in order.
    @MainActor
    func drain() {
        while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
    }

    /// True while the main thread is inside `wait`: a job run then interrupts a caller
    /// that is part-way through its own work.
    @MainActor var isWaiting: Bool { waitDepth > 0 }
    @MainActor private var waitDepth = 0

    /// Runs arriving jobs until `done` says so or `deadline` passes; returns `done()`.
    /// `loop` is the loop the answer comes from, `peer` who answers.
    @MainActor
    func wait(on loop: IOLoop, for peer: IOLoop.WaitKey, until deadline: DispatchTime, _ done: () -> Bool) -> Bool {
        waitDepth += 1
        defer { waitDepth -= 1 }
        if loop.servesMainActor && loop.isCurrent {
            return loop.run(until: done, deadline: deadline.uptimeNanoseconds, waitingFor: peer)
        }
        while true {
            drain()
            if done() { return true }
            if wake.wait(timeout: deadline) == .timedOut { return done() }
        }
    }
}
