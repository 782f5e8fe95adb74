import HeapModule
import TrellisLog

// Sources and timers (loop thread only): the descriptors a loop polls and what runs
// when they are readable, and the timers it fires between passes.
extension IOLoop {
    /// Watches a descriptor. `onReadable` runs when the loop's `Poller` reports `fd`
    /// readable, and whenever `isReady` says so.
    ///
    /// `isReady` is asked before every sleep. It exists for edge-triggered
    /// descriptors such as `ZMQ_FD`: it must return true if input is waiting that
    /// the descriptor will not announce, and when it returns false the descriptor
    /// must be armed. It is asked often, so it should answer without a system call
    /// when nothing has touched the source since it last said false.
    /// `onLoopStop` runs if the loop stops while the source is still registered.
    /// A source is read inside a nested `run(until:)` too: what it reads is the
    /// transport's to handle, and what it hands on for later must be queued.
    /// `wantsWritable`, asked before every sleep: whether to poll `fd` for writing
    /// too, and call `onWritable` once it can be written.
    public func addSource(
        fd: Int32, isReady: @escaping () -> Bool = { false }, onReadable: @escaping () -> Void,
        onLoopStop: @escaping () -> Void = {}, wantsWritable: (() -> Bool)? = nil, onWritable: @escaping () -> Void = {}
    ) -> Int {
        confined.nextSourceID += 1
        let id = confined.nextSourceID
        let source = Source(
            id: id, fd: fd, isReady: isReady, onReadable: onReadable, onLoopStop: onLoopStop, wantsWritable: wantsWritable,
            onWritable: onWritable)
        confined.sources.append(source)
        confined.poller.add(source)
        return id
    }

    public func removeSource(_ id: Int) {
        guard let i = confined.sources.firstIndex(where: { $0.id == id }) else { return }
        // Let go after the access: its closures may hold the last reference to
        // something whose deinit reaches the loop (`IOLoop.state`).
        let removed = confined.sources.remove(at: i)
        confined.poller.remove(removed)
        withExtendedLifetime(removed) {}
    }

    /// Runs `action` on the loop after `nanoseconds`. Returns an id for `cancelTimer`.
    /// `duringWaits`: fires inside a nested `run(until:)` too — for the transport's
    /// liveness (heartbeats, request deadlines, the pulse), which must go on while a
    /// process waits for an answer; never for an application's work.
    @discardableResult
    public func schedule(
        afterNanoseconds nanoseconds: UInt64, duringWaits: Bool = false, _ action: @escaping () -> Void
    ) -> UInt64 {
        confined.nextTimerID += 1
        let id = confined.nextTimerID
        confined.timers.insert(Timer(
            deadline: MonotonicClock.nanoseconds() &+ nanoseconds, id: id, duringWaits: duringWaits, action: action))
        return id
    }

    /// The monotonic time at which the loop began its current pass or woke from
    /// `poll`: for bookkeeping that tolerates being one pass late (when a peer was
    /// last heard from), without a clock read per message. Loop thread only.
    public var passTime: UInt64 { confined.passStart }

    public func cancelTimer(_ id: UInt64) {
        confined.cancelledTimers.insert(id)
    }
}
