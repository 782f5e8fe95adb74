#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TrellisCanvas
import TrellisLog
import TrellisTerminal
import TrellisTransport
import TrellisWire

/// The compositor's terminal (docs/TERMINAL.md): it takes the terminal on standard
/// output, enters its modes (alternate screen, hidden cursor, SGR mouse, bracketed
/// paste, the kitty keyboard protocol where the terminal answers for it) and raw mode, draws every composed screen there, turns what the terminal sends
/// into input for the root, turns SIGWINCH into a size transition at the root, and puts
/// the terminal back as it found it.
///
/// The terminal is read and written on the compositor's own loop, where the root's link
/// is, as tmux serves its terminals from its one event loop: a click goes from the
/// terminal's descriptor to the root's socket, and the frame it causes from the socket
/// to the terminal, each in one turn of one thread, with no hand-over between threads
/// (issue 20: the hand-overs to and from a thread of the terminal's own cost a wake-up
/// each). The descriptor is non-blocking, so neither side ever waits on the terminal: a
/// terminal that stops reading gets fewer frames (`TerminalOutput`), and slows neither
/// the sockets nor the tree.
@MainActor
public final class TerminalFrontEnd {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The terminal's size when it was opened; later sizes arrive as SIGWINCH.
    public let size: Size
    /// The colours frames are written in (from NO_COLOR, COLORTERM, TERM).
    public let depth: TrellisTerminal.ColorDepth
    private let fd: Int32
    private let restorer: TerminalRestorer
    /// Made when the front end is attached to a compositor, on the compositor's loop.
    private var output: TerminalOutput?
    private var reader: TerminalInputReader?
    private var queue: TerminalInputQueue?
    private var resizeSource: (any DispatchSourceSignal)?
    private var closed = false
    /// Where asking for the kitty keyboard protocol stands (`KeyboardProtocol`); the
    /// query went out with the modes when `open` entered them.
    public private(set) var keyboard = KeyboardProtocol()
    /// The foreground group before us, given back on close.
    private var previousForeground: pid_t?

    private init(size: Size, depth: TrellisTerminal.ColorDepth, fd: Int32, restorer: TerminalRestorer) {
        self.size = size
        self.depth = depth
        self.fd = fd
        self.restorer = restorer
    }

    /// Takes the terminal that standard output is: raw mode, then the modes. From here
    /// on every exit path restores it (`close`, `exit(3)`, fatal signals; the process
    /// routes SIGTERM, SIGINT and SIGHUP to `close`).
    public static func open(environment: [String: String], modes: TerminalModes = TerminalModes()) throws(Failure) -> TerminalFrontEnd {
        guard isatty(STDOUT_FILENO) == 1, let name = ttyname(STDOUT_FILENO) else {
            throw Failure(description: "standard output is not a terminal: run with --headless, or in a terminal")
        }
        let path = String(cString: name)
        // A descriptor of our own (a new open file description), so that O_NONBLOCK for
        // latest-frame-wins writing does not leak into the shell that shares stdout.
        let fd = openDescriptor(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        // Started by the supervisor we are not in the terminal's foreground group.
        let previousForeground = ForegroundGroup.take(fd)
        guard let size = TerminalSize.query(fd: fd) else {
            closeDescriptor(fd)
            throw Failure(description: "\(path) reports no window size: run with --headless --size COLUMNSxROWS")
        }
        let saved: termios
        do {
            saved = try RawMode.enter(fd: fd)
        } catch {
            closeDescriptor(fd)
            throw Failure(description: "cannot put \(path) in raw mode: \(error)")
        }
        // The restore writes to standard output, which blocks: at exit the leave bytes
        // must get through even when the terminal is momentarily full.
        let restorer = TerminalRestorer(fd: STDOUT_FILENO, modes: modes, saved: saved)
        TerminalRestoreOnExit.install(restorer)
        let enter = modes.enterBytes
        var offset = 0
        while offset < enter.count {
            let n = enter.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, enter.count - offset) }
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
        }
        let terminal = TerminalFrontEnd(
            size: size, depth: TrellisTerminal.ColorDepth.detect(environment: environment), fd: fd, restorer: restorer)
        terminal.previousForeground = previousForeground
        return terminal
    }

    /// Connects the terminal to `compositor`: its screens are drawn here, and input and
    /// resizes go to it exactly as the control endpoint's `touch`, `key` and `size` do.
    /// `onEnd` runs when the terminal is gone (end of input) or an unhandled Ctrl+C asks
    /// to quit; it should `close()` and exit.
    public func attach(to compositor: Compositor, log: RoutingLog, onEnd: @escaping @MainActor (String) -> Void) {
        compositor.environment.colorDepth = Self.traitDepth(depth)
        // The compositor's loop serves the main actor: what the reader hands on runs in
        // the same pass as the read, and a composed screen is written in the same pass as
        // the compose, on this thread (`IOLoop.onMainActor`, `IOLoop.execute`).
        let loop = compositor.loop
        let output = TerminalOutput(fd: fd, loop: loop, size: size, depth: depth)
        self.output = output
        compositor.onScreen = { screen, damage in output.show(screen, damage: damage) }
        let queue = TerminalInputQueue(
            send: { [weak compositor] message, answered in
                guard let compositor else { return answered(nil) }
                // Every click and key from the terminal gets a trace id of its own, as a
                // client's does: `trellis trace last` follows it to the frame it caused.
                compositor.send(message, trace: TraceID.make(), answered: answered)
            }, log: log,
            onInterrupt: { onEnd("Ctrl+C not handled by the root") })
        self.queue = queue
        let reader = TerminalInputReader(
            fd: fd, loop: loop,
            deliver: { [weak self] events in
                // Queued, not run inside the read: the read may be inside a nested wait of
                // the loop, which runs no code of the process's own.
                loop.onMainActor { [weak compositor] in
                    self?.answered(events, log: log)
                    guard let compositor else { return queue.enqueue(events) }
                    compositor.sendingTogether { queue.enqueue(events) }
                }
            },
            closed: { reason in
                loop.onMainActor { onEnd("terminal input: \(reason)") }
            })
        self.reader = reader
        reader.start()

        signal(SIGWINCH, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        let fd = fd
        source.setEventHandler {
            MainActor.assumeIsolated {
                guard let size = TerminalSize.query(fd: fd) else { return }
                // The terminal reflowed or cleared itself: the next frame redraws all.
                output.invalidate()
                Task { await compositor.resize(to: size) }
            }
        }
        source.resume()
        resizeSource = source
    }

    /// The terminal's answers to the keyboard protocol's query: the flags answer pushes
    /// ours (`KeyboardProtocol`). Logged either way, so a session's log says which
    /// keyboard the user has.
    private func answered(_ events: [InputEvent], log: RoutingLog) {
        for case .answer(let answer) in events {
            let before = keyboard.state
            if let bytes = keyboard.take(answer) { output?.control(bytes) }
            guard keyboard.state != before else { continue }
            let outcome = keyboard.state == .enhanced
                ? "kitty keyboard protocol: pushed flags \(KeyboardProtocol.flags) (press, repeat and release)"
                : "legacy keyboard: the terminal does not answer CSI ? u (presses only)"
            log.record(RoutingRecord(
                host: log.host, at: Compositor.id.rawValue, source: "terminal", target: Compositor.id.rawValue,
                kind: "keyboard", outcome: .event, reason: outcome))
        }
    }

    /// Stops reading and writing and restores the terminal. Idempotent.
    public func close() {
        guard !closed else { return }
        closed = true
        resizeSource?.cancel()
        // On the main actor, so on the compositor's loop, where the terminal is read and
        // written.
        reader?.stop()
        output?.finish(timeout: 200_000_000)
        restorer.restore()
        if let previousForeground { ForegroundGroup.set(fd, previousForeground) }
        closeDescriptor(fd)
    }

    static func traitDepth(_ depth: TrellisTerminal.ColorDepth) -> Traits.ColorDepth {
        switch depth {
        case .none: .none
        case .ansi16: .ansi16
        case .ansi256: .ansi256
        case .trueColor: .trueColor
        }
    }
}

// open(2) and close(2) under names the front end's own `open` and `close` do not shadow.
private func openDescriptor(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func closeDescriptor(_ fd: Int32) { close(fd) }
