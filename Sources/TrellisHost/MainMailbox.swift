import Dispatch
import Synchronization

/// Work for the main actor that arrived over links, and the one place the main thread
/// waits for an answer.
///
/// Normally a job runs from the main queue. While the main thread is blocked in
/// `LinkPort.exchange`, waiting for a peer to handle a message, jobs are run by the
/// waiting loop itself — so a child that, while handling the parent's message, calls
/// back up (a button's action sending a request, S1-3, S2-4) is served at once, as the
/// same call is served synchronously when the child is in the parent's process. No other
/// work runs during the wait: only what arrives over the links.
final class MainMailbox: Sendable {
    static let shared = MainMailbox()

    private let jobs = Mutex<[@Sendable @MainActor () -> Void]>([])
    private let wake = DispatchSemaphore(value: 0)

    /// Queues `job` for the main actor.
    func post(_ job: @escaping @Sendable @MainActor () -> Void) {
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

    /// Runs arriving jobs until `done` says so or `deadline` passes; returns `done()`.
    @MainActor
    func wait(until deadline: DispatchTime, _ done: () -> Bool) -> Bool {
        while true {
            drain()
            if done() { return true }
            if wake.wait(timeout: deadline) == .timedOut { return done() }
        }
    }
}
