import Foundation
import TrellisWire

/// One supervised process's CURVE keys (docs/PROTOCOL.md §1, Identity): its own pair,
/// the public keys of the ends it connects to, and the public key and id of every child
/// that may connect to it. The supervisor makes one pair per process id for the
/// session's life — a restarted process gets the same — and writes this to the
/// process's standard input, which it reads once at start: not the command line nor
/// the environment, which other processes of the user can read in /proc, nor a file.
public struct ProcessKeys: Sendable, Equatable {
    public var own: CurveKeyPair
    /// The public key of the parent's endpoint (the compositor's, for the root); nil
    /// for the compositor, which has no parent.
    public var parent: String?
    /// The compositor's public key, where a host's frames go; nil for the compositor.
    public var compositor: String?
    /// Public key → the id its holder speaks as, for every process that connects here.
    public var children: [String: ControllerID]
    /// The pairs of the actor-placed controllers this process hosts: each speaks to the
    /// compositor as itself, on a link of its own (docs/PROCESSES.md, "Placements").
    public var actors: [ControllerID: CurveKeyPair]
    /// Per actor above, public key → id of every process that connects to that actor's
    /// own parent end: the processes of the controllers its loop runs the parent of
    /// (issue 20; docs/PROCESSES.md, "Placements").
    public var actorChildren: [ControllerID: [String: ControllerID]]

    public init(
        own: CurveKeyPair, parent: String?, compositor: String?, children: [String: ControllerID],
        actors: [ControllerID: CurveKeyPair] = [:], actorChildren: [ControllerID: [String: ControllerID]] = [:]
    ) {
        self.own = own
        self.parent = parent
        self.compositor = compositor
        self.children = children
        self.actors = actors
        self.actorChildren = actorChildren
    }

    /// This process as the parent end of its children's links.
    public var server: CurveKeys { .server(own, children: children) }

    /// Actor `id` as the parent end of its children's links, or nil if no pair was issued for it.
    public func server(ofActor id: ControllerID) -> CurveKeys? {
        actors[id].map { .server($0, children: actorChildren[id] ?? [:]) }
    }

    /// This process as a child end of the link whose parent end has `serverKey`.
    public func client(of serverKey: String) -> CurveKeys { .client(own, serverKey: serverKey) }

    /// One `name value…` line per key; Z85 and ids never hold a space.
    public var encoded: String {
        var lines = ["public \(own.publicKey)", "secret \(own.secretKey)"]
        if let parent { lines.append("parent \(parent)") }
        if let compositor { lines.append("compositor \(compositor)") }
        for (key, id) in children.sorted(by: { $0.value < $1.value }) { lines.append("child \(id) \(key)") }
        for (id, pair) in actors.sorted(by: { $0.key < $1.key }) { lines.append("actor \(id) \(pair.publicKey) \(pair.secretKey)") }
        for (actor, children) in actorChildren.sorted(by: { $0.key < $1.key }) {
            for (key, id) in children.sorted(by: { $0.value < $1.value }) { lines.append("actor-child \(actor) \(id) \(key)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public static func decode(_ text: String) throws(Failure) -> ProcessKeys {
        var pub: String?, sec: String?, parent: String?, compositor: String?
        var children: [String: ControllerID] = [:]
        var actors: [ControllerID: CurveKeyPair] = [:]
        var actorChildren: [ControllerID: [String: ControllerID]] = [:]
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ").map(String.init)
            func key(_ s: String) throws(Failure) -> String {
                guard CurveKeyPair.binary(s) != nil else { throw Failure(description: "keys: '\(f[0])' is not a Z85 CURVE key") }
                return s
            }
            func id(_ s: String) throws(Failure) -> ControllerID {
                guard let id = ControllerID(s) else { throw Failure(description: "keys: '\(s)' is not a controller id") }
                return id
            }
            switch (f.first, f.count) {
            case ("public", 2): pub = try key(f[1])
            case ("secret", 2): sec = try key(f[1])
            case ("parent", 2): parent = try key(f[1])
            case ("compositor", 2): compositor = try key(f[1])
            case ("child", 3):
                let child = try id(f[1])
                children[try key(f[2])] = child
            case ("actor", 4):
                let actor = try id(f[1])
                actors[actor] = CurveKeyPair(publicKey: try key(f[2]), secretKey: try key(f[3]))
            case ("actor-child", 4):
                let actor = try id(f[1]), child = try id(f[2])
                actorChildren[actor, default: [:]][try key(f[3])] = child
            default: throw Failure(description: "keys: unexpected line starting '\(f.first ?? "")'")
            }
        }
        guard let pub, let sec else { throw Failure(description: "keys: no key pair (public and secret)") }
        // A child admitted at an end nobody binds is a mistake of the writer's, not a key to keep.
        if let orphan = actorChildren.keys.sorted().first(where: { actors[$0] == nil }) {
            throw Failure(description: "keys: actor-child lines for '\(orphan)', which has no actor line")
        }
        return ProcessKeys(
            own: CurveKeyPair(publicKey: pub, secretKey: sec), parent: parent, compositor: compositor, children: children,
            actors: actors, actorChildren: actorChildren)
    }

    /// Reads standard input to its end (the supervisor closes it once written).
    public static func readStandardInput() throws(Failure) -> ProcessKeys {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n > 0 { bytes += buffer[..<n] } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return try decode(String(decoding: bytes, as: UTF8.self))
    }
}
