import Foundation
import TrellisCanvas
import TrellisViews
import TrellisWire

/// One controller as `trellis tree` shows it: what it is, where it runs, and the state
/// its parent gave it. Children in other processes describe themselves in their own
/// process (a `describe` request over their link) and are spliced in, so the tree is
/// the truth of every process, not the parent's idea of it.
public struct ControllerDescription: Codable, Sendable, Equatable {
    public var id: String
    public var className: String
    /// `process` for a controller at the root of its host process, else `actor`.
    public var placement: String
    public var pid: Int32
    public var appearance: String
    public var traits: String
    /// x, y, width, height of its root view on the screen (nil before its view loads).
    public var frame: [Int]?
    /// Why a child in another process could not describe itself (it died, say).
    public var unreachable: String?
    public var children: [ControllerDescription]

    /// The request a parent sends to a child in another process.
    public static let request = "describe"

    /// The tree as indented text, one controller per line.
    public func text(depth: Int = 0) -> String {
        let pad = String(repeating: "  ", count: depth)
        let rect = frame.map { "\($0[0]),\($0[1]) \($0[2])×\($0[3])" } ?? "not loaded"
        var line = "\(pad)\(id)  \(className)  \(placement) pid \(pid)  \(appearance)  [\(traits)]  \(rect)"
        if let unreachable { line += "  UNREACHABLE: \(unreachable)" }
        return ([line] + children.map { $0.text(depth: depth + 1) }).joined(separator: "\n")
    }

    /// The controller `id` in this subtree.
    public func find(_ id: String) -> ControllerDescription? {
        if self.id == id { return self }
        for c in children { if let f = c.find(id) { return f } }
        return nil
    }

    /// Moves the frames of this subtree by `offset` (a child's process draws at 0,0).
    func offset(by offset: Point) -> ControllerDescription {
        var d = self
        d.frame = frame.map { [$0[0] + offset.x, $0[1] + offset.y, $0[2], $0[3]] }
        d.children = children.map { $0.offset(by: offset) }
        return d
    }
}

extension ViewController {
    /// This controller and its subtree, across processes. `hostedAs` is the placement of
    /// a controller a host runs ("process", or "actor" for one hosted apart in its
    /// parent's process); nil, one called directly by its parent ("inline"), or a root.
    public func describe(hostedAs placement: String? = nil) -> ControllerDescription {
        let frame = viewIfLoaded.map { v -> [Int] in
            let r = v.superview == nil ? v.frame : v.superview!.convert(v.frame, to: nil)
            return [r.origin.x, r.origin.y, r.size.width, r.size.height]
        }
        if let remote = self as? RemoteController { return remote.describeRemote(frame: frame) }
        return ControllerDescription(
            id: id.rawValue, className: String(describing: type(of: self)),
            placement: placement ?? (parent == nil ? "process" : "inline"), pid: getpid(),
            appearance: appearanceState.rawValue, traits: traitCollection.description, frame: frame,
            unreachable: nil, children: children.map { $0.describe() })
    }
}

extension RemoteController {
    /// Asks the child's process; its frames are relative to its viewport, here.
    func describeRemote(frame: [Int]?) -> ControllerDescription {
        let reply = port.exchange(.request(Request(name: ControllerDescription.request)), from: parent?.id ?? "-", to: id)
        if let reply, reply.status == .ok,
           let d = try? JSONDecoder().decode(ControllerDescription.self, from: Data(reply.payload)) {
            return d.offset(by: Point(x: frame?[0] ?? 0, y: frame?[1] ?? 0))
        }
        let why = reply.map { "\($0.status): \(String(decoding: $0.payload, as: UTF8.self))" } ?? "no answer"
        return ControllerDescription(
            id: id.rawValue, className: "?", placement: "process", pid: 0, appearance: "?", traits: "?", frame: frame,
            unreachable: why, children: [])
    }
}
