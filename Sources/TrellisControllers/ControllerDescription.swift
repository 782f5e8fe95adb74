import Foundation
import TrellisCanvas
import TrellisViews
import TrellisWire

// The description itself is a wire value (TrellisWire): here is how a tree writes it.
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
            return d.offset(x: frame?[0] ?? 0, y: frame?[1] ?? 0)
        }
        let why = reply.map { "\($0.status): \(String(decoding: $0.payload, as: UTF8.self))" } ?? "no answer"
        return ControllerDescription(
            id: id.rawValue, className: "?", placement: "process", pid: 0, appearance: "?", traits: "?", frame: frame,
            unreachable: why, children: [])
    }
}
