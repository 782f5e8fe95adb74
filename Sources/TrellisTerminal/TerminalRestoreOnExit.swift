#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Makes one `TerminalRestorer` run on the exit paths no caller can wrap in a `defer`:
/// `exit(3)` from anywhere (atexit) and fatal signals (a crash, `fatalError`, `abort`).
///
/// SIGTERM, SIGINT and SIGHUP are not handled here: the process catches those on its
/// main queue and shuts down in order (stop writing, then restore). A fatal signal
/// cannot wait for that, so its handler restores at once and hands the signal to the
/// handler that was there before (Swift's backtracer, or the default action), which then
/// reports the crash on the normal screen and ends the process with the crash's status.
public enum TerminalRestoreOnExit {
    /// The signals after which the process cannot go on. SIGILL and SIGTRAP are what
    /// Swift's `fatalError` and failed preconditions raise on Linux.
    public static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS]

    /// The restorer the handlers use, retained for the life of the process so that no
    /// release can run inside a handler. Written once, before any handler is installed;
    /// a handler only loads it, and an atomic load is async-signal-safe. Kept as the
    /// pointer's bits (0: none) because a pointer type is not Sendable.
    private static let installed = Atomic<UInt>(0)
    /// The actions the fatal signals had before `install`, indexed by signal number, in
    /// memory allocated before any handler is installed and never freed.
    private static let previous = Atomic<UInt>(0)
    private static let signalSlots = 65

    /// Installs `restorer` for `exit(3)` and the fatal signals. Call once, after the
    /// terminal's modes are entered; later calls are ignored.
    public static func install(_ restorer: TerminalRestorer) {
        let pointer = Unmanaged.passRetained(restorer).toOpaque()
        let bits = UInt(bitPattern: pointer)
        guard installed.compareExchange(expected: 0, desired: bits, ordering: .acquiringAndReleasing).exchanged else {
            Unmanaged<TerminalRestorer>.fromOpaque(pointer).release()
            return
        }
        atexit { TerminalRestoreOnExit.restoreInstalled() }
        let saved = UnsafeMutablePointer<sigaction>.allocate(capacity: signalSlots)
        saved.initialize(repeating: sigaction(), count: signalSlots)
        for sig in fatalSignals where sig < signalSlots { sigaction(sig, nil, saved + Int(sig)) }
        previous.store(UInt(bitPattern: saved), ordering: .releasing)
        // A process may inherit a mask that blocks these (a parent's thread passed it on);
        // a blocked fault signal kills without running the handler, so unblock them here,
        // on the thread that sets up the terminal and runs the main actor.
        var fatal = sigset_t()
        sigemptyset(&fatal)
        for sig in fatalSignals { sigaddset(&fatal, sig) }
        pthread_sigmask(SIG_UNBLOCK, &fatal, nil)
        for sig in fatalSignals where sig < signalSlots {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { sig in TerminalRestoreOnExit.fatal(sig) }
            #else
            action.__sigaction_u.__sa_handler = { sig in TerminalRestoreOnExit.fatal(sig) }
            #endif
            // SA_RESETHAND: the default action is back before the handler runs, so a
            // fault in the restore itself still ends the process.
            action.sa_flags = Int32(bitPattern: UInt32(truncatingIfNeeded: SA_RESETHAND))
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, nil)
        }
    }

    /// Restores the installed restorer's terminal, if any; async-signal-safe.
    static func restoreInstalled() {
        guard let pointer = UnsafeMutableRawPointer(bitPattern: installed.load(ordering: .acquiring)) else { return }
        Unmanaged<TerminalRestorer>.fromOpaque(pointer).takeUnretainedValue().restore()
    }

    private static func fatal(_ sig: Int32) {
        restoreInstalled()
        if let saved = UnsafeMutablePointer<sigaction>(bitPattern: previous.load(ordering: .acquiring)) {
            sigaction(sig, saved + Int(sig), nil)
        }
        // The signal is blocked while its handler runs; the raised one is delivered to the
        // previous action as soon as this returns. A fault re-faults on return anyway.
        raise(sig)
    }
}
