import Foundation
import Synchronization
import Testing
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
}

actor LoopProbe {
    let loop: IOLoop
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    init(loop: IOLoop) { self.loop = loop }
    func isOnLoop() -> Bool { loop.isCurrent }
}
