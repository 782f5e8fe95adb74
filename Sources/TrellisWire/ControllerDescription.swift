/// One controller as `trellis tree` shows it: what it is, where it runs, and the state
/// its parent gave it. Children in other processes describe themselves in their own
/// process (a `describe` request over their link) and are spliced in, so the tree is
/// the truth of every process, not the parent's idea of it.
///
/// It is the JSON payload of the `describe` and `tree` replies, so it lives with the
/// wire: a client reads it without linking the controllers that write it.
public struct ControllerDescription: Codable, Sendable, Equatable {
    public var id: String
    public var className: String
    /// `process` for a controller at the root of its host process, `actor` for one hosted
    /// apart in its parent's process, `inline` for one its parent calls directly.
    public var placement: String
    public var pid: Int32
    public var appearance: String
    public var traits: String
    /// x, y, width, height of its root view on the screen (nil before its view loads).
    public var frame: [Int]?
    /// Why a child in another process could not describe itself (it died, say).
    public var unreachable: String?
    public var children: [ControllerDescription]
    /// On a presented controller, the style it is shown in (`fullScreen`, `formSheet` …:
    /// what it adapted to, if it did); nil for one that is not presented.
    public var presentationStyle: String?
    /// What this controller presents — the presentation that covers it (issue 23) — nil
    /// when nothing: so a description from before presentations reads the same.
    public var presented: [ControllerDescription]?

    public init(
        id: String, className: String, placement: String, pid: Int32, appearance: String, traits: String,
        frame: [Int]?, unreachable: String?, children: [ControllerDescription],
        presentationStyle: String? = nil, presented: [ControllerDescription]? = nil
    ) {
        self.id = id
        self.className = className
        self.placement = placement
        self.pid = pid
        self.appearance = appearance
        self.traits = traits
        self.frame = frame
        self.unreachable = unreachable
        self.children = children
        self.presentationStyle = presentationStyle
        self.presented = presented
    }

    /// The request a parent sends to a child in another process.
    public static let request = "describe"

    /// The tree as indented text, one controller per line; what a controller presents
    /// after its children, one step in, its line saying so and in which style.
    public func text(depth: Int = 0) -> String {
        let pad = String(repeating: "  ", count: depth)
        let rect = frame.map { "\($0[0]),\($0[1]) \($0[2])×\($0[3])" } ?? "not loaded"
        var line = "\(pad)\(id)  \(className)  \(placement) pid \(pid)  \(appearance)  [\(traits)]  \(rect)"
        if let presentationStyle { line += "  presented \(presentationStyle)" }
        if let unreachable { line += "  UNREACHABLE: \(unreachable)" }
        let below = children + (presented ?? [])
        return ([line] + below.map { $0.text(depth: depth + 1) }).joined(separator: "\n")
    }

    /// The controller `id` in this subtree.
    public func find(_ id: String) -> ControllerDescription? {
        if self.id == id { return self }
        for c in children + (presented ?? []) { if let f = c.find(id) { return f } }
        return nil
    }

    /// Moves the frames of this subtree by `dx`, `dy` (a child's process draws at 0,0).
    public func offset(x dx: Int, y dy: Int) -> ControllerDescription {
        var d = self
        d.frame = frame.map { [$0[0] + dx, $0[1] + dy, $0[2], $0[3]] }
        d.children = children.map { $0.offset(x: dx, y: dy) }
        d.presented = presented?.map { $0.offset(x: dx, y: dy) }
        return d
    }
}
