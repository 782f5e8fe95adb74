import CPlatform
import CZeroMQ
import DequeModule
import Foundation
import HeapModule
import TrellisLog

// The loop itself: passes that poll the sources, run the queued work and fire due
// timers, until it is stopped or a nested wait is done.
extension IOLoop {
    /// Runs the loop on the calling thread until `shutdown`: a loop's own thread, or
    /// the main thread of a main-thread loop (where it does not return).
    public func runUntilStopped() {
        preconditionOnLoop()
        _ = passes(until: nil, deadline: nil)
        stopSources()
        finished.signal()
    }

    func stopSources() {
        for source in confined.sources { source.onLoopStop() }
        // Taken out whole and let go after the accesses: a source's or a timer's
        // closure may hold the last reference to something whose deinit reaches the
        // loop (`IOLoop.state`).
        var sources: [Source] = []
        var timers = Heap<Timer>()
        swap(&sources, &confined.sources)
        swap(&timers, &confined.timers)
        for placement in confined.ledPlacements { placement.release(ObjectIdentifier(self)) }
        confined.ledPlacements.removeAll()
        withExtendedLifetime((sources, timers)) {}
    }

    /// Waits until `done` returns true or the monotonic `deadline` (ns) passes; returns
    /// `done()`. Loop thread only, from inside work the loop runs (or, on a main-queue
    /// loop, any main-actor code): how a host's main actor waits for an answer while
    /// the transport goes on.
    ///
    /// The wait reads the sockets, runs `execute(duringWaits:)` work and fires
    /// `duringWaits` timers — the links' own reading, heartbeats and deadlines — and
    /// nothing else: no job, no queued closure, no other timer, not the main queue. What
    /// a link reads for the process's code must be queued by its handler; the waiting
    /// code decides, through `done`, whether something it queued ends the wait.
    public func run(until done: () -> Bool, deadline: UInt64) -> Bool {
        confined.nesting += 1
        defer { confined.nesting -= 1 }
        return withoutActuallyEscaping(done) { passes(until: $0, deadline: deadline) }
    }

    func passes(until done: (() -> Bool)?, deadline: UInt64?) -> Bool {
        let nested = confined.nesting > 0
        var ready: [Poller.Ready] = []
        while true {
            confined.passStart = MonotonicClock.nanoseconds()
            let stopping = incoming.withLock { incoming -> Bool in
                swapOrAppend(&incoming.transport, into: &confined.transport)
                swapOrAppend(&incoming.work, into: &confined.ready)
                return incoming.stopping
            }
            let ranWork = runWork(nested: nested, until: done)
            if ranWork == nil { return true }
            if done == nil && stopping && ranWork == false { return false }
            fireDueTimers(nested: nested)
            if let done, done() { return true }

            var busy = false
            for source in confined.sources where (!nested || source.servedWhileNested) && source.isReady() {
                source.onReadable()
                busy = true
                // What the read queued runs now, before the next source is read: a
                // touch a host's link read is handled without another turn.
                if runWork(nested: nested, until: done) == nil { return true }
            }
            if let done, done() { return true }
            if busy { continue }

            var timeout = nextTimeoutMilliseconds(nested: nested)
            if let deadline {
                let now = MonotonicClock.nanoseconds()
                guard now < deadline else { return done?() ?? false }
                let left = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
                timeout = timeout < 0 ? left : min(timeout, left)
            }
            // Sleep unless work arrived meanwhile. Every source said "not ready"
            // above, after its last use, so its edge-triggered descriptor is armed.
            let sleep = incoming.withLock { incoming -> Bool in
                // A stop request seen together with work must not put the loop to
                // sleep: with no timer and no source it would never wake to stop.
                let waiting = nested
                    ? !incoming.transport.isEmpty || !confined.transport.isEmpty
                    : !incoming.work.isEmpty || !incoming.transport.isEmpty || !confined.ready.isEmpty
                        || !confined.transport.isEmpty
                guard !waiting && !(incoming.stopping && !nested) else { return false }
                incoming.sleeping = true
                return true
            }
            guard sleep else { continue }
            if !confined.ledPlacements.isEmpty { followCPU() }
            let sources = confined.sources
            confined.poller.wait(sources, nested: nested, timeout: timeout, into: &ready)
            confined.passStart = MonotonicClock.nanoseconds()
            incoming.withLock { $0.sleeping = false }
            // Read what woke us before running queued work, so a reply reaches its
            // waiting task in this same pass. A source removed by an earlier
            // callback in this pass is skipped.
            for r in ready {
                if r.id == Poller.wakeID {
                    trellis_wakefd_drain(wakeFDs.0)
                    continue
                }
                guard let source = confined.sources.first(where: { $0.id == r.id }) else { continue }
                if r.writable { source.onWritable() }
                if r.readable, confined.sources.contains(where: { $0 === source }) { source.onReadable() }
            }
        }
    }

    /// Runs queued work, one item at a time, oldest first: the transport's, then — not
    /// inside a wait — the rest. Returns nil if `done` said so, else whether anything ran.
    private func runWork(nested: Bool, until done: (() -> Bool)?) -> Bool? {
        var ran = false
        while true {
            if let body = confined.transport.popFirst() {
                body()
            } else if !nested, let work = confined.ready.popFirst() {
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                }
            } else {
                return ran
            }
            ran = true
            if let done, done() { return nil }
        }
    }

    /// Runs, now, the transport's work already handed to this loop — above all a
    /// same-process link end's deliveries (`execute(duringWaits:)`), one each — as a
    /// nested wait runs it: for a handler about to act on one message that can act on
    /// those right behind it (a host's touches read together, docs/TRANSPORT.md), which
    /// `Link.readArrived` finds in sockets and lanes but not here. Loop thread only, and
    /// outside every link's frame, as a wait is.
    public func runArrivedTransportWork() {
        preconditionOnLoop()
        incoming.withLock { swapOrAppend(&$0.transport, into: &confined.transport) }
        while let body = confined.transport.popFirst() { body() }
    }

    private func fireDueTimers(nested: Bool) {
        let now = MonotonicClock.nanoseconds()
        guard !nested else {
            // Only the liveness timers, wherever they are in the heap; the others keep
            // their places for when the wait has ended.
            var kept: [Timer] = []
            while let first = confined.timers.min, first.deadline <= now {
                let timer = confined.timers.removeMin()
                if !timer.duringWaits {
                    kept.append(timer)
                } else if confined.cancelledTimers.remove(timer.id) == nil {
                    timer.action()
                }
            }
            for timer in kept { confined.timers.insert(timer) }
            return
        }
        while let first = confined.timers.min, first.deadline <= now {
            let timer = confined.timers.removeMin()
            if confined.cancelledTimers.remove(timer.id) == nil { timer.action() }
        }
        if confined.timers.isEmpty { confined.cancelledTimers.removeAll() }
    }

    private func nextTimeoutMilliseconds(nested: Bool) -> Int32 {
        let now = MonotonicClock.nanoseconds()
        // Inside a wait an ordinary timer that is due does not fire: the wait sleeps
        // until the next liveness timer instead of spinning on it.
        let next = nested
            ? confined.timers.unordered.lazy.filter(\.duringWaits).map(\.deadline).min()
            : confined.timers.min?.deadline
        guard let next else { return -1 }
        if next <= now { return 0 }
        // Round up so we never wake just before a deadline and spin.
        return Int32(min((next - now + 999_999) / 1_000_000, 60_000))
    }
}

/// Moves everything in `source` to the end of `target`, leaving `source` empty.
/// Swapped when `target` is empty, so neither buffer is copied (taking a copy and
/// emptying the shared one reallocated it every pass).
private func swapOrAppend<T>(_ source: inout Deque<T>, into target: inout Deque<T>) {
    if target.isEmpty {
        swap(&source, &target)
    } else {
        target.append(contentsOf: source)
        source.removeAll(keepingCapacity: true)
    }
}
