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
        var d = (self as? RemoteController)?.describeRemote(frame: frame) ?? ControllerDescription(
            id: id.rawValue, className: String(describing: type(of: self)),
            placement: placement ?? (parent == nil && presentationState.presentedBy == nil ? "process" : "inline"), pid: getpid(),
            appearance: appearanceState.rawValue, traits: traitCollection.description, frame: frame,
            unreachable: nil, children: children.map { $0.describe() })
        // The style it is shown in is the presenter's to say: a presented controller in
        // another process knows only the style asked for, not what it adapted to.
        if let shown = presentationState.presentedBy, shown.presented === self { d.presentationStyle = shown.style.rawValue }
        if let p = presentedHere { d.presented = [p.presented.describe()] }
        return d
    }

    /// What this controller presents in this process's window; not the presentation a
    /// `ParentProxy` holds for the presenter's process, which is its host's controller.
    var presentedHere: Presentation? {
        guard let p = presentationState.presenting, !p.forAnotherProcess else { return nil }
        return p
    }
}

extension ParentProxy {
    /// `controller`, the one a host runs for this proxy's parent, as `describe(hostedAs:)`
    /// says, with what is presented in this process's window over it: made from its tree,
    /// the presentation's context is this proxy (docs/LIFECYCLE.md, "Presented in another
    /// process"), which no description shows — so it is listed as the controller's.
    public func describe(hosting controller: ViewController, as placement: String) -> ControllerDescription {
        var d = controller.describe(hostedAs: placement)
        if let p = presentedHere { d.presented = (d.presented ?? []) + [p.presented.describe()] }
        return d
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
