import Testing
@testable import TrellisSupervisor

/// Issue 19, finding 2: a process whose main thread stopped beating is hung; one that
/// has not beaten yet is starting, and is not judged here (docs/SCENES.md, "Hangs").
@Suite struct HangWatchTests {
    let second: UInt64 = 1_000_000_000

    @Test func silentPastTheLimitIsHungOnceAndOnlyThen() {
        var watch = HangWatch(limit: 2)
        let running: [(id: String, pid: Int32)] = [("A", 10), ("B", 11), ("C", 12)]
        let beats: [String: UInt64] = ["A": 100 * second, "B": 97 * second]  // C has not beaten yet
        let now = 100 * second + second / 2
        #expect(watch.check(running: running, now: now, lastBeat: { beats[$0] }) == [.init(id: "B", pid: 11, silentNanoseconds: 3 * second + second / 2)])
        // Judged once: its kill, and then its exit, do the rest.
        #expect(watch.check(running: running, now: now + second, lastBeat: { beats[$0] }).isEmpty)
    }

    @Test func aRestartedProcessIsJudgedAfreshByItsNewPid() {
        var watch = HangWatch(limit: 1)
        var beats: [String: UInt64] = ["A": 0 * second + 1]
        #expect(watch.check(running: [("A", 10)], now: 3 * second, lastBeat: { beats[$0] }).map(\.pid) == [10])
        // Restarted: a new pid, its pulse cleared until it beats.
        beats["A"] = nil
        #expect(watch.check(running: [("A", 20)], now: 4 * second, lastBeat: { beats[$0] }).isEmpty)
        beats["A"] = 4 * second
        #expect(watch.check(running: [("A", 20)], now: 6 * second, lastBeat: { beats[$0] }).map(\.pid) == [20])
    }

    @Test func aBeatFromTheFutureIsNotSilence() {
        // The file is written by another process; a clock read just after ours is newer.
        var watch = HangWatch(limit: 1)
        #expect(watch.check(running: [("A", 10)], now: 5 * second, lastBeat: { _ in 5 * second + 1 }).isEmpty)
    }
}
