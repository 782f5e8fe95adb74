import CPlatform
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
/// blocks Swift's cooperative pool: the loop sleeps (`Poller`: epoll on Linux) on the sockets'
/// descriptors, a wake-up descriptor for work from other threads, and the next
/// timer deadline.
///
/// A nested `run(until:)` — how a host's main actor waits for a peer's answer — is not
/// a turn of the loop: it reads the sockets and runs the transport's own work (what a
/// same-process link end delivers, liveness timers) and nothing else. Jobs, queued
/// closures, ordinary timers and the main queue wait until it has ended, so no code of
/// the process runs in the middle of the code that waits (docs/TRANSPORT.md, "One
/// call").
public final class IOLoop: SerialExecutor, TaskExecutor, @unchecked Sendable {
    // @unchecked: `incoming` is a Mutex and `threadID` an Atomic; every other mutable
    // field is in `state`, which only the loop's thread may touch — checked at every
    // access (`confined`), not by convention.

    public let name: String

    enum Work {
        case job(UnownedJob)
        case closure(@Sendable () -> Void)
    }

    struct Incoming {
        var work = Deque<Work>()
        /// Work that a nested `run(until:)` runs too (`execute(duringWaits:)`).
        var transport = Deque<@Sendable () -> Void>()
        var sleeping = false
        var stopping = false
    }

    /// A class, not a struct: the loop walks its sources several times a pass, and
    /// copying a struct of three closures retained and released each of them.
    final class Source {
        let id: Int
        let fd: Int32
        let isReady: () -> Bool
        let onReadable: () -> Void
        let onLoopStop: () -> Void
        /// Asked before each sleep: whether the loop polls `fd` for writing too, and
        /// calls `onWritable` when it can be (a lane with bytes its socket did not take).
        let wantsWritable: (() -> Bool)?
        let onWritable: () -> Void
        /// Whether its descriptor is watched for writing now (`Poller`).
        var pollsWritable = false
        /// Served by a nested `run(until:)` too. Only the main queue is not: what it
        /// holds is other work, which must not run inside a wait.
        let servedWhileNested: Bool

        init(
            id: Int, fd: Int32, isReady: @escaping () -> Bool, onReadable: @escaping () -> Void,
            onLoopStop: @escaping () -> Void, wantsWritable: (() -> Bool)? = nil, onWritable: @escaping () -> Void = {},
            servedWhileNested: Bool = true
        ) {
            self.id = id
            self.fd = fd
            self.isReady = isReady
            self.onReadable = onReadable
            self.onLoopStop = onLoopStop
            self.wantsWritable = wantsWritable
            self.onWritable = onWritable
            self.servedWhileNested = servedWhileNested
        }
    }

    struct Timer: Comparable {
        let deadline: UInt64
        let id: UInt64
        /// Fires inside a nested `run(until:)` too: the transport's liveness only.
        let duringWaits: Bool
        let action: () -> Void
        static func < (a: Timer, b: Timer) -> Bool { (a.deadline, a.id) < (b.deadline, b.id) }
        static func == (a: Timer, b: Timer) -> Bool { a.id == b.id }
    }

    /// Which thread is the loop's.
    enum Kind {
        /// A thread the loop made and runs on.
        case ownThread
        /// The process's main thread, which the loop runs and which serves the main queue.
        case mainThread
        /// Whatever thread runs the main queue's work: a process whose main thread is
        /// not the loop's to run (a test runner's), where the loop runs as main-actor work.
        case mainQueue
    }

    /// The loop thread's state.
    struct State {
        var sources: [Source] = []
        var nextSourceID = 0
        var timers = Heap<Timer>()
        var cancelledTimers = Set<UInt64>()
        var nextTimerID: UInt64 = 1
        var passStart: UInt64 = 0
        /// Work taken from `incoming`, run one item at a time so that a pass that ends
        /// part-way carries on with the same queue, in order.
        var ready = Deque<Work>()
        var transport = Deque<@Sendable () -> Void>()
        /// How many `run(until:)` calls are on the stack.
        var nesting = 0
        /// The contexts whose I/O threads follow this loop, and the CPU they were moved to.
        var ledPlacements: [IOThreadPlacement] = []
        var lastCPU: Int32 = -1
        var cpuStreak = CPUStreak()
        /// A main-queue loop that stopped: its driver ends.
        var stopped = false
        /// What the loop sleeps in, its sources registered.
        var poller: Poller
        /// One object per type kept for the loop's thread (`local`).
        var locals: [ObjectIdentifier: AnyObject] = [:]
    }

    private let kind: Kind
    let incoming = Mutex(Incoming())
    let wakeFDs: (Int32, Int32)
    private let threadID = Atomic<UInt>(0)
    let finished = DispatchSemaphore(value: 0)
    // Unchecked exclusivity: Swift checks each access to a class's stored property at
    // run time (a set of accesses in thread-local storage), a few dozen times per
    // message here. `state` is reached only through `confined`, which checks the
    // thread first, so by the loop's thread alone; and no access to it runs code that
    // could reach it again: each is a read, an assignment, or a collection's own method
    // on values that releases nothing — what leaves a collection is taken out first
    // (`runWork` pops work before running it, `fireDueTimers` a timer before firing it,
    // `removeSource` and `stopSources` a source before it is let go), so no deinit runs
    // inside an access.
    @exclusivity(unchecked) private var state: State

    /// `state`, on the loop's thread only: every read and write of it is checked.
    var confined: State {
        get {
            preconditionOnLoop()
            return state
        }
        _modify {
            preconditionOnLoop()
            yield &state
        }
    }

    /// True when this loop serves the main actor — a main-thread loop, or a main-queue
    /// one: the main actor and the actors on this loop share one thread, and a host's
    /// main actor may wait for an answer by running the loop nested.
    public let servesMainActor: Bool

    /// Starts the loop's thread.
    public init(name: String) {
        self.name = name
        kind = .ownThread
        servesMainActor = false
        wakeFDs = Self.openWakeFDs(name)
        state = State(poller: Poller(wakeFD: wakeFDs.0, name: name))
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

    /// A loop that runs as main-actor work, for a process whose main thread it cannot
    /// have (a test runner's, an app on another run loop): its thread is whichever runs
    /// the main queue. It serves the main actor as a main-thread loop does — the same
    /// nested wait, the same rules — but between its passes, which poll for at most
    /// `Self.mainQueueSlice`, the main queue's other work runs. Stop it with `shutdown`
    /// from the main actor.
    public init(mainQueueNamed name: String) {
        self.name = name
        kind = .mainQueue
        servesMainActor = true
        wakeFDs = Self.openWakeFDs(name)
        state = State(poller: Poller(wakeFD: wakeFDs.0, name: name))
        Self.markMainQueue
        Task { @MainActor [self] in
            while !self.confined.stopped {
                _ = self.passes(until: nil, deadline: MonotonicClock.nanoseconds() &+ Self.mainQueueSlice)
                await Task.yield()
            }
        }
    }

    /// How long a main-queue loop polls before it lets the main queue's other work run.
    static let mainQueueSlice: UInt64 = 2_000_000

    private static let mainQueueKey = DispatchSpecificKey<Bool>()
    /// Marks the main queue, so that a main-queue loop knows its thread.
    private static let markMainQueue: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

    #if os(Linux)
    /// A loop whose thread is the main thread, which also serves the main queue (so the
    /// main actor), as a run loop does: a message read from a socket reaches a
    /// main-actor controller, and its answer goes back out, without a thread switch.
    /// Call on the main thread, before anything calls `dispatchMain()` (an `async`
    /// `main` does: use a synchronous one), then `runUntilStopped()` there.
    public init(mainThreadNamed name: String) {
        precondition(Thread.isMainThread, "IOLoop \(name): a main-thread loop must be made on the main thread")
        self.name = name
        kind = .mainThread
        servesMainActor = true
        wakeFDs = Self.openWakeFDs(name)
        state = State(poller: Poller(wakeFD: wakeFDs.0, name: name))
        threadID.store(currentThreadID(), ordering: .releasing)
        let handle = trellis_main_queue_handle()
        let mainQueue = Source(
            id: 0, fd: handle, isReady: { false }, onReadable: { trellis_main_queue_serve(handle) }, onLoopStop: {},
            servedWhileNested: false)
        state.sources.append(mainQueue)
        state.poller.add(mainQueue)
        // Work queued before the handle existed announced itself to no one.
        execute { trellis_main_queue_run() }
    }

    /// A program's main for a main-thread loop: makes the loop, runs `start` on the main
    /// actor (which the loop serves), and serves the loop until the process ends.
    public static func runOnMainThread(named name: String, _ start: @escaping @MainActor @Sendable (IOLoop) async -> Void) {
        let loop = IOLoop(mainThreadNamed: name)
        Task { @MainActor in await start(loop) }
        loop.runUntilStopped()
    }
    #endif

    private static func openWakeFDs(_ name: String) -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard trellis_wakefd_open(&fds) == 0 else { fatalError("IOLoop \(name): cannot create wake-up descriptor") }
        return (fds[0], fds[1])
    }

    deinit {
        var fds: [Int32] = [wakeFDs.0, wakeFDs.1]
        trellis_wakefd_close(&fds)
        state.poller.close()
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
    /// `duringWaits`: the transport's own work, which a nested `run(until:)` runs too —
    /// what a same-process link end hands the other, read as a socket's message would
    /// be. Everything else waits until no wait is on the stack.
    public func execute(duringWaits: Bool = false, _ body: @escaping @Sendable () -> Void) {
        if duringWaits {
            if isCurrent {
                confined.transport.append(body)
                return
            }
            wake(after: { $0.transport.append(body) })
        } else {
            submit(.closure(body))
        }
    }

    /// Runs `job` on the main actor, after the work already queued: in this loop's
    /// next turn when the loop serves the main actor (no thread switch), else from the
    /// main queue. Never inside a nested `run(until:)`.
    public func onMainActor(_ job: @escaping @MainActor @Sendable () -> Void) {
        if servesMainActor {
            execute { [self] in
                // This loop's thread is the main thread, or its turn the main queue's
                // (`servesMainActor`): being on it is being on the main actor. Checked so,
                // not by `MainActor.preconditionIsolated`, whose generic path — witness and
                // metadata lookups, cold after an idle pause — was 5% of the compositor's
                // time from a click's bytes to its touches (`perf record -g` during
                // `timeline.py --kind tab`).
                preconditionOnLoop()
                Self.runAsMainActor(job)
            }
        } else {
            DispatchQueue.main.async {
                MainActor.preconditionIsolated()
                Self.runAsMainActor(job)
            }
        }
    }

    /// `MainActor.assumeIsolated(job)`'s cast, once the caller has checked, without its
    /// allocations: it makes the closure escaping with `withoutActuallyEscaping`, whose
    /// reabstraction thunk allocates, where `job` escapes already (`Link.onLoopThread`
    /// casts the same way). About four times a tap in a host of `trellis bench latency`.
    private static func runAsMainActor(_ job: @escaping @MainActor @Sendable () -> Void) {
        unsafeBitCast(MainActorJob(job: job), to: PlainJob.self).job()
    }

    private struct MainActorJob { let job: @MainActor @Sendable () -> Void }
    private struct PlainJob { let job: @Sendable () -> Void }

    /// Whether work queued on the loop waits for its next turn. Loop thread only: a
    /// socket's reader stops there, so what it handed over runs before it reads on.
    var hasQueuedWork: Bool {
        !confined.ready.isEmpty || !confined.transport.isEmpty
    }

    /// True on the loop's own thread.
    public var isCurrent: Bool {
        switch kind {
        case .ownThread, .mainThread: currentThreadID() == threadID.load(ordering: .relaxed)
        case .mainQueue: DispatchQueue.getSpecific(key: Self.mainQueueKey) == true
        }
    }

    public func preconditionOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        precondition(isCurrent, "IOLoop \(name): called off its thread", file: file, line: line)
    }

    private func submit(_ work: Work) {
        // On the loop thread, between passes' sleeps: no lock, no wake-up needed.
        if isCurrent {
            confined.ready.append(work)
            return
        }
        wake(after: { $0.work.append(work) })
    }

    /// Hands work to the loop from another thread, waking it if it sleeps.
    private func wake(after change: (inout Incoming) -> Void) {
        let wake = incoming.withLock { incoming -> Bool in
            change(&incoming)
            defer { incoming.sleeping = false }
            return incoming.sleeping
        }
        if wake { trellis_wakefd_signal(wakeFDs.1) }
    }

    /// Stops the loop after the work queued so far, closing every source still
    /// registered. A loop on its own thread: from any other thread, and waits for the
    /// thread to end. A main-queue loop: from the main actor, outside any wait.
    public func shutdown() {
        switch kind {
        case .mainThread:
            preconditionFailure("IOLoop \(name): a main-thread loop stops with its process")
        case .mainQueue:
            preconditionOnLoop()
            precondition(confined.nesting == 0, "IOLoop \(name): shutdown inside a wait")
            guard !confined.stopped else { return }
            incoming.withLock { $0.stopping = true }
            _ = passes(until: nil, deadline: nil)
            stopSources()
            confined.stopped = true
        case .ownThread:
            precondition(!isCurrent, "IOLoop \(name): shutdown from its own thread would deadlock")
            let first = incoming.withLock { incoming -> Bool in
                defer { incoming.stopping = true }
                return !incoming.stopping
            }
            guard first else { return }
            submit(.closure({}))  // wakes the loop so it sees `stopping`
            finished.wait()
        }
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
