import Foundation
import Synchronization
import Testing
import TrellisLog
@testable import TrellisTransport

/// Runs `body` on a plain thread and reports whether it returned within `seconds`:
/// a hang must fail the test, not the whole run.
func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread {
        body()
        done.signal()
    }.start()
    return done.wait(timeout: .now() + seconds) == .success
}

@Suite("The I/O loop: a thread, a serial executor, timers and sources")
struct IOLoopTests {
    @Test("a loop asked to stop with work still queued stops, even with no timer or source to wake it")
    func stopsWithQueuedWork() {
        let stopped = finishes(within: 10) {
            for i in 0..<200 {
                let loop = IOLoop(name: "stop\(i)")
                loop.execute {}
                loop.shutdown()
            }
        }
        #expect(stopped)
    }

    @Test("work runs on the loop's thread in the order it was submitted")
    func workRunsInOrderOnTheLoop() {
        let loop = IOLoop(name: "order")
        let seen = Mutex<[Int]>([])
        let onLoop = Mutex(true)
        for i in 0..<1000 {
            loop.execute {
                if !loop.isCurrent { onLoop.withLock { $0 = false } }
                seen.withLock { $0.append(i) }
            }
        }
        loop.shutdown()
        #expect(seen.withLock { $0 } == Array(0..<1000))
        #expect(onLoop.withLock { $0 })
    }

    #if os(Linux)
    @Test("a loop's thread carries the loop's name, cut to the 15 bytes Linux keeps, for ps, perf and gdb")
    func threadIsNamed() {
        for (name, expected) in [("order", "io-order"), ("bench-peer-with-a-long-name", "io-bench-peer-w")] {
            let loop = IOLoop(name: name)
            let seen = Mutex("")
            let done = DispatchSemaphore(value: 0)
            loop.execute {
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                seen.withLock { $0 = comm.trimmingCharacters(in: .newlines) }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 5) == .success)
            loop.shutdown()
            #expect(seen.withLock { $0 } == expected)
        }
    }
    #endif

    @Test("timers fire in deadline order, and a cancelled timer never fires")
    func timers() {
        let loop = IOLoop(name: "timers")
        let fired = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            loop.schedule(afterNanoseconds: 30_000_000) { fired.withLock { $0.append("late") } }
            loop.schedule(afterNanoseconds: 10_000_000) { fired.withLock { $0.append("early") } }
            let id = loop.schedule(afterNanoseconds: 20_000_000) { fired.withLock { $0.append("cancelled") } }
            loop.cancelTimer(id)
            loop.schedule(afterNanoseconds: 60_000_000) { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        loop.shutdown()
        #expect(fired.withLock { $0 } == ["early", "late"])
    }

    @Test("an actor whose executor is the loop runs on the loop's thread")
    func actorsRunOnTheLoop() async {
        let loop = IOLoop(name: "actor")
        defer { loop.shutdown() }
        let probe = LoopProbe(loop: loop)
        #expect(await probe.isOnLoop())
    }

    // A host's main actor waits for a child's answer by running its loop nested
    // (Switchboard.call): the links go on — sockets, what a same-process link end
    // delivers, heartbeats and deadlines — and nothing else of the process runs in the
    // middle of the code that waits (issue 19, "One mechanism for a call"; issue 21: a
    // timer fires after the wait, never inside it).
    @Test("a nested wait runs transport work and liveness timers, and no queued closure, job or ordinary timer")
    func aNestedWaitRunsOnlyTheTransport() async {
        let loop = IOLoop(name: "nested")
        let seen = Recorder<String>()
        let finished = DispatchSemaphore(value: 0)
        let answered = Mutex(false)
        let probe = LoopProbe(loop: loop)
        loop.execute {
            loop.execute { seen.append("closure queued before the wait") }
            loop.schedule(afterNanoseconds: 0) { seen.append("application timer") }
            loop.schedule(afterNanoseconds: 0, duringWaits: true) { seen.append("liveness timer") }
            Thread {
                // A job of an actor on this loop, from another thread.
                Task.detached { await probe.record { seen.append("actor job") } }
                usleep(20_000)
                loop.execute(duringWaits: true) { seen.append("transport work") }
                usleep(20_000)
                loop.execute(duringWaits: true) {
                    seen.append("the answer")
                    answered.withLock { $0 = true }
                }
            }.start()
            let ok = loop.run(until: { answered.withLock { $0 } }, deadline: MonotonicClock.nanoseconds() + 5_000_000_000)
            seen.append(ok ? "wait ended" : "wait timed out")
            loop.execute { finished.signal() }
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        // The actor's job is enqueued from the cooperative pool, whenever that runs.
        let until = ContinuousClock.now + .seconds(10)
        while seen.all.count < 7, ContinuousClock.now < until { usleep(1_000) }
        loop.shutdown()
        let order = seen.all
        #expect(Array(order.prefix(4)) == ["liveness timer", "transport work", "the answer", "wait ended"])
        // After the wait, in their own order: the closure queued first, the rest as they came.
        #expect(Set(order.dropFirst(4)) == ["closure queued before the wait", "application timer", "actor job"])
        #expect(order.dropFirst(4).first == "closure queued before the wait")
    }

    @Test("a nested run whose condition never holds returns false at its deadline, and the loop goes on")
    func nestedRunEndsAtItsDeadline() {
        let loop = IOLoop(name: "deadline")
        let result = Mutex<(Bool, UInt64)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        loop.execute {
            let start = MonotonicClock.nanoseconds()
            let ok = loop.run(until: { false }, deadline: start + 50_000_000)
            result.withLock { $0 = (ok, MonotonicClock.nanoseconds() - start) }
            finished.signal()
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        let after = DispatchSemaphore(value: 0)
        loop.execute { after.signal() }
        #expect(after.wait(timeout: .now() + 5) == .success)
        loop.shutdown()
        let (ok, elapsed) = result.withLock { $0 } ?? (true, 0)
        #expect(!ok)
        #expect(elapsed >= 50_000_000)
    }
}

actor LoopProbe {
    let loop: IOLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    init(loop: IOLoop) { self.loop = loop }
    func isOnLoop() -> Bool { loop.isCurrent }
    func record(_ body: @Sendable () -> Void) { body() }
}
