import TrellisLog
import TrellisWire

/// When a scene's tree is up, read from the routing log as it is written (issue 21):
/// every host process has said hello to the process that runs its parent — which is
/// not its parent's own socket when the parent is an actor — and to the compositor,
/// and the compositor has had the root's first frame. Read, not asked: asking (the
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
            waiting[c.id] = [scene.parentProcess(of: c)?.rawValue ?? Self.compositor, Self.compositor]
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
            let parentProcess = scene.parentProcess(of: c)
            for end in ends.sorted() {
                if end == Self.compositor {
                    why.append("\(c.id) has not said hello to the compositor")
                } else if let parent = c.parent, parent.rawValue != end {
                    why.append("\(c.id) has not said hello to its parent \(parent), an actor in process \(end)")
                } else {
                    why.append("\(c.id) has not said hello to its parent \(parentProcess.map(\.rawValue) ?? end)")
                }
            }
        }
        if !rootComposed { why.append("the compositor has no frame from the root \(scene.root.id) yet") }
        return why
    }
}
