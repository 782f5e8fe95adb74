import TrellisLog
import TrellisSession

extension IOLoop {
    /// Beats `pulse` from this loop's thread every `Pulse.interval`, for as long as the
    /// loop runs. On a main-thread loop that is the proof the supervisor needs that the
    /// main thread is not hung. A bounded nested wait (`run(until:)`) fires this timer
    /// as it does the links' heartbeats, so a process waiting for a slow child still
    /// beats: it waits, it is not hung.
    public func beat(_ pulse: Pulse.Writer) {
        pulse.beat(at: MonotonicClock.nanoseconds())
        schedule(afterNanoseconds: Pulse.interval.nanoseconds, duringWaits: true) { [weak self] in self?.beat(pulse) }
    }
}
