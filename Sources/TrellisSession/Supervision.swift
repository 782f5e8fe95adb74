import CPlatform
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
    /// long as the supervisor. The parent process's own end is the sure sign: a pidfd of
    /// it, readable once it has ended, wakes this process then and never before. Where
    /// there is none (a kernel before 5.3), being re-parented is polled every `interval`.
    public static func terminateWithParent(every interval: DispatchTimeInterval = .milliseconds(500)) {
        let parent = getppid()
        let queue = DispatchQueue.global(qos: .utility)
        let pidfd = trellis_pidfd_open(parent)
        if pidfd >= 0 {
            let source = DispatchSource.makeReadSource(fileDescriptor: pidfd, queue: queue)
            source.setEventHandler { kill(getpid(), SIGTERM) }
            source.resume()
            watchdog = source
        } else {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + interval, repeating: interval)
            timer.setEventHandler {
                if getppid() != parent { kill(getpid(), SIGTERM) }
            }
            timer.resume()
            watchdog = timer
        }
        // Ended before the watch began: re-parented already, or the pid opened was not
        // the parent's any more.
        if getppid() != parent || getppid() == 1 { kill(getpid(), SIGTERM) }
    }

    // Written once at start-up, before any other thread reads it; kept only so the
    // watch lives as long as the process.
    nonisolated(unsafe) private static var watchdog: (any DispatchSourceProtocol)?

    /// Leaves the terminal's process group, so that Ctrl-C and a hangup reach the
    /// supervisor only; it stops the tree in order rather than every process at once.
    /// Not for a process that reads the terminal: a background group cannot.
    public static func ignoreTerminalSignals() {
        _ = setpgid(0, 0)
    }
}
