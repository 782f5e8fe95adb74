import CZeroMQ
import DequeModule
import Foundation
import HeapModule
import Synchronization
import TrellisLog

/// A thread that owns sockets, and the serial executor of the actors that use them.
///
/// Actors whose `unownedExecutor` is a loop's executor run their jobs on that
/// loop's thread, between socket reads. A message that arrives is handed to its
/// actor on the same thread, isolation asserted by the loop's thread check — no
/// hop, no allocation — and an actor sends straight into its socket. Nothing here
/// blocks Swift's cooperative pool: the loop sleeps in `poll(2)` on the sockets'
/// descriptors, a wake-up descriptor for work from other threads, and the next
/// timer deadline.
public final class IOLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked: `incoming` is a Mutex; every other mutable field is touched only
    // on the loop thread (checked by `preconditionOnLoop` at every entry point).

    public let name: String

    private enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    private struct Incoming {
        var work = Deque<Work>()
        var sleeping = false
        var stopping = false
    }

    private struct Source {
        let id: Int
        let fd: Int32
        let isReady: () -> Bool
        let onReadable: () -> Void
        let onLoopStop: () -> Void
    }

    private struct Timer: Comparable {
        let deadline: UInt64
        let id: UInt64
        let action: () -> Void
        static func < (a: Timer, b: Timer) -> Bool { (a.deadline, a.id) < (b.deadline, b.id) }
        static func == (a: Timer, b: Timer) -> Bool { a.id == b.id }
    }

    private let incoming = Mutex(Incoming())
    private var wakeFDs: (Int32, Int32) = (-1, -1)
    private let threadID = Atomic<UInt>(0)
    private let finished = DispatchSemaphore(value: 0)

    // Loop-thread state.
    private var sources: [Source] = []
    private var nextSourceID = 0
    private var timers = Heap<Timer>()
    private var cancelledTimers = Set<UInt64>()
    private var nextTimerID: UInt64 = 1
    private var passStart: UInt64 = 0

    /// Starts the loop's thread.
    public init(name: String) {
        self.name = name
        var fds: [Int32] = [-1, -1]
        guard trellis_wakefd_open(&fds) == 0 else { fatalError("IOLoop \(name): cannot create wake-up descriptor") }
        wakeFDs = (fds[0], fds[1])
        let thread = Thread { [self] in self.run() }
        thread.name = "trellis-io-\(name)"
        thread.stackSize = 1 << 20
        thread.start()
        while threadID.load(ordering: .acquiring) == 0 { sched_yield() }
    }

    deinit {
        var fds: [Int32] = [wakeFDs.0, wakeFDs.1]
        trellis_wakefd_close(&fds)
    }

    // MARK: SerialExecutor

    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Lets `assumeIsolated` succeed for code the loop runs outside of a job (a
    /// socket-readiness or timer callback): being on the loop's thread is being
    /// isolated to every actor that uses this executor.
    public func checkIsolated() {
        preconditionOnLoop()
    }

    // MARK: Running work

    /// Runs `body` on the loop thread, after the work already queued. From any thread.
    public func execute(_ body: @escaping @Sendable () -> Void) {
        submit(.closure(body))
    }

    /// True on the loop's own thread.
    public var isCurrent: Bool { currentThreadID() == threadID.load(ordering: .relaxed) }

    public func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(isCurrent, "IOLoop \(name): called off its thread", file: file, line: line)
    }

    private func submit(_ work: Work) {
        let wake = incoming.withLock { state -> Bool in
            state.work.append(work)
            defer { state.sleeping = false }
            return state.sleeping
        }
        if wake { trellis_wakefd_signal(wakeFDs.1) }
    }

    /// Stops the loop after the work queued so far, closing every source still
    /// registered, and waits for the thread to end. From any thread but the loop's.
    public func shutdown() {
        precondition(!isCurrent, "IOLoop \(name): shutdown from its own thread would deadlock")
        let first = incoming.withLock { state -> Bool in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        submit(.closure({}))  // wakes the loop so it sees `stopping`
        finished.wait()
    }

    // MARK: Sources and timers (loop thread only)

    /// Watches a descriptor. `onReadable` runs when `poll(2)` reports `fd`
    /// readable, and whenever `isReady` says so.
    ///
    /// `isReady` is asked before every sleep. It exists for edge-triggered
    /// descriptors such as `ZMQ_FD`: it must return true if input is waiting that
    /// the descriptor will not announce, and when it returns false the descriptor
    /// must be armed. It is asked often, so it should answer without a system call
    /// when nothing has touched the source since it last said false.
    /// `onLoopStop` runs if the loop stops while the source is still registered.
    public func addSource(
        fd: Int32, isReady: @escaping () -> Bool = { false }, onReadable: @escaping () -> Void,
        onLoopStop: @escaping () -> Void = {}
    ) -> Int {
        preconditionOnLoop()
        nextSourceID += 1
        sources.append(Source(id: nextSourceID, fd: fd, isReady: isReady, onReadable: onReadable, onLoopStop: onLoopStop))
        return nextSourceID
    }

    public func removeSource(_ id: Int) {
        preconditionOnLoop()
        sources.removeAll { $0.id == id }
    }

    /// Runs `action` on the loop after `nanoseconds`. Returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(afterNanoseconds nanoseconds: UInt64, _ action: @escaping () -> Void) -> UInt64 {
        preconditionOnLoop()
        nextTimerID += 1
        timers.insert(Timer(deadline: MonotonicClock.nanoseconds() &+ nanoseconds, id: nextTimerID, action: action))
        return nextTimerID
    }

    /// The monotonic time at which the loop began its current pass or woke from
    /// `poll`: for bookkeeping that tolerates being one pass late (when a peer was
    /// last heard from), without a clock read per message. Loop thread only.
    public var passTime: UInt64 {
        preconditionOnLoop()
        return passStart
    }

    public func cancelTimer(_ id: UInt64) {
        preconditionOnLoop()
        cancelledTimers.insert(id)
    }

    // MARK: The loop

    private func run() {
        threadID.store(currentThreadID(), ordering: .releasing)
        var pollFDs: [pollfd] = []
        // Swapped with the shared queue each pass, so neither buffer is ever copied
        // (taking a copy and emptying the shared one reallocated it every pass).
        var batch = Deque<Work>()
        while true {
            passStart = MonotonicClock.nanoseconds()
            let stopping = incoming.withLock { state -> Bool in
                swap(&batch, &state.work)
                return state.stopping
            }
            let ranWork = !batch.isEmpty
            while let work = batch.popFirst() {
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                }
            }
            if stopping && !ranWork { break }
            fireDueTimers()

            var busy = false
            for source in sources where source.isReady() {
                source.onReadable()
                busy = true
            }
            if busy { continue }

            // Sleep unless work arrived meanwhile. Every source said "not ready"
            // above, after its last use, so its edge-triggered descriptor is armed.
            let sleep = incoming.withLock { state -> Bool in
                // A stop request seen together with work must not put the loop to
                // sleep: with no timer and no source it would never wake to stop.
                guard state.work.isEmpty && !state.stopping else { return false }
                state.sleeping = true
                return true
            }
            guard sleep else { continue }
            pollFDs.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wakeFDs.0, events: Int16(POLLIN), revents: 0))
            let polled = sources
            for source in polled { pollFDs.append(pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0)) }
            let timeout = nextTimeoutMilliseconds()
            _ = poll(&pollFDs, nfds_t(pollFDs.count), timeout)
            passStart = MonotonicClock.nanoseconds()
            incoming.withLock { $0.sleeping = false }
            if pollFDs[0].revents != 0 { trellis_wakefd_drain(wakeFDs.0) }
            // Read what woke us before running queued work, so a reply reaches its
            // waiting task in this same pass. A source removed by an earlier
            // callback in this pass is skipped.
            for (i, source) in polled.enumerated() where pollFDs[i + 1].revents != 0 {
                if sources.contains(where: { $0.id == source.id }) { source.onReadable() }
            }
        }
        for source in sources { source.onLoopStop() }
        sources.removeAll()
        timers = Heap()
        finished.signal()
    }

    private func fireDueTimers() {
        let now = MonotonicClock.nanoseconds()
        while let first = timers.min, first.deadline <= now {
            let timer = timers.removeMin()
            if cancelledTimers.remove(timer.id) == nil { timer.action() }
        }
        if timers.isEmpty { cancelledTimers.removeAll() }
    }

    private func nextTimeoutMilliseconds() -> Int32 {
        guard let first = timers.min else { return -1 }
        let now = MonotonicClock.nanoseconds()
        if first.deadline <= now { return 0 }
        // Round up so we never wake just before a deadline and spin.
        return Int32(min((first.deadline - now + 999_999) / 1_000_000, 60_000))
    }
}

/// pthread_self() as a number (pthread_t is an integer on Linux, a pointer on Darwin).
private func currentThreadID() -> UInt {
    #if os(Linux)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}
