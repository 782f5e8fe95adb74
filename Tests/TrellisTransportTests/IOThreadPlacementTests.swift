import CPlatform
import CZeroMQ
import Foundation
import Synchronization
import Testing
import TrellisLog
@testable import TrellisTransport
import TrellisWire

@Suite("libzmq's I/O thread follows the loop that uses it", .timeLimit(.minutes(1)))
struct IOThreadPlacementTests {
    @Test("TRELLIS_IO_THREADS is \"follow\" unless it says \"free\"; anything else is reported and read as the default")
    func environmentSetting() {
        #expect(IOThreadPlacement.followSetting(nil))
        #expect(IOThreadPlacement.followSetting(""))
        #expect(IOThreadPlacement.followSetting("follow"))
        #expect(!IOThreadPlacement.followSetting("free"))
        #expect(IOThreadPlacement.followSetting("Free"))
        #expect(IOThreadPlacement.followSetting("\u{0}garbage\n"))
    }

    @Test("a loop that flips between CPUs at each wake-up leaves its I/O threads where they are; one that stays on another CPU takes them along (issue 20)")
    func followsOnlyASettledLoop() {
        // Woken after each pause on the idle CPU, the other one each time.
        #expect(moves(sleepingOn: [0, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0], placedOn: 1) == [])
        // Three sleeps in a row on CPU 0 take them there; back on their CPU the streak
        // starts over, and three on CPU 1 take them back.
        #expect(moves(sleepingOn: [0, 0, 0, 0, 1, 1, 0, 1, 1, 1], placedOn: 1) == [0, 1])
        // Not placed yet, or not found at the last look: at once.
        #expect(moves(sleepingOn: [1, 1], placedOn: -1) == [1])
    }

    /// The CPUs the I/O threads are moved to while their loop goes to sleep on `cpus`,
    /// one after the other, from threads on `start` (-1: not placed).
    private func moves(sleepingOn cpus: [Int32], placedOn start: Int32) -> [Int32] {
        var streak = IOLoop.CPUStreak()
        var placed = start
        var moved: [Int32] = []
        for cpu in cpus where streak.follows(to: cpu, from: placed) {
            moved.append(cpu)
            placed = cpu
        }
        return moved
    }

    @Test("one loop leads a context: a second one does not drag its I/O thread away, until the first lets go")
    func oneLeader() {
        let placement = IOThreadPlacement(namePrefix: 999, follows: true)
        let a = IOLoop(name: "lead-a"), b = IOLoop(name: "lead-b")
        defer { a.shutdown(); b.shutdown() }
        #expect(placement.lead(ObjectIdentifier(a)))
        #expect(placement.lead(ObjectIdentifier(a)))
        #expect(!placement.lead(ObjectIdentifier(b)))
        placement.release(ObjectIdentifier(b))  // not the leader: nothing changes
        #expect(!placement.lead(ObjectIdentifier(b)))
        placement.release(ObjectIdentifier(a))
        #expect(placement.lead(ObjectIdentifier(b)))
        #expect(!IOThreadPlacement(namePrefix: 998, follows: false).lead(ObjectIdentifier(a)))
    }

    @Test("each context's I/O threads carry its number, so two contexts' threads are never confused")
    func threadsAreFoundByName() async throws {
        let first = ZMQContext(followLoop: false), second = ZMQContext(followLoop: false)
        // libzmq starts a context's threads with its first socket.
        let a = try ZMQSocket(.dealer, context: first), b = try ZMQSocket(.dealer, context: second)
        let ours = await ioThreads(of: first), theirs = await ioThreads(of: second)
        #expect(ours.count == 1 && theirs.count == 1)
        #expect(Set(ours).isDisjoint(with: theirs))
        #if os(Linux)
        for tid in ours {
            #expect(comm(of: tid) == "\(first.ioThreadPlacement.namePrefix)/ZMQbg/IO/0")
        }
        #endif
        a.close(linger: 0); b.close(linger: 0)
        #expect(first.terminate() && second.terminate())
    }

    #if os(Linux)
    @Test("a link's loop keeps its context's I/O thread on the CPU it wakes on, and gives the thread its CPUs back when it stops")
    func ioThreadFollowsTheLoop() async throws {
        let session = try TestSession()
        let context = ZMQContext(followLoop: true)
        let loop = IOLoop(name: "follow"), childLoop = IOLoop(name: "follow-child")
        let endpoint = try session.endpoint("follow")
        let peers = Recorder<PeerEvent>()
        let parent = try await Link.bind(
            id: "root", endpoint: endpoint, loop: loop, log: session.log, context: context, options: fastOptions(),
            onPeer: { peers.append($0) })
        let free = ZMQContext(followLoop: false)
        let child = try await Link.connect(
            id: "child", parent: "root", endpoint: endpoint, loop: childLoop, log: session.log, context: free,
            options: fastOptions())
        // Until the child's hello is in, its parent's ROUTER has no route to it.
        #expect(await peers.wait { $0.contains(.connected("child")) })
        let tid = try #require(await ioThreads(of: context).first)
        let before = allowedCPUs(of: getpid())

        // The kernel may move the loop between its wake-up and our look: ask a few times.
        var followed = false
        for _ in 0..<50 where !followed {
            _ = try await parent.request(.memoryWarning, to: "child")
            let seen = await onLoop(loop) { (trellis_current_cpu(), context.ioThreadPlacement.pinnedCPU, allowedCPUs(of: tid)) }
            followed = seen.1 == seen.0 && seen.2 == "\(seen.0)"
        }
        #expect(followed, "the I/O thread never sat on the loop's CPU alone")
        #expect(free.ioThreadPlacement.pinnedCPU == nil)
        let childTID = try #require(await ioThreads(of: free).first)
        #expect(allowedCPUs(of: childTID) == before, "a context that does not follow is left alone")

        _ = child
        loop.shutdown()
        childLoop.shutdown()
        #expect(context.ioThreadPlacement.pinnedCPU == nil)
        #expect(allowedCPUs(of: tid) == before, "the stopped loop gave the I/O thread its CPUs back")
        #expect(context.terminate() && free.terminate())
    }

    private func comm(of tid: Int32) -> String {
        ((try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }
    #endif
}

/// The CPUs a thread of this process may run on, as /proc writes them ("0-1", "1").
func allowedCPUs(of tid: Int32) -> String {
    let status = (try? String(contentsOfFile: "/proc/self/task/\(tid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") } ?? ""
    return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
}

/// Runs `body` on `loop`'s thread and returns what it returns.
func onLoop<T: Sendable>(_ loop: IOLoop, _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { c in loop.execute { c.resume(returning: body()) } }
}

/// A context's I/O threads, once they have started and named themselves (bounded).
func ioThreads(of context: ZMQContext) async -> [Int32] {
    for _ in 0..<200 {
        let found = context.ioThreadPlacement.ioThreadIDs
        if !found.isEmpty { return found }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return []
}
