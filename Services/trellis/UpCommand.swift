import ArgumentParser
import Dispatch
import Foundation
import TrellisLog
import TrellisSession
import TrellisSupervisor

/// `trellis up SCENE`: starts the scene's tree under a supervisor and stays in the
/// foreground until Ctrl-C/SIGTERM, `trellis down`, or the restart policy gives up.
struct UpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Start a scene's controller tree: the compositor and one host per process-placed controller.",
        discussion: """
            Without --headless the compositor owns this terminal. With --headless the screen \
            lives in memory and test clients read it: `trellis screen`, `tap`, `wait`, `logs`. \
            Exit status: 0 when stopped on request, 1 when the restart policy stopped the tree.
            """
    )

    @Argument(help: "The scene file (YAML; docs/SCENES.md).") var scene: String
    @Flag(help: "No terminal: the compositor keeps the screen in memory for test clients.") var headless = false
    @Option(help: "The session name (default: the scene file's name).") var session: String?
    @Option(help: "Where run directories live (default: $TRELLIS_RUN_ROOT, $XDG_RUNTIME_DIR/trellis, /tmp/trellis-UID).")
    var runRoot: String?
    @Option(help: "Seconds to wait for the tree to come up.") var timeout: Double = 20

    func validate() throws {
        if let session, !RunDirectory.isValidSession(session) {
            throw ValidationError("--session: '\(session)' is not a session name (letters, digits, . _ -)")
        }
    }

    @MainActor
    func run() async throws {
        // Else the compositor would fail to start, again and again, until the restart
        // policy gave up: say it once, before anything starts.
        guard headless || isatty(STDOUT_FILENO) == 1 else {
            throw CLIError("standard output is not a terminal: run in a terminal, or with --headless (test clients then read the screen)")
        }
        let scene: Scene
        do { scene = try Scene.load(path: self.scene) } catch { throw CLIError("\(error)") }
        guard let besideTrellis = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            throw CLIError("cannot tell where the trellis binary is, so not where trellis-compositor is")
        }
        // Everything a scene can be refused for is checked before its run directory is
        // made: a refused scene leaves nothing behind (issue 21).
        let binaries: SceneBinaries
        do {
            binaries = try SceneBinaries.locate(for: scene, besideTrellis: besideTrellis)
            try binaries.checkClasses(of: scene)
        } catch { throw CLIError("\(error)") }
        let name = session ?? Self.sessionName(for: self.scene)
        let root = runRoot ?? RunDirectory.root
        let run = try RunDirectory.create(session: name, root: root)
        if let old = try Self.previousState(in: run), old.state != "stopped" {
            switch old.supervisorVerdict {
            case .same:
                throw CLIError("session \(name) is already running (supervisor pid \(old.supervisor)); `trellis down --session \(name)` first")
            case .unrecorded:
                // Perhaps a supervisor of a trellis before start times: two would share sockets.
                throw CLIError(
                    "session \(name) may be running: pid \(old.supervisor) is alive, and \(SessionState.path(in: run)) records no start time "
                        + "to tell whether it is that session's supervisor; stop it yourself, or remove that file")
            case .notRunning, .anotherProcess:
                break
            }
        }
        let supervisor = try Supervisor(scene: scene, run: run, binaries: binaries, headless: headless)
        supervisor.progress = { line in FileHandle.standardError.write(Data("trellis: \(line)\n".utf8)) }
        SignalEvents.on([SIGINT, SIGTERM, SIGHUP]) { Task { await supervisor.stop() } }
        try supervisor.start()
        // The compositor now owns the terminal: progress goes to the log only.
        if !headless { supervisor.progress = { _ in } }
        let up = await supervisor.waitUntilUp(timeout: .milliseconds(Int64(timeout * 1000)))
        if !up {
            await supervisor.stop(because: "the tree did not come up within \(timeout) s: \(supervisor.notUp.joined(separator: "; "))")
        } else if headless {
            FileHandle.standardError.write(Data("trellis: session \(name) is up — `trellis screen --session \(name)`, `trellis down --session \(name)`\n".utf8))
        }
        if let reason = await supervisor.stoppedReason() {
            throw CLIError("the tree stopped: \(reason) (see `trellis logs --session \(name) --kind supervisor`)")
        }
    }

    /// The state a previous supervisor left, if any. A damaged file is overwritten, but
    /// one that is not this user's is refused: it is not ours to replace or believe.
    static func previousState(in run: RunDirectory) throws -> SessionState? {
        do { return try SessionState.read(from: run) } catch let error as SessionStateError {
            if case .notYours = error { throw CLIError("\(error)") }
            return nil
        }
    }

    /// `deploy/scenes/demo.yaml` → `demo`.
    static func sessionName(for path: String) -> String {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let cleaned = String(base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" })
        return RunDirectory.isValidSession(cleaned) ? cleaned : "scene"
    }
}
