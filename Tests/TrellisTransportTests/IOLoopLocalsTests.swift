import Dispatch
import Synchronization
import Testing
@testable import TrellisTransport

/// What a loop keeps for its thread (`IOLoop.local`): a host's switchboard is its loop's,
/// reached by the loop and not by a global (issue 20, phase 2: one switchboard per loop).
@Suite struct IOLoopLocalsTests {
    final class Kept {}
    final class Other {}

    @Test("a loop keeps one object of a type, made once, and each loop keeps its own")
    func eachLoopKeepsItsOwn() {
        let first = IOLoop(name: "locals-a"), second = IOLoop(name: "locals-b")
        defer { first.shutdown(); second.shutdown() }
        let ids = Mutex<[String: [ObjectIdentifier]]>([:])
        let done = DispatchSemaphore(value: 0)
        for (name, loop) in [("a", first), ("b", second)] {
            loop.execute {
                var made = 0
                let one = loop.local { made += 1; return Kept() }
                let again = loop.local { made += 1; return Kept() }
                let other = loop.local { Other() }
                ids.withLock { $0[name] = [ObjectIdentifier(one), ObjectIdentifier(again), ObjectIdentifier(other)] }
                #expect(made == 1, "the second ask made another")
                done.signal()
            }
        }
        done.wait()
        done.wait()
        let seen = ids.withLock { $0 }
        #expect(seen["a"]?[0] == seen["a"]?[1])
        #expect(seen["a"]?[0] != seen["a"]?[2], "another type is another object")
        #expect(seen["a"]?[0] != seen["b"]?[0], "another loop keeps another")
    }
}
