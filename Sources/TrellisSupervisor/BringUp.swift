import TrellisLog
import TrellisWire

/// When a scene's tree is up, read from the routing log as it is written (issue 21):
/// every host process has said hello to the parent end it connects to — its parent's
/// process's, or the actor's whose loop runs its parent (issue 20) — and to the
/// compositor, and the compositor has had the root's first frame. Read, not asked: asking (the
/// screen, the tree) would put requests in flight while clients may already drive it.
///
/// Not every host's frame: a child that is not shown (a tab not selected) draws nothing
/// until it is, and its tree is up all the same.
public struct BringUp: Sendable {
    /// Per host process, the link ends it has yet to say hello to.
    public private(set) var waiting: [ControllerID: Set<String>] = [:]
    public private(set) var rootComposed = false
    private let scene: Scene
    /// The `at` of the compositor's end of the hosts' links (a host's end is its own id).
    private static let compositor = ControllerID.compositor.rawValue

    public init(scene: Scene) {
        self.scene = scene
        for c in scene.processes {
            waiting[c.id] = [scene.parentEnd(of: c)?.rawValue ?? Self.compositor, Self.compositor]
        }
    }

    public var isUp: Bool { rootComposed && waiting.values.allSatisfy(\.isEmpty) }

    public mutating func read(_ records: [RoutingRecord]) {
        for r in records {
            guard let source = ControllerID(r.source) else { continue }
            if r.kind == "hello" && r.outcome == .received {
                waiting[source]?.remove(r.at)
            } else if r.kind == "frame" && r.outcome == .delivered && r.at == Self.compositor && source == scene.root.id {
                rootComposed = true
            }
        }
    }

    /// What is missing, one sentence per host, in the scene's order; `running` says
    /// whether a host's process is running now.
    public func missing(running: (ControllerID) -> Bool) -> [String] {
        var why: [String] = []
        for c in scene.processes {
            guard let ends = waiting[c.id], !ends.isEmpty else { continue }
            if !running(c.id) {
                why.append("\(c.id) is not running (what it printed: output/\(c.id).log)")
                continue
            }
            for end in ends.sorted() {
                why.append("\(c.id) has not said hello to \(describe(end, for: c))")
            }
        }
        if !rootComposed { why.append("the compositor has no frame from the root \(scene.root.id) yet") }
        return why
    }

    /// The end `c` connects to, as a person reads it: the compositor, its parent, or the
    /// actor whose loop runs its parent, in the process that hosts that actor.
    private func describe(_ end: String, for c: Scene.Controller) -> String {
        guard end != Self.compositor, let parent = c.parent else { return "the compositor" }
        guard let owner = scene.controllers.first(where: { $0.id.rawValue == end }) else { return "its parent \(parent)" }
        let inActor = owner.placement == .actor ? ", an actor in process \(scene.processOwner(of: owner).id)" : ""
        if owner.id == parent { return "its parent \(parent)\(inActor)" }
        return "\(end), whose loop runs its parent \(parent)\(inActor)"
    }
}
