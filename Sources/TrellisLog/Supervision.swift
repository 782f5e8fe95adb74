import Dispatch
import Foundation

/// What a process started by the supervisor does first, so that the supervisor alone
/// decides when it stops.
public enum Supervision {
    /// Raises SIGTERM in this process (its normal, orderly stop) when the parent dies:
    /// a supervisor killed with SIGKILL cannot stop its children itself.
    ///
    /// Not Linux's PR_SET_PDEATHSIG: that fires when the parent *thread* that spawned us
    /// exits, and Foundation's `Process` may spawn from a thread that does not live as
    /// long as the supervisor. Being re-parented is the one sure sign, so it is polled.
    public static func terminateWithParent(every interval: DispatchTimeInterval = .milliseconds(500)) {
        let parent = getppid()
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            if getppid() != parent { kill(getpid(), SIGTERM) }
        }
        timer.resume()
        watchdog = timer
        if getppid() == 1 { kill(getpid(), SIGTERM) }
    }

    // Written once at start-up, before any other thread reads it; kept only so the
    // timer lives as long as the process.
    nonisolated(unsafe) private static var watchdog: (any DispatchSourceTimer)?

    /// Leaves the terminal's process group, so that Ctrl-C and a hangup reach the
    /// supervisor only; it stops the tree in order rather than every process at once.
    /// Not for a process that reads the terminal: a background group cannot.
    public static func ignoreTerminalSignals() {
        _ = setpgid(0, 0)
    }
}

/// Signals as events on the main actor: a Trellis process ends by its own orderly path
/// (flush the log, restore the terminal, stop the tree) instead of dying where it stands.
@MainActor
public enum SignalEvents {
    private static var sources: [any DispatchSourceSignal] = []

    /// Runs `body` on the main actor whenever one of `signals` arrives; their default
    /// actions are off from now on. The main actor may be busy: for what must happen
    /// however long that lasts, use `onOwnQueue(_:_:)`.
    public static func on(_ signals: [Int32], _ body: @escaping @MainActor () -> Void) {
        install(signals, queue: .main) { MainActor.assumeIsolated { body() } }
    }

    /// Runs `body` on a queue of its own whenever one of `signals` arrives, whatever the
    /// main thread is doing: a host's main thread can spend seconds in chained bounded
    /// waits for a child that never connects, and a stop must not wait for them.
    public static func onOwnQueue(_ signals: [Int32], _ body: @escaping @Sendable () -> Void) {
        install(signals, queue: DispatchQueue(label: "trellis-signals"), body)
    }

    private static func install(_ signals: [Int32], queue: DispatchQueue, _ handler: @escaping @Sendable () -> Void) {
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler(handler: handler)
            source.resume()
            sources.append(source)
        }
    }
}
