import ArgumentParser
import Foundation
import TrellisControllers
import TrellisHost
import TrellisLog
import TrellisSession
import TrellisTransport
import TrellisWire

/// `APP [host] --host ID --class NAME …` (the default): runs one controller of the app
/// (and the children it keeps in its own process) for a parent in another process
/// (issue 4; the supervisor starts it, tests start it).
struct HostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run one controller of the app for a parent in another process.")

    @Option(name: .customLong("host"), help: "The id of the controller to run.")
    var controllerID: String

    @Option(name: .customLong("class"), help: "The registered class of that controller.")
    var className: String

    @Option(help: "The id of its parent.")
    var parent: String

    @Option(help: "The parent's endpoint (ipc://…, tcp://…).")
    var endpoint: String

    @Option(help: "The session whose run directory holds the logs.")
    var session: String

    @Option(help: "Where run directories live (default: $TRELLIS_RUN_ROOT, $XDG_RUNTIME_DIR/trellis, /tmp/trellis-UID).")
    var runRoot: String?

    @Option(help: "The compositor's endpoint, where frames go (default: the session's compositor.sock).")
    var compositor: String?

    @Option(
        name: .customLong("remote-child"),
        help: "A controller class whose instances this host's controllers get as children in other processes (repeatable).")
    var remoteChildren: [String] = []

    @Option(
        name: .customLong("actor-child"),
        help: "A controller class whose instances this host runs as actors: in this process, each reached over a link of its own (repeatable).")
    var actorChildren: [String] = []

    @Option(
        name: .customLong("actor-remote-child"),
        help: "ACTOR:CLASS — a controller class whose instances the tree of actor child ACTOR gets as children in other processes, which connect to a parent end on its own loop (repeatable).")
    var actorRemoteChildren: [String] = []

    @Option(
        name: .customLong("actor-actor-child"),
        help: "ACTOR:CLASS — a controller class whose instances the tree of actor child ACTOR runs as actors of its own, each on a loop of its own (repeatable).")
    var actorActorChildren: [String] = []

    @Option(
        name: .customLong("data"),
        help: "ID:NAME=VALUE — scene data handed to controller ID of this process when it is made (repeatable).")
    var data: [String] = []

    @Option(
        name: .customLong("embed"),
        help: "PARENT:CHILD:CLASS:VIEW — an embed segue: CHILD (of CLASS) goes into PARENT's view with identifier VIEW (repeatable).")
    var embeds: [String] = []

    @Flag(help: "Started by the supervisor: stop when it dies, and leave Ctrl-C and hangups to it.")
    var supervised = false

    @Flag(help: "Read this process's CURVE keys from standard input, where the supervisor writes them (docs/PROTOCOL.md §1).")
    var keysOnStdin = false

    func validate() throws {
        guard ControllerID(controllerID) != nil else { throw ValidationError("--host: '\(controllerID)' is not a controller id ([A-Za-z0-9._:-], 1-32 bytes)") }
        guard ControllerID(parent) != nil else { throw ValidationError("--parent: '\(parent)' is not a controller id") }
        guard RunDirectory.isValidSession(session) else { throw ValidationError("--session: '\(session)' is not a valid session name") }
        _ = try SceneArguments(data: data, embeds: embeds)
        _ = try Self.byActor(actorRemoteChildren, option: "actor-remote-child")
        _ = try Self.byActor(actorActorChildren, option: "actor-actor-child")
    }

    /// `--actor-remote-child` or `--actor-actor-child` by actor: the classes its tree gets
    /// as children in other processes, or as actors of its own.
    static func byActor(_ items: [String], option: String) throws -> [ControllerID: [String]] {
        var classes: [ControllerID: [String]] = [:]
        for item in items {
            // A class name holds no colon; an id may.
            guard let colon = item.lastIndex(of: ":"), let actor = ControllerID(String(item[..<colon])),
                  !item[item.index(after: colon)...].isEmpty else {
                throw ValidationError("--\(option): expected ACTOR:CLASS, got '\(item)'")
            }
            classes[actor, default: []].append(String(item[item.index(after: colon)...]))
        }
        return classes
    }

    /// The main thread becomes the host's I/O loop, which serves the main actor too: a
    /// message reaches the controllers, and their answers and frames leave, without a
    /// thread switch (docs/TRANSPORT.md).
    func run() {
        let command = self
        IOLoop.runOnMainThread(named: "host-\(controllerID)") { loop in
            do {
                try await command.start(on: loop)
            } catch {
                HostCommand.exit(withError: error)
            }
        }
    }

    @MainActor
    func start(on loop: IOLoop) async throws {
        if supervised {
            Supervision.terminateWithParent()
            Supervision.ignoreTerminalSignals()
        }
        let registry = ControllerRegistry.shared
        TrellisApp.registerClasses(in: registry)
        let id = ControllerID(controllerID)!
        guard registry.names.contains(className) else {
            throw ValidationError("--class: no controller class '\(className)' (known: \(registry.names.joined(separator: ", ")))")
        }
        let scene = try SceneArguments(data: data, embeds: embeds)
        // Without keys (tests, benchmarks, a host started by hand) every link is plain.
        let keys = keysOnStdin ? try ProcessKeys.readStandardInput() : nil
        var childrenOptions = LinkOptions(), parentOptions = LinkOptions(), compositorOptions = LinkOptions()
        if let keys {
            guard let parentKey = keys.parent, let compositorKey = keys.compositor else {
                throw ValidationError("--keys-on-stdin: no parent or compositor key was given")
            }
            childrenOptions.curve = keys.server
            parentOptions.curve = keys.client(of: parentKey)
            compositorOptions.curve = keys.client(of: compositorKey)
        }
        let run = try RunDirectory.create(session: session, root: runRoot ?? RunDirectory.root)
        let log = try RoutingLog(directory: run.logs, host: controllerID)
        // The supervisor's proof that this main thread is not hung (docs/PROCESSES.md).
        if supervised { loop.beat(try Pulse.Writer(run: run, name: controllerID)) }
        // Every controller made here from now on — this host's, and the ones its code
        // asks the registry for — gets its scene data and embed segues.
        scene.apply(to: registry, log: log)
        if !remoteChildren.isEmpty {
            // Children of this host's controllers that run elsewhere connect here.
            let children = try await RemoteChildren.bind(
                parent: id, endpoint: try run.ipcEndpoint(controllerID), loop: loop, log: log, options: childrenOptions)
            HostLifetime.children = children
            for name in remoteChildren { children.place(name, in: registry) }
        }
        // The process's state is one whole: its host's controllers' and its actor children's.
        let stateRestoration = StateRestoration()
        if !actorChildren.isEmpty {
            // Each actor child's frames go to the compositor on a link of its own, with the
            // pair the supervisor issued for it (none without keys: plain, as every link).
            let compositorKey = keys?.compositor
            // Each child's controllers are made on its own loop, by a registry of its own
            // that has the app's classes and the scene's data, as this host's has.
            let register = TrellisApp.registering
            // An actor child whose tree has children in other processes binds a parent end
            // of its own for them, on its loop, where the supervisor points them (issue 20).
            var parentEnds: [ControllerID: ActorChildren.ParentEnd] = [:]
            for (actor, classes) in try Self.byActor(actorRemoteChildren, option: "actor-remote-child") {
                var options = LinkOptions()
                if let keys {
                    guard let server = keys.server(ofActor: actor) else {
                        throw ValidationError("--actor-remote-child: no keys were issued for the actor \(actor)")
                    }
                    options.curve = server
                }
                parentEnds[actor] = ActorChildren.ParentEnd(
                    endpoint: try run.ipcEndpoint(actor.rawValue), options: options, classes: classes)
            }
            let actors = try await ActorChildren.bind(
                parent: id, loop: loop, log: log, compositor: try compositor ?? run.ipcEndpoint("compositor"),
                compositorOptions: { child in
                    guard let keys else { return nil }
                    var options = LinkOptions()
                    if let pair = keys.actors[child], let compositorKey {
                        options.curve = .client(pair, serverKey: compositorKey)
                    } else {
                        View.diagnostics("Actor placement: no keys were issued for \(child); the compositor will refuse its frames")
                    }
                    return options
                },
                registering: { registry in
                    register(registry)
                    scene.apply(to: registry, log: log)
                },
                parentEnds: parentEnds, nested: try Self.byActor(actorActorChildren, option: "actor-actor-child"),
                stateRestoration: stateRestoration)
            HostLifetime.actors = actors
            for name in actorChildren { actors.place(name, in: registry) }
        }
        // Made only now, with the proxies registered: a controller that makes its children
        // in `init` (S2-2's container, DemoTabs) must get the proxies for the remote ones.
        guard let controller = registry.make(className, id: id) else {
            throw ValidationError("--class: '\(className)' made no controller")
        }
        let host = try await ChildHost.start(
            controller: controller, parent: ControllerID(parent)!, endpoint: endpoint,
            compositor: try compositor ?? run.ipcEndpoint("compositor"), loop: loop, log: log, options: parentOptions,
            compositorOptions: compositorOptions, stateRestoration: stateRestoration)
        host.window.registry = registry
        // The loop now serves the links until a signal ends the process.
        HostLifetime.keep(host, log: log)
    }
}
