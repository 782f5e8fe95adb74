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
        /// From a peer: inside a nested `run(until:)` only if a wait on the stack is
        /// for that peer; otherwise put aside until one is, or until all have ended.
        case from(WaitKey, @Sendable () -> Void)
    }

    /// Names a peer whose answer a nested `run(until:)` waits for, and from whom work
    /// arrives: an object (the link) and a name (the peer's id on it).
    public struct WaitKey: Hashable, Sendable {
        let owner: ObjectIdentifier
        let name: String
        public init(_ owner: AnyObject, _ name: String) {
            self.owner = ObjectIdentifier(owner)
            self.name = name
        }
    }

    private struct Incoming {
        var work = Deque<Work>()
        var sleeping = false
        var stopping = false
    }

    /// A class, not a struct: the loop walks its sources several times a pass, and
    /// copying a struct of three closures retained and released each of them.
    private final class Source {
        let id: Int
        let fd: Int32
        let isReady: () -> Bool
        let onReadable: () -> Void
        let onLoopStop: () -> Void
        /// Served by a nested `run(until:)` too. Only the main queue is not: what it
        /// holds is other work, which must not run inside a wait.
        let servedWhileNested: Bool

        init(
            id: Int, fd: Int32, isReady: @escaping () -> Bool, onReadable: @escaping () -> Void,
            onLoopStop: @escaping () -> Void, servedWhileNested: Bool = true
        ) {
            self.id = id
            self.fd = fd
            self.isReady = isReady
            self.onReadable = onReadable
            self.onLoopStop = onLoopStop
            self.servedWhileNested = servedWhileNested
        }
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
    /// Work taken from `incoming`, run one item at a time so that a nested
    /// `run(until:)` carries on with the same queue, in order.
    private var ready = Deque<Work>()
    /// How many `run(until:)` calls are on the stack.
    private var nesting = 0
    /// The peers the nested runs on the stack wait for.
    private var waitingFor: [WaitKey] = []
    /// Work from a peer no wait was for when its turn came, in order.
    private var parked = Deque<Work>()
    /// How much main-actor work is running on this thread now (a main-thread loop's
    /// main queue, or a job handed over by `onMainActor`): none, and no nested run, is
    /// when `onMainActorAtOnce` may run its job in place.
    private var mainActorDepth = 0
    /// The contexts whose I/O threads follow this loop, and the CPU it last woke on.
    private var ledPlacements: [IOThreadPlacement] = []
    private var lastCPU: Int32 = -1

    /// True when this loop runs on the main thread and serves the main queue: the
    /// main actor and the actors on this loop share one thread.
    public let servesMainActor: Bool

    /// Starts the loop's thread.
    public init(name: String) {
        self.name = name
        servesMainActor = false
        openWakeFDs()
        let thread = Thread { [self] in
            // Foundation's Thread.name does not reach the OS thread on Linux, where a
            // loop would show up in perf and top -H as a dispatch worker's name.
            trellis_thread_set_name("io-\(name)")
            self.threadID.store(currentThreadID(), ordering: .releasing)
            self.runUntilStopped()
        }
        thread.stackSize = 1 << 20
        thread.start()
        while threadID.load(ordering: .acquiring) == 0 { sched_yield() }
    }

    #if os(Linux)
    /// A loop whose thread is the main thread, which also serves the main queue (so the
    /// main actor), as a run loop does: a message read from a socket reaches a
    /// main-actor controller, and its answer goes back out, without a thread switch.
    /// Call on the main thread, before anything calls `dispatchMain()` (an `async`
    /// `main` does: use a synchronous one), then `runUntilStopped()` there.
    public init(mainThreadNamed name: String) {
        precondition(Thread.isMainThread, "IOLoop \(name): a main-thread loop must be made on the main thread")
        self.name = name
        servesMainActor = true
        openWakeFDs()
        threadID.store(currentThreadID(), ordering: .releasing)
        let handle = trellis_main_queue_handle()
        sources.append(Source(
            id: 0, fd: handle, isReady: { false },
            onReadable: { [unowned self] in self.asMainActorWork { trellis_main_queue_serve(handle) } }, onLoopStop: {},
            servedWhileNested: false))
        // Work queued before the handle existed announced itself to no one.
        execute { self.asMainActorWork { trellis_main_queue_run() } }
    }

    /// A program's main for a main-thread loop: makes the loop, runs `start` on the main
    /// actor (which the loop serves), and serves the loop until the process ends.
    public static func runOnMainThread(named name: String, _ start: @escaping @MainActor @Sendable (IOLoop) async -> Void) {
        let loop = IOLoop(mainThreadNamed: name)
        Task { @MainActor in await start(loop) }
        loop.runUntilStopped()
    }
    #endif

    private func openWakeFDs() {
        var fds: [Int32] = [-1, -1]
        guard trellis_wakefd_open(&fds) == 0 else { fatalError("IOLoop \(name): cannot create wake-up descriptor") }
        wakeFDs = (fds[0], fds[1])
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
    ///
    /// Work `from` a peer is what that peer sent. A nested `run(until:)` runs it only
    /// if some wait on the stack is for that peer — the peer calling back into the
    /// code that called it, which one process allows — and otherwise puts it aside
    /// until one is, or until every wait has ended, keeping its order. Nil: any run
    /// runs it.
    public func execute(from peer: WaitKey? = nil, _ body: @escaping @Sendable () -> Void) {
        submit(peer.map { .from($0, body) } ?? .closure(body))
    }

    /// Runs `job` on the main actor, after the work already queued: in this loop's
    /// next pass when the loop serves the main actor (no thread switch), else from the
    /// main queue. Unlike work on the main queue, a nested `run(until:)` runs it too,
    /// as `execute(from:)` says: for what arrives over links, which a wait must serve.
    public func onMainActor(from peer: WaitKey? = nil, _ job: @escaping @MainActor @Sendable () -> Void) {
        if servesMainActor {
            execute(from: peer) { self.asMainActorWork { MainActor.assumeIsolated(job) } }
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(job) }
        }
    }

    /// `onMainActor`, but run in place when that can neither overtake nor interrupt
    /// anything: on a main-thread loop's own thread, outside any main-actor work and any
    /// nested `run(until:)`, with no work queued before it. A link's handler hands what it
    /// read to a host's controllers this way, so a touch is handled the moment it is
    /// read rather than on the loop's next pass. Queued otherwise, exactly as
    /// `onMainActor(from:)` queues it.
    public func onMainActorAtOnce(from peer: WaitKey? = nil, _ job: @escaping @MainActor @Sendable () -> Void) {
        guard servesMainActor, isCurrent, nesting == 0, mainActorDepth == 0, ready.isEmpty else {
            return onMainActor(from: peer, job)
        }
        asMainActorWork { MainActor.assumeIsolated(job) }
    }

    /// Runs `body`, main-actor work on this loop's thread, counted in `mainActorDepth`.
    private func asMainActorWork(_ body: () -> Void) {
        mainActorDepth += 1
        defer { mainActorDepth -= 1 }
        body()
    }

    /// Whether work queued on the loop waits for its next pass. Loop thread only: a
    /// socket's reader stops there, so what it handed over runs before it reads on.
    var hasQueuedWork: Bool {
        preconditionOnLoop()
        return !ready.isEmpty
    }

    /// True on the loop's own thread.
    public var isCurrent: Bool { currentThreadID() == threadID.load(ordering: .relaxed) }

    public func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(isCurrent, "IOLoop \(name): called off its thread", file: file, line: line)
    }

    private func submit(_ work: Work) {
        // On the loop thread, between passes' sleeps: no lock, no wake-up needed.
        if isCurrent {
            ready.append(work)
            return
        }
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
        precondition(!servesMainActor, "IOLoop \(name): a main-thread loop stops with its process")
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

    // MARK: Where libzmq's threads run (loop thread only)

    /// Keeps `context`'s libzmq I/O threads on the CPU this loop runs on, unless
    /// another loop leads that context already (`IOThreadPlacement`). A link calls
    /// it when it opens its socket.
    func keepIOThreadsNear(_ context: ZMQContext) {
        preconditionOnLoop()
        let placement = context.ioThreadPlacement
        guard !ledPlacements.contains(where: { $0 === placement }), placement.lead(ObjectIdentifier(self)) else { return }
        ledPlacements.append(placement)
        lastCPU = -1
        followCPU()
    }

    /// Before sleeping: the kernel may have put this thread on another CPU since the
    /// last time. Asked then rather than at the wake-up, so that moving the I/O threads
    /// (a system call) never delays the message that woke the loop.
    /// `sched_getcpu` reads what the kernel keeps for the thread, no system call.
    private func followCPU() {
        let cpu = trellis_current_cpu()
        guard cpu >= 0, cpu != lastCPU else { return }
        var settled = true
        for placement in ledPlacements where !placement.follow(to: cpu) { settled = false }
        // An I/O thread not found yet: look again at the next wake-up.
        lastCPU = settled ? cpu : -1
    }

    // MARK: The loop

    /// Runs the loop on the calling thread until `shutdown`: a loop's own thread, or
    /// the main thread of a main-thread loop (where it does not return).
    public func runUntilStopped() {
        preconditionOnLoop()
        _ = passes(until: nil, deadline: nil)
        for source in sources { source.onLoopStop() }
        sources.removeAll()
        timers = Heap()
        for placement in ledPlacements { placement.release(ObjectIdentifier(self)) }
        ledPlacements.removeAll()
        finished.signal()
    }

    /// Runs the loop's work, timers and sockets — not the main queue — until `done`
    /// returns true or the monotonic `deadline` (ns) passes; returns `done()`. Loop
    /// thread only, from inside work the loop runs: how the main actor waits for an
    /// answer on a main-thread loop while still serving what arrives meanwhile.
    /// `peer` is whom the wait is for: work `from` it runs during the wait.
    public func run(until done: () -> Bool, deadline: UInt64, waitingFor peer: WaitKey? = nil) -> Bool {
        preconditionOnLoop()
        nesting += 1
        if let peer { waitingFor.append(peer) }
        defer {
            nesting -= 1
            if peer != nil { waitingFor.removeLast() }
            // What was put aside during the wait arrived before anything the waiting code
            // queues next, or a link reads next (`onMainActorAtOnce` runs that in place
            // when nothing is ready): it goes first, now, not at the next pass.
            if !parked.isEmpty { unpark() }
        }
        return withoutActuallyEscaping(done) { passes(until: $0, deadline: deadline) }
    }

    private func passes(until done: (() -> Bool)?, deadline: UInt64?) -> Bool {
        var pollFDs: [pollfd] = []
        var polled: [Source] = []
        while true {
            passStart = MonotonicClock.nanoseconds()
            let stopping = incoming.withLock { state -> Bool in
                if ready.isEmpty {
                    // Swapped, so neither buffer is ever copied (taking a copy and
                    // emptying the shared one reallocated it every pass).
                    swap(&ready, &state.work)
                } else {
                    ready.append(contentsOf: state.work)
                    state.work.removeAll(keepingCapacity: true)
                }
                return state.stopping
            }
            if !parked.isEmpty { unpark() }
            var ranWork = false
            while let work = ready.popFirst() {
                ranWork = true
                switch work {
                case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
                case .closure(let body): body()
                case .from(let peer, let body):
                    if nesting == 0 || waitingFor.contains(peer) { body() } else { parked.append(work) }
                }
                if let done, done() { return true }
            }
            if done == nil && stopping && !ranWork { return false }
            fireDueTimers()
            if let done, done() { return true }

            var busy = false
            for source in sources where (nesting == 0 || source.servedWhileNested) && source.isReady() {
                source.onReadable()
                busy = true
            }
            if let done, done() { return true }
            if busy { continue }

            var timeout = nextTimeoutMilliseconds()
            if let deadline {
                let now = MonotonicClock.nanoseconds()
                guard now < deadline else { return done?() ?? false }
                let left = Int32(min((deadline - now + 999_999) / 1_000_000, 60_000))
                timeout = timeout < 0 ? left : min(timeout, left)
            }
            // Sleep unless work arrived meanwhile. Every source said "not ready"
            // above, after its last use, so its edge-triggered descriptor is armed.
            let sleep = incoming.withLock { state -> Bool in
                // A stop request seen together with work must not put the loop to
                // sleep: with no timer and no source it would never wake to stop.
                guard state.work.isEmpty && ready.isEmpty && !state.stopping else { return false }
                state.sleeping = true
                return true
            }
            guard sleep else { continue }
            if !ledPlacements.isEmpty { followCPU() }
            pollFDs.removeAll(keepingCapacity: true)
            pollFDs.append(pollfd(fd: wakeFDs.0, events: Int16(POLLIN), revents: 0))
            polled.removeAll(keepingCapacity: true)
            for source in sources where nesting == 0 || source.servedWhileNested {
                polled.append(source)
                pollFDs.append(pollfd(fd: source.fd, events: Int16(POLLIN), revents: 0))
            }
            _ = poll(&pollFDs, nfds_t(pollFDs.count), timeout)
            passStart = MonotonicClock.nanoseconds()
            incoming.withLock { $0.sleeping = false }
            if pollFDs[0].revents != 0 { trellis_wakefd_drain(wakeFDs.0) }
            // Read what woke us before running queued work, so a reply reaches its
            // waiting task in this same pass. A source removed by an earlier
            // callback in this pass is skipped.
            for (i, source) in polled.enumerated() where pollFDs[i + 1].revents != 0 {
                if sources.contains(where: { $0 === source }) { source.onReadable() }
            }
        }
    }

    /// Puts parked work that may run now back at the front of `ready`: its turn came
    /// before anything there.
    private func unpark() {
        var runnable = Deque<Work>()
        var still = Deque<Work>()
        for work in parked {
            if case .from(let peer, _) = work, nesting > 0, !waitingFor.contains(peer) {
                still.append(work)
            } else {
                runnable.append(work)
            }
        }
        guard !runnable.isEmpty else { return }
        runnable.append(contentsOf: ready)
        ready = runnable
        parked = still
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
