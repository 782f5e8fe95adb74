import Dispatch
import Foundation
import Synchronization

/// The processes a benchmark's sessions started and have not reaped yet. A benchmark
/// stopped by SIGTERM or SIGINT (`timeout`, `kill`) ends them before it exits: its
/// headless compositor and hosts are not in its stdin's reach, and a timed-out run of
/// `bench latency` once left them running on orphaned. Each pid is this process's own
/// unreaped child, so it names no other process.
enum BenchChildren {
    private struct State {
        var pids: Set<Int32> = []
        var sources: [any DispatchSourceSignal] = []
    }
    private static let state = Mutex(State())
    private static let queue = DispatchQueue(label: "bench-children-signals")

    static func started(_ pid: Int32) {
        state.withLock { state in
            state.pids.insert(pid)
            guard state.sources.isEmpty else { return }
            for sig in [SIGTERM, SIGINT] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler {
                    for pid in BenchChildren.state.withLock({ $0.pids }) { kill(pid, SIGTERM) }
                    exit(1)
                }
                source.resume()
                state.sources.append(source)
            }
        }
    }

    /// Before `waitUntilExit`: once reaped, the pid may be another process's.
    static func reaping(_ pid: Int32) { state.withLock { _ = $0.pids.remove(pid) } }
}
