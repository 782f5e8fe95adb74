import ArgumentParser
import Dispatch
import Foundation
import TrellisCanvas
import TrellisCompositor
import TrellisLog
import TrellisSession
import TrellisTerminal
import TrellisTransport
import TrellisWire

/// The compositor process: one per session. Hosts send it their frames and placements at
/// `<run dir>/compositor.sock`; the root controller's host connects there as its child;
/// clients drive it at `<run dir>/control.sock`.
///
/// Synchronous on purpose: the main thread is the compositor's I/O loop, which also
/// serves the main actor, so a frame is composed on the thread that read it (an `async`
/// main would park the main thread in `dispatchMain()`).
@main
struct CompositorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trellis-compositor",
        abstract: "Compose every controller's surface into one screen, headless or in this terminal.")

    @Option(help: "The session (its run directory holds sockets and logs).")
    var session: String

    @Option(help: "Where run directories live (default: $TRELLIS_RUN_ROOT, $XDG_RUNTIME_DIR/trellis, /tmp/trellis-UID).")
    var runRoot: String?

    @Option(help: "The root controller's id.")
    var root: String

    @Flag(help: "Keep the screen in memory only (for tests and CI); no terminal.")
    var headless = false

    @Flag(help: "Started by the supervisor: stop when it dies, and leave Ctrl-C and hangups to it.")
    var supervised = false

    @Flag(help: "Read this process's CURVE keys from standard input, where the supervisor writes them (docs/PROTOCOL.md §1).")
    var keysOnStdin = false

    @Option(help: "The headless screen's size, COLUMNSxROWS (in a terminal, the terminal's size is used).")
    var size = "80x24"

    func validate() throws {
        guard RunDirectory.isValidSession(session) else { throw ValidationError("--session: '\(session)' is not a valid session name") }
        guard ControllerID(root) != nil else { throw ValidationError("--root: '\(root)' is not a controller id") }
        guard Self.parseSize(size) != nil else { throw ValidationError("--size: expected COLUMNSxROWS like 80x24, got '\(size)'") }
    }

    static func parseSize(_ s: String) -> Size? {
        let parts = s.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, Size(width: parts[0], height: parts[1]).isScreenSize else { return nil }
        return Size(width: parts[0], height: parts[1])
    }

    func run() {
        let command = self
        IOLoop.runOnMainThread(named: "compositor") { loop in
            do {
                try await command.start(on: loop)
            } catch {
                CompositorCommand.exit(withError: error)
            }
        }
    }

    @MainActor
    func start(on loop: IOLoop) async throws {
        if supervised {
            Supervision.terminateWithParent()
            // Headless only: in a terminal the compositor instead takes the terminal's
            // foreground group (TerminalFrontEnd), which reading it requires.
            if headless { Supervision.ignoreTerminalSignals() }
        }
        // Before the terminal: standard input is the supervisor's pipe, never the terminal,
        // which the front end opens itself (from standard output's name).
        var options = LinkOptions()
        if keysOnStdin { options.curve = try ProcessKeys.readStandardInput().server }
        let run = try RunDirectory.create(session: session, root: runRoot ?? RunDirectory.root)
        let log = try RoutingLog(directory: run.logs, host: "compositor")
        // The supervisor's proof that this main thread is not hung (docs/PROCESSES.md).
        if supervised { loop.beat(try Pulse.Writer(run: run, name: "compositor")) }
        // The terminal first: its size is the screen's, and from here on every exit path
        // restores it (docs/TERMINAL.md): the signals below, exit(3) and fatal signals
        // (TerminalRestoreOnExit), and a failed start.
        let terminal = headless ? nil : try TerminalFrontEnd.open(environment: ProcessInfo.processInfo.environment)
        func end(_ status: Int32) -> Never {
            terminal?.close()
            log.flush()
            log.close()
            Foundation.exit(status)
        }
        // SIGHUP: the terminal (or the ssh session) went away; restore what may be left.
        SignalEvents.on([SIGTERM, SIGINT, SIGHUP]) { end(0) }
        let compositor: Compositor
        do {
            compositor = try await Compositor.start(
                root: ControllerID(root)!, size: terminal?.size ?? Self.parseSize(size)!,
                hostsEndpoint: try run.ipcEndpoint("compositor"), controlEndpoint: try run.ipcEndpoint("control"),
                loop: loop, log: log, options: options)
        } catch {
            terminal?.close()
            throw error
        }
        terminal?.attach(to: compositor, log: log) { reason in
            log.record(RoutingRecord(
                host: log.host, at: Compositor.id.rawValue, source: "terminal", target: Compositor.id.rawValue,
                kind: "exit", outcome: .event, reason: reason))
            guard supervised else { end(0) }
            // Supervised, the person's "quit" is for the whole tree: the supervisor
            // stops it in order (disappearance first) and then stops us. Should it not,
            // the terminal is not held hostage.
            kill(getppid(), SIGINT)
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) { end(0) }
        }
        // The loop now serves the links until a signal or the terminal ends the process.
        Lifetime.compositor = compositor
        Lifetime.terminal = terminal
    }
}

/// What the process keeps alive while its loop runs.
@MainActor
enum Lifetime {
    static var compositor: Compositor?
    static var terminal: TerminalFrontEnd?
}
