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

    // The hosts wait for a child's answer by running their loop nested (LinkPort on a
    // main-thread loop): what was queued before the wait, and what arrives during it,
    // must run in order, and the wait must end when its condition holds or at its
    // deadline.
    @Test("a nested run serves queued and arriving work in order, and ends when its condition holds")
    func nestedRunServesWorkInOrder() {
        let loop = IOLoop(name: "nested")
        let seen = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let answered = Mutex(false)
        loop.execute {
            loop.execute { seen.withLock { $0.append("queued before the wait") } }
            // From another thread, while the loop waits: wakes it out of poll(2).
            Thread {
                usleep(20_000)
                loop.execute {
                    seen.withLock { $0.append("the answer") }
                    answered.withLock { $0 = true }
                }
                loop.execute {
                    seen.withLock { $0.append("after the answer") }
                    finished.signal()
                }
            }.start()
            let ok = loop.run(until: { answered.withLock { $0 } }, deadline: MonotonicClock.nanoseconds() + 5_000_000_000)
            seen.withLock { $0.append(ok ? "wait ended" : "wait timed out") }
        }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        loop.execute {}
        loop.shutdown()
        #expect(seen.withLock { $0 } == ["queued before the wait", "the answer", "wait ended", "after the answer"])
    }

    // A host's parent sends its next message only after the last was handled — unless
    // its request timed out. That message must then wait for the handling to finish
    // rather than cut into it (a didAppear inside the willAppear it follows), while
    // the peer being waited for may call back (S1-3: a child's request up).
    @Test("during a wait, work from the peer waited for runs; work from another waits until the wait ends, in order")
    func workFromOtherPeersIsParked() {
        let loop = IOLoop(name: "parked")
        final class Link: Sendable {}
        let up = Link(), down = Link()
        let parent = IOLoop.WaitKey(up, "parent"), child = IOLoop.WaitKey(down, "child")
        let seen = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        let answered = Mutex(false)
        loop.execute(from: parent) {
            seen.withLock { $0.append("handling the parent's message") }
            loop.execute(from: parent) { seen.withLock { $0.append("the parent's next message") } }
            loop.execute(from: parent) { seen.withLock { $0.append("and the one after") } }
            loop.execute(from: child) {
                seen.withLock { $0.append("the child calls up") }
                // Handling that, we call the parent, which calls back: that runs.
                let back = Mutex(false)
                loop.execute(from: parent) {
                    seen.withLock { $0.append("the parent calls back") }
                    back.withLock { $0 = true }
                }
                _ = loop.run(until: { back.withLock { $0 } }, deadline: MonotonicClock.nanoseconds() + 5_000_000_000, waitingFor: parent)
                answered.withLock { $0 = true }
            }
            _ = loop.run(until: { answered.withLock { $0 } }, deadline: MonotonicClock.nanoseconds() + 5_000_000_000, waitingFor: child)
            seen.withLock { $0.append("handling ends") }
        }
        loop.execute { finished.signal() }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        loop.shutdown()
        #expect(seen.withLock { $0 } == [
            "handling the parent's message", "the child calls up", "the parent's next message", "and the one after",
            "the parent calls back", "handling ends",
        ])
    }

    /// Issue 19, finding 1: a root waiting for a child put the compositor's next touches
    /// aside; the touch that arrived after the wait then ran before them.
    @Test("work put aside during a wait runs before work queued after the wait ends")
    func parkedWorkKeepsItsPlace() {
        let loop = IOLoop(name: "order")
        final class Link: Sendable {}
        let up = Link(), down = Link()
        let parent = IOLoop.WaitKey(up, "parent"), child = IOLoop.WaitKey(down, "child")
        let seen = Mutex<[String]>([])
        let finished = DispatchSemaphore(value: 0)
        loop.execute(from: parent) {
            seen.withLock { $0.append("touch 1") }
            let answered = Mutex(false)
            loop.execute(from: parent) { seen.withLock { $0.append("touch 2") } }
            loop.execute(from: child) {
                seen.withLock { $0.append("the child answers") }
                answered.withLock { $0 = true }
            }
            _ = loop.run(until: { answered.withLock { $0 } }, deadline: MonotonicClock.nanoseconds() + 5_000_000_000, waitingFor: child)
            loop.execute(from: parent) { seen.withLock { $0.append("touch 3") } }
        }
        loop.execute { finished.signal() }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        loop.shutdown()
        #expect(seen.withLock { $0 } == ["touch 1", "the child answers", "touch 2", "touch 3"])
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
}
